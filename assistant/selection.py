"""How candidate sentences are scored for evidence selection, in document order.

A sentence's selection logit is its relevance logit (the retriever's calibrated cosine), plus the
category bonus when the practice tagger gave it one of the question's practices, plus
`context_weight` × the mean of its two neighbours' logits: answers in policies are passages, and a
sentence amid relevant sentences is likely part of the same answer (on the PrivacyQA dev file
this lifts sentence F1 by about two points, docs/results.md). One function, so that the engine
and the tuning script (scripts/tune_selection.py) score alike.
"""
from __future__ import annotations

import numpy as np

NO_MATCH_LOGIT = -20.0  # a sentence that cannot be evidence (e.g. itself a question), and the document's edges


def selection_logits(relevance: np.ndarray, on_topic: np.ndarray, bonus: float, context_weight: float) -> np.ndarray:
    """Selection logits of all sentences of a policy, in document order (see the module docstring)."""
    own = relevance + bonus * on_topic
    padded = np.concatenate([[NO_MATCH_LOGIT], own, [NO_MATCH_LOGIT]])
    return own + context_weight * (padded[:-2] + padded[2:]) / 2
