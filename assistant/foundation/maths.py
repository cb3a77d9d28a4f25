"""Small numeric helpers shared by the models and the answering stages."""
from __future__ import annotations

import numpy as np


def sigmoid(logits: np.ndarray | float) -> np.ndarray:
    """The logistic function, elementwise (in the input's precision)."""
    return 1.0 / (1.0 + np.exp(-logits))


def softmax(logits: np.ndarray) -> np.ndarray:
    """Softmax of a vector, numerically stable."""
    exp = np.exp(logits - logits.max())
    return exp / exp.sum()
