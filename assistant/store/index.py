"""A FAISS inner-product index over one policy version's sentence vectors.

Row i of the index is the sentence with ordinal i + 1. Policies hold hundreds to a few thousand
sentences, so an exact flat index is both the fastest to build and exact to search.
"""
from __future__ import annotations

import os
import struct
from collections.abc import Iterator
from contextlib import contextmanager
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
        """Read a saved index; ValueError if the file is not a complete flat index."""
        rows_in_header(path)
        try:
            return cls(faiss.read_index(str(path)))
        except RuntimeError as error:  # faiss reports unreadable files as RuntimeError
            raise ValueError(str(error).splitlines()[0]) from None

    @property
    def size(self) -> int:
        return int(self._index.ntotal)

    def vectors(self) -> np.ndarray:
        """The stored sentence vectors, (size, dimension) float32, row i = sentence i + 1."""
        return _to_cpu(self._index).reconstruct_n(0, self.size)

    def save(self, path: Path) -> None:
        """Write the index to `path` atomically (`write_atomically`)."""
        write_atomically(path, faiss.serialize_index(_to_cpu(self._index)).tobytes())

    def search(self, query: np.ndarray, k: int) -> list[tuple[int, float]]:
        """Return up to k (sentence ordinal, cosine) pairs, best first."""
        k = min(k, self.size)
        if k <= 0:
            return []
        with one_thread():
            scores, rows = self._index.search(np.ascontiguousarray(query.reshape(1, -1), dtype=np.float32), k)
        return [(int(row) + 1, float(score)) for row, score in zip(rows[0], scores[0]) if row >= 0]


@contextmanager
def one_thread() -> Iterator[None]:
    """Run FAISS on one OpenMP thread meanwhile. One query gains nothing from more, and on a busy machine the
    idle threads' spinning made a single flat search over 15,000 vectors take 50 ms instead of 0.6 ms."""
    before = faiss.omp_get_max_threads()
    faiss.omp_set_num_threads(1)
    try:
        yield
    finally:
        faiss.omp_set_num_threads(before)


def write_atomically(path: Path, data: bytes) -> None:
    """Write `data` to `path`: a temporary file (`temporary_path`), fsync, then rename. Written by
    Python, so a full disk is an OSError with its errno; a failed write leaves no file behind."""
    tmp = temporary_path(path)
    try:
        with open(tmp, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def temporary_path(path: Path) -> Path:
    """Where `save` writes before renaming to `path`."""
    return path.with_name(path.name + ".tmp")


# A saved IndexFlat: fourcc, dimension, row count, two unused counts, is_trained, metric, then the
# number of float32 values that follow (rows x dimension).
_FLAT_HEADER = struct.Struct("<4siqqq?iQ")
_FLAT_FOURCCS = (b"IxFI", b"IxF2")  # inner product, L2


def rows_in_header(path: Path) -> int:
    """The row count of a saved flat index, read from its header without loading the vectors;
    ValueError if the file is not a complete flat index (wrong kind, truncated or padded)."""
    with open(path, "rb") as handle:
        header = handle.read(_FLAT_HEADER.size)
    if len(header) < _FLAT_HEADER.size:
        raise ValueError("the file is truncated")
    fourcc, dimension, rows, _, _, _, _, n_values = _FLAT_HEADER.unpack(header)
    if fourcc not in _FLAT_FOURCCS or dimension <= 0 or rows < 0:
        raise ValueError("the file is not a flat FAISS index")
    if n_values != rows * dimension or path.stat().st_size != _FLAT_HEADER.size + 4 * n_values:
        raise ValueError("the file is truncated or has extra bytes")
    return rows


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
