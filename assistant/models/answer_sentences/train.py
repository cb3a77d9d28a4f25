"""Fitting the answer-sentence scorer (`assistant train answer-sentences`): for each facet, a class-balanced
logistic regression on the retriever's vectors of the sentences that speak of it, the ones readers labelled as
supporting the answer against the rest. Facets with too few labelled sentences of either kind share the head
fitted on all of them (`ANY_FACET`).

The labelled sentences come in as `LabelledSentence`s (built from the answers sets by
`assistant.evaluation.answer_sentences`): a model package imports nothing from the layers above it. C and the
weight were chosen by leaving each answers set out in turn (`python -m lab.answer_sentence_study`), on the first
quote the verdict stage then gives on the set left out."""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from assistant.foundation.releases import write_manifest
from assistant.models.answer_sentences.model import ANY_FACET, RELEASE_DIR, AnswerSentenceScorer

# Chosen on the held-out sets' pooled first quote, each set left out in turn (lab.answer_sentence_study; without
# the scorer 83.0): C 1 / 3 / 10 at weight 1.0 → 85.7 / 86.4 / 87.1, at weight 1.5 → 86.0 / 86.5 / 88.0.
C = 10.0  # inverse regularisation
WEIGHT = 1.5  # the logit's weight beside the selection logit
MIN_EACH = 5  # labelled sentences of each kind a facet needs for a head of its own


@dataclass(frozen=True)
class LabelledSentence:
    """A sentence that speaks of a question's facet, and whether readers labelled it as supporting the answer."""

    answers_set: str  # the answers set it comes from (so a set can be left out)
    item: str  # the question and policy it was labelled for
    facet: str
    vector: np.ndarray  # the retriever's stored vector of the sentence
    supports: bool


def fit(sentences: list[LabelledSentence], c: float = C, weight: float = WEIGHT) -> AnswerSentenceScorer:
    """One head per facet with at least `MIN_EACH` supporting and other sentences, and the shared head."""
    from sklearn.linear_model import LogisticRegression  # training only

    def head(rows: list[LabelledSentence]) -> tuple[np.ndarray, float]:
        model = LogisticRegression(C=c, class_weight="balanced", max_iter=3000)
        model.fit(np.stack([r.vector for r in rows]), np.array([r.supports for r in rows]))
        return model.coef_[0], float(model.intercept_[0])

    facets = sorted({r.facet for r in sentences if _enough([s for s in sentences if s.facet == r.facet])})
    heads = [head([r for r in sentences if r.facet == facet]) for facet in facets] + [head(sentences)]
    return AnswerSentenceScorer([*facets, ANY_FACET], np.stack([w for w, _ in heads]),
                                np.array([b for _, b in heads]), weight)


def _enough(rows: list[LabelledSentence]) -> bool:
    kinds = Counter(r.supports for r in rows)
    return kinds[True] >= MIN_EACH and kinds[False] >= MIN_EACH


def counts(sentences: list[LabelledSentence]) -> dict[str, dict[str, int]]:
    """Per facet, how many supporting and other sentences (for the manifest)."""
    out: dict[str, dict[str, int]] = {}
    for r in sentences:
        row = out.setdefault(r.facet, {"supporting": 0, "other": 0})
        row["supporting" if r.supports else "other"] += 1
    return dict(sorted(out.items()))


def left_out_top1(sentences: list[LabelledSentence], c: float = C) -> dict[str, float]:
    """Each answers set left out in turn, the rest fitted: how often the head's best-scored sentence of an item
    (one whose policy addresses the facet) is a supporting one, per set and pooled (percentages)."""
    sets = sorted({r.answers_set for r in sentences})
    hits: dict[str, list[bool]] = {}
    for left_out in sets:
        scorer = fit([r for r in sentences if r.answers_set != left_out], c)
        items: dict[str, list[LabelledSentence]] = {}
        for r in sentences:
            if r.answers_set == left_out:
                items.setdefault(r.item, []).append(r)
        for rows in items.values():
            if any(r.supports for r in rows):
                logits = scorer.logits(rows[0].facet, np.stack([r.vector for r in rows]))
                hits.setdefault(left_out, []).append(rows[int(np.argmax(logits))].supports)
    share = {name: round(100 * float(np.mean(flags)), 1) for name, flags in hits.items()}
    return share | {"pooled": round(100 * float(np.mean([f for flags in hits.values() for f in flags])), 1)}


def write_release(sentences: list[LabelledSentence], directory: Path = RELEASE_DIR,
                  log: Callable[[str], None] = print) -> AnswerSentenceScorer:
    """Fit on every labelled sentence and write the release with its manifest (the left-out figures in it)."""
    log(f"{len(sentences)} labelled sentences; leaving each answers set out in turn …")
    left_out = left_out_top1(sentences)
    log(f"the head's best sentence is a labelled one, each set left out: {left_out}")
    scorer = fit(sentences)
    scorer.save(directory)
    write_manifest(directory, {"answers_sets": sorted({r.answers_set for r in sentences}), "sentences": counts(sentences)},
                   "assistant train answer-sentences", {"left_out_top1": left_out},
                   base="weights/retriever (the stored sentence vectors)",
                   recipe=f"per-facet class-balanced logistic regression, C={C}, weight {WEIGHT} (lab.answer_sentence_study)")
    log(f"wrote {directory}")
    return scorer
