"""The torch side of a model's graph (a `GraphSpec`, handed in): build it from the base weights and its
release (its package's builder, `GraphSpec.builder`), run it (`ASSISTANT_BACKEND=torch`) or export it to
ONNX (and quantize it to int8). It imports torch, so the runtime imports it only to export a graph the cache
lacks or to run the torch backend; it knows no registry, so nothing here imports back up.
"""
from __future__ import annotations

import logging
import os
import tempfile
import warnings
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import torch

from assistant.foundation.encoder import load_base_encoder
from assistant.foundation.inference import optimized_path, save_optimized
from assistant.models.graph_spec import GraphSpec, resolve

OPSET = 17


def build_module(spec: GraphSpec, directory: Path | None) -> torch.nn.Module:
    """The graph in torch: the base encoder with `directory`'s release applied (eval mode)."""
    bert, _ = load_base_encoder()
    return resolve(spec.builder)(bert, directory).eval()


class TorchForward:
    """A torch module called like an ONNX session: named numpy inputs → list of numpy outputs (eval mode)."""

    def __init__(self, module: torch.nn.Module, inputs: tuple[str, ...]) -> None:
        self.module = module
        self.inputs = inputs

    def __call__(self, feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
        was_training = self.module.training
        self.module.eval()
        try:
            with torch.inference_mode():
                outputs = self.module(*(torch.from_numpy(feeds[name]) for name in self.inputs))
        finally:
            self.module.train(was_training)
        outputs = outputs if isinstance(outputs, tuple) else (outputs,)
        return [o.float().numpy() for o in outputs]


def torch_forward(spec: GraphSpec, directory: Path | None) -> TorchForward:
    """The graph on torch, called like an ONNX session (the torch backend)."""
    return TorchForward(build_module(spec, directory), spec.inputs)


def export(spec: GraphSpec, directory: Path | None, folder: Path, precision: str = "fp32") -> Path:
    """Write `folder/model.onnx` (the traced fp32 graph), for int8 `folder/model.int8.onnx` (dynamic
    quantization of the matrix products' weights, per output channel: the embeddings stay fp32), and the file sessions load, `folder/model[.int8].opt.onnx`: the graph
    after ONNX Runtime's extended optimisations (fused attention and layer norms), saved so that no
    session pays for them again. Each file is written under a temporary name and renamed."""
    folder.mkdir(parents=True, exist_ok=True)
    fp32 = folder / "model.onnx"
    if not fp32.exists():
        module = build_module(spec, directory)
        ids = torch.tensor([[101, 2057, 3745, 2115, 2951, 102], [101, 2057, 102, 0, 0, 0]])
        example = {"input_ids": ids, "attention_mask": (ids > 0).long(), "token_type_ids": torch.zeros_like(ids)}
        axes = {n: {0: "batch", 1: "tokens"} for n in spec.inputs} | {n: {0: "batch"} for n in spec.outputs}
        with _temporary(fp32) as partial, torch.inference_mode(), warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the tracer's notes on shape-dependent Python code (exported correctly)
            torch.onnx.export(module, tuple(example[n] for n in spec.inputs), str(partial),
                              input_names=list(spec.inputs), output_names=list(spec.outputs),
                              dynamic_axes=axes, opset_version=OPSET, dynamo=False)
    source = fp32
    if precision == "int8":
        source = folder / "model.int8.onnx"
        if not source.exists():
            from onnxruntime.quantization import QuantType, quantize_dynamic  # needs the onnx package

            with _temporary(source) as partial, _quiet_root_logger():
                quantize_dynamic(str(fp32), str(partial), weight_type=QuantType.QInt8, per_channel=True,
                                 op_types_to_quantize=["MatMul"], nodes_to_exclude=_nodes_in(fp32, spec.fp32_scopes))
    optimized = optimized_path(source)
    if not optimized.exists():
        with _temporary(optimized) as partial:
            # the weights first, under a name of this export's own; the graph that names them appears last
            save_optimized(source, partial, f"{optimized.stem}.{partial.name.split('.')[-2]}.weights")
    return optimized


def _nodes_in(path: Path, scopes: tuple[str, ...]) -> list[str]:
    """The names of the graph's nodes traced from the torch modules `scopes` (e.g. "trunk": "/trunk/…")."""
    if not scopes:
        return []
    import onnx  # the quantizer needs it too

    prefixes = tuple(f"/{scope}/" for scope in scopes)
    return [node.name for node in onnx.load(str(path), load_external_data=False).graph.node
            if node.name.startswith(prefixes)]


@contextmanager
def _quiet_root_logger():
    """The quantizer logs a pre-processing hint on the root logger at WARNING: not for users."""
    root = logging.getLogger()
    level = root.level
    root.setLevel(logging.ERROR)
    try:
        yield
    finally:
        root.setLevel(level)


class _temporary:
    """A temporary path beside `target`, renamed onto it when the block succeeds, removed otherwise."""

    def __init__(self, target: Path) -> None:
        self.target = target
        handle, name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".partial")
        os.close(handle)
        self.path = Path(name)

    def __enter__(self) -> Path:
        return self.path

    def __exit__(self, kind, *_) -> None:
        if kind is None:
            os.replace(self.path, self.target)
        else:
            self.path.unlink(missing_ok=True)
