"""OPP-115 attribute classifiers (Polisis-style) over the retriever's sentence vectors.

One multi-label head per attribute (Does/Does Not, Personal Information Type, Purpose, Retention
Period, …; `assistant.corpora.opp115_attributes.ATTRIBUTES`): a logistic regression per value over the
384-dim vector the retriever already stores for every sentence, so tagging costs a matrix product at
ingest or label time. The heads are trained on sentences and segments where the attribute's practice
applies, so an attribute means something only for sentences the practice tagger puts in one of those
practices: pass the sentences' categories to `predict` and it keeps to them.

    assistant train attributes        # writes weights/attributes/ (about a minute after embedding)
    assistant eval attributes --split test [--json]

The vector heads are numpy only (no torch, no scikit-learn); given the sentences' texts, the heads whose
validation score it improves mix in a TF-IDF logistic regression (`lexical.py`, scikit-learn's vectorizer),
which reads the words the vectors blur ("not", "advertisers", "encryption").
"""
from __future__ import annotations

import json
from collections.abc import Collection, Sequence
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
    """Per-value logistic regressions of one attribute: over the sentence vector, and (optionally) over the
    text's TF-IDF terms, mixed with `lexical_share`; each with its own thresholds."""

    values: list[str]
    weights: np.ndarray  # (n_values, dimension)
    intercepts: np.ndarray  # (n_values,)
    thresholds: np.ndarray  # (n_values,): for the vector regressions alone
    lexical_weights: np.ndarray | None = None  # (n_values, n_terms)
    lexical_intercepts: np.ndarray | None = None  # (n_values,)
    mixed_thresholds: np.ndarray | None = None  # (n_values,): for the mix
    lexical_share: float = 0.0

    def probabilities(self, vectors: np.ndarray, terms=None) -> np.ndarray:
        """(n, n_values) probabilities: from the vectors, mixed with the TF-IDF regressions when `terms`
        (the texts' TF-IDF rows) are given and the head has them."""
        vector = sigmoid(np.asarray(vectors, dtype=np.float32) @ self.weights.T + self.intercepts).astype(np.float32)
        if terms is None or self.lexical_weights is None:
            return vector
        lexical = sigmoid(np.asarray(terms @ self.lexical_weights.T) + self.lexical_intercepts).astype(np.float32)
        return (1 - self.lexical_share) * vector + self.lexical_share * lexical

    def decide(self, probabilities: np.ndarray, fallback: bool = False, mixed: bool = False) -> np.ndarray:
        """(n, n_values) booleans: values at or above their thresholds (the mix's when `mixed`); with
        `fallback`, the most probable value where none is (for texts known to carry the attribute)."""
        thresholds = self.mixed_thresholds if mixed and self.mixed_thresholds is not None else self.thresholds
        chosen = probabilities >= thresholds
        if fallback and len(probabilities):
            empty = ~chosen.any(axis=1)
            chosen[empty, np.argmax(probabilities[empty], axis=1)] = True
        return chosen


class AttributeClassifier:
    """The attribute heads of a release, with the TF-IDF vocabulary their lexical halves share."""

    def __init__(self, heads: dict[str, AttributeHead], practices: dict[str, list[str]],
                 terms: list[str] | None = None, idf: np.ndarray | None = None) -> None:
        """`practices`: attribute → the OPP-115 practices whose sentences carry it."""
        self.heads = heads
        self.practices = practices
        self.terms = terms
        self.idf = idf
        self._vectorizer = None

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
            def optional(name: str) -> np.ndarray | None:
                return saved[name].astype(np.float32) if name in saved else None

            for k, (attribute, values) in enumerate(config["attributes"].items()):
                heads[attribute] = AttributeHead(
                    values, saved[f"weights_{k}"].astype(np.float32), saved[f"intercepts_{k}"].astype(np.float32),
                    saved[f"thresholds_{k}"].astype(np.float32), optional(f"lexical_weights_{k}"),
                    optional(f"lexical_intercepts_{k}"), optional(f"mixed_thresholds_{k}"),
                    config["lexical_shares"].get(attribute, 0.0))
            terms = [str(t) for t in saved["terms"]] if "terms" in saved else None
            idf = optional("idf")
        return cls(heads, config["practices"], terms, idf)

    def save(self, directory: Path) -> None:
        """Write `heads.npz` (no pickle) and `config.json` (attribute → its values, in head order; its
        practices; the TF-IDF half's share of each head)."""
        directory.mkdir(parents=True, exist_ok=True)
        arrays: dict[str, np.ndarray] = {}
        for k, head in enumerate(self.heads.values()):
            arrays[f"weights_{k}"] = head.weights.astype(np.float16)
            arrays[f"intercepts_{k}"] = head.intercepts.astype(np.float32)
            arrays[f"thresholds_{k}"] = head.thresholds.astype(np.float32)
            if head.lexical_weights is not None:
                arrays[f"lexical_weights_{k}"] = head.lexical_weights.astype(np.float16)
                arrays[f"lexical_intercepts_{k}"] = head.lexical_intercepts.astype(np.float32)
                arrays[f"mixed_thresholds_{k}"] = head.mixed_thresholds.astype(np.float32)
        if self.terms is not None:
            arrays["terms"] = np.asarray(self.terms)
            arrays["idf"] = self.idf.astype(np.float32)
        np.savez_compressed(directory / WEIGHTS_FILE, **arrays)
        config = {"attributes": {a: h.values for a, h in self.heads.items()},
                  "practices": {a: self.practices[a] for a in self.heads},
                  "lexical_shares": {a: h.lexical_share for a, h in self.heads.items()}}
        (directory / CONFIG_FILE).write_text(json.dumps(config, indent=2) + "\n")

    def term_features(self, texts: Sequence[str]):
        """The texts' TF-IDF rows (a sparse matrix) over the release's vocabulary, or None without one."""
        if self.terms is None:
            return None
        if self._vectorizer is None:
            from assistant.models.attributes.lexical import vectorizer  # scikit-learn: only with texts

            self._vectorizer = vectorizer({t: i for i, t in enumerate(self.terms)}, self.idf)
        return self._vectorizer.transform(list(texts))

    def probabilities(self, vectors: np.ndarray, texts: Sequence[str] | None = None) -> dict[str, np.ndarray]:
        """attribute → (n, n_values) probabilities for the sentence vectors (mixed with the TF-IDF half when
        the sentences' `texts` are given)."""
        vectors = np.atleast_2d(np.asarray(vectors, dtype=np.float32))
        terms = self.term_features(texts) if texts is not None else None
        return {attribute: head.probabilities(vectors, terms) for attribute, head in self.heads.items()}

    def predict(self, vectors: np.ndarray, texts: Sequence[str] | None = None, fallback: bool = False,
                categories: Sequence[Collection[str]] | None = None) -> list[dict[str, list[tuple[str, float]]]]:
        """Per sentence vector, {attribute: [(value, probability), …]} for the values at or above their
        thresholds, most probable first (attributes with none left out; with `fallback`, each attribute
        keeps at least its most probable value). With the sentences' `texts`, the TF-IDF half is mixed in.
        With each sentence's practice `categories` (the practice tagger's labels), an attribute is given only
        for sentences in one of its practices (`practices`), and there with at least its most probable value."""
        vectors = np.atleast_2d(np.asarray(vectors, dtype=np.float32))
        if categories is not None and len(categories) != len(vectors):
            raise ValueError(f"{len(categories)} category sets for {len(vectors)} vectors")
        mixed = texts is not None and self.terms is not None
        results: list[dict[str, list[tuple[str, float]]]] = [{} for _ in range(len(vectors))]
        for attribute, probabilities in self.probabilities(vectors, texts).items():
            head = self.heads[attribute]
            if categories is None:
                chosen = head.decide(probabilities, fallback, mixed)
            else:
                applies = np.array([bool(set(self.practices[attribute]) & set(c)) for c in categories], dtype=bool)
                chosen = head.decide(probabilities, True, mixed) & applies[:, None]
            for i in range(len(vectors)):
                found = [(head.values[j], float(probabilities[i, j])) for j in np.flatnonzero(chosen[i])]
                if found:
                    results[i][attribute] = sorted(found, key=lambda pair: -pair[1])
        return results
