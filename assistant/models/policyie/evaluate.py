"""Scoring the PolicyIE model: the paper's measures, and `evaluate(split)` behind `assistant eval policyie`."""
from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from assistant.corpora.policyie import PolicyIEExample, load_split
from assistant.models.policyie.model import RELEASE_DIR, PolicyIETagger, TaggedSentence


def score(gold: Sequence[PolicyIEExample], predicted: Sequence[TaggedSentence]) -> dict[str, float]:
    """The paper's measures, in %: intent micro-F1, type-I/II slot F1 (exact span and label,
    seqeval) and exact match (intent right and every slot of that type right)."""
    from seqeval.metrics import f1_score

    intent_right = [g.intent == p.intent for g, p in zip(gold, predicted)]
    result = {"sentences": len(gold), "intent_f1": 100 * float(np.mean(intent_right))}
    for kind in ("type_i", "type_ii"):
        gold_tags = [list(getattr(g, kind)) for g in gold]
        predicted_tags = [getattr(p, kind) for p in predicted]
        result[f"{kind}_f1"] = 100 * float(f1_score(gold_tags, predicted_tags))
        result[f"{kind}_em"] = 100 * float(np.mean([
            right and _spans(g) == _spans(p) for right, g, p in zip(intent_right, gold_tags, predicted_tags)
        ]))
    return {k: round(v, 1) if isinstance(v, float) else v for k, v in result.items()}


def _spans(tags: list[str]) -> set[tuple[str, int, int]]:
    from seqeval.metrics.sequence_labeling import get_entities

    return set(get_entities(tags))


def evaluate(split: str, limit: int | None = None, directory: Path = RELEASE_DIR,
             tagger: PolicyIETagger | None = None) -> dict:
    """The shipped model's scores on a split (test only for the final report); `tagger`: score this one instead of
    the release's own graph (the one-pass graph in lab/one_pass's reading)."""
    examples = load_split(split)[:limit]
    tagger = tagger or PolicyIETagger.load(directory)
    return {"split": split, **score(examples, tagger.tag([e.tokens for e in examples]))}
