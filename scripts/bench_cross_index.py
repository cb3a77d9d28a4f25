"""The cross-policy sentence index at scale: top-50 search over up to 1,000,000 stored sentences
(prints numbers; not a test). Numbers and the index chosen: docs/benchmarks.md, "Cross-policy index".

    .venv/bin/python scripts/bench_cross_index.py [--rows 1000000] [--queries 200] [--real-only]
    .venv/bin/python scripts/bench_cross_index.py --ask-all    # what the FAISS search costs in `ask --all`

1. Real vectors: every sentence of OPP-115's 115 policies and PolicyIE's sentences, embedded by the
   retriever (cached under the cache folder after the first run), queried with PolicyQA test questions.
   Exact flat search is the yardstick; the candidates are the store's IVF (`store.cross_index.
   build_faiss_index`, as `assistant search` builds it past `EXACT_LIMIT`) at several nprobe, and HNSW.
2. Scale (unless --real-only): `--rows` vectors made from the real ones (each a real vector plus Gaussian
   noise, normalised: the real vectors' neighbourhoods, repeated), 384-dim. Flat search latency at growing
   sizes (where to switch to IVF), then the store's IVF at `--rows`: build time, memory, latency, recall@50
   against exact search over the same rows.
Latency is per query, one query at a time on one FAISS thread (as `CrossIndex.search` runs it); builds use
every core.
"""
from __future__ import annotations

import argparse
import hashlib
import os
import resource
import time

import faiss
import numpy as np

from assistant.foundation.resources import cache_dir
from assistant.store.cross_index import build_faiss_index, nlist_for, nprobe_for
from assistant.store.index import one_thread

K = 50
SEED = 7


def real_sentences() -> list[str]:
    """OPP-115's sentences (its segments split as ingest splits text) and PolicyIE's, deduplicated."""
    from assistant.corpora.opp115 import opp115_policies, segment_text
    from assistant.corpora.policyie import load_split as policyie_split
    from assistant.foundation.sentences import split_sentences

    texts: dict[str, None] = {}
    for path in opp115_policies().values():
        for raw in path.read_text(encoding="utf-8").split("|||"):
            segment = segment_text(raw)
            for start, end in split_sentences(segment):
                if len(segment[start:end].split()) >= 3:
                    texts[segment[start:end]] = None
    for split in ("train", "test"):
        for example in policyie_split(split):
            texts[" ".join(example.tokens)] = None
    return list(texts)


def questions(n: int) -> list[str]:
    from assistant.corpora.policyqa import load_split

    unique = sorted({e.question for e in load_split("test")})
    chosen = np.random.default_rng(SEED).choice(len(unique), size=min(n, len(unique)), replace=False)
    return [unique[i] for i in sorted(chosen)]


def embedded(texts: list[str], label: str) -> np.ndarray:
    """The retriever's vectors for `texts`, cached by their hash."""
    digest = hashlib.sha256("\n".join(texts).encode()).hexdigest()[:16]
    path = cache_dir() / "bench" / f"cross_index_{label}_{digest}.npy"
    if path.is_file():
        return np.load(path)
    from assistant.models.retriever.model import Embedder

    started = time.perf_counter()
    vectors = Embedder.load_retriever().encode(texts)
    print(f"embedded {len(texts)} {label} texts in {time.perf_counter() - started:.0f} s")
    path.parent.mkdir(parents=True, exist_ok=True)
    np.save(path, vectors)
    return vectors


def rss_mib() -> float:
    with open("/proc/self/status") as handle:
        for line in handle:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def timed_search(index: faiss.Index, queries: np.ndarray, k: int = K) -> tuple[np.ndarray, float, float]:
    """Rows found for each query (one at a time) and the p50 / p95 latency in ms."""
    found, times = [], []
    for query in queries:
        started = time.perf_counter()
        with one_thread():  # as CrossIndex.search runs it
            _, rows = index.search(query.reshape(1, -1), k)
        times.append(1000 * (time.perf_counter() - started))
        found.append(rows[0])
    return np.array(found), float(np.percentile(times, 50)), float(np.percentile(times, 95))


def recall(found: np.ndarray, truth: np.ndarray) -> float:
    return float(np.mean([len(set(f) & set(t)) / len(t) for f, t in zip(found, truth, strict=True)]))


def stored_bytes(index: faiss.Index) -> int:
    """The index's vectors, ids, centroids and graph (what it keeps in memory), without serialising it."""
    if isinstance(index, faiss.IndexFlat):
        return index.ntotal * index.d * 4
    if isinstance(index, faiss.IndexHNSW):
        return index.ntotal * index.d * 4 + faiss.vector_to_array(index.hnsw.neighbors).nbytes \
            + faiss.vector_to_array(index.hnsw.offsets).nbytes
    ivf = faiss.extract_index_ivf(index)
    lists = ivf.invlists
    rows = sum(lists.list_size(i) for i in range(ivf.nlist))
    return rows * (lists.code_size + 8) + ivf.nlist * ivf.d * 4


def row(name: str, build_s: float, nbytes: int, p50: float, p95: float, rec: float | None) -> None:
    rec_text = "" if rec is None else f"{rec:.3f}"
    print(f"| {name} | {build_s:.1f} s | {nbytes / 2**20:,.0f} MiB | {p50:.2f} ms | {p95:.2f} ms | {rec_text} |",
          flush=True)


def header(title: str) -> None:
    print(f"\n{title}\n\n| index | build | memory | p50 | p95 | recall@{K} |\n|---|---|---|---|---|---|", flush=True)


def real_run(vectors: np.ndarray, queries: np.ndarray) -> None:
    header(f"Real vectors: {len(vectors):,} sentences, {len(queries)} PolicyQA test questions")
    started = time.perf_counter()
    flat = build_faiss_index(vectors)
    build = time.perf_counter() - started
    truth, p50, p95 = timed_search(flat, queries)
    row("flat (exact; the yardstick)", build, stored_bytes(flat), p50, p95, 1.0)
    started = time.perf_counter()
    ivf = build_faiss_index(vectors, exact_limit=0)
    build = time.perf_counter() - started
    ivf_layer = faiss.extract_index_ivf(ivf)
    for nprobe in sorted({8, 16, nprobe_for(ivf_layer.nlist), 64, 128}):
        ivf_layer.nprobe = nprobe
        found, p50, p95 = timed_search(ivf, queries)
        row(f"IVF{ivf_layer.nlist},Flat nprobe={nprobe}" + (" (the store's)" if nprobe == nprobe_for(ivf_layer.nlist)
                                                            else ""), build, stored_bytes(ivf), p50, p95,
            recall(found, truth))
    started = time.perf_counter()
    hnsw = faiss.IndexHNSWFlat(vectors.shape[1], 32, faiss.METRIC_INNER_PRODUCT)
    hnsw.hnsw.efConstruction = 40
    hnsw.add(vectors)
    build = time.perf_counter() - started
    for ef in (64, 128, 256):
        hnsw.hnsw.efSearch = ef
        found, p50, p95 = timed_search(hnsw, queries)
        row(f"HNSW32,Flat efSearch={ef}", build, stored_bytes(hnsw), p50, p95, recall(found, truth))


def synthetic(real: np.ndarray, rows: int, sigma: float = 0.5) -> np.ndarray:
    """`rows` vectors: random real vectors plus Gaussian noise of norm about `sigma`, normalised."""
    rng = np.random.default_rng(SEED)
    out = np.empty((rows, real.shape[1]), dtype=np.float32)
    for start in range(0, rows, 100_000):
        stop = min(rows, start + 100_000)
        block = real[rng.integers(0, len(real), stop - start)]
        block = block + rng.standard_normal(block.shape, dtype=np.float32) * (sigma / np.sqrt(real.shape[1]))
        out[start:stop] = block / np.linalg.norm(block, axis=1, keepdims=True)
    return out


def scale_run(real: np.ndarray, queries: np.ndarray, rows: int) -> None:
    vectors = synthetic(real, rows)
    header(f"Flat (exact) search by size, synthetic vectors made from the real ones, {len(queries)} queries")
    for size in sorted({s for s in (50_000, 100_000, 200_000, 500_000, rows) if s <= rows}):
        flat = faiss.IndexFlatIP(vectors.shape[1])
        started = time.perf_counter()
        flat.add(vectors[:size])
        build = time.perf_counter() - started
        _, p50, p95 = timed_search(flat, queries[:100])
        row(f"flat, {size:,} rows", build, stored_bytes(flat), p50, p95, None)
        del flat
    header(f"{rows:,} sentences (synthetic from the real vectors), {len(queries)} queries")
    flat = faiss.IndexFlatIP(vectors.shape[1])
    flat.add(vectors)
    started = time.perf_counter()
    _, truth = flat.search(queries, K)  # batched: the ground truth
    print(f"(exact ground truth, batched: {time.perf_counter() - started:.1f} s)")
    _, p50, p95 = timed_search(flat, queries)
    row("flat (exact; the yardstick)", 0.0, stored_bytes(flat), p50, p95, 1.0)
    del flat
    before = rss_mib()
    started = time.perf_counter()
    ivf = build_faiss_index(vectors)
    build = time.perf_counter() - started
    grown = rss_mib() - before
    ivf_layer = faiss.extract_index_ivf(ivf)
    chosen = ivf_layer.nprobe
    for nprobe in sorted({chosen // 2, chosen, chosen * 2}):
        ivf_layer.nprobe = nprobe
        found, p50, p95 = timed_search(ivf, queries)
        row(f"IVF{ivf_layer.nlist},Flat nprobe={nprobe}" + (" (the store's, built by build_faiss_index)"
                                                            if nprobe == chosen else ""),
            build, stored_bytes(ivf), p50, p95, recall(found, truth))
    print(f"(resident memory grew {grown:,.0f} MiB while building; peak RSS of the run "
          f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:,.0f} MiB; nlist={nlist_for(rows)})")


def ask_all_stages(repeat: int = 3) -> None:
    """`ask --all` over the three bundled examples: how much of each policy's answer the FAISS search takes
    (what a shared cross-policy index could save)."""
    import tempfile
    from pathlib import Path

    from assistant.engine import Assistant
    from assistant.foundation.settings import Settings

    examples = Path(__file__).resolve().parent.parent / "examples" / "policies"
    question = "Do they share my personal information with advertisers?"
    with tempfile.TemporaryDirectory() as home:
        assistant = Assistant(Settings(home=Path(home)))
        for name in ("amazon", "instagram", "steampowered"):
            assistant.ingest(next(examples.glob(f"{name}.*.html")), name=name)
        assistant.ask_across(question)  # warm: models loaded, indexes read
        versions = [assistant.version(name) for name in assistant.policy_names()]
        vector = assistant.retriever.encode([question])[0]
        answer_ms, search_ms = [], []
        for _ in range(repeat):
            started = time.perf_counter()
            assistant.ask_across(question)
            answer_ms.append(1000 * (time.perf_counter() - started))
            for version in versions:
                index = assistant.search._indexes[version.index_file]
                started = time.perf_counter()
                index.search(vector, version.n_sentences)
                search_ms.append(1000 * (time.perf_counter() - started))
        sentences = sum(v.n_sentences for v in versions)
        print(f"\nask --all, {len(versions)} policies ({sentences} sentences): whole command "
              f"{np.median(answer_ms):.0f} ms (median of {repeat}); the FAISS searches in it "
              f"{np.median(search_ms) * len(versions):.3f} ms ({np.median(search_ms):.3f} ms a policy)")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--real-only", action="store_true")
    parser.add_argument("--ask-all", action="store_true", help="only time ask --all's stages on the examples")
    args = parser.parse_args()
    if args.ask_all:
        ask_all_stages()
        return
    print(f"faiss {faiss.__version__}, {os.cpu_count()} CPUs, omp threads {faiss.omp_get_max_threads()}")
    texts = real_sentences()
    real = embedded(texts, "sentences")
    queries = embedded(questions(args.queries), "questions")
    real_run(real, queries)
    if not args.real_only:
        scale_run(real, queries, args.rows)


if __name__ == "__main__":
    main()
