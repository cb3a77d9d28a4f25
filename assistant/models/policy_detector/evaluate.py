"""Scores of the policy detector: grouped cross-validation (no organisation's documents on both
sides of a split) and precision / recall of "is a privacy policy" (`assistant eval policy-detector`)."""
from __future__ import annotations

import hashlib
from collections.abc import Sequence

import numpy as np

from assistant.models.policy_detector.model import PolicyDetector
from assistant.models.policy_detector.train import RECIPE, TrainConfig, fit


def fold_of(group: str, folds: int) -> int:
    """A group's fold: stable across runs and machines (a hash of its name)."""
    return int(hashlib.sha256(group.encode("utf-8")).hexdigest(), 16) % folds


def grouped_folds(texts: Sequence[str], kinds: Sequence[str], groups: Sequence[str], folds: int = 5,
                  config: TrainConfig = RECIPE):
    """Yield (fold, held-out indices, detector fitted on every other fold) for each fold; a group's
    documents are all in one fold (`fold_of`)."""
    assignment = np.array([fold_of(group, folds) for group in groups])
    for fold in range(folds):
        held_out = np.flatnonzero(assignment == fold)
        train = np.flatnonzero(assignment != fold)
        train_kinds = {kinds[i] for i in train}
        if not len(held_out) or "policy" not in train_kinds or len(train_kinds) < 2:
            continue  # nothing to hold out, or too little left to learn from (tiny corpora)
        detector: PolicyDetector = fit([texts[i] for i in train], [kinds[i] for i in train], config)
        yield fold, held_out, detector


def detection_scores(gold: Sequence[bool], predicted: Sequence[bool]) -> dict:
    """Precision, recall and F1 (in %) of "is a privacy policy", with the counts behind them."""
    gold, predicted = np.asarray(gold, dtype=bool), np.asarray(predicted, dtype=bool)
    tp = int((gold & predicted).sum())
    fp = int((~gold & predicted).sum())
    fn = int((gold & ~predicted).sum())
    precision = tp / (tp + fp) if tp + fp else 1.0
    recall = tp / (tp + fn) if tp + fn else 1.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {"precision": round(100 * precision, 1), "recall": round(100 * recall, 1), "f1": round(100 * f1, 1),
            "documents": len(gold), "policies": int(gold.sum()), "true_positives": tp,
            "false_positives": fp, "false_negatives": fn}
