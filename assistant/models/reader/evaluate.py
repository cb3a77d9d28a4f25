"""SQuAD 1.1 scoring of the span reader (the official normalisation), and `evaluate(split)` behind
`assistant eval policyqa`."""
from __future__ import annotations

import collections
import re
import string
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from assistant.corpora.policyqa import QAExample, load_split
from assistant.models.reader.model import RELEASE_DIR, SpanReader, best_span


def normalize_answer(text: str) -> str:
    """Lower case, remove punctuation, articles and extra whitespace (SQuAD 1.1's evaluate-v1.1.py)."""
    text = text.lower()
    text = "".join(ch for ch in text if ch not in set(string.punctuation))
    text = re.sub(r"\b(a|an|the)\b", " ", text)
    return " ".join(text.split())


def f1_score(prediction: str, truth: str) -> float:
    predicted, gold = normalize_answer(prediction).split(), normalize_answer(truth).split()
    common = collections.Counter(predicted) & collections.Counter(gold)
    same = sum(common.values())
    if same == 0:
        return 0.0
    precision, recall = same / len(predicted), same / len(gold)
    return 2 * precision * recall / (precision + recall)


def exact_match(prediction: str, truth: str) -> float:
    return float(normalize_answer(prediction) == normalize_answer(truth))


def squad_scores(examples: Sequence[QAExample], predictions: Sequence[str]) -> dict[str, float]:
    """EM and F1 in %, each the maximum over the example's gold answers, averaged over examples."""
    em = [max(exact_match(p, text) for text, _ in e.answers) for e, p in zip(examples, predictions)]
    f1 = [max(f1_score(p, text) for text, _ in e.answers) for e, p in zip(examples, predictions)]
    return {"questions": len(examples), "em": round(100 * float(np.mean(em)), 1),
            "f1": round(100 * float(np.mean(f1)), 1)}


def predict_answers(reader: SpanReader, examples: Sequence[QAExample]) -> list[str]:
    """The reader's answer for each example; SQuAD 1.1 always has an answer, so no-span is not allowed
    to win here (the best span is taken)."""
    predictions = reader.read([e.question for e in examples], [e.context for e in examples])
    return [p.text if p.found else _forced_span(reader, e) for p, e in zip(predictions, examples)]


def _forced_span(reader: SpanReader, example: QAExample) -> str:
    batch, start_logits, end_logits = reader.scores([example.question], [example.context])
    start_logits, end_logits = start_logits[0].copy(), end_logits[0].copy()
    start_logits[0] = end_logits[0] = -1e4  # rule out no-span
    encoding = batch.encodings[0]
    return best_span(example.context, start_logits, end_logits, encoding.offsets, encoding.sequence_ids, None).text


def evaluate(split: str, limit: int | None = None, directory: Path = RELEASE_DIR) -> dict:
    """SQuAD 1.1 EM / F1 of the shipped reader on a PolicyQA split (gold contexts)."""
    examples = load_split(split)[:limit]
    return {"split": split, **squad_scores(examples, predict_answers(SpanReader.load(directory), examples))}
