"""The retriever: L2-normalised sentence embeddings from all-MiniLM-L6-v2 (mean pooling), optionally with its
fine-tuned top layers; run by ONNX Runtime or torch (`assistant.models.runtime`), without importing torch.
Its graphs are declared in `graph.py`, their torch modules in `network.py`."""
from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from assistant.foundation.inference import Forward
from assistant.foundation.releases import release_files
from assistant.foundation.tokenization import encode_texts
from assistant.models.retriever.graph import EMBEDDER, RELEASE_DIR, RETRIEVER
from assistant.models.runtime import load_forward

MAX_LENGTH = 256  # word pieces per sentence (sentence-transformers' max_seq_length for all-MiniLM-L6-v2)
DIMENSION = 384


class Embedder:
    """Encodes sentences into L2-normalised 384-dim vectors (cosine similarity = inner product)."""

    def __init__(self, release: Path | None = None, batch_size: int = 64, forward: Forward | None = None) -> None:
        """`release`: a fine-tuned release (e.g. weights/retriever/) applied on top of the base model;
        `forward`: its graph, when already loaded."""
        self.batch_size = batch_size
        self.release = release
        self.config: dict = {}
        if release is not None:
            release_files(release)
            self.config = json.loads((release / "config.json").read_text())
        self.forward = forward or load_forward((RETRIEVER if release else EMBEDDER).name, release)
        self.dimension = DIMENSION

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
            batch = encode_texts([texts[i] for i in rows], MAX_LENGTH)
            vectors[rows] = self.forward(batch.feeds(EMBEDDER.inputs))[0]
            if on_batch:
                on_batch(len(rows))
        return vectors
