"""Training of the OPP-115 attribute heads (`assistant train attributes`): one-vs-rest logistic
regressions per attribute value over the retriever's sentence vectors, on the PrivacyGLUE train split's
segments and sentences where the attribute applies; C per attribute and one threshold per value chosen
on the validation split; the release written to weights/attributes/ with its manifest."""
from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from assistant.corpora.opp115_attributes import ATTRIBUTES, AttributeExample, load_attribute_split, value_matrix
from assistant.foundation.releases import sha256_of, write_manifest
from assistant.foundation.resources import cache_dir
from assistant.models.attributes.model import RELEASE_DIR, AttributeClassifier, AttributeHead

C_GRID = (0.25, 1.0, 4.0, 16.0)
MIN_EXAMPLES = 3  # a value needs this many positive train examples to get a head
UNITS = ("segment", "sentence")


def embed(texts: Sequence[str], log: Callable[[str], None] = print) -> np.ndarray:
    """The retriever's vectors of `texts`, cached on disk (keyed by the texts and the retriever release)."""
    from assistant.models.retriever.model import RELEASE_DIR as RETRIEVER_DIR
    from assistant.models.retriever.model import Embedder

    key = hashlib.sha256("\n".join(texts).encode() + sha256_of([RETRIEVER_DIR / "model.safetensors"]).encode())
    path = cache_dir() / "attribute_vectors" / f"{key.hexdigest()[:24]}.npy"
    if path.exists():
        return np.load(path)
    log(f"embedding {len(texts)} texts with the retriever…")
    vectors = Embedder.load_retriever().encode(list(texts))
    path.parent.mkdir(parents=True, exist_ok=True)
    np.save(path, vectors)
    return vectors


def load_examples(split: str, limit: int | None = None) -> list[AttributeExample]:
    """A split's segments and sentences (segments first), each unit limited to `limit`."""
    return [e for unit in UNITS for e in load_attribute_split(split, unit, limit)]


def macro_f1(gold: np.ndarray, predicted: np.ndarray) -> float:
    """Macro F1 over the values with a gold or predicted example."""
    scores = []
    for j in range(gold.shape[1]):
        tp = float((gold[:, j] & predicted[:, j]).sum())
        total = float(gold[:, j].sum() + predicted[:, j].sum())
        if total:
            scores.append(2 * tp / total)
    return float(np.mean(scores)) if scores else 0.0


def _fit(vectors: np.ndarray, gold: np.ndarray, c: float) -> tuple[np.ndarray, np.ndarray]:
    from sklearn.linear_model import LogisticRegression

    weights, intercepts = [], []
    for column in gold.T:
        regression = LogisticRegression(C=c, max_iter=2000, class_weight="balanced").fit(vectors, column)
        weights.append(regression.coef_[0])
        intercepts.append(regression.intercept_[0])
    return np.asarray(weights, dtype=np.float32), np.asarray(intercepts, dtype=np.float32)


def _tune_thresholds(head: AttributeHead, vectors: np.ndarray, gold: np.ndarray) -> np.ndarray:
    """Per value, the threshold with the best F1 on validation (the argmax fallback kept)."""
    probabilities = head.probabilities(vectors)
    thresholds = head.thresholds.copy()
    for j in range(gold.shape[1]):
        best, best_f1 = thresholds[j], -1.0
        for t in np.linspace(0.1, 0.9, 17):
            trial = thresholds.copy()
            trial[j] = t
            predicted = AttributeHead(head.values, head.weights, head.intercepts, trial).decide(probabilities, fallback=True)
            tp = float((predicted[:, j] & gold[:, j]).sum())
            f1 = 2 * tp / max(1.0, predicted[:, j].sum() + gold[:, j].sum())
            if f1 > best_f1 + 1e-9:
                best, best_f1 = t, f1
        thresholds[j] = best
    return thresholds


def train_head(attribute: str, train: list[AttributeExample], train_vectors: np.ndarray,
               validation: list[AttributeExample], validation_vectors: np.ndarray) -> tuple[AttributeHead, dict] | None:
    """The head of one attribute: C and thresholds chosen on validation; None when too few examples."""
    rows = [i for i, e in enumerate(train) if e.applies(attribute) and e.gold(attribute)]
    counts: dict[str, int] = {}
    for i in rows:
        for value in train[i].gold(attribute):
            counts[value] = counts.get(value, 0) + 1
    values = sorted(v for v, n in counts.items() if n >= MIN_EXAMPLES)
    if len(values) < 2:
        return None
    gold = value_matrix([train[i] for i in rows], attribute, values)
    keep = gold.any(axis=1)
    x, y = train_vectors[rows][keep], gold[keep]
    dev_rows = [i for i, e in enumerate(validation) if e.applies(attribute) and e.gold(attribute) & set(values)]
    dev_x = validation_vectors[dev_rows]
    dev_gold = value_matrix([validation[i] for i in dev_rows], attribute, values)
    best: tuple[float, AttributeHead, float] | None = None
    for c in C_GRID:
        weights, intercepts = _fit(x, y, c)
        head = AttributeHead(values, weights, intercepts, np.full(len(values), 0.5, dtype=np.float32))
        score = macro_f1(dev_gold, head.decide(head.probabilities(dev_x), fallback=True)) if dev_rows else 0.0
        if best is None or score > best[0]:
            best = (score, head, c)
    score, head, c = best
    if dev_rows:
        head.thresholds = _tune_thresholds(head, dev_x, dev_gold)
    tuned = macro_f1(dev_gold, head.decide(head.probabilities(dev_x), fallback=True)) if dev_rows else 0.0
    return head, {"c": c, "train_examples": int(keep.sum()), "validation_examples": len(dev_rows),
                  "validation_macro_f1": round(100 * tuned, 1), "train_counts": {v: counts[v] for v in values}}


def train(directory: Path = RELEASE_DIR, limit: int | None = None, log: Callable[[str], None] = print,
          command: str = "assistant train attributes") -> AttributeClassifier:
    """Train every attribute head and write the release into `directory`."""
    train_examples, validation = load_examples("train", limit), load_examples("validation", limit)
    train_vectors = embed([e.text for e in train_examples], log)
    validation_vectors = embed([e.text for e in validation], log)
    heads, records = {}, {}
    for attribute in ATTRIBUTES:
        trained = train_head(attribute, train_examples, train_vectors, validation, validation_vectors)
        if trained is None:
            log(f"{attribute}: too few examples, no head")
            continue
        heads[attribute], records[attribute] = trained
        log(f"{attribute}: {len(trained[0].values)} values, C={trained[1]['c']}, "
            f"validation macro F1 {trained[1]['validation_macro_f1']}")
    classifier = AttributeClassifier(heads)
    data = {
        "corpus": "OPP-115 attribute values (assistant/corpora/opp115_attributes.py) on the PrivacyGLUE majority split",
        "train": {unit: sum(e.unit == unit for e in train_examples) for unit in UNITS},
        "validation": {unit: sum(e.unit == unit for e in validation) for unit in UNITS},
        "limit": limit,
    }
    classifier.save(directory)
    write_manifest(directory, data, command, {"validation": records},
                   base="the retriever's sentence vectors (weights/retriever/, 384-dim)",
                   recipe="one-vs-rest logistic regression per value (class-balanced); C per attribute from "
                          f"{list(C_GRID)} and per-value thresholds on validation; the top value when none passes")
    return classifier
