"""The span reader: extractive QA over policy text (PolicyQA), with a no-span option.

all-MiniLM-L6-v2 (top layers fine-tuned, see `assistant.foundation.encoder`) reads `[CLS] question [SEP] context`
and scores every context token as the start and the end of the answer; the `[CLS]` position is
"no span here" (chosen when it outscores the best span). Trained on the PolicyQA train split
rebuilt from OPP-115 (`assistant.corpora.policyqa`), selected on PolicyQA dev, reported on test.

This module holds the inference (ONNX Runtime or torch, `assistant.models.runtime`; no torch import);
its graph is declared in `graph.py`, the torch module is in `network.py`, training in `train.py`, SQuAD
scoring in `evaluate.py`.

    assistant train reader           # reproduces weights/reader/ (resumes from .train/reader/)
    assistant eval policyqa --split test
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from assistant.foundation.inference import Forward
from assistant.foundation.tokenization import TokenBatch, encode_pairs, piece_offsets
from assistant.models.reader.graph import READER, RELEASE_DIR
from assistant.models.runtime import load_forward

MAX_ANSWER_TOKENS = 64
MAX_QUESTION_TOKENS = 96  # PolicyQA questions are under 40 word pieces; longer ones are clipped


@dataclass(frozen=True)
class SpanPrediction:
    """A predicted answer: character offsets into the context, or no span (start = end = -1)."""

    text: str
    start: int
    end: int
    score: float  # best span logit minus the no-span logit

    @property
    def found(self) -> bool:
        return self.start >= 0


def clip_question(question: str, max_length: int) -> str:
    """The question cut after MAX_QUESTION_TOKENS word pieces, so the context always has room
    (truncating only the context fails outright when the question alone fills the window)."""
    offsets = piece_offsets(question, max_length)
    if len(offsets) <= MAX_QUESTION_TOKENS:
        return question
    return question[: offsets[MAX_QUESTION_TOKENS - 1][1]]


class SpanReader:
    """Extracts answer spans with a released reader (`forward`: its graph, `assistant.models.runtime`)."""

    def __init__(self, forward: Forward, max_length: int = 256) -> None:
        self.forward = forward
        self.max_length = max_length

    @classmethod
    def load(cls, directory: Path = RELEASE_DIR) -> SpanReader:
        return cls(load_forward(READER.name, directory))

    def scores(self, questions: Sequence[str], contexts: Sequence[str]) -> tuple[TokenBatch, np.ndarray, np.ndarray]:
        """The batch and its (start, end) logits for question/context pairs read together."""
        batch = encode_pairs([clip_question(q, self.max_length) for q in questions], contexts, self.max_length)
        start, end = self.forward(batch.feeds(READER.inputs))
        return batch, start, end

    def read(self, questions: Sequence[str], contexts: Sequence[str],
             windows: Sequence[tuple[int, int] | None] | None = None, batch_size: int = 32) -> list[SpanPrediction]:
        """The best span of each context (restricted to the character `window` when given)."""
        results: list[SpanPrediction | None] = [None] * len(questions)
        order = sorted(range(len(questions)), key=lambda i: len(questions[i]) + len(contexts[i]))
        for first in range(0, len(order), batch_size):
            rows = order[first : first + batch_size]
            batch, start_logits, end_logits = self.scores([questions[i] for i in rows], [contexts[i] for i in rows])
            for row, i in enumerate(rows):
                window = windows[i] if windows else None
                encoding = batch.encodings[row]
                results[i] = best_span(contexts[i], start_logits[row], end_logits[row], encoding.offsets,
                                       encoding.sequence_ids, window)
        return results  # type: ignore[return-value]


def best_span(context: str, start_logits: np.ndarray, end_logits: np.ndarray, offsets, sequence_ids,
              window) -> SpanPrediction:
    """The highest-scoring span of at most MAX_ANSWER_TOKENS context tokens, or no span when the
    `[CLS]` score beats it."""
    allowed = [
        i for i, sid in enumerate(sequence_ids)
        if sid == 1 and (window is None or (offsets[i][0] >= window[0] and offsets[i][1] <= window[1]))
    ]
    if not allowed:
        return SpanPrediction("", -1, -1, float("-inf"))
    scores = start_logits[allowed][:, None] + end_logits[allowed][None, :]
    n = len(allowed)
    positions = np.arange(n)
    gap = positions[None, :] - positions[:, None]
    scores = np.where((gap >= 0) & (gap < MAX_ANSWER_TOKENS), scores, -np.inf)
    best = int(scores.argmax())
    s, e = divmod(best, n)
    margin = float(scores[s, e] - (start_logits[0] + end_logits[0]))
    if margin < 0:
        return SpanPrediction("", -1, -1, margin)
    char_start, char_end = int(offsets[allowed[s]][0]), int(offsets[allowed[e]][1])
    return SpanPrediction(context[char_start:char_end], char_start, char_end, margin)
