"""The span reader: extractive QA over policy text (PolicyQA), with a no-span option.

all-MiniLM-L6-v2 (top layers fine-tuned, see `assistant.foundation.encoder`) reads `[CLS] question [SEP] context`
and scores every context token as the start and the end of the answer; the `[CLS]` position is
"no span here" (chosen when it outscores the best span). Trained on the PolicyQA train split
rebuilt from OPP-115 (`assistant.corpora.policyqa`), selected on PolicyQA dev, reported on test.

This module holds the model and its inference; training is in `train.py`, SQuAD scoring in `evaluate.py`.

    assistant train reader           # reproduces weights/reader/ (resumes from .train/reader/)
    assistant eval policyqa --split test
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import torch

from assistant.foundation.encoder import load_base_encoder, load_task_state
from assistant.foundation.releases import WEIGHTS_DIR, load_release

RELEASE_DIR = WEIGHTS_DIR / "reader"
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


class ReaderModel(torch.nn.Module):
    def __init__(self, bert) -> None:
        super().__init__()
        self.bert = bert
        self.span = torch.nn.Linear(bert.config.hidden_size, 2)

    def forward(self, input_ids, attention_mask, token_type_ids):
        states = self.bert(input_ids=input_ids, attention_mask=attention_mask,
                           token_type_ids=token_type_ids).last_hidden_state
        start, end = self.span(states).unbind(-1)
        return start, end


def _encode(tokenizer, questions: Sequence[str], contexts: Sequence[str], max_length: int):
    questions = [_clip_question(tokenizer, question) for question in questions]
    return tokenizer(questions, list(contexts), truncation="only_second", max_length=max_length,
                     padding=True, return_offsets_mapping=True, return_tensors="pt")


def _clip_question(tokenizer, question: str) -> str:
    """The question cut after MAX_QUESTION_TOKENS word pieces, so the context always has room
    (truncating only the context fails outright when the question alone fills the window)."""
    offsets = tokenizer(question, add_special_tokens=False, return_offsets_mapping=True)["offset_mapping"]
    if len(offsets) <= MAX_QUESTION_TOKENS:
        return question
    return question[: offsets[MAX_QUESTION_TOKENS - 1][1]]


class SpanReader:
    """Loads the released reader and extracts answer spans."""

    def __init__(self, model: ReaderModel, tokenizer, max_length: int = 256) -> None:
        self.model = model.eval()
        self.tokenizer = tokenizer
        self.max_length = max_length

    @classmethod
    def load(cls, directory: Path = RELEASE_DIR) -> SpanReader:
        state, _ = load_release(directory)
        bert, tokenizer = load_base_encoder()
        model = ReaderModel(bert)
        load_task_state(model, state, directory)
        return cls(model, tokenizer)

    @torch.inference_mode()
    def read(self, questions: Sequence[str], contexts: Sequence[str],
             windows: Sequence[tuple[int, int] | None] | None = None, batch_size: int = 32) -> list[SpanPrediction]:
        """The best span of each context (restricted to the character `window` when given)."""
        results: list[SpanPrediction | None] = [None] * len(questions)
        order = sorted(range(len(questions)), key=lambda i: len(questions[i]) + len(contexts[i]))
        for first in range(0, len(order), batch_size):
            rows = order[first : first + batch_size]
            batch = _encode(self.tokenizer, [questions[i] for i in rows], [contexts[i] for i in rows],
                            self.max_length)
            offsets = batch.pop("offset_mapping")
            start_logits, end_logits = self.model(**batch)
            for row, i in enumerate(rows):
                window = windows[i] if windows else None
                results[i] = _best_span(contexts[i], start_logits[row], end_logits[row], offsets[row],
                                        batch.sequence_ids(row), window)
        return results  # type: ignore[return-value]


def _best_span(context: str, start_logits, end_logits, offsets, sequence_ids, window) -> SpanPrediction:
    allowed = [
        i for i, sid in enumerate(sequence_ids)
        if sid == 1 and (window is None or (offsets[i][0] >= window[0] and offsets[i][1] <= window[1]))
    ]
    if not allowed:
        return SpanPrediction("", -1, -1, float("-inf"))
    starts = start_logits[allowed]
    ends = end_logits[allowed]
    scores = starts[:, None] + ends[None, :]
    n = len(allowed)
    positions = torch.arange(n)
    valid = (positions[None, :] >= positions[:, None]) & (positions[None, :] - positions[:, None] < MAX_ANSWER_TOKENS)
    scores = scores.masked_fill(~valid, float("-inf"))
    best = int(scores.argmax())
    s, e = divmod(best, n)
    margin = float(scores[s, e] - (start_logits[0] + end_logits[0]))
    if margin < 0:
        return SpanPrediction("", -1, -1, margin)
    char_start, char_end = int(offsets[allowed[s]][0]), int(offsets[allowed[e]][1])
    return SpanPrediction(context[char_start:char_end], char_start, char_end, margin)
