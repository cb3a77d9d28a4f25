"""One FAISS index over every sentence of the latest version of every stored policy.

Rows are the versions' sentences concatenated in the order of `versions` (row = offset of its
version + ordinal - 1), so the row map needs no file of its own: it follows from the versions and
their sentence counts, which is also what the index's `key` hashes (a stale index is one whose key
differs). Exact (flat inner product) up to `EXACT_LIMIT` rows; past it an inverted file of flat
vectors (IVF), `nprobe` lists searched per query (one query at a time, on one thread: `one_thread`) — chosen and measured by
`scripts/bench_cross_index.py` (docs/benchmarks.md, "Cross-policy index").
"""
from __future__ import annotations

import bisect
import hashlib
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import faiss
import numpy as np

from assistant.foundation.types import PolicyVersion
from assistant.store.index import one_thread

EXACT_LIMIT = 50_000  # rows; a flat search of more passes 50 ms on the busy 2-core machine (docs/benchmarks.md)
TRAIN_PER_LIST = 40  # k-means training points per inverted list (faiss warns below 39)
MAX_TRAIN = 131_072  # at most this many training points (k-means time grows with them)


def nlist_for(rows: int) -> int:
    """Inverted lists for `rows` vectors: about 2·√rows, a power of two (2,048 for a million)."""
    return 2 ** max(6, round(math.log2(2 * math.sqrt(max(rows, 1)))))


def nprobe_for(nlist: int) -> int:
    """Lists searched per query: 1/32 of them, at least 32 (recall@50 ≥ 0.95: docs/benchmarks.md)."""
    return min(nlist, max(32, nlist // 32))


def ivf_flat(dimension: int, nlist: int) -> faiss.Index:
    """An untrained inverted file of flat vectors (inner product)."""
    return faiss.IndexIVFFlat(faiss.IndexFlatIP(dimension), dimension, nlist, faiss.METRIC_INNER_PRODUCT)


def build_faiss_index(vectors: np.ndarray, exact_limit: int = EXACT_LIMIT, seed: int = 0,
                      inverted: Callable[[int, int], faiss.Index] = ivf_flat, min_train: int = 1,
                      max_train: int = MAX_TRAIN) -> faiss.Index:
    """A flat inner-product index while `vectors` has at most `exact_limit` rows, else the inverted file
    `inverted(dimension, nlist)` makes (IVF-flat by default), trained on a seeded sample of at least `min_train` and
    at most `max_train` rows (deterministic for the same vectors)."""
    vectors = np.ascontiguousarray(vectors, dtype=np.float32)
    rows, dimension = vectors.shape
    if rows <= exact_limit:
        index = faiss.IndexFlatIP(dimension)
        index.add(vectors)
        return index
    nlist = nlist_for(rows)
    index = inverted(dimension, nlist)
    sample = min(rows, max(nlist * TRAIN_PER_LIST, min_train), max_train)
    chosen = np.sort(np.random.default_rng(seed).choice(rows, size=sample, replace=False))
    index.cp.seed = seed
    index.train(vectors[chosen])
    index.add(vectors)
    index.nprobe = nprobe_for(nlist)
    return index


def index_kind(index: faiss.Index) -> str:
    """"flat" or "ivf<nlist>,nprobe=<n>": how the index searches."""
    ivf = faiss.try_extract_index_ivf(index) if not isinstance(index, faiss.IndexFlat) else None
    return f"ivf{ivf.nlist},nprobe={ivf.nprobe}" if ivf is not None else "flat"


def versions_key(versions: Sequence[PolicyVersion]) -> str:
    """What the index was built from: each version's id, index file and sentence count, in order."""
    text = "\n".join(f"{v.id}:{v.index_file}:{v.n_sentences}" for v in versions)
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass(frozen=True)
class CrossHit:
    """One sentence found across policies: its version, 1-based ordinal and cosine."""

    version: PolicyVersion
    ordinal: int
    score: float


class CrossIndex:
    """The index over `versions`' sentences (row order: `versions`, then ordinal)."""

    def __init__(self, index: faiss.Index, versions: Sequence[PolicyVersion]) -> None:
        self.versions = list(versions)
        self.offsets = list(np.cumsum([0] + [v.n_sentences for v in self.versions[:-1]])) if self.versions else []
        if index.ntotal != sum(v.n_sentences for v in self.versions):
            raise ValueError(f"the index has {index.ntotal} rows for {sum(v.n_sentences for v in self.versions)} "
                             "sentences")
        self.index = index
        self.key = versions_key(self.versions)

    @classmethod
    def build(cls, versions: Sequence[PolicyVersion], vectors: Sequence[np.ndarray],
              exact_limit: int = EXACT_LIMIT) -> CrossIndex:
        """From each version's sentence vectors (row i = ordinal i + 1), in the order of `versions`."""
        dimension = vectors[0].shape[1] if vectors else 384
        stacked = np.concatenate(vectors) if vectors else np.zeros((0, dimension), dtype=np.float32)
        return cls(build_faiss_index(stacked, exact_limit), versions)

    @property
    def size(self) -> int:
        return int(self.index.ntotal)

    @property
    def kind(self) -> str:
        return index_kind(self.index)

    def search(self, query: np.ndarray, k: int) -> list[CrossHit]:
        """Up to k sentences, best first."""
        k = min(k, self.size)
        if k <= 0:
            return []
        with one_thread():
            scores, rows = self.index.search(np.ascontiguousarray(query.reshape(1, -1), dtype=np.float32), k)
        return [self._hit(int(row), float(score)) for row, score in zip(rows[0], scores[0], strict=True) if row >= 0]

    def _hit(self, row: int, score: float) -> CrossHit:
        position = bisect.bisect_right(self.offsets, row) - 1
        return CrossHit(self.versions[position], row - int(self.offsets[position]) + 1, score)

    def serialize(self) -> bytes:
        return faiss.serialize_index(self.index).tobytes()

    @classmethod
    def deserialize(cls, data: bytes, versions: Sequence[PolicyVersion]) -> CrossIndex:
        """ValueError when `data` is not an index of `versions`' sentences."""
        try:
            index = faiss.deserialize_index(np.frombuffer(data, dtype=np.uint8))
        except RuntimeError as error:
            raise ValueError(str(error).splitlines()[0]) from None
        return cls(index, versions)
