"""OPP-115 practice categories for policy text (12 labels, multi-label).

A small MLP over the all-MiniLM-L6-v2 sentence embedding that ingest computes anyway for retrieval,
so tagging every sentence costs two matrix products. Trained on the PrivacyGLUE OPP-115
majority-label split (segments), one decision threshold per category tuned on its validation
split; applied at ingest to every sentence.

    assistant train categories      # reproduces weights/practice_categories/
    assistant eval categories --split test
"""
from __future__ import annotations

import collections
import csv
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch

from nlu.release import WEIGHTS_DIR, load_release, save_release, sha256_of

RELEASE_DIR = WEIGHTS_DIR / "practice_categories"
SPLITS = {"train": "train_dataset.csv", "validation": "validation_dataset.csv", "test": "test_dataset.csv"}
HIDDEN_UNITS = 512
L2 = 0.01  # chosen on the validation split among 0.001 / 0.01 and 512 / 1024 units (docs/results.md)


@dataclass(frozen=True)
class Example:
    text: str
    labels: frozenset[str]


def split_file(split: str) -> Path:
    from assistant.corpora import corpus_dir

    return corpus_dir("opp115") / "majority_split" / SPLITS[split]


def load_split(split: str) -> list[Example]:
    """One example per segment: PrivacyGLUE's rows are (segment, category), grouped by text."""
    groups: dict[str, set[str]] = collections.defaultdict(set)
    with open(split_file(split), newline="", encoding="utf-8") as handle:
        for text, label in csv.reader(handle):
            if text != "#NAME?":  # a spreadsheet artefact in the train split
                groups[text].add(label)
    return [Example(text, frozenset(labels)) for text, labels in groups.items()]


class PracticeClassifier:
    """Predicts OPP-115 practice categories from L2-normalised MiniLM sentence embeddings."""

    def __init__(self, state: dict[str, torch.Tensor], config: dict) -> None:
        self.labels: list[str] = config["labels"]
        self.thresholds = np.array(config["thresholds"])
        self._layers = [(state[f"layer{i}.weight"].numpy(), state[f"layer{i}.bias"].numpy()) for i in (0, 1)]

    @classmethod
    def load(cls, directory: Path = RELEASE_DIR) -> "PracticeClassifier":
        return cls(*load_release(directory))

    def probabilities(self, embeddings: np.ndarray) -> np.ndarray:
        """(n, n_labels) sigmoid probabilities."""
        (w0, b0), (w1, b1) = self._layers
        hidden = np.maximum(embeddings @ w0 + b0, 0.0)
        return 1.0 / (1.0 + np.exp(-(hidden @ w1 + b1)))

    def predict(self, embeddings: np.ndarray) -> list[list[str]]:
        """The categories above their thresholds, for each embedding."""
        decisions = self.probabilities(embeddings) >= self.thresholds
        return [[label for label, on in zip(self.labels, row) if on] for row in decisions]


def scores(gold: list[frozenset[str]], predicted: list[list[str]], labels: list[str]) -> dict[str, float]:
    """Macro and micro F1 (in %) over the labels, as PrivacyGLUE reports them."""
    from sklearn.metrics import f1_score

    y_true = np.array([[label in g for label in labels] for g in gold])
    y_pred = np.array([[label in p for label in labels] for p in predicted])
    return {
        "macro_f1": round(100 * f1_score(y_true, y_pred, average="macro", zero_division=0), 1),
        "micro_f1": round(100 * f1_score(y_true, y_pred, average="micro", zero_division=0), 1),
    }


def tune_thresholds(probabilities: np.ndarray, gold: np.ndarray) -> list[float]:
    """Per-label threshold that maximises that label's F1 on the given (validation) data."""
    grid = np.linspace(0.05, 0.95, 19)
    thresholds = []
    for j in range(gold.shape[1]):
        f1s = []
        for t in grid:
            predicted = probabilities[:, j] >= t
            tp = float((predicted & gold[:, j]).sum())
            f1s.append(2 * tp / max(1.0, predicted.sum() + gold[:, j].sum()))
        thresholds.append(float(grid[int(np.argmax(f1s))]))
    return thresholds


def train_release(embedder) -> dict:
    """Fit on `train`, tune thresholds on `validation`, write the release; returns validation scores."""
    from sklearn.neural_network import MLPClassifier

    train, validation = load_split("train"), load_split("validation")
    labels = sorted({label for example in train for label in example.labels})
    x_train = embedder.encode([e.text for e in train])
    y_train = np.array([[label in e.labels for label in labels] for e in train], dtype=int)
    mlp = MLPClassifier(hidden_layer_sizes=(HIDDEN_UNITS,), alpha=L2, max_iter=300, random_state=0)
    mlp.fit(x_train, y_train)
    state = {f"layer{i}.{kind}": torch.tensor(values[i], dtype=torch.float32)
             for kind, values in (("weight", mlp.coefs_), ("bias", mlp.intercepts_)) for i in (0, 1)}
    x_validation = embedder.encode([e.text for e in validation])
    gold = np.array([[label in e.labels for label in labels] for e in validation])
    config = {"labels": labels, "thresholds": [0.5] * len(labels), "input": "all-MiniLM-L6-v2 embedding"}
    config["thresholds"] = tune_thresholds(PracticeClassifier(state, config).probabilities(x_validation), gold)
    classifier = PracticeClassifier(state, config)
    metrics = {"validation": scores([e.labels for e in validation], classifier.predict(x_validation), labels)}
    data = {"corpus": "OPP-115 majority split (PrivacyGLUE / Polisis_Benchmark)", "train_segments": len(train),
            "validation_segments": len(validation),
            "sha256": sha256_of([split_file("train"), split_file("validation")])}
    save_release(RELEASE_DIR, state, config, data, "assistant train categories", metrics)
    return metrics


def evaluate(split: str, embedder) -> dict:
    """Scores of the shipped classifier on an OPP-115 majority split (segments)."""
    classifier = PracticeClassifier.load()
    examples = load_split(split)
    predicted = classifier.predict(embedder.encode([e.text for e in examples]))
    return {"split": split, "segments": len(examples),
            **scores([e.labels for e in examples], predicted, classifier.labels)}
