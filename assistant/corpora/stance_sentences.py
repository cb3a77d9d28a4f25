"""Sentence-level denials from OPP-115: which sentences say a practice is *not* done.

OPP-115's annotators give each First Party Collection/Use and Third Party Sharing/Collection
practice a `Does/Does Not` attribute. A sentence is labelled from the highlights that overlap it:

- it *denies* when it holds the highlight of a `Does Not` value (the annotator's negation words,
  always highlighted for `Does Not`);
- it does *not* deny when it holds only highlights of `Does` practices (any attribute's highlight:
  `Does` is usually not highlighted itself);
- sentences with no highlight of those two practices are left out.

Sentences are placed in the PrivacyGLUE splits as in `practice_sentences` (`split_of`).
"""
from __future__ import annotations

import collections
from dataclasses import dataclass
from functools import cache

from assistant.corpora.opp115 import annotated_policy, opp115_policies
from assistant.corpora.policyqa import locate_span
from assistant.corpora.practice_sentences import split_of
from assistant.foundation.sentences import split_sentences

PRACTICES = ("First Party Collection/Use", "Third Party Sharing/Collection")
ATTRIBUTE = "Does/Does Not"


@dataclass(frozen=True)
class StanceSentence:
    text: str
    denies: bool  # at least one annotator highlighted a "Does Not" in it
    policy: str
    annotators: int  # how many annotators marked a "Does Not" in it (0 when it does not deny)


@cache
def _policy_sentences(name: str, path) -> tuple[StanceSentence, ...]:
    segments, rows = annotated_policy(path)
    spans: dict[int, list[tuple[int, int]]] = {}
    does: set[tuple[int, int]] = set()
    does_not: dict[tuple[int, int], set[str]] = collections.defaultdict(set)
    for row in rows:
        value = (row.attributes.get(ATTRIBUTE) or {}).get("value")
        if row.practice not in PRACTICES or value not in ("Does", "Does Not"):
            continue
        segment = segments[row.segment_id]
        sentences = spans.setdefault(row.segment_id, split_sentences(segment))
        for attribute, annotation, text in row.highlights():
            if value == "Does Not" and attribute != ATTRIBUTE:
                continue  # a denial's other highlights (data types …) may lie in sentences that do not deny
            start = locate_span(segment, text, annotation["startIndexInSegment"])
            if start is None:
                continue
            for k, (s, e) in enumerate(sentences):
                if start < e and start + len(text) > s:
                    if value == "Does Not":
                        does_not[(row.segment_id, k)].add(row.annotator)
                    else:
                        does.add((row.segment_id, k))
    labelled = []
    for segment_id, sentences in spans.items():
        for k, (s, e) in enumerate(sentences):
            key = (segment_id, k)
            if key in does_not or key in does:
                labelled.append(StanceSentence(segments[segment_id][s:e], key in does_not, name,
                                               len(does_not.get(key, ()))))
    return tuple(labelled)


def load_stance_split(split: str) -> list[StanceSentence]:
    """The labelled sentences of one split (`train`, `validation` or `test`), each text once."""
    found, seen = [], set()
    for name, path in opp115_policies().items():
        for sentence in _policy_sentences(name, path):
            if sentence.text not in seen and split_of(sentence.text) == split:
                seen.add(sentence.text)
                found.append(sentence)
    return found
