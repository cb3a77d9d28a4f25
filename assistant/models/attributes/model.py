"""OPP-115 attribute classifiers (Polisis-style) over the retriever's sentence vectors.

One multi-label head per attribute (Does/Does Not, Personal Information Type, Purpose, Retention
Period, …; `assistant.corpora.opp115_attributes.ATTRIBUTES`): a logistic regression per value over the
384-dim vector the retriever already stores for every sentence, so tagging costs a matrix product at
ingest or label time. The heads are trained on sentences and segments where the attribute's practice
applies, so a caller should read an attribute only for sentences the practice tagger puts in one of
those practices (`ATTRIBUTES[attribute]`).

    assistant train attributes        # writes weights/attributes/ (about a minute after embedding)
    assistant eval attributes --split test [--json]

Inference is numpy only (no torch, no scikit-learn).
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from assistant.foundation.maths import sigmoid
from assistant.foundation.releases import WEIGHTS_DIR

RELEASE_DIR = WEIGHTS_DIR / "attributes"
WEIGHTS_FILE = "heads.npz"
CONFIG_FILE = "config.json"


@dataclass
class AttributeHead:
    """Per-value logistic regressions of one attribute."""

    values: list[str]
    weights: np.ndarray  # (n_values, dimension)
    intercepts: np.ndarray  # (n_values,)
    thresholds: np.ndarray  # (n_values,)

    def probabilities(self, vectors: np.ndarray) -> np.ndarray:
        """(n, n_values) probabilities."""
        return sigmoid(np.asarray(vectors, dtype=np.float32) @ self.weights.T + self.intercepts).astype(np.float32)

    def decide(self, probabilities: np.ndarray, fallback: bool = False) -> np.ndarray:
        """(n, n_values) booleans: values at or above their thresholds; with `fallback`, the most probable
        value where none is (for texts known to carry the attribute)."""
        chosen = probabilities >= self.thresholds
        if fallback and len(probabilities):
            empty = ~chosen.any(axis=1)
            chosen[empty, np.argmax(probabilities[empty], axis=1)] = True
        return chosen


class AttributeClassifier:
    """The attribute heads of a release."""

    def __init__(self, heads: dict[str, AttributeHead]) -> None:
        self.heads = heads

    @property
    def attributes(self) -> list[str]:
        return list(self.heads)

    @classmethod
    def load(cls, directory: Path = RELEASE_DIR) -> AttributeClassifier:
        if not (directory / WEIGHTS_FILE).exists():
            raise FileNotFoundError(f"no attribute release in {directory} (run `assistant train attributes`)")
        config = json.loads((directory / CONFIG_FILE).read_text())
        heads = {}
        with np.load(directory / WEIGHTS_FILE, allow_pickle=False) as saved:
            for k, (attribute, values) in enumerate(config["attributes"].items()):
                heads[attribute] = AttributeHead(
                    values, saved[f"weights_{k}"].astype(np.float32), saved[f"intercepts_{k}"].astype(np.float32),
                    saved[f"thresholds_{k}"].astype(np.float32))
        return cls(heads)

    def save(self, directory: Path) -> None:
        """Write `heads.npz` (no pickle) and `config.json` (attribute → its values, in head order)."""
        directory.mkdir(parents=True, exist_ok=True)
        arrays = {}
        for k, head in enumerate(self.heads.values()):
            arrays[f"weights_{k}"] = head.weights.astype(np.float16)
            arrays[f"intercepts_{k}"] = head.intercepts.astype(np.float32)
            arrays[f"thresholds_{k}"] = head.thresholds.astype(np.float32)
        np.savez_compressed(directory / WEIGHTS_FILE, **arrays)
        config = {"attributes": {a: h.values for a, h in self.heads.items()}}
        (directory / CONFIG_FILE).write_text(json.dumps(config, indent=2) + "\n")

    def probabilities(self, vectors: np.ndarray) -> dict[str, np.ndarray]:
        """attribute → (n, n_values) probabilities for the sentence vectors."""
        vectors = np.atleast_2d(np.asarray(vectors, dtype=np.float32))
        return {attribute: head.probabilities(vectors) for attribute, head in self.heads.items()}

    def predict(self, vectors: np.ndarray, fallback: bool = False) -> list[dict[str, list[tuple[str, float]]]]:
        """Per sentence vector, {attribute: [(value, probability), …]} for the values at or above their
        thresholds, most probable first (attributes with none left out; with `fallback`, each attribute
        keeps at least its most probable value)."""
        vectors = np.atleast_2d(np.asarray(vectors, dtype=np.float32))
        results: list[dict[str, list[tuple[str, float]]]] = [{} for _ in range(len(vectors))]
        for attribute, head in self.heads.items():
            probabilities = head.probabilities(vectors)
            chosen = head.decide(probabilities, fallback)
            for i in range(len(vectors)):
                found = [(head.values[j], float(probabilities[i, j])) for j in np.flatnonzero(chosen[i])]
                if found:
                    results[i][attribute] = sorted(found, key=lambda pair: -pair[1])
        return results
