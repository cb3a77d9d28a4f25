"""The one-pass ingest graph's torch module: the retriever's encoder up to the layers its task models share with
it, then one branch per model (its own top layers and heads). Built from the task releases `PARTS` names (the
retriever is the shipped one); each must sit on the retriever (`trunk`) and re-train only layers above the shared
ones."""
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
from lab.one_pass.graph import PARTS

TRUNK = "retriever"


class Layers(torch.nn.Module):
    """Encoder layers run in turn: a module of its own, so that its nodes in the exported graph are named after it
    ("/trunk/…"), which is how a quantized export keeps some of them fp32 (`GraphSpec.fp32_scopes`)."""

    def __init__(self, layers) -> None:
        super().__init__()
        self.layers = torch.nn.ModuleList(layers)

    def forward(self, states, mask):
        return run_layers(self.layers, states, mask)


class OnePassGraph(torch.nn.Module):
    """Token ids → (retriever vector, practice logits, PolicyIE intent logits, type-I and type-II tag scores)."""

    def __init__(self, retriever, shared_layers: int, practices, policyie) -> None:
        super().__init__()
        self.base = retriever  # its embeddings and config (its layers run below, as `trunk` and `retriever`)
        self.trunk = Layers(retriever.encoder.layer[:shared_layers])
        self.retriever = Layers(retriever.encoder.layer[shared_layers:])
        self.practices_top = Layers(practices.bert.encoder.layer[shared_layers:])
        self.policyie_top = Layers(policyie.bert.encoder.layer[shared_layers:])
        self.practices = practices
        self.policyie = policyie

    def forward(self, input_ids, attention_mask):
        states, mask = layer_inputs(self.base, input_ids, attention_mask)
        shared = self.trunk(states, mask)
        retrieval = self.retriever(shared, mask)
        return (torch.nn.functional.normalize(mean_pool(retrieval, attention_mask), dim=-1),
                self.practices.heads(self.practices_top(shared, mask), attention_mask),
                *self.policyie.heads(self.policyie_top(shared, mask), attention_mask))


def first_trained_layer(release: Path) -> int:
    """The lowest encoder layer a task release re-trains; an error unless it sits on the retriever."""
    config = json.loads((release / "config.json").read_text())
    if config.get("trunk") != TRUNK:
        raise ValueError(f"{release} is not trained on the {TRUNK}'s layers (its config has no trunk {TRUNK!r}): "
                         "it shares no layers with the retriever; train it again with the trunk")
    return min(int(re.search(r"layer\.(\d+)\.", prefix).group(1)) for prefix in config["trainable"])


def build(bert, directory: Path) -> OnePassGraph:
    """The graph of the task releases under `directory` (`PARTS`) and the shipped retriever, on the base encoder."""
    parts = {role: directory / name for role, name in PARTS.items()}
    retriever = build_embedding(bert, WEIGHTS_DIR / "retriever").bert
    shared = min(first_trained_layer(parts["practices"]), first_trained_layer(parts["policyie"]))
    practices = build_practices(load_base_encoder()[0], parts["practices"])
    policyie = build_policyie(load_base_encoder()[0], parts["policyie"])
    return OnePassGraph(retriever, shared, practices, policyie)
