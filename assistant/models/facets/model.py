"""Question facets beyond the word rules: a softmax regression over the question's all-MiniLM-L6-v2
embedding (the one the question classifier reads anyway), one class per facet of
`assistant.understanding.facets` plus `none`.

Where the model is confident (its most probable facet reaches the release's threshold, or `none` reaches
its own threshold) its class is the question's facet; otherwise the word rules decide. So "Can I get my
account and data wiped?" (no rule word) is deletion, and "Do they collect my email address?" is about no
facet, where the rules' "email" made it the contact question. The thresholds are chosen so that no wording
of the tuning answers sets the rules get right is lost (train.py).

    assistant train facets        # writes weights/facets/ (about a minute)
    assistant eval facets [--json]

Inference is numpy only: a matrix product and a softmax.
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from assistant.foundation.maths import softmax
from assistant.foundation.releases import WEIGHTS_DIR

RELEASE_DIR = WEIGHTS_DIR / "facets"
WEIGHTS_FILE = "head.npz"
CONFIG_FILE = "config.json"
NONE = "none"  # the class of questions about no facet


class FacetClassifier:
    """The softmax head of a release: labels, weights (n_labels, 384), intercepts, the threshold a facet's
    probability must reach to name the facet, and the one `none` must reach to overrule the rules' facet."""

    def __init__(self, labels: list[str], weights: np.ndarray, intercepts: np.ndarray, threshold: float,
                 none_threshold: float) -> None:
        self.labels = labels
        self.weights = np.asarray(weights, dtype=np.float32)
        self.intercepts = np.asarray(intercepts, dtype=np.float32)
        self.threshold = threshold
        self.none_threshold = none_threshold

    @classmethod
    def load(cls, directory: Path = RELEASE_DIR) -> FacetClassifier:
        config = json.loads((directory / CONFIG_FILE).read_text())
        with np.load(directory / WEIGHTS_FILE) as arrays:
            return cls(config["labels"], arrays["weights"], arrays["intercepts"], config["threshold"],
                       config["none_threshold"])

    def save(self, directory: Path) -> None:
        directory.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(directory / WEIGHTS_FILE, weights=self.weights.astype(np.float32),
                            intercepts=self.intercepts.astype(np.float32))
        (directory / CONFIG_FILE).write_text(json.dumps({"labels": self.labels, "threshold": self.threshold,
                                                         "none_threshold": self.none_threshold}, indent=2) + "\n")

    def probabilities(self, vectors: np.ndarray) -> np.ndarray:
        """(n, n_labels) class probabilities for question embeddings (n, 384)."""
        return softmax(np.asarray(vectors, dtype=np.float32) @ self.weights.T + self.intercepts)

    def decide(self, vector: np.ndarray, rule_facet: str | None) -> str | None:
        """The facet of one question embedding: the model's facet where its probability reaches `threshold`,
        no facet where `none`'s reaches `none_threshold`, else `rule_facet` (what the word rules said)."""
        probabilities = self.probabilities(vector[None, :])[0]
        best = int(np.argmax(probabilities))
        none = self.labels[best] == NONE
        if probabilities[best] < (self.none_threshold if none else self.threshold):
            return rule_facet
        return None if none else self.labels[best]
