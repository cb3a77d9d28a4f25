"""The PI-Extract model's torch module and the batches training feeds it (transformers' tokenizer)."""
from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import torch

from assistant.foundation.encoder import load_task_state
from assistant.foundation.releases import load_release
from assistant.models.piextract.model import LAYERS, TAGS


class PIExtractModel(torch.nn.Module):
    """The encoder with four BIO taggers, one per tag layer (COLLECT, NOT_COLLECT, SHARE, NOT_SHARE),
    computed by one linear layer: scores shaped (batch, word pieces, layers, O/B/I).

    Four independent taggers rather than one 9-tag one: the layers overlap (in train, 355 words are
    both COLLECT and SHARE, 52 both SHARE and NOT_SHARE), which a single BIO sequence cannot express."""

    def __init__(self, bert, dropout: float = 0.1) -> None:
        super().__init__()
        self.bert = bert
        self.dropout = torch.nn.Dropout(dropout)
        self.tags = torch.nn.Linear(bert.config.hidden_size, len(LAYERS) * len(TAGS))

    def forward(self, input_ids, attention_mask):
        states = self.dropout(self.bert(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state)
        scores = self.tags(states)
        return scores.view(scores.shape[0], scores.shape[1], len(LAYERS), len(TAGS))

    def head_state(self) -> dict[str, torch.Tensor]:
        return {k: v.detach().clone() for k, v in self.state_dict().items() if not k.startswith("bert.")}


def build(bert, directory: Path) -> PIExtractModel:
    """The released tagger in `directory` on the base encoder `bert` (`assistant.models.piextract.graph`)."""
    state, _ = load_release(directory)
    model = PIExtractModel(bert)
    load_task_state(model, state, directory)
    return model


def encode(tokenizer, token_lists: Sequence[Sequence[str]], max_length: int):
    """A padded batch of pre-split words and each row's word ids (None for special pieces)."""
    batch = tokenizer([list(t) for t in token_lists], is_split_into_words=True, truncation=True,
                      max_length=max_length, padding=True, return_tensors="pt")
    return batch, [batch.word_ids(i) for i in range(len(token_lists))]
