"""Question–sentence relevance pairs for in-domain retrieval training, from PolicyQA-style examples.

A PolicyQA example is a question, an OPP-115 segment and the annotated answer spans. Split into
sentences (the engine's splitter), a sentence that overlaps an answer span holds the answer: a
positive. Every sentence of the same policy that holds an answer span of the same
(practice, attribute, value) triple is relevant to that question too, so it is never used as a
negative for it; all other sentences of the policy are negatives.
"""
from __future__ import annotations

import collections
from dataclasses import dataclass
from functools import lru_cache

from assistant.corpora.policyqa import QAExample
from assistant.foundation.sentences import split_sentences


@dataclass(frozen=True)
class RelevancePair:
    """A question with one sentence that answers it, and what may not be used as its negative."""

    question: str
    positive: str
    policy: str
    triple: str


@dataclass(frozen=True)
class PairSet:
    pairs: list[RelevancePair]
    relevant: dict[tuple[str, str], frozenset[str]]  # (policy, triple) → sentences answering it
    sentences: dict[str, list[str]]  # policy → its sentences (of the segments seen), for negatives


@lru_cache(maxsize=8192)
def _sentence_spans(context: str) -> tuple[tuple[int, int], ...]:
    return tuple(split_sentences(context))


def answer_sentences(example: QAExample) -> tuple[list[str], set[str]]:
    """The context's sentences and those that overlap one of the example's answer spans."""
    spans = _sentence_spans(example.context)
    texts = [example.context[start:end] for start, end in spans]
    positives = {
        example.context[start:end]
        for start, end in spans
        for text, answer_start in example.answers
        if answer_start < end and answer_start + len(text) > start
    }
    return texts, positives


def build_pairs(examples: list[QAExample]) -> PairSet:
    """One pair per (question, answering sentence); duplicates removed, order kept."""
    relevant: dict[tuple[str, str], set[str]] = collections.defaultdict(set)
    sentences: dict[str, dict[str, None]] = collections.defaultdict(dict)
    pairs: dict[RelevancePair, None] = {}
    for example in examples:
        texts, positives = answer_sentences(example)
        sentences[example.policy].update(dict.fromkeys(texts))
        relevant[(example.policy, example.type)].update(positives)
        for positive in sorted(positives):
            pairs[RelevancePair(example.question, positive, example.policy, example.type)] = None
    return PairSet(
        list(pairs),
        {key: frozenset(value) for key, value in relevant.items()},
        {policy: list(texts) for policy, texts in sentences.items()},
    )
