"""Training of the OPP-115 attribute heads (`assistant train attributes`): one-vs-rest logistic
regressions per attribute value over the retriever's sentence vectors (and over TF-IDF terms), on the PrivacyGLUE train split's
segments and sentences where the attribute applies; C per attribute and one threshold per value chosen
on the validation split; the release written to weights/attributes/ with its manifest."""
from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

import numpy as np

from assistant.corpora.opp115_attributes import (
    ATTRIBUTES,
    MAJORITY,
    AttributeExample,
    load_attribute_split,
    value_matrix,
)
from assistant.foundation.maths import sigmoid
from assistant.foundation.releases import sha256_of, write_manifest
from assistant.foundation.resources import cache_dir
from assistant.models.attributes.lexical import MAX_TERMS, fit_vocabulary, vectorizer
from assistant.models.attributes.model import RELEASE_DIR, AttributeClassifier, AttributeHead
from assistant.models.retriever.model import RELEASE_DIR as RETRIEVER_DIR
from assistant.models.retriever.model import Embedder

C_GRID = (0.25, 1.0, 4.0, 16.0)  # for the vector regressions
LEXICAL_C_GRID = (1.0, 4.0, 16.0, 64.0)  # for the TF-IDF ones
MIN_EXAMPLES = 3  # a value needs this many positive train examples to get a head
UNITS = ("segment", "sentence")
# train targets: the values a majority gave, as on validation and test (any annotator's values, 1/3, was
# tried: validation macro F1 up for 5 attributes, down for 7; docs/lab/notebook.md)
TRAIN_MIN_SHARE = MAJORITY
LEXICAL_SHARE = 0.5  # the TF-IDF half's share of the mixed probability (as in the practice tagger)


def embed(texts: Sequence[str], log: Callable[[str], None] = print) -> np.ndarray:
    """The retriever's vectors of `texts`, cached on disk (keyed by the texts and the retriever release)."""
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


def _fit(features, gold: np.ndarray, c: float) -> tuple[np.ndarray, np.ndarray]:
    from sklearn.linear_model import LogisticRegression

    weights, intercepts = [], []
    for column in gold.T:
        if column.all() or not column.any():  # one class only (small subsets): a constant
            weights.append(np.zeros(features.shape[1]))
            intercepts.append(10.0 if column.all() else -10.0)
            continue
        regression = LogisticRegression(C=c, max_iter=2000, class_weight="balanced").fit(features, column)
        weights.append(regression.coef_[0])
        intercepts.append(regression.intercept_[0])
    return np.asarray(weights, dtype=np.float32), np.asarray(intercepts, dtype=np.float32)


def _tune_thresholds(head: AttributeHead, probabilities: np.ndarray, gold: np.ndarray) -> np.ndarray:
    """Per value, the threshold with the best F1 on validation (the argmax fallback kept), in turn."""
    thresholds = np.full(len(head.values), 0.5, dtype=np.float32)
    for j in range(gold.shape[1]):
        best, best_f1 = thresholds[j], -1.0
        for t in np.linspace(0.1, 0.9, 17):
            trial = replace(head, thresholds=np.where(np.arange(len(thresholds)) == j, t, thresholds).astype(np.float32),
                            mixed_thresholds=None)
            predicted = trial.decide(probabilities, fallback=True)
            tp = float((predicted[:, j] & gold[:, j]).sum())
            f1 = 2 * tp / max(1.0, predicted[:, j].sum() + gold[:, j].sum())
            if f1 > best_f1 + 1e-9:
                best, best_f1 = t, f1
        thresholds[j] = best
    return thresholds


def _best_fit(features, gold: np.ndarray, dev_features, dev_gold: np.ndarray,
              grid: Sequence[float]) -> tuple[np.ndarray, np.ndarray, float]:
    """The regressions with the C (from `grid`) whose validation macro F1 (at 0.5, top value kept) is best."""
    best = None
    for c in grid:
        weights, intercepts = _fit(features, gold, c)
        probabilities = sigmoid(np.asarray(dev_features @ weights.T) + intercepts)
        chosen = probabilities >= 0.5
        empty = ~chosen.any(axis=1)
        chosen[empty, np.argmax(probabilities[empty], axis=1)] = True
        score = macro_f1(dev_gold, chosen) if len(dev_gold) else 0.0
        if best is None or score > best[0]:
            best = (score, weights, intercepts, c)
    return best[1], best[2], best[3]


def train_head(attribute: str, train: list[AttributeExample], train_vectors: np.ndarray, train_terms,
               validation: list[AttributeExample], validation_vectors: np.ndarray,
               validation_terms) -> tuple[AttributeHead, dict] | None:
    """The head of one attribute: C of each half and the thresholds chosen on validation; None when too few
    examples."""
    rows = [i for i, e in enumerate(train) if e.applies(attribute) and e.gold(attribute, TRAIN_MIN_SHARE)]
    counts: dict[str, int] = {}
    for i in rows:
        for value in train[i].gold(attribute, TRAIN_MIN_SHARE):
            counts[value] = counts.get(value, 0) + 1
    values = sorted(v for v, n in counts.items() if n >= MIN_EXAMPLES)
    if len(values) < 2:
        return None
    gold = value_matrix([train[i] for i in rows], attribute, values, TRAIN_MIN_SHARE)
    keep = np.asarray(rows)[gold.any(axis=1)]
    y = gold[gold.any(axis=1)]
    dev_rows = [i for i, e in enumerate(validation) if e.applies(attribute) and e.gold(attribute) & set(values)]
    if not dev_rows:
        return None
    dev_gold = value_matrix([validation[i] for i in dev_rows], attribute, values)
    weights, intercepts, c = _best_fit(train_vectors[keep], y, validation_vectors[dev_rows], dev_gold, C_GRID)
    lexical_weights, lexical_intercepts, lexical_c = _best_fit(train_terms[keep], y, validation_terms[dev_rows], dev_gold,
                                                            LEXICAL_C_GRID)
    head = AttributeHead(values, weights, intercepts, np.full(len(values), 0.5, dtype=np.float32),
                         lexical_weights, lexical_intercepts, None, LEXICAL_SHARE)
    vector_probabilities = head.probabilities(validation_vectors[dev_rows])
    mixed_probabilities = head.probabilities(validation_vectors[dev_rows], validation_terms[dev_rows])
    head.thresholds = _tune_thresholds(head, vector_probabilities, dev_gold)
    head.mixed_thresholds = _tune_thresholds(head, mixed_probabilities, dev_gold)
    vector_f1 = macro_f1(dev_gold, head.decide(vector_probabilities, fallback=True))
    mixed_f1 = macro_f1(dev_gold, head.decide(mixed_probabilities, fallback=True, mixed=True))
    if mixed_f1 <= vector_f1:  # the TF-IDF half does not help this attribute on validation: vectors alone
        head = replace(head, lexical_weights=None, lexical_intercepts=None, mixed_thresholds=None, lexical_share=0.0)
    return head, {"c": c, "lexical_c": lexical_c, "train_examples": len(keep), "validation_examples": len(dev_rows),
                  "validation_macro_f1": {"vectors": round(100 * vector_f1, 1), "mixed": round(100 * mixed_f1, 1)},
                  "lexical_share": head.lexical_share,
                  "train_counts": {v: counts[v] for v in values}}


def train(directory: Path = RELEASE_DIR, limit: int | None = None, log: Callable[[str], None] = print,
          command: str = "assistant train attributes") -> AttributeClassifier:
    """Train every attribute head and write the release into `directory`."""
    train_examples, validation = load_examples("train", limit), load_examples("validation", limit)
    train_vectors = embed([e.text for e in train_examples], log)
    validation_vectors = embed([e.text for e in validation], log)
    terms, idf = fit_vocabulary([e.text for e in train_examples])
    tfidf = vectorizer({t: i for i, t in enumerate(terms)}, idf)
    train_terms = tfidf.transform([e.text for e in train_examples])
    validation_terms = tfidf.transform([e.text for e in validation])
    heads, records = {}, {}
    for attribute in ATTRIBUTES:
        trained = train_head(attribute, train_examples, train_vectors, train_terms, validation, validation_vectors,
                             validation_terms)
        if trained is None:
            log(f"{attribute}: too few examples, no head")
            continue
        heads[attribute], records[attribute] = trained
        log(f"{attribute}: {len(trained[0].values)} values, C={trained[1]['c']} / {trained[1]['lexical_c']}, "
            f"validation macro F1 {trained[1]['validation_macro_f1']}")
    classifier = AttributeClassifier(heads, {a: list(ATTRIBUTES[a]) for a in heads}, terms, idf)
    data = {
        "corpus": "OPP-115 attribute values (assistant/corpora/opp115_attributes.py) on the PrivacyGLUE majority split",
        "train": {unit: sum(e.unit == unit for e in train_examples) for unit in UNITS},
        "validation": {unit: sum(e.unit == unit for e in validation) for unit in UNITS},
        "limit": limit,
    }
    classifier.save(directory)
    write_manifest(directory, data, command, {"validation": records},
                   base="the retriever's sentence vectors (weights/retriever/, 384-dim)",
                   recipe="per value, a class-balanced logistic regression over the vectors and one over TF-IDF word "
                          f"1-2 grams ({MAX_TERMS} terms), mixed {1 - LEXICAL_SHARE:g} / {LEXICAL_SHARE:g} where that beats the vectors alone on "
                          "validation macro F1; C from "
                          f"{list(C_GRID)} (vectors) and {list(LEXICAL_C_GRID)} (TF-IDF) and per-value thresholds (vectors alone; the mix) on validation; "
                          "the top value when none passes")
    return classifier
