"""Evidence selection: how candidate sentences are scored, ranked and chosen. One module, so that
`ask` and the tuning lab (`lab.tune_selection`) select alike.

A sentence's selection logit is its relevance logit (the retriever's calibrated cosine) plus its
topic score: `practice_match_weight` × how well the practices the tagger found in it match the
practices the question asks about. The best `candidates` sentences by that logit are ranked; the
evidence is the best one (the answer) and every other whose logit comes within `evidence_margin`
of it (`within_margin`), so the evidence set's size follows the scores. The policy is silent
when no ranked sentence's relevance probability reaches `silence_threshold`.

The parameters are tuned on the PrivacyQA dev file and ship as `weights/selection.json`.
"""
from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from assistant.foundation.resources import WEIGHTS_DIR
from assistant.retrieval.search import NO_MATCH_LOGIT

__all__ = ["NO_MATCH_LOGIT", "Selection", "SelectionParameters", "practice_match", "rank_candidates", "select",
           "topic_scores", "within_margin"]
SELECTION_FILE = WEIGHTS_DIR / "selection.json"


@dataclass(frozen=True)
class SelectionParameters:
    """The tuned selection parameters (their meanings are in `weights/selection.json`)."""

    silence_threshold: float
    evidence_margin: float
    max_evidence: int
    practice_match_weight: float
    category_confidence: float
    coverage_threshold: float
    category_override: float
    candidates: int

    @classmethod
    def load(cls, path: Path = SELECTION_FILE) -> SelectionParameters:
        return cls(**json.loads(path.read_text(encoding="utf-8"))["parameters"])


@dataclass(frozen=True)
class Selection:
    """Which ranked candidates become evidence (positions in ranked order, the answer first)."""

    positions: list[int]
    best_relevance: float  # the highest relevance probability among the ranked candidates
    silent: bool  # best_relevance is below the silence threshold


def practice_match(question: Mapping[str, float], sentences: Sequence[Mapping[str, float]]) -> np.ndarray:
    """Per sentence, in [0, 1]: the mean of the sentence's practice probabilities over the question's
    categories, weighted by the question's probability for each (0 for a sentence with no scores)."""
    total = sum(question.values())
    if total <= 0:
        return np.zeros(len(sentences))
    return np.array([sum(p * scores.get(c, 0.0) for c, p in question.items()) / total for scores in sentences])


def topic_scores(match: np.ndarray, match_weight: float) -> np.ndarray:
    """The logit each sentence gets for its practices: `match_weight` × its `practice_match`."""
    return match_weight * match


def rank_candidates(relevance: np.ndarray, topic: np.ndarray, candidates: int) -> list[int]:
    """The best `candidates` sentences (document positions) by selection logit, best first; sentences
    that cannot be evidence (relevance at NO_MATCH_LOGIT) are left out."""
    scores = relevance + topic
    return [int(i) for i in np.argsort(-scores, kind="stable")[:candidates] if relevance[i] > NO_MATCH_LOGIT]


def within_margin(ranked_logits: Sequence[float], margin: float, cap: int) -> list[int]:
    """Positions (in ranked order, the answer first) of the evidence: the answer, then the others
    among the first `cap` whose selection logit is at least the answer's minus `margin`."""
    if not ranked_logits:
        return []
    floor = ranked_logits[0] - margin
    return [0] + [i for i in range(1, min(cap, len(ranked_logits))) if ranked_logits[i] >= floor]


def select(ranked_logits: Sequence[float], ranked_relevance: Sequence[float], parameters: SelectionParameters,
           cap: int) -> Selection:
    """The evidence among ranked candidates (their selection logits and relevance probabilities),
    at most `cap` sentences, and whether the policy is silent."""
    best = max(ranked_relevance, default=0.0)
    return Selection(within_margin(ranked_logits, parameters.evidence_margin, max(cap, 1)), best,
                     best < parameters.silence_threshold)
