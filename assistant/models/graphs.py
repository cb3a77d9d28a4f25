"""The torch side of each shipped model's graph: build it from the base weights and its release, run it
(`ASSISTANT_BACKEND=torch`, training's evaluations) or export it to ONNX (and quantize it to int8).

The graphs (inputs and outputs: `assistant.models.runtime.GRAPHS`): the embedders end in mean pooling
and L2 normalisation (sentence-transformers' all-MiniLM-L6-v2 pipeline), and the question graph gives the
base embedder's and the retriever's vectors of one text in one pass; the task models return their heads'
raw scores, post-processed in numpy by their inference classes.
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

from assistant.foundation.encoder import load_base_encoder, load_task_state, mean_pool
from assistant.foundation.inference import optimized_path, save_optimized
from assistant.foundation.releases import load_release
from assistant.models.runtime import GRAPHS

OPSET = 17


class EmbeddingGraph(torch.nn.Module):
    """BERT → mean pooling → L2 normalisation: a sentence embedding."""

    def __init__(self, bert) -> None:
        super().__init__()
        self.bert = bert

    def forward(self, input_ids, attention_mask):
        states = self.bert(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state
        return torch.nn.functional.normalize(mean_pool(states, attention_mask), dim=-1)


class QuestionGraph(torch.nn.Module):
    """A question's two embeddings in one pass: the base model's (the question classifier reads it) and the
    retriever's, whose release re-trains only the top layers, so the layers below run once for both."""

    def __init__(self, base, retriever, shared_layers: int) -> None:
        super().__init__()
        self.base = base
        self.shared_layers = shared_layers
        self.retriever_top = retriever.encoder.layer[shared_layers:]

    def forward(self, input_ids, attention_mask):
        from transformers.masking_utils import create_bidirectional_mask  # with torch: export and training only

        states = self.base.embeddings(input_ids=input_ids)
        mask = create_bidirectional_mask(config=self.base.config, inputs_embeds=states, attention_mask=attention_mask)
        for layer in self.base.encoder.layer[:self.shared_layers]:
            states = layer(states, mask)
        retrieval = states
        for layer in self.base.encoder.layer[self.shared_layers:]:
            states = layer(states, mask)
        for layer in self.retriever_top:
            retrieval = layer(retrieval, mask)
        return (torch.nn.functional.normalize(mean_pool(states, attention_mask), dim=-1),
                torch.nn.functional.normalize(mean_pool(retrieval, attention_mask), dim=-1))


def shared_layers(state: dict[str, torch.Tensor], total: int) -> int:
    """How many of the base model's bottom layers a release leaves as they are (it holds only the layers it
    re-trained); an error if it changes anything outside the transformer layers."""
    changed = set()
    for key in state:
        if not key.startswith("encoder.layer."):
            raise ValueError(f"the release changes {key}: no layers are shared with the base model")
        changed.add(int(key.split(".")[2]))
    return min(changed, default=total)


def build_module(name: str, directory: Path | None) -> torch.nn.Module:
    """Model `name` in torch: the base encoder with `directory`'s release applied (eval mode)."""
    from assistant.models.piextract.network import PIExtractModel  # each network on demand
    from assistant.models.policyie.network import PolicyIEModel  # each network on demand (and no import circle)
    from assistant.models.practices.network import PracticeModel  # each network on demand
    from assistant.models.reader.network import ReaderModel  # each network on demand

    bert, _ = load_base_encoder()
    if name == "question":
        retriever, _ = load_base_encoder()
        state, _ = load_release(directory)
        retriever.load_state_dict(state, strict=False)
        return QuestionGraph(bert, retriever, shared_layers(state, bert.config.num_hidden_layers)).eval()
    if name in ("embedder", "retriever"):
        if directory is not None:
            state, _ = load_release(directory)
            unexpected = bert.load_state_dict(state, strict=False).unexpected_keys
            if unexpected:
                raise RuntimeError(f"{directory}: weights for unknown parameters {unexpected[:3]}")
        return EmbeddingGraph(bert).eval()
    state, config = load_release(directory)
    if name == "practices":
        model = PracticeModel(bert, len(config["labels"]))
    elif name == "policyie":
        model = PolicyIEModel(bert, config["type_i_tags"], config["type_ii_tags"], crf=config.get("crf", False))
    elif name == "reader":
        model = ReaderModel(bert)
    elif name == "piextract":
        model = PIExtractModel(bert)
    else:
        raise ValueError(f"no model named {name!r}")
    load_task_state(model, state, directory)
    return model.eval()


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


def torch_forward(name: str, directory: Path | None) -> TorchForward:
    return TorchForward(build_module(name, directory), GRAPHS[name].inputs)


def export(name: str, directory: Path | None, folder: Path, precision: str = "fp32") -> Path:
    """Write `folder/model.onnx` (the traced fp32 graph), for int8 `folder/model.int8.onnx` (dynamic
    quantization of the matrix products' weights, per output channel: the embeddings stay fp32), and the file sessions load, `folder/model[.int8].opt.onnx`: the graph
    after ONNX Runtime's extended optimisations (fused attention and layer norms), saved so that no
    session pays for them again. Each file is written under a temporary name and renamed."""
    folder.mkdir(parents=True, exist_ok=True)
    fp32 = folder / "model.onnx"
    if not fp32.exists():
        graph = GRAPHS[name]
        module = build_module(name, directory)
        ids = torch.tensor([[101, 2057, 3745, 2115, 2951, 102], [101, 2057, 102, 0, 0, 0]])
        example = {"input_ids": ids, "attention_mask": (ids > 0).long(), "token_type_ids": torch.zeros_like(ids)}
        axes = {n: {0: "batch", 1: "tokens"} for n in graph.inputs} | {n: {0: "batch"} for n in graph.outputs}
        with _temporary(fp32) as partial, torch.inference_mode(), warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the tracer's notes on shape-dependent Python code (exported correctly)
            torch.onnx.export(module, tuple(example[n] for n in graph.inputs), str(partial),
                              input_names=list(graph.inputs), output_names=list(graph.outputs),
                              dynamic_axes=axes, opset_version=OPSET, dynamo=False)
    source = fp32
    if precision == "int8":
        source = folder / "model.int8.onnx"
        if not source.exists():
            from onnxruntime.quantization import QuantType, quantize_dynamic  # needs the onnx package

            with _temporary(source) as partial, _quiet_root_logger():
                quantize_dynamic(str(fp32), str(partial), weight_type=QuantType.QInt8, per_channel=True,
                                 op_types_to_quantize=["MatMul"])
    optimized = optimized_path(source)
    if not optimized.exists():
        with _temporary(optimized) as partial:
            # the weights first, under a name of this export's own; the graph that names them appears last
            save_optimized(source, partial, f"{optimized.stem}.{partial.name.split('.')[-2]}.weights")
    return optimized


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
