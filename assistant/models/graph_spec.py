"""What the runtime knows of a model's graph (`GraphSpec`): each model package declares its own in its
`graph.py`, and `assistant.models.registry` collects them. Plain data: nothing here imports torch."""
from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module
from pathlib import Path
from typing import Any

TEXT = ("input_ids", "attention_mask")  # a padded batch of texts
PAIR = (*TEXT, "token_type_ids")  # a padded batch of text pairs read together: [CLS] a [SEP] b [SEP]


@dataclass(frozen=True)
class GraphSpec:
    """A model's graph: token ids in, the numbers its inference needs out.

    `builder` names the torch side as "package.module:function": `function(bert, release)` turns the base
    encoder and a release folder (None: the base model alone) into the graph's torch module. It is imported
    by name (`resolve`), only to export the graph or run it on torch. `serves`: the models whose forward
    passes are this graph's outputs, in order, when one pass computes several. `fp32_scopes`: see below."""

    name: str
    inputs: tuple[str, ...]
    outputs: tuple[str, ...]
    release: Path | None  # the default release; None: the base model alone
    precision: str  # what `ASSISTANT_BACKEND=onnx` runs it at: "fp32" or "int8" (docs/results.md, "ONNX Runtime")
    builder: str
    serves: tuple[str, ...] = ()
    # module scopes of the torch module whose matrix products stay fp32 when the graph is quantized to int8 (the
    # one-pass graph's trunk, whose vectors must stay the retriever's)
    fp32_scopes: tuple[str, ...] = ()


def resolve(dotted: str) -> Any:
    """The object that "package.module:name" names, its module imported now."""
    module, _, name = dotted.partition(":")
    return getattr(import_module(module), name)
