"""Scoring the question classifiers: category F1 on PrivacyQA's expert-flagged questions."""
from __future__ import annotations

import numpy as np

from assistant.models.questions.data import LabelledQuestion
from assistant.models.questions.model import QuestionClassifier


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
