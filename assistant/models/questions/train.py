"""Fitting the question classifiers' two linear heads and writing weights/question_classifier/.

    assistant train questions        # reproduces weights/question_classifier/
"""
from __future__ import annotations

import numpy as np
import torch

from assistant.foundation.releases import save_release
from assistant.models.questions.data import LABELS, QUESTION_CATEGORIES, privacyqa_questions, training_questions
from assistant.models.questions.evaluate import category_scores
from assistant.models.questions.model import RELEASE_DIR, QuestionClassifier


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
                       "assistant/models/questions/wordlists/*.txt, generated gibberish (assistant/models/questions/data.py)"}
    save_release(RELEASE_DIR, state, config, data, "assistant train questions", metrics)
    return metrics
