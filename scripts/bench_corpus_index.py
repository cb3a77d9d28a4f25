"""The corpus search index at the size of a real corpus: exact (flat) against IVF-PQ on the same sentences.

    python scripts/bench_corpus_index.py CORPUS_DIR [--queries 200]

Queries are the vectors of sentences drawn from the corpus (seeded); recall@10 is the share of the exact index's
ten best that IVF-PQ also returns. Prints build time, bytes a sentence, milliseconds a query (one thread) and
recall, so the exact limit (`store.cross_index.EXACT_LIMIT`) can be judged against the corpus's size."""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import faiss
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from assistant.corpus.catalogue import build_index, index_kind
from assistant.corpus.tables import read_table
from assistant.store.index import one_thread


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", type=Path)
    parser.add_argument("--queries", type=int, default=200)
    arguments = parser.parse_args()
    table = read_table(arguments.corpus, "sentences", columns=["vector"])
    vectors = np.asarray(table.column("vector").combine_chunks().flatten()).reshape(table.num_rows, -1)
    queries = vectors[np.random.default_rng(7).choice(len(vectors), arguments.queries, replace=False)]
    results = {}
    print(f"{len(vectors)} sentences, {arguments.queries} queries")
    print("| index | build s | bytes a sentence | ms a query | recall@10 against exact |")
    print("|---|---|---|---|---|")
    for name, limit in (("exact", len(vectors)), ("ivf-pq", 0)):
        started = time.perf_counter()
        index = build_index(vectors, exact_limit=limit)
        built = time.perf_counter() - started
        size = len(faiss.serialize_index(index))
        started = time.perf_counter()
        with one_thread():
            found = [index.search(q.reshape(1, -1), 10)[1][0] for q in queries]
        per_query = (time.perf_counter() - started) / len(queries) * 1000
        results[name] = found
        recall = np.mean([len(set(a) & set(b)) / 10 for a, b in zip(found, results["exact"], strict=True)])
        print(f"| {name} ({index_kind(index)}) | {built:.1f} | {size / len(vectors):.0f} | {per_query:.2f} | "
              f"{recall:.3f} |")


if __name__ == "__main__":
    main()
