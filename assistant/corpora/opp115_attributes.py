"""OPP-115 attribute values (Polisis-style), per segment and per sentence.

OPP-115's annotators gave each practice they marked a set of attributes with values (Does/Does Not,
Personal Information Type, Purpose, Retention Period, …), most with a highlighted span. Polisis
(Harkous et al., 2018) trains one classifier per attribute on the segments of the practices that
carry it; `ATTRIBUTES` lists the attributes kept here and the practices each is read from.

For each segment (and each sentence, placed by the attribute's own highlight, or by the other
highlights of the same annotation where the attribute has none, e.g. an unhighlighted Does/Does Not),
a value's target is the share of the segment's annotators who gave it (0, 1/3, 2/3, 1 with the usual
three annotators); a practice's share is computed the same way and says whether the attribute applies.
`Unspecified`, `not-selected` and `Other` carry no information a reader can use and are dropped.
Splits are PrivacyGLUE's majority split (`practice_sentences.split_of`): a text counts for the one
split whose segments contain it.
"""
from __future__ import annotations

import collections
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np

from assistant.corpora.opp115 import AnnotationRow, annotated_policy, opp115_policies
from assistant.corpora.policyqa import locate_span
from assistant.corpora.practice_sentences import split_of
from assistant.foundation.sentences import split_sentences

FIRST_PARTY = "First Party Collection/Use"
THIRD_PARTY = "Third Party Sharing/Collection"
CHOICE = "User Choice/Control"

# attribute → the practices whose annotations carry it (pooled, as Polisis's attribute classifiers are)
ATTRIBUTES: dict[str, tuple[str, ...]] = {
    "Does/Does Not": (FIRST_PARTY, THIRD_PARTY),
    "Personal Information Type": (FIRST_PARTY, THIRD_PARTY),
    "Purpose": (FIRST_PARTY, THIRD_PARTY),
    "Choice Type": (FIRST_PARTY, THIRD_PARTY, CHOICE),
    "Choice Scope": (CHOICE,),  # FPC/TPS use the same name for other values (Collection/Use/Both)
    "Third Party Entity": (THIRD_PARTY,),
    "Retention Period": ("Data Retention",),
    "Retention Purpose": ("Data Retention",),
    "Access Type": ("User Access, Edit and Deletion",),
    "Security Measure": ("Data Security",),
    "Audience Type": ("International and Specific Audiences",),
    "Change Type": ("Policy Change",),
    "User Choice": ("Policy Change",),
}
UNINFORMATIVE = frozenset({"unspecified", "not-selected", "other"})
# the annotation tool spells a few values two ways
_SPELLING = {"user profile": "User profile", "service operation and security": "Service operation and security"}
MAJORITY = 0.5  # a value (or practice) is gold when at least half the annotators gave it


@dataclass(frozen=True)
class AttributeExample:
    """A segment or sentence with its annotators' shares for practices and attribute values."""

    text: str
    policy: str
    unit: str  # "segment" or "sentence"
    practices: dict[str, float]  # practice → share of the segment's annotators who marked it here
    values: dict[str, dict[str, float]]  # attribute → value → share of annotators who gave it here

    def applies(self, attribute: str) -> bool:
        """Whether a majority marked one of the attribute's practices here."""
        return any(self.practices.get(p, 0.0) >= MAJORITY for p in ATTRIBUTES[attribute])

    def gold(self, attribute: str, min_share: float = MAJORITY) -> frozenset[str]:
        """The values at least `min_share` of the annotators gave (by default a majority)."""
        return frozenset(v for v, share in self.values.get(attribute, {}).items() if share >= min_share)


def canonical_value(value: str | None) -> str | None:
    """The value as one spelling, or None when it is uninformative."""
    if not value or value.lower() in UNINFORMATIVE:
        return None
    return _SPELLING.get(value.lower(), value)


def _row_spans(row: AnnotationRow, segment: str) -> dict[str, list[tuple[int, int]]]:
    """Character spans of each highlighted attribute of an annotation row in its segment."""
    spans: dict[str, list[tuple[int, int]]] = collections.defaultdict(list)
    for attribute, value, text in row.highlights():
        start = locate_span(segment, text, value["startIndexInSegment"])
        if start is not None:
            spans[attribute].append((start, start + len(text)))
    return spans


def _marks(row: AnnotationRow, segment: str) -> Iterable[tuple[str, str | None, list[tuple[int, int]]]]:
    """(attribute or None for the practice itself, value, its spans) for what the row says."""
    spans = _row_spans(row, segment)
    everywhere = [span for found in spans.values() for span in found]
    yield None, row.practice, everywhere
    for attribute, practices in ATTRIBUTES.items():
        if row.practice not in practices or attribute not in row.attributes:
            continue
        value = canonical_value(row.attributes[attribute].get("value"))
        if value is not None:
            yield attribute, value, spans.get(attribute) or everywhere


def _example(text: str, policy: str, unit: str, marks: set[tuple[str, str | None, str]], annotators: int) -> AttributeExample:
    practices: collections.Counter = collections.Counter()
    values: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    for _, attribute, value in marks:
        if attribute is None:
            practices[value] += 1
        else:
            values[attribute][value] += 1
    return AttributeExample(
        text, policy, unit, {p: n / annotators for p, n in practices.items()},
        {a: {v: n / annotators for v, n in counts.items()} for a, counts in values.items()},
    )


@cache
def policy_examples(name: str) -> tuple[AttributeExample, ...]:
    """A policy's annotated segments and their sentences, each with its shares."""
    segments, rows = annotated_policy(opp115_policies()[name])
    annotators: dict[int, set[str]] = collections.defaultdict(set)
    segment_marks: dict[int, set] = collections.defaultdict(set)
    sentence_marks: dict[tuple[int, int], set] = collections.defaultdict(set)
    sentences: dict[int, list[tuple[int, int]]] = {}
    for row in rows:
        segment = segments[row.segment_id]
        annotators[row.segment_id].add(row.annotator)
        if row.segment_id not in sentences:  # split each segment once, not once per annotation row
            sentences[row.segment_id] = split_sentences(segment)
        bounds = sentences[row.segment_id]
        for attribute, value, spans in _marks(row, segment):
            segment_marks[row.segment_id].add((row.annotator, attribute, value))
            for k, (s, e) in enumerate(bounds):
                if any(start < e and end > s for start, end in spans):
                    sentence_marks[(row.segment_id, k)].add((row.annotator, attribute, value))
    examples = []
    for segment_id, bounds in sentences.items():
        count = len(annotators[segment_id])
        examples.append(_example(segments[segment_id], name, "segment", segment_marks[segment_id], count))
        for k, (s, e) in enumerate(bounds):
            examples.append(_example(segments[segment_id][s:e], name, "sentence", sentence_marks[(segment_id, k)], count))
    return tuple(examples)


def load_attribute_split(split: str, unit: str = "sentence", limit: int | None = None) -> list[AttributeExample]:
    """The segments or sentences of one PrivacyGLUE split (`train`, `validation`, `test`) where at least
    one kept attribute applies, policy by policy; with `limit`, only the first `limit` of them."""
    found = []
    for name in opp115_policies():
        for example in policy_examples(name):
            if example.unit != unit or not any(example.applies(a) for a in ATTRIBUTES):
                continue
            if split_of(example.text) == split:
                found.append(example)
                if limit is not None and len(found) >= limit:
                    return found
    return found


def value_matrix(examples: Sequence[AttributeExample], attribute: str, values: list[str],
                 min_share: float = MAJORITY) -> np.ndarray:
    """(n, n_values) booleans: the gold values of `attribute` for each example (given by at least
    `min_share` of the annotators; by default a majority)."""
    rows = [[v in e.gold(attribute, min_share) for v in values] for e in examples]
    return np.array(rows, dtype=bool).reshape(len(examples), len(values))
