"""How the shipped models run: ONNX Runtime (default) or PyTorch, and where the ONNX graphs are cached.

`ASSISTANT_BACKEND`: `onnx` (default: each model at its shipped precision, int8 where its measured
quality holds, see `docs/results.md`), `onnx-fp32`, `onnx-int8` (every model, for measuring) or `torch`
(the training stack, for comparison). `ASSISTANT_ONNX_CACHE` (default: `onnx/` in the per-user cache
directory) holds one folder per model and release hash; `assistant export` fills it, and a missing graph
is exported on first use. Nothing here imports torch.
"""
from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from assistant.foundation.errors import AssistantError
from assistant.foundation.resources import cache_dir

if TYPE_CHECKING:  # numpy comes with ONNX Runtime: `assistant ask` starts loading models before importing it
    import numpy as np

BACKENDS = ("onnx", "onnx-fp32", "onnx-int8", "torch")
DEFAULT_BACKEND = "onnx"

# A model's forward pass: named int64 inputs (batch × tokens) → its outputs, as numpy arrays.
Forward = Callable[[dict[str, "np.ndarray"]], list["np.ndarray"]]


def backend() -> str:
    """The backend `ASSISTANT_BACKEND` names (default onnx)."""
    value = (os.environ.get("ASSISTANT_BACKEND") or DEFAULT_BACKEND).strip().lower()
    if value not in BACKENDS:
        raise AssistantError(f"ASSISTANT_BACKEND={value!r} is not one of {', '.join(BACKENDS)}.")
    return value


def onnx_cache_dir() -> Path:
    """Where exported ONNX graphs live (`ASSISTANT_ONNX_CACHE`, default `<cache>/onnx`)."""
    override = os.environ.get("ASSISTANT_ONNX_CACHE")
    return Path(override).expanduser() if override else cache_dir() / "onnx"


_threads: int | None = None


def set_threads(count: int | None) -> None:
    """Intra-op threads of the sessions created from now on (None: `threads()`'s default)."""
    global _threads
    _threads = count


def threads() -> int:
    """Intra-op threads of every session: as set, else the cores this process may use (at most 4: these
    are small models)."""
    if _threads:
        return _threads
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    return max(1, min(4, cores))


def optimized_path(source: Path) -> Path:
    """Where the optimised copy of a graph is saved (`model.onnx` → `model.opt.onnx`)."""
    return source.with_name(source.name.removesuffix(".onnx") + ".opt.onnx")


def _options(optimise: bool, prepack: bool = True):
    import onnxruntime  # ~0.1 s: only when a model is first used

    options = onnxruntime.SessionOptions()
    if not prepack:
        # ONNX Runtime re-lays every fp32 weight matrix for its matrix kernels while it builds a session (about
        # 60 % of building a six-layer fp32 model here); a session that answers one question does not earn it back
        options.add_session_config_entry("session.disable_prepacking", "1")
    options.intra_op_num_threads = threads()
    options.inter_op_num_threads = 1
    # extended: the fusions that pay for a BERT on any CPU (no layouts tied to this machine's instruction set)
    options.graph_optimization_level = (onnxruntime.GraphOptimizationLevel.ORT_ENABLE_EXTENDED if optimise
                                        else onnxruntime.GraphOptimizationLevel.ORT_DISABLE_ALL)
    # no busy-waiting between operators: on a shared machine a spinning thread steals the core it waits for
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    return options


def save_optimized(source: Path, target: Path, weights_name: str) -> None:
    """Optimise the graph in `source` once and save the result to `target` (what `OnnxForward` loads), its
    weights in the file `weights_name` beside it: a session maps that file instead of parsing 90 MB of
    protocol buffers, which starts it about three times faster. `weights_name` must be unique to this
    export (the graph names it; a concurrent export of the same model writes its own)."""
    import onnxruntime  # only when exporting

    options = _options(optimise=True)
    options.optimized_model_filepath = str(target)
    options.add_session_config_entry("session.optimized_model_external_initializers_file_name", weights_name)
    options.add_session_config_entry("session.optimized_model_external_initializers_min_size_in_bytes", "1024")
    onnxruntime.InferenceSession(str(source), options, providers=["CPUExecutionProvider"])


class OnnxForward:
    """One ONNX Runtime session on the CPU over an already optimised graph, called like a `Forward`.
    `prepack=False` builds it about twice as fast and runs it a few per cent slower: for a process that
    answers one question and exits."""

    def __init__(self, path: Path, prepack: bool = True) -> None:
        import onnxruntime  # ~0.1 s: only when a model is first used

        self.path = path
        self.session = onnxruntime.InferenceSession(str(path), _options(optimise=False, prepack=prepack),
                                                    providers=["CPUExecutionProvider"])
        self.inputs: Sequence[str] = [i.name for i in self.session.get_inputs()]

    def __call__(self, feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
        return self.session.run(None, {name: feeds[name] for name in self.inputs})
