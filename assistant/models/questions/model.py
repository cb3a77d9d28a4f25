"""Question-only classifiers: answerability (and why not) and the OPP-115 categories a question asks about.

Both are linear heads over the all-MiniLM-L6-v2 question embedding the retriever computes anyway,
so classifying a question costs one matrix product. Trained by `assistant train questions`
(data: nlu/question_data.py), weights in weights/question_classifier/.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch

from assistant.foundation.releases import WEIGHTS_DIR, load_release, save_release
from assistant.models.questions.data import (
    ANSWERABLE,
    LABELS,
    QUESTION_CATEGORIES,
    LabelledQuestion,
    privacyqa_questions,
)

RELEASE_DIR = WEIGHTS_DIR / "question_classifier"


@dataclass(frozen=True)
class QuestionAnalysis:
    label: str  # "answerable" or a reason: incomprehensible, out_of_scope, beyond_policy, vague
    label_probability: float
    answerable_probability: float
    categories: dict[str, float]  # OPP-115 category -> probability, for categories above threshold
    category_probabilities: dict[str, float]  # every category the classifier knows -> probability


class QuestionClassifier:
    """Linear answerability (softmax) and category (one-vs-rest sigmoid) heads over question embeddings."""

    def __init__(self, state: dict[str, torch.Tensor], config: dict) -> None:
        self.labels: list[str] = config["labels"]
        self.categories: list[str] = config["categories"]
        self.category_thresholds = np.array(config["category_thresholds"])
        self.reason_threshold: float = config["reason_threshold"]
        self._answerability = (state["answerability.weight"].numpy(), state["answerability.bias"].numpy())
        self._category = (state["category.weight"].numpy(), state["category.bias"].numpy())

    @classmethod
    def load(cls, directory: Path = RELEASE_DIR) -> QuestionClassifier:
        return cls(*load_release(directory))

    def analyse(self, embedding: np.ndarray) -> QuestionAnalysis:
        """Classify one L2-normalised question embedding."""
        label_probs = _softmax(embedding @ self._answerability[0].T + self._answerability[1])
        category_probs = _sigmoid(embedding @ self._category[0].T + self._category[1])
        best = int(np.argmax(label_probs))
        answerable_p = float(label_probs[self.labels.index(ANSWERABLE)])
        label = self.labels[best]
        if label != ANSWERABLE and label_probs[best] < self.reason_threshold:
            label = ANSWERABLE  # not sure enough to refuse: let retrieval decide
        return QuestionAnalysis(
            label=label,
            label_probability=float(label_probs[self.labels.index(label)]),
            answerable_probability=answerable_p,
            categories={c: round(float(p), 4) for c, p, t in
                        zip(self.categories, category_probs, self.category_thresholds) if p >= t},
            category_probabilities={c: float(p) for c, p in zip(self.categories, category_probs)},
        )


def _softmax(logits: np.ndarray) -> np.ndarray:
    exp = np.exp(logits - logits.max())
    return exp / exp.sum()


def _sigmoid(logits: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-logits))


# --------------------------------------------------------------------------- training


def _fit_answerability(x: np.ndarray, y: np.ndarray, c: float):
    from sklearn.linear_model import LogisticRegression

    return LogisticRegression(C=c, max_iter=3000, class_weight="balanced").fit(x, y)


def _fit_categories(x: np.ndarray, y: np.ndarray, c: float) -> list:
    from sklearn.linear_model import LogisticRegression

    return [LogisticRegression(C=c, max_iter=3000, class_weight="balanced").fit(x, y[:, j]) for j in range(y.shape[1])]


def train_release(embedder, c_answerability: float = 8.0, c_category: float = 4.0,
                  reason_threshold: float = 0.9) -> dict:
    """Fit both heads on all training questions; report cross-validated and held-out scores."""
    from sklearn.metrics import f1_score
    from sklearn.model_selection import StratifiedKFold, cross_val_predict

    from assistant.models.questions.data import training_questions

    questions = training_questions()
    x = embedder.encode([q.text for q in questions])
    y = np.array([LABELS.index(q.label) for q in questions])
    folds = StratifiedKFold(5, shuffle=True, random_state=0)
    cv_pred = cross_val_predict(_fit_answerability(x, y, c_answerability), x, y, cv=folds)
    per_label = f1_score(y, cv_pred, average=None, labels=list(range(len(LABELS))))
    answerability = _fit_answerability(x, y, c_answerability)

    with_categories = [q for q in questions if q.categories]
    xc = embedder.encode([q.text for q in with_categories])
    yc = np.array([[c in q.categories for c in QUESTION_CATEGORIES] for q in with_categories], dtype=int)
    category_models = _fit_categories(xc, yc, c_category)
    thresholds = [0.5] * len(QUESTION_CATEGORIES)

    state = {
        "answerability.weight": torch.tensor(answerability.coef_, dtype=torch.float32),
        "answerability.bias": torch.tensor(answerability.intercept_, dtype=torch.float32),
        "category.weight": torch.tensor(np.vstack([m.coef_ for m in category_models]), dtype=torch.float32),
        "category.bias": torch.tensor(np.concatenate([m.intercept_ for m in category_models]), dtype=torch.float32),
    }
    config = {"labels": list(LABELS), "categories": QUESTION_CATEGORIES, "category_thresholds": thresholds,
              "reason_threshold": reason_threshold}
    classifier = QuestionClassifier(state, config)
    metrics = {
        "answerability_cv5_f1": {label: round(100 * f, 1) for label, f in zip(LABELS, per_label)},
        "answerability_cv5_macro_f1": round(100 * float(np.mean(per_label)), 1),
        "categories_privacyqa_test": category_scores(classifier, embedder, privacyqa_questions("test")),
    }
    counts = {label: int((y == i).sum()) for i, label in enumerate(LABELS)}
    data = {"questions": len(questions), "by_label": counts, "with_categories": len(with_categories),
            "sources": "PolicyQA dev questions, PrivacyQA train questions + expert flags, "
                       "data/answerability/*.txt, generated gibberish (nlu/question_data.py)"}
    save_release(RELEASE_DIR, state, config, data, "assistant train questions", metrics)
    return metrics


def category_scores(classifier: QuestionClassifier, embedder, questions: list[LabelledQuestion]) -> dict:
    """Macro / micro F1 (%) over the categories PrivacyQA flags, on questions with at least one flag."""
    from sklearn.metrics import f1_score

    flagged = [q for q in questions if q.categories]
    labels = sorted({c for q in flagged for c in q.categories})
    embeddings = embedder.encode([q.text for q in flagged])
    predicted = [classifier.analyse(e).categories for e in embeddings]
    y_true = np.array([[c in q.categories for c in labels] for q in flagged])
    y_pred = np.array([[c in p for c in labels] for p in predicted])
    return {"questions": len(flagged), "categories": labels,
            "macro_f1": round(100 * f1_score(y_true, y_pred, average="macro", zero_division=0), 1),
            "micro_f1": round(100 * f1_score(y_true, y_pred, average="micro", zero_division=0), 1)}
