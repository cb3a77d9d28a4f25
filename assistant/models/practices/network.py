"""The practice tagger's torch module (the encoder with one logit per category)."""
from __future__ import annotations

from pathlib import Path

import torch

from assistant.foundation.encoder import apply_trunk, load_task_state, mean_pool
from assistant.foundation.releases import load_release


class PracticeModel(torch.nn.Module):
    """The encoder with one logit per category over its mean-pooled tokens."""

    def __init__(self, bert, n_labels: int, dropout: float = 0.1) -> None:
        super().__init__()
        self.bert = bert
        self.dropout = torch.nn.Dropout(dropout)
        self.classify = torch.nn.Linear(bert.config.hidden_size, n_labels)

    def forward(self, input_ids, attention_mask, token_type_ids=None):
        return self.heads(self.bert(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state,
                          attention_mask)

    def heads(self, states, attention_mask):
        """The logits from the encoder's last token states (also run by the one-pass graph in lab/one_pass)."""
        return self.classify(self.dropout(mean_pool(states, attention_mask)))

    def head_state(self) -> dict[str, torch.Tensor]:
        return {k: v.detach().clone() for k, v in self.state_dict().items() if k.startswith("classify.")}


def build(bert, directory: Path) -> PracticeModel:
    """The released classifier in `directory` on the base encoder `bert` (`assistant.models.practices.graph`)."""
    state, config = load_release(directory)
    apply_trunk(bert, config.get("trunk"))
    model = PracticeModel(bert, len(config["labels"]))
    load_task_state(model, state, directory)
    return model
