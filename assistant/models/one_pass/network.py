"""The one-pass ingest graph's torch module: the retriever's encoder up to the layers its task models share with
it, then one branch per model (its own top layers and heads). Built from the releases `weights/one_pass/`
names; each task release must sit on the retriever (`trunk`) and re-train only layers above the shared ones."""
from __future__ import annotations

import json
import re
from pathlib import Path

import torch

from assistant.foundation.encoder import layer_inputs, load_base_encoder, mean_pool, run_layers
from assistant.foundation.releases import WEIGHTS_DIR
from assistant.models.policyie.network import build as build_policyie
from assistant.models.practices.network import build as build_practices
from assistant.models.retriever.network import build_embedding

TRUNK = "retriever"


class OnePassGraph(torch.nn.Module):
    """Token ids → (retriever vector, practice logits, PolicyIE intent logits, type-I and type-II tag scores)."""

    def __init__(self, trunk, shared_layers: int, practices, policyie) -> None:
        super().__init__()
        self.trunk = trunk
        self.shared_layers = shared_layers
        self.practices = practices
        self.policyie = policyie

    def forward(self, input_ids, attention_mask):
        states, mask = layer_inputs(self.trunk, input_ids, attention_mask)
        shared = run_layers(self.trunk.encoder.layer[:self.shared_layers], states, mask)
        retrieval = run_layers(self.trunk.encoder.layer[self.shared_layers:], shared, mask)
        practices = run_layers(self.practices.bert.encoder.layer[self.shared_layers:], shared, mask)
        policyie = run_layers(self.policyie.bert.encoder.layer[self.shared_layers:], shared, mask)
        return (torch.nn.functional.normalize(mean_pool(retrieval, attention_mask), dim=-1),
                self.practices.heads(practices, attention_mask), *self.policyie.heads(policyie, attention_mask))


def first_trained_layer(release: Path) -> int:
    """The lowest encoder layer a task release re-trains; an error unless it sits on the retriever."""
    config = json.loads((release / "config.json").read_text())
    if config.get("trunk") != TRUNK:
        raise ValueError(f"{release} is not trained on the {TRUNK}'s layers (its config has no trunk {TRUNK!r}): "
                         "it shares no layers with the retriever; train it again with the trunk")
    return min(int(re.search(r"layer\.(\d+)\.", prefix).group(1)) for prefix in config["trainable"])


def build(bert, directory: Path) -> OnePassGraph:
    """The graph of the releases `directory`'s config joins, on the base encoder `bert`."""
    parts = {role: WEIGHTS_DIR / name for role, name in json.loads((directory / "config.json").read_text())["parts"].items()}
    trunk = build_embedding(bert, parts["retriever"]).bert
    shared = min(first_trained_layer(parts["practices"]), first_trained_layer(parts["policyie"]))
    practices = build_practices(load_base_encoder()[0], parts["practices"])
    policyie = build_policyie(load_base_encoder()[0], parts["policyie"])
    return OnePassGraph(trunk, shared, practices, policyie)
