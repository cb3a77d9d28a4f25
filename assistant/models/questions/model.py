"""Question-only classifiers: answerability (and why not) and the OPP-115 categories a question asks about.

Both are linear heads over the all-MiniLM-L6-v2 question embedding the retriever computes anyway,
so classifying a question costs one matrix product. Trained by `assistant train questions`
(assistant/models/questions/train.py, data: assistant/models/questions/data.py), weights in
weights/question_classifier/.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from assistant.foundation.maths import sigmoid, softmax
from assistant.foundation.releases import WEIGHTS_DIR, load_release_arrays

RELEASE_DIR = WEIGHTS_DIR / "question_classifier"
ANSWERABLE = "answerable"  # the answerability head's positive label; the others are reasons (data.py's REASONS)


@dataclass(frozen=True)
class QuestionAnalysis:
    label: str  # "answerable" or a reason: incomprehensible, out_of_scope, beyond_policy, vague
    label_probability: float
    answerable_probability: float
    categories: dict[str, float]  # OPP-115 category -> probability, for categories above threshold
    category_probabilities: dict[str, float]  # every category the classifier knows -> probability


class QuestionClassifier:
    """Linear answerability (softmax) and category (one-vs-rest sigmoid) heads over question embeddings."""

    def __init__(self, state: dict, config: dict) -> None:
        """`state`: the heads' weights, numpy arrays or torch tensors (training)."""
        self.labels: list[str] = config["labels"]
        self.categories: list[str] = config["categories"]
        self.category_thresholds = np.array(config["category_thresholds"])
        self.reason_threshold: float = config["reason_threshold"]
        self._answerability = (_array(state["answerability.weight"]), _array(state["answerability.bias"]))
        self._category = (_array(state["category.weight"]), _array(state["category.bias"]))

    @classmethod
    def load(cls, directory: Path = RELEASE_DIR) -> QuestionClassifier:
        return cls(*load_release_arrays(directory))

    def analyse(self, embedding: np.ndarray) -> QuestionAnalysis:
        """Classify one L2-normalised question embedding."""
        label_probs = softmax(embedding @ self._answerability[0].T + self._answerability[1])
        category_probs = sigmoid(embedding @ self._category[0].T + self._category[1])
        best = int(np.argmax(label_probs))
        answerable_p = float(label_probs[self.labels.index(ANSWERABLE)])
        label = self.labels[best]
        if label != ANSWERABLE and label_probs[best] < self.reason_threshold:
            label = ANSWERABLE  # not sure enough to refuse: let retrieval decide
        return QuestionAnalysis(
            label=label,
            label_probability=float(label_probs[self.labels.index(label)]),
            answerable_probability=answerable_p,
            categories={c: round(float(p), 4) for c, p, t in
                        zip(self.categories, category_probs, self.category_thresholds) if p >= t},
            category_probabilities={c: float(p) for c, p in zip(self.categories, category_probs)},
        )


def _array(weights) -> np.ndarray:
    return np.asarray(weights.numpy() if hasattr(weights, "numpy") else weights, dtype=np.float32)
