"""How candidate sentences are scored for evidence selection, in document order.

A sentence's selection logit is its relevance logit (the retriever's calibrated cosine), plus the
category bonus when the practice tagger gave it one of the question's practices, plus
`context_weight` × the mean of its neighbours' logits: answers in policies are passages, and a
sentence amid relevant sentences is likely part of the same answer (on the PrivacyQA dev file
this lifts sentence F1 by about 1.5 points, docs/results.md). Only neighbours that can be
evidence count: at the document's edges, or beside a heading-question, the one remaining
neighbour speaks, and with none the sentence's own logit stands in. One function, so that the
engine and the tuning script (scripts/tune_selection.py) score alike.
"""
from __future__ import annotations

import numpy as np

NO_MATCH_LOGIT = -20.0  # the relevance of a sentence that cannot be evidence (e.g. itself a question)


def selection_logits(relevance: np.ndarray, on_topic: np.ndarray, bonus: float, context_weight: float) -> np.ndarray:
    """Selection logits of all sentences of a policy, in document order (see the module docstring)."""
    own = relevance + bonus * on_topic
    eligible = np.concatenate([[False], relevance > NO_MATCH_LOGIT, [False]])
    padded = np.concatenate([[0.0], own, [0.0]])
    total = np.where(eligible[:-2], padded[:-2], 0.0) + np.where(eligible[2:], padded[2:], 0.0)
    count = eligible[:-2].astype(int) + eligible[2:].astype(int)
    context = np.where(count > 0, total / np.maximum(count, 1), own)
    return own + context_weight * context
