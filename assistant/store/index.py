"""A FAISS inner-product index over one policy version's sentence vectors.

Row i of the index is the sentence with ordinal i + 1. Policies hold hundreds to a few thousand
sentences, so an exact flat index is both the fastest to build and exact to search.
"""
from __future__ import annotations

import os
from pathlib import Path

import faiss
import numpy as np


class SentenceIndex:
    """Exact cosine-similarity search (vectors are L2-normalised, so inner product = cosine)."""

    def __init__(self, index: faiss.Index) -> None:
        self._index = _to_gpu_if_available(index)

    @classmethod
    def build(cls, vectors: np.ndarray) -> SentenceIndex:
        index = faiss.IndexFlatIP(vectors.shape[1])
        index.add(np.ascontiguousarray(vectors, dtype=np.float32))
        return cls(index)

    @classmethod
    def load(cls, path: Path) -> SentenceIndex:
        return cls(faiss.read_index(str(path)))

    @property
    def size(self) -> int:
        return int(self._index.ntotal)

    def save(self, path: Path) -> None:
        """Write the index to `path` atomically: a temporary file, fsync, then rename."""
        tmp = path.with_name(path.name + ".tmp")
        faiss.write_index(_to_cpu(self._index), str(tmp))
        with open(tmp, "rb") as handle:
            os.fsync(handle.fileno())
        os.replace(tmp, path)

    def search(self, query: np.ndarray, k: int) -> list[tuple[int, float]]:
        """Return up to k (sentence ordinal, cosine) pairs, best first."""
        k = min(k, self.size)
        if k <= 0:
            return []
        scores, rows = self._index.search(np.ascontiguousarray(query.reshape(1, -1), dtype=np.float32), k)
        return [(int(row) + 1, float(score)) for row, score in zip(rows[0], scores[0]) if row >= 0]


def _gpu_count() -> int:
    get_num_gpus = getattr(faiss, "get_num_gpus", None)
    return get_num_gpus() if get_num_gpus else 0


def _to_gpu_if_available(index: faiss.Index) -> faiss.Index:
    """Move the index to a GPU when this faiss build has CUDA support and a GPU is present."""
    if _gpu_count() == 0:
        return index
    return faiss.index_cpu_to_gpu(faiss.StandardGpuResources(), 0, index)


def _to_cpu(index: faiss.Index) -> faiss.Index:
    return faiss.index_gpu_to_cpu(index) if _gpu_count() > 0 else index
