"""Sentence-level OPP-115 practice labels, from the annotators' highlighted spans.

The PrivacyGLUE OPP-115 task labels whole segments (paragraphs), but ingest tags single
sentences. OPP-115's annotators highlighted the text behind each practice they marked, so a
sentence can be labelled by the spans that cover it: its target for a category is the share of
the segment's annotators whose spans for that category overlap it (0, 1/3, 2/3, 1 with the usual
three annotators). `Other` splits into PrivacyGLUE's three labels by its `Other Type` value.

Every sentence is assigned to the PrivacyGLUE split its text comes from (the majority split is
random over segments, so one policy's segments sit in train, validation and test): a sentence
counts for a split only when its text occurs in that split's segments and in no other split's,
so no sentence of a validation or test segment is ever trained on.
"""
from __future__ import annotations

import collections
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache

import numpy as np

from assistant.corpora.opp115 import annotated_policy, opp115_policies
from assistant.corpora.policyqa import locate_span
from assistant.corpora.practice_segments import load_split
from assistant.foundation.sentences import split_sentences

OTHER_TYPES = ("Introductory/Generic", "Practice not covered", "Privacy contact information")
MIN_CHARACTERS = 20  # shorter sentences (headings, "Cookies.") are too ambiguous to place in one split


@dataclass(frozen=True)
class LabelledSentence:
    text: str
    targets: dict[str, float]  # category → share of the segment's annotators marking this sentence
    policy: str


def _normalise(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


@lru_cache(maxsize=1)
def _split_texts() -> dict[str, str]:
    """Each PrivacyGLUE split's segments, normalised and joined (for containment tests)."""
    return {
        split: "\n".join(_normalise(e.text) for e in load_split(split))
        for split in ("train", "validation", "test")
    }


def split_of(sentence: str) -> str | None:
    """The one PrivacyGLUE split whose segments contain `sentence`, or None (none, or several)."""
    key = _normalise(sentence)
    if len(key) < MIN_CHARACTERS:
        return None
    found = [split for split, joined in _split_texts().items() if key in joined]
    return found[0] if len(found) == 1 else None


def _label_of(practice: str, attributes: dict) -> str | None:
    if practice != "Other":
        return practice
    value = (attributes.get("Other Type") or {}).get("value")
    return value if value in OTHER_TYPES else None


@cache
def _policy_sentences(name: str, path) -> tuple[LabelledSentence, ...]:
    segments, rows = annotated_policy(path)
    annotators: dict[int, set[str]] = collections.defaultdict(set)
    # (segment, sentence) → {(annotator, label)}
    marks: dict[tuple[int, int], set[tuple[str, str]]] = collections.defaultdict(set)
    spans: dict[int, list[tuple[int, int]]] = {}
    for row in rows:
        segment_id = row.segment_id
        annotators[segment_id].add(row.annotator)
        sentences = spans.setdefault(segment_id, split_sentences(segments[segment_id]))
        label = _label_of(row.practice, row.attributes)
        if label is None:
            continue
        for _, value, text in row.highlights():
            start = locate_span(segments[segment_id], text, value["startIndexInSegment"])
            if start is None:
                continue
            for k, (s, e) in enumerate(sentences):
                if start < e and start + len(text) > s:
                    marks[(segment_id, k)].add((row.annotator, label))
    labelled = []
    for segment_id, sentences in spans.items():
        for k, (s, e) in enumerate(sentences):
            shares = collections.Counter(label for _, label in marks[(segment_id, k)])
            targets = {label: count / len(annotators[segment_id]) for label, count in shares.items()}
            labelled.append(LabelledSentence(segments[segment_id][s:e], targets, name))
    return tuple(labelled)


def load_sentence_split(split: str, limit: int | None = None) -> list[LabelledSentence]:
    """The labelled sentences of one PrivacyGLUE split (`train`, `validation` or `test`), policy by
    policy in OPP-115 order; with `limit`, only the first `limit` of them (and only the policies needed)."""
    found = []
    for name, path in opp115_policies().items():
        for sentence in _policy_sentences(name, path):
            if split_of(sentence.text) == split:
                found.append(sentence)
                if limit is not None and len(found) >= limit:
                    return found
    return found


def target_matrix(sentences: Sequence[LabelledSentence], labels: list[str]) -> np.ndarray:
    """Soft targets of labelled sentences: each category's share of the annotators."""
    return np.array([[s.targets.get(label, 0.0) for label in labels] for s in sentences], dtype=np.float32)
