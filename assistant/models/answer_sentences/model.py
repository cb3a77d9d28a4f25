"""Which sentence answers a facet's question: one logistic head per privacy facet over the retriever's stored
sentence vectors, trained on the sentences readers labelled as supporting the answer in the answers sets
(train.py). Among the sentences that speak of a facet ("sell", "rent" …), the head tells the statement of the
practice ("We do not sell your personal information") from its neighbours (a definition of "sale" in the
CCPA, a right to opt out listed by law, a merger clause).

Its weighted logit is added to the ranking's selection logit when the verdict stage picks the sentence to
quote first (`assistant.answering.verdict`); it never decides whether the policy addresses the question.
Inference is numpy only: one dot product per sentence, on the vectors the store already holds.

    assistant train answer-sentences      # writes weights/answer_sentences/
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from assistant.foundation.releases import WEIGHTS_DIR

RELEASE_DIR = WEIGHTS_DIR / "answer_sentences"
WEIGHTS_FILE = "heads.npz"
CONFIG_FILE = "config.json"
ANY_FACET = "any"  # the head fitted on every facet's sentences, for a facet with too few of its own


class AnswerSentenceScorer:
    """Per-facet logistic heads (weights (n_heads, dimension), intercepts) and the weight of their logit in the
    first quote's choice."""

    def __init__(self, facets: list[str], weights: np.ndarray, intercepts: np.ndarray, weight: float) -> None:
        self.facets = facets
        self.weights = np.asarray(weights, dtype=np.float32)
        self.intercepts = np.asarray(intercepts, dtype=np.float32)
        self.weight = weight

    @classmethod
    def load(cls, directory: Path = RELEASE_DIR) -> AnswerSentenceScorer:
        config = json.loads((directory / CONFIG_FILE).read_text())
        with np.load(directory / WEIGHTS_FILE) as arrays:
            return cls(config["facets"], arrays["weights"], arrays["intercepts"], config["weight"])

    def save(self, directory: Path) -> None:
        directory.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(directory / WEIGHTS_FILE, weights=self.weights, intercepts=self.intercepts)
        (directory / CONFIG_FILE).write_text(json.dumps({"facets": self.facets, "weight": self.weight}, indent=2)
                                             + "\n")

    def logits(self, facet: str | None, vectors: np.ndarray) -> np.ndarray:
        """The head's logit for each sentence vector (n, dimension): does it answer the facet's question? Zeros
        when there is no facet (nothing to prefer)."""
        if facet is None or not len(vectors):
            return np.zeros(len(vectors), dtype=np.float32)
        row = self.facets.index(facet) if facet in self.facets else self.facets.index(ANY_FACET)
        return np.asarray(vectors, dtype=np.float32) @ self.weights[row] + self.intercepts[row]

    def scores(self, facet: str | None, vectors: np.ndarray) -> np.ndarray:
        """What each sentence adds to its selection logit when the first quote is chosen: weight × logit."""
        return self.weight * self.logits(facet, vectors)
