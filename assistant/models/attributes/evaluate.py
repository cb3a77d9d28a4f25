"""Scores of the OPP-115 attribute heads (`assistant eval attributes`): per attribute, micro and macro F1
over its values on a PrivacyGLUE split's segments and sentences where the attribute applies and a
majority of annotators gave it an informative value, beside a majority-class baseline (the attribute's
most frequent train value, always predicted).

Polisis (Harkous et al., USENIX Security 2018) reports attribute-level F1 for its CNN classifiers over its
own privacy-policy word embeddings, trained and tested on its own OPP-115 split of segments; its table
could not be retrieved here, so no Polisis numbers are printed (see docs/results.md)."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from assistant.corpora.opp115_attributes import AttributeExample
from assistant.models.attributes.model import RELEASE_DIR, AttributeClassifier
from assistant.models.attributes.train import UNITS, embed, load_examples

POLISIS_NOTE = ("Polisis (Harkous et al. 2018): per-attribute F1 table not retrievable in this environment; "
                "it used its own OPP-115 split and CNNs over its own embeddings, so numbers would not be comparable row for row")


def f1_scores(gold: np.ndarray, predicted: np.ndarray) -> dict[str, float]:
    """Micro F1, and macro F1 over the values with a gold or predicted example (in %)."""
    tp = (gold & predicted).sum(axis=0).astype(float)
    totals = gold.sum(axis=0) + predicted.sum(axis=0)
    micro = 2 * tp.sum() / max(1.0, float(totals.sum()))
    present = totals > 0
    macro = float(np.mean(2 * tp[present] / totals[present])) if present.any() else 0.0
    return {"micro_f1": round(100 * micro, 1), "macro_f1": round(100 * macro, 1)}


def _majority_values(directory: Path) -> dict[str, str]:
    records = json.loads((directory / "manifest.json").read_text())["metrics"]["validation"]
    return {a: max(r["train_counts"], key=r["train_counts"].get) for a, r in records.items()}


def score_attribute(classifier: AttributeClassifier, attribute: str, majority: str,
                    examples: list[AttributeExample], vectors: np.ndarray) -> dict:
    """Scores of one head on the examples where its attribute applies with a gold value: with the TF-IDF
    half mixed in (the texts known) and from the vectors alone."""
    head = classifier.heads[attribute]
    rows = [i for i, e in enumerate(examples) if e.applies(attribute) and e.gold(attribute)]
    values = list(head.values) + sorted({v for i in rows for v in examples[i].gold(attribute)} - set(head.values))
    gold = np.array([[v in examples[i].gold(attribute) for v in values] for i in rows], dtype=bool).reshape(len(rows), len(values))
    mixed, alone = np.zeros_like(gold), np.zeros_like(gold)
    if rows:
        terms = classifier.term_features([examples[i].text for i in rows])
        mixed[:, : len(head.values)] = head.decide(head.probabilities(vectors[rows], terms), fallback=True, mixed=True)
        alone[:, : len(head.values)] = head.decide(head.probabilities(vectors[rows]), fallback=True)
    baseline = np.zeros_like(gold)
    baseline[:, values.index(majority)] = True
    per_value = {value: {"gold": int(gold[:, j].sum()), "f1": round(100 * 2 * float((gold[:, j] & mixed[:, j]).sum())
                                                                     / max(1, int(gold[:, j].sum() + mixed[:, j].sum())), 1)}
                 for j, value in enumerate(values)}
    return {"examples": len(rows), **f1_scores(gold, mixed), "vectors_alone": f1_scores(gold, alone),
            "majority_baseline": {"value": majority, **f1_scores(gold, baseline)}, "per_value": per_value}


def evaluate(split: str = "test", directory: Path = RELEASE_DIR, limit: int | None = None) -> dict:
    """Per unit (segments, sentences) and attribute: examples, micro / macro F1 and the baseline's."""
    classifier = AttributeClassifier.load(directory)
    majority = _majority_values(directory)
    examples = load_examples(split, limit)
    vectors = embed([e.text for e in examples], log=lambda _: None)
    result: dict = {"split": split, "polisis": POLISIS_NOTE}
    for unit in UNITS:
        rows = [i for i, e in enumerate(examples) if e.unit == unit]
        unit_examples, unit_vectors = [examples[i] for i in rows], vectors[rows]
        result[f"{unit}s"] = {
            attribute: score_attribute(classifier, attribute, majority[attribute], unit_examples, unit_vectors)
            for attribute in classifier.attributes
        }
    return result
