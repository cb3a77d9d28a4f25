"""Scores of the OPP-115 practice tagger: PrivacyGLUE's segment F1 and the sentence-level scores
(`assistant eval categories`)."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from assistant.corpora.practice_segments import load_split
from assistant.corpora.practice_sentences import load_sentence_split, target_matrix
from assistant.models.practices.model import RELEASE_DIR, PracticeClassifier


def scores(gold: list[frozenset[str]], predicted: list[list[str]], labels: list[str]) -> dict[str, float]:
    """Macro and micro F1 (in %) over the labels, as PrivacyGLUE reports them."""
    from sklearn.metrics import f1_score

    y_true = np.array([[label in g for label in labels] for g in gold])
    y_pred = np.array([[label in p for label in labels] for p in predicted])
    return {
        "macro_f1": round(100 * f1_score(y_true, y_pred, average="macro", zero_division=0), 1),
        "micro_f1": round(100 * f1_score(y_true, y_pred, average="micro", zero_division=0), 1),
    }


def evaluate(split: str, limit: int | None = None, directory: Path = RELEASE_DIR, sentences: bool = False,
             classifier: PracticeClassifier | None = None) -> dict:
    """Scores of the shipped classifier on an OPP-115 majority split: its segments (macro/micro F1,
    as PrivacyGLUE reports them), or with `sentences` its sentences labelled from the annotators'
    spans (a category is gold when at least half the annotators marked it): macro F1 at the
    thresholds and macro average precision, over the categories with a gold sentence. `classifier`: score this
    one instead of the release's own graph (the one-pass graph in lab/one_pass's reading)."""
    classifier = classifier or PracticeClassifier.load(directory)
    if not sentences:
        examples = load_split(split)[:limit]
        predicted = classifier.predict([e.text for e in examples])
        return {"split": split, "segments": len(examples),
                **scores([e.labels for e in examples], predicted, classifier.labels)}
    from sklearn.metrics import average_precision_score, f1_score

    rows = load_sentence_split(split, limit)
    gold = target_matrix(rows, classifier.labels) >= 0.5
    probabilities = classifier.probabilities([r.text for r in rows])
    present = gold.any(axis=0)
    average_precision = [average_precision_score(gold[:, j], probabilities[:, j]) for j in np.flatnonzero(present)]
    macro_f1 = f1_score(gold[:, present], probabilities[:, present] >= classifier.thresholds[present],
                        average="macro", zero_division=0)
    return {"split": split, "sentences": len(rows), "macro_f1": round(100 * float(macro_f1), 1),
            "macro_average_precision": round(100 * float(np.mean(average_precision)), 1)}
