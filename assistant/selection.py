"""How candidate sentences are scored for evidence selection, in document order.

A sentence's selection logit is its relevance logit (the retriever's calibrated cosine), plus its
topic score (`topic_scores`: how well the practices the tagger found in the sentence match the
practices the question asks about), plus `context_weight` × the mean of its neighbours' logits
(off by default: no data with real sentence order shows it helping; docs/results.md). Only
neighbours that can be evidence count: at the document's edges, or beside a heading-question, the
one remaining neighbour speaks, and with none the sentence's own logit stands in. The evidence
set is every sentence whose selection logit comes within `margin` of the answer sentence's
(`within_margin`), so its size follows the scores. One module, so that the engine and the tuning
script (scripts/tune_selection.py) score alike.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

NO_MATCH_LOGIT = -20.0  # the relevance of a sentence that cannot be evidence (e.g. itself a question)


def practice_match(question: Mapping[str, float], sentences: Sequence[Mapping[str, float]]) -> np.ndarray:
    """Per sentence, in [0, 1]: the mean of the sentence's practice probabilities over the question's
    categories, weighted by the question's probability for each (0 for a sentence with no scores)."""
    total = sum(question.values())
    if total <= 0:
        return np.zeros(len(sentences))
    return np.array([sum(p * scores.get(c, 0.0) for c, p in question.items()) / total for scores in sentences])


def topic_scores(on_topic: np.ndarray, match: np.ndarray, bonus: float, match_weight: float) -> np.ndarray:
    """The logit each sentence gets for its practices: `bonus` when the tagger gave it one of the
    question's confident categories, plus `match_weight` × its `practice_match`."""
    return bonus * on_topic + match_weight * match


def selection_logits(relevance: np.ndarray, topic: np.ndarray, context_weight: float) -> np.ndarray:
    """Selection logits of all sentences of a policy, in document order (see the module docstring)."""
    own = relevance + topic
    eligible = np.concatenate([[False], relevance > NO_MATCH_LOGIT, [False]])
    padded = np.concatenate([[0.0], own, [0.0]])
    total = np.where(eligible[:-2], padded[:-2], 0.0) + np.where(eligible[2:], padded[2:], 0.0)
    count = eligible[:-2].astype(int) + eligible[2:].astype(int)
    context = np.where(count > 0, total / np.maximum(count, 1), own)
    return own + context_weight * context


def within_margin(ranked_logits: Sequence[float], margin: float, cap: int) -> list[int]:
    """Positions (in ranked order, the answer first) of the evidence: the answer, then the others
    among the first `cap` whose selection logit is at least the answer's minus `margin`."""
    if not ranked_logits:
        return []
    floor = ranked_logits[0] - margin
    return [0] + [i for i in range(1, min(cap, len(ranked_logits))) if ranked_logits[i] >= floor]
