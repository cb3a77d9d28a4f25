"""The PolicyIE model's torch module and the batches training feeds it (transformers' tokenizer)."""
from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import torch

from assistant.foundation.encoder import apply_trunk, load_task_state, mean_pool
from assistant.foundation.releases import load_release
from assistant.models.policyie.crf import LinearChainCRF
from assistant.models.policyie.model import INTENTS


class PolicyIEModel(torch.nn.Module):
    """The encoder with an intent head and two taggers (per word-piece tag scores); with `crf`, each
    tagger also has a linear-chain CRF (learned tag transitions) trained on its scores."""

    def __init__(self, bert, type_i_tags: Sequence[str], type_ii_tags: Sequence[str], crf: bool = False,
                 dropout: float = 0.1) -> None:
        super().__init__()
        self.bert = bert
        hidden = bert.config.hidden_size
        self.dropout = torch.nn.Dropout(dropout)
        self.intent = torch.nn.Linear(hidden, len(INTENTS))
        self.type_i = torch.nn.Linear(hidden, len(type_i_tags))
        self.type_ii = torch.nn.Linear(hidden, len(type_ii_tags))
        self.crf_i = LinearChainCRF(type_i_tags) if crf else None
        self.crf_ii = LinearChainCRF(type_ii_tags) if crf else None

    def forward(self, input_ids, attention_mask, token_type_ids=None):
        return self.heads(self.bert(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state,
                          attention_mask)

    def heads(self, states, attention_mask):
        """(intent logits, type-I and type-II tag scores) from the encoder's last token states (also run by the
        one-pass ingest graph)."""
        states = self.dropout(states)
        return self.intent(mean_pool(states, attention_mask)), self.type_i(states), self.type_ii(states)

    def head_state(self) -> dict[str, torch.Tensor]:
        return {k: v.detach().clone() for k, v in self.state_dict().items() if not k.startswith("bert.")}


def build(bert, directory: Path) -> PolicyIEModel:
    """The released tagger in `directory` on the base encoder `bert` (`assistant.models.policyie.graph`)."""
    state, config = load_release(directory)
    apply_trunk(bert, config.get("trunk"))
    model = PolicyIEModel(bert, config["type_i_tags"], config["type_ii_tags"], crf=config.get("crf", False))
    load_task_state(model, state, directory)
    return model


def _encode(tokenizer, token_lists: Sequence[Sequence[str]], max_length: int):
    batch = tokenizer([list(t) for t in token_lists], is_split_into_words=True, truncation=True,
                      max_length=max_length, padding=True, return_tensors="pt")
    word_ids = [batch.word_ids(i) for i in range(len(token_lists))]
    return batch, word_ids
