"""The policy detector: is a document a privacy policy, and if not, what is it (terms of service,
a cookie notice, something else)?

TF-IDF over word uni- and bigrams, then a multinomial logistic regression over the kinds of
`assistant.corpora.screening.KINDS`; the policy probability is the probability of the kind "policy".
Small and explainable: `signals()` names the words that weigh most for a verdict. Trained on the
screening corpus (`assistant.models.policy_detector.train`), scored by grouped cross-validation
(`assistant.models.policy_detector.evaluate`).

Saved as `model.json` (vocabulary, idf, weights; no pickle) with its `manifest.json`:

    assistant train policy-detector     # reproduces weights/policy_detector/ (about a minute, with the cross-validation)
    assistant eval policy-detector
"""
from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from scipy.special import softmax
from sklearn.feature_extraction.text import TfidfVectorizer

from assistant.foundation.resources import WEIGHTS_DIR

RELEASE_DIR = WEIGHTS_DIR / "policy_detector"
MODEL_FILE = "model.json"
POLICY = "policy"
NGRAM_RANGE = (1, 2)


def vectorizer(max_features: int | None = None, min_df: int = 1,
               vocabulary: dict[str, int] | None = None) -> TfidfVectorizer:
    """The detector's TF-IDF (the same settings when fitting and when loading)."""
    return TfidfVectorizer(ngram_range=NGRAM_RANGE, sublinear_tf=True, min_df=min_df, max_features=max_features,
                           vocabulary=vocabulary, dtype=np.float32)


@dataclass
class PolicyDetector:
    """A fitted TF-IDF vocabulary with one weight row per kind, and the policy threshold."""

    vectorizer: TfidfVectorizer
    kinds: list[str]
    weights: np.ndarray  # (n_kinds, n_terms)
    intercepts: np.ndarray  # (n_kinds,)
    threshold: float = 0.5

    def probabilities(self, texts: Sequence[str]) -> np.ndarray:
        """(n, n_kinds) probabilities of each kind."""
        logits = self.vectorizer.transform(texts) @ self.weights.T + self.intercepts
        return softmax(np.asarray(logits, dtype=np.float64), axis=1)

    def policy_probabilities(self, texts: Sequence[str]) -> np.ndarray:
        """(n,) probability that each text is a privacy policy."""
        return self.probabilities(texts)[:, self.kinds.index(POLICY)]

    def is_policy(self, probability: float) -> bool:
        return probability >= self.threshold

    def likeliest_other_kind(self, probabilities: np.ndarray) -> str:
        """The likeliest kind other than a policy, for one row of `probabilities()`."""
        order = np.argsort(-probabilities)
        return next(self.kinds[i] for i in order if self.kinds[i] != POLICY)

    def signals(self, text: str, kind: str = POLICY, top: int = 5) -> list[str]:
        """The terms of `text` that weigh most for `kind` against the other kinds."""
        features = self.vectorizer.transform([text]).tocsr()
        row = self.kinds.index(kind)
        margin = self.weights[row] - np.delete(self.weights, row, axis=0).mean(axis=0)
        contributions = features.data * margin[features.indices]
        terms = self.vectorizer.get_feature_names_out()
        best = np.argsort(-contributions)[:top]
        return [str(terms[features.indices[i]]) for i in best if contributions[i] > 0]

    def to_json(self) -> dict:
        terms = sorted(self.vectorizer.vocabulary_, key=self.vectorizer.vocabulary_.get)
        return {
            "format": "tfidf-multinomial-logistic-regression/1",
            "ngram_range": list(NGRAM_RANGE),
            "kinds": self.kinds,
            "threshold": self.threshold,
            "terms": terms,
            "idf": [round(float(v), 4) for v in self.vectorizer.idf_],
            "weights": [[round(float(v), 4) for v in row] for row in self.weights],
            "intercepts": [round(float(v), 4) for v in self.intercepts],
        }

    @classmethod
    def from_json(cls, data: dict) -> PolicyDetector:
        fitted = vectorizer(vocabulary={term: i for i, term in enumerate(data["terms"])})
        fitted.idf_ = np.asarray(data["idf"], dtype=np.float32)
        return cls(fitted, list(data["kinds"]), np.asarray(data["weights"], dtype=np.float32),
                   np.asarray(data["intercepts"], dtype=np.float32), float(data["threshold"]))

    def save(self, directory: Path) -> Path:
        directory.mkdir(parents=True, exist_ok=True)
        path = directory / MODEL_FILE
        path.write_text(json.dumps(self.to_json(), ensure_ascii=False, separators=(",", ":")) + "\n",
                        encoding="utf-8")
        return path

    @classmethod
    def load(cls, directory: Path = RELEASE_DIR) -> PolicyDetector:
        path = directory / MODEL_FILE
        if not path.is_file():
            raise FileNotFoundError(f"No policy detector in {directory}: train it first (assistant train policy-detector).")
        return cls.from_json(json.loads(path.read_text(encoding="utf-8")))
