"""The span reader's torch module and the batches training feeds it (transformers' tokenizer)."""
from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import torch

from assistant.foundation.encoder import load_task_state
from assistant.foundation.releases import load_release
from assistant.models.reader.model import MAX_QUESTION_TOKENS


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


def build(bert, directory: Path) -> ReaderModel:
    """The released reader in `directory` on the base encoder `bert` (`assistant.models.reader.graph`)."""
    state, _ = load_release(directory)
    model = ReaderModel(bert)
    load_task_state(model, state, directory)
    return model


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
