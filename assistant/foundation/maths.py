"""Small numeric helpers shared by the models and the answering stages."""
from __future__ import annotations

import numpy as np


def sigmoid(logits: np.ndarray | float) -> np.ndarray:
    """The logistic function, elementwise (in the input's precision)."""
    return 1.0 / (1.0 + np.exp(-logits))


def softmax(logits: np.ndarray) -> np.ndarray:
    """Softmax over the last axis (of a vector, or of each row), numerically stable."""
    exp = np.exp(logits - logits.max(axis=-1, keepdims=True))
    return exp / exp.sum(axis=-1, keepdims=True)
