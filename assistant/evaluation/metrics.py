"""Sentence-set precision / recall / F1 against several references (Ravichander et al. 2019, §4.2.1).

A prediction and each reference are *sets of sentence indices*. Against one reference:

- both empty: P = R = F1 = 1 (agreeing that the policy does not answer);
- exactly one empty: P = R = F1 = 0;
- otherwise P = |pred ∩ ref| / |pred|, R = |pred ∩ ref| / |ref|, F1 = 2PR / (P + R) (0 when P + R = 0).

Against n ≥ 2 references the paper's leave-one-out protocol is used: each reference in turn is held
out, the prediction is scored against each of the *other* n − 1 references and the best F1 is kept;
the n best scores are averaged. Precision and recall are averaged the same way, taking for each
held-out choice the P and R *of the reference that gave that maximum F1* (ties go to the earlier
reference, like Python's `max`, as in the authors' released scorer), so P, R and F1 of a question
always come from the same comparisons. With one reference the score is the plain score against it.

Over a data set, P, R and F1 are each the mean of the per-question values (`mean_score`), so the
reported F1 is the mean question F1, not the harmonic mean of the mean P and R.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass


@dataclass(frozen=True)
class Score:
    """Precision, recall and F1 as fractions in [0, 1]."""

    precision: float
    recall: float
    f1: float

    def percent(self) -> dict[str, float]:
        """{"precision", "recall", "f1"} as percentages rounded to one decimal."""
        return {"precision": percent(self.precision), "recall": percent(self.recall), "f1": percent(self.f1)}


PERFECT = Score(1.0, 1.0, 1.0)
ZERO = Score(0.0, 0.0, 0.0)


def percent(fraction: float) -> float:
    """A fraction as a percentage with one decimal, the way the paper's tables print them."""
    return round(100.0 * fraction, 1)


def set_score(prediction: AbstractSet[int], reference: AbstractSet[int]) -> Score:
    """P, R and F1 of a predicted sentence set against one reference set."""
    if not prediction and not reference:
        return PERFECT
    if not prediction or not reference:
        return ZERO
    common = len(set(prediction) & set(reference))
    if common == 0:
        return ZERO
    precision = common / len(prediction)
    recall = common / len(reference)
    return Score(precision, recall, 2 * precision * recall / (precision + recall))


def question_score(prediction: AbstractSet[int], references: Sequence[AbstractSet[int]]) -> Score:
    """The leave-one-out score of one question's prediction against its n references."""
    if not references:
        raise ValueError("a question needs at least one reference")
    if len(references) == 1:
        return set_score(prediction, references[0])
    best: list[Score] = []
    for held_out in range(len(references)):
        others = [set_score(prediction, ref) for i, ref in enumerate(references) if i != held_out]
        best.append(max(others, key=lambda score: score.f1))
    return mean_score(best)


def mean_score(scores: Iterable[Score]) -> Score:
    """Component-wise mean; the mean of nothing is an error rather than a silent 0."""
    scores = list(scores)
    if not scores:
        raise ValueError("cannot average zero scores")
    n = len(scores)
    return Score(
        sum(s.precision for s in scores) / n,
        sum(s.recall for s in scores) / n,
        sum(s.f1 for s in scores) / n,
    )


@dataclass(frozen=True)
class BinaryScore:
    """Precision, recall and F1 of the positive class, and accuracy, as fractions."""

    precision: float
    recall: float
    f1: float
    accuracy: float

    def percent(self) -> dict[str, float]:
        return {
            "precision": percent(self.precision),
            "recall": percent(self.recall),
            "f1": percent(self.f1),
            "accuracy": percent(self.accuracy),
        }


def binary_score(pairs: Iterable[tuple[bool, bool]]) -> BinaryScore:
    """Score (predicted, gold) booleans for the positive class; an empty denominator counts as 0."""
    pairs = list(pairs)
    if not pairs:
        raise ValueError("cannot score zero predictions")
    true_positive = sum(p and g for p, g in pairs)
    predicted = sum(p for p, _ in pairs)
    gold = sum(g for _, g in pairs)
    precision = true_positive / predicted if predicted else 0.0
    recall = true_positive / gold if gold else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    accuracy = sum(p == g for p, g in pairs) / len(pairs)
    return BinaryScore(precision, recall, f1, accuracy)
