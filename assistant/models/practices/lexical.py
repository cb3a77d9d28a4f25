"""A lexical multi-label category model: TF-IDF word uni- and bigrams with one logistic regression
per category. The practice tagger (`assistant.models.practices.model`) mixes it with its fine-tuned encoder: the two
make different mistakes (the words "retain", "period", "delete after" carry Data Retention even
where the encoder, trained on few such segments, is unsure).

Saved as `lexical.npz` (vocabulary, idf, weights; no pickle) next to its release's weights."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression

from assistant.foundation.maths import sigmoid

FILE_NAME = "lexical.npz"
NGRAM_RANGE = (1, 2)


def _vectorizer(min_df: int = 1, vocabulary: dict[str, int] | None = None) -> TfidfVectorizer:
    return TfidfVectorizer(ngram_range=NGRAM_RANGE, min_df=min_df, sublinear_tf=True, vocabulary=vocabulary)


@dataclass
class LexicalCategoryModel:
    """Per-category logistic regressions over a fitted TF-IDF vocabulary."""

    vectorizer: TfidfVectorizer
    weights: np.ndarray  # (n_labels, n_terms)
    intercepts: np.ndarray  # (n_labels,)

    @classmethod
    def fit(cls, texts: Sequence[str], targets: np.ndarray, min_df: int, c: float) -> LexicalCategoryModel:
        """Fit on texts and their 0/1 targets, one column per category (classes weighted to balance;
        `min_df`: the fewest texts a term must occur in; `c`: inverse L2 strength)."""
        vectorizer = _vectorizer(min_df)
        features = vectorizer.fit_transform(texts)
        weights, intercepts = [], []
        for column in np.asarray(targets, dtype=bool).T:
            if column.all() or not column.any():  # one class only (tiny smoke-test data): a constant
                weights.append(np.zeros(features.shape[1]))
                intercepts.append(10.0 if column.all() else -10.0)
                continue
            regression = LogisticRegression(C=c, max_iter=3000, class_weight="balanced").fit(features, column)
            weights.append(regression.coef_[0])
            intercepts.append(regression.intercept_[0])
        return cls(vectorizer, np.asarray(weights, dtype=np.float32), np.asarray(intercepts, dtype=np.float32))

    def probabilities(self, texts: Sequence[str]) -> np.ndarray:
        """(n, n_labels) probabilities."""
        logits = self.vectorizer.transform(texts) @ self.weights.T + self.intercepts
        return sigmoid(logits).astype(np.float32)

    def save(self, directory: Path) -> Path:
        terms = sorted(self.vectorizer.vocabulary_, key=self.vectorizer.vocabulary_.get)
        path = directory / FILE_NAME
        np.savez_compressed(path, terms=np.asarray(terms), idf=self.vectorizer.idf_.astype(np.float32),
                            weights=self.weights.astype(np.float16), intercepts=self.intercepts)
        return path

    @classmethod
    def load(cls, directory: Path) -> LexicalCategoryModel:
        with np.load(directory / FILE_NAME, allow_pickle=False) as saved:
            vectorizer = _vectorizer(vocabulary={str(term): i for i, term in enumerate(saved["terms"])})
            vectorizer.idf_ = saved["idf"].astype(np.float64)
            return cls(vectorizer, saved["weights"].astype(np.float32), saved["intercepts"].astype(np.float32))
