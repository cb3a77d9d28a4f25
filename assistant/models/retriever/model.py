"""The retriever: sentence embeddings from all-MiniLM-L6-v2 (offline), optionally with its fine-tuned top layers."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from assistant.foundation.encoder import load_base_model
from assistant.foundation.releases import WEIGHTS_DIR, load_release

RELEASE_DIR = WEIGHTS_DIR / "retriever"  # the fine-tuned top layers and the calibration

def apply_release(model, directory: Path) -> dict:
    """Load a release's fine-tuned encoder layers into a base SentenceTransformer; returns its config."""
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

    @classmethod
    def load_retriever(cls, directory: Path = RELEASE_DIR) -> Embedder:
        """The retriever: the base model with its fine-tuned release (weights/retriever/)."""
        return cls(release=directory)

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

