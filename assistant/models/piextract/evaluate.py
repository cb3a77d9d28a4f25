"""Scoring the PI-Extract tagger: entity-level (exact span, seqeval) micro P/R/F1 per tag layer and
overall, the macro F1 over the four layers, and `evaluate(split)` behind `assistant eval piextract`."""
from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from assistant.corpora.piextract import PIExtractSentence, load
from assistant.models.piextract.model import LAYERS, RELEASE_DIR, PIExtractTagger


def score(gold: Sequence[PIExtractSentence], predicted: Sequence[dict[str, list[str]]]) -> dict:
    """Per layer and overall (all four layers' spans pooled): precision, recall, F1 in %, gold span
    count; `macro_f1`: the mean of the four layers' F1."""
    from seqeval.metrics.sequence_labeling import get_entities

    counts = {}
    for layer in LAYERS:
        right = found = expected = 0
        for g, p in zip(gold, predicted, strict=True):
            gold_spans, predicted_spans = set(get_entities(list(g.tags[layer]))), set(get_entities(p[layer]))
            right += len(gold_spans & predicted_spans)
            found += len(predicted_spans)
            expected += len(gold_spans)
        counts[layer] = (right, found, expected)
    counts["overall"] = tuple(sum(c[k] for c in counts.values()) for k in range(3))
    result = {"sentences": len(gold)}
    for name, (right, found, expected) in counts.items():
        precision = right / found if found else 0.0
        recall = right / expected if expected else 0.0
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        result[name] = {"precision": round(100 * precision, 1), "recall": round(100 * recall, 1),
                        "f1": round(100 * f1, 1), "spans": expected}
    result["micro_f1"] = result["overall"]["f1"]
    result["macro_f1"] = round(sum(result[layer]["f1"] for layer in LAYERS) / len(LAYERS), 1)
    return result


def evaluate(split: str, limit: int | None = None, directory: Path = RELEASE_DIR) -> dict:
    """The shipped model's scores on a split: `test` (the final report) or `dev` (10% of train, tuning)."""
    sentences = load(split)[:limit]
    tagger = PIExtractTagger.load(directory)
    return {"split": split, **score(sentences, tagger.tag_tokens([s.tokens for s in sentences]))}
