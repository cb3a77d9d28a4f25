"""The grounding verifier's torch module: the encoder reading `[CLS] question [SEP] sentence [SEP]`; over its
mean-pooled tokens, one logit (does the sentence state what was asked?) and the stance logits (yes, no, only if)."""
from __future__ import annotations

from pathlib import Path

import torch

from assistant.foundation.encoder import load_task_state, mean_pool
from assistant.foundation.releases import load_release

STANCES = ("yes", "no", "only_if")  # what a sentence that answers a yes/no question says (the sets' gold verdicts)


class GroundingModel(torch.nn.Module):
    def __init__(self, bert, dropout: float = 0.1) -> None:
        super().__init__()
        self.bert = bert
        self.dropout = torch.nn.Dropout(dropout)
        self.score = torch.nn.Linear(bert.config.hidden_size, 1)
        self.stance = torch.nn.Linear(bert.config.hidden_size, len(STANCES))

    def forward(self, input_ids, attention_mask, token_type_ids):
        states = self.bert(input_ids=input_ids, attention_mask=attention_mask,
                           token_type_ids=token_type_ids).last_hidden_state
        pooled = self.dropout(mean_pool(states, attention_mask))
        return self.score(pooled).squeeze(-1), self.stance(pooled)


def build(bert, directory: Path) -> GroundingModel:
    """The released verifier in `directory` on the base encoder `bert` ."""
    state, _ = load_release(directory)
    model = GroundingModel(bert)
    load_task_state(model, state, directory)
    return model
