"""Fitting the policy detector and writing its release (`assistant train policy-detector`).

The documents are read into text by the caller (the ingest's parser sits above this layer):
`assistant.evaluation.screening.train_release` reads the screening corpus and calls `fit` here."""
from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
from sklearn.linear_model import LogisticRegression

from assistant.foundation.releases import write_manifest
from assistant.models.policy_detector.model import RELEASE_DIR, PolicyDetector, vectorizer

MANIFEST_FILE = "manifest.json"  # written by assistant.foundation.releases.write_manifest


@dataclass(frozen=True)
class TrainConfig:
    """The recipe: vocabulary size, the fewest documents a term must occur in, inverse L2 strength,
    the policy threshold."""

    max_features: int = 6000
    min_df: int = 2
    c: float = 10.0
    threshold: float = 0.5


RECIPE = TrainConfig()  # the shipped recipe


def fit(texts: Sequence[str], kinds: Sequence[str], config: TrainConfig = RECIPE) -> PolicyDetector:
    """Fit TF-IDF and a multinomial logistic regression (classes weighted to balance) on documents and
    their kinds; at least two kinds, one of them "policy"."""
    present = sorted(set(kinds))
    if "policy" not in present or len(present) < 2:
        raise ValueError(f"need privacy policies and at least one other kind, got {present}")
    tfidf = vectorizer(config.max_features, min(config.min_df, len(texts)))
    features = tfidf.fit_transform(texts)
    regression = LogisticRegression(C=config.c, max_iter=5000, class_weight="balanced").fit(features, list(kinds))
    weights, intercepts = regression.coef_, regression.intercept_
    if len(present) == 2:  # scikit-learn keeps one row for two classes: make it one row per kind
        weights = np.vstack([-weights[0] / 2, weights[0] / 2])
        intercepts = np.array([-intercepts[0] / 2, intercepts[0] / 2])
    return PolicyDetector(tfidf, [str(k) for k in regression.classes_], weights.astype(np.float32),
                          intercepts.astype(np.float32), config.threshold)


def write_release(detector: PolicyDetector, config: TrainConfig, data: dict, command: str, metrics: dict,
                  directory: Path = RELEASE_DIR) -> Path:
    """`model.json` and `manifest.json` (base: none, the recipe, data, command, metrics) into `directory`."""
    detector.save(directory)
    return write_manifest(directory, data, command, metrics, base=None,
                          model="TF-IDF word 1-2 grams + multinomial logistic regression over the kinds",
                          config=asdict(config))


def load_manifest(directory: Path = RELEASE_DIR) -> dict:
    return json.loads((directory / MANIFEST_FILE).read_text(encoding="utf-8"))
