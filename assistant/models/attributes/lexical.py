"""The TF-IDF half of the attribute heads: the shared vocabulary (word 1-2 grams, sublinear tf) and its
per-value logistic regressions (fitted in `train.py`)."""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from sklearn.feature_extraction.text import TfidfVectorizer

NGRAM_RANGE = (1, 2)
MAX_TERMS = 3000  # the release stays small: (values × terms) fp16 weights
MIN_DF = 2


def vectorizer(vocabulary: dict[str, int] | None = None, idf: np.ndarray | None = None) -> TfidfVectorizer:
    """A TF-IDF vectorizer: unfitted, or fitted from a saved vocabulary and idf."""
    if vocabulary is None:
        return TfidfVectorizer(ngram_range=NGRAM_RANGE, min_df=MIN_DF, max_features=MAX_TERMS, sublinear_tf=True)
    fitted = TfidfVectorizer(ngram_range=NGRAM_RANGE, sublinear_tf=True, vocabulary=vocabulary)
    fitted.idf_ = np.asarray(idf, dtype=np.float64)
    return fitted


def fit_vocabulary(texts: Sequence[str]) -> tuple[list[str], np.ndarray]:
    """The vocabulary (in column order) and idf fitted on `texts`."""
    fitted = vectorizer()
    fitted.fit(list(texts))
    terms = sorted(fitted.vocabulary_, key=fitted.vocabulary_.get)
    return terms, fitted.idf_.astype(np.float32)
