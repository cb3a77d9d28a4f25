"""Throughput of `assistant corpus ingest` on local Ray against the single-process ingest of the same documents.

    python scripts/bench_corpus.py LIST_OR_FOLDER [--documents 40] [--workers 1,2]

The yardstick: one process that loads the models once and runs `Assistant.ingest` on each document in turn (what a
loop over `assistant ingest` costs without its start-up). Then the corpus pipeline with each number of workers, on
the same documents, each run into a fresh folder. Prints documents and sentences per second, each worker's peak
resident memory (sampled every 0.5 s from /proc), the scaling from the first worker count to the others, Ray's
overhead (a one-worker run's time over the yardstick's), and a projection for a million policies with its
assumptions. Run it on an otherwise idle machine."""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from assistant.corpus.catalogue import PQ_BYTES
from assistant.corpus.pipeline import run_corpus
from assistant.corpus.sources import read_sources
from assistant.corpus.worker import CorpusWorker, process


def descendants(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            if parent == pid:
                found += [int(entry.name), *descendants(int(entry.name))]
    return found


class WorkerMemory:
    """Peak resident memory of each Ray worker actor below this process."""

    def __init__(self) -> None:
        self.peaks: dict[int, int] = {}
        self.stop = threading.Event()
        threading.Thread(target=self._poll, daemon=True).start()

    def _poll(self) -> None:
        while not self.stop.wait(0.5):
            for pid in descendants(os.getpid()):
                try:
                    if Path(f"/proc/{pid}/cmdline").read_bytes().startswith(b"ray::MapWorker"):
                        status = Path(f"/proc/{pid}/status").read_text()
                        rss = int(next(line.split()[1] for line in status.splitlines() if line.startswith("VmRSS")))
                        self.peaks[pid] = max(self.peaks.get(pid, 0), rss * 1024)
                except (OSError, StopIteration):
                    continue


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("source")
    parser.add_argument("--documents", type=int, default=40)
    parser.add_argument("--stride", type=int, default=1, help="take every K-th document (a sample across the list)")
    parser.add_argument("--workers", default="1,2")
    arguments = parser.parse_args()
    documents = read_sources([arguments.source])[:: arguments.stride][: arguments.documents]
    rows = []

    with tempfile.TemporaryDirectory() as scratch:
        started = time.perf_counter()
        worker = CorpusWorker(str(Path(scratch) / "unused"), threads=1)
        loaded = time.perf_counter() - started
        started = time.perf_counter()
        results = [process(worker.assistant, d) for d in documents]
        seconds = time.perf_counter() - started
        sentences = sum(r.document["sentences"] for r in results)
        stored = sum(r.document["status"] == "ok" for r in results)
        rows.append(("single process, 1 thread (yardstick)", seconds, sentences, None))
        print(f"yardstick: models loaded in {loaded:.1f} s; {len(documents)} documents ({stored} stored, "
              f"{sentences} sentences) in {seconds:.1f} s", flush=True)

        for count in [int(w) for w in arguments.workers.split(",")]:
            memory = WorkerMemory()
            run = run_corpus(documents, Path(scratch) / f"out-{count}", workers=count, batch_size=2)
            memory.stop.set()
            peak = max(memory.peaks.values(), default=0)
            rows.append((f"corpus ingest, {count} worker{'s' * (count > 1)} (Ray, local)", run.seconds,
                         run.sentences, peak))
            print(f"{count} workers: {run}", flush=True)

    base = rows[0][1]
    print("\n| run | documents/s | sentences/s | wall s | × yardstick time | peak RSS per worker |")
    print("|---|---|---|---|---|---|")
    for name, seconds, sentences, peak in rows:
        print(f"| {name} | {len(documents) / seconds:.3f} | {sentences / seconds:.1f} | {seconds:.1f} | "
              f"{seconds / base:.2f} | {f'{peak / 2**30:.2f} GiB' if peak else '–'} |")
    if len(rows) > 2:
        print(f"\nscaling {rows[1][0]} → {rows[2][0]}: {rows[1][1] / rows[2][1]:.2f}×")
    stored = sum(r.document["status"] == "ok" for r in results)
    per_policy = rows[0][2] / max(1, stored)  # sentences of a stored policy, on average
    per_worker = rows[1][2] / rows[1][1] / per_policy  # stored policies a second, one worker (refusals cost ~nothing)
    print(f"\n{stored} of {len(documents)} documents stored (the rest refused by screening: other languages, pages "
          f"that are not policies), {per_policy:.0f} sentences a stored policy")
    print(f"projection for 1,000,000 stored policies of {per_policy:.0f} sentences at {per_worker:.3f} policies/s per "
          f"one-core worker ({rows[1][2] / rows[1][1]:.1f} sentences/s), linear scaling (one worker a core, "
          f"~{(rows[1][3] or 0) / 2**30:.1f} GiB each):")
    for workers in (16, 64, 256, 1024):
        print(f"  {workers} workers: {1e6 / (per_worker * workers) / 3600:.1f} h")
    total = 1e6 * per_policy
    print(f"index for them ({total / 1e6:.0f} M sentences): flat {total * 1536 / 2**30:.0f} GiB, IVF-PQ "
          f"{total * (PQ_BYTES + 8) / 2**30:.0f} GiB ({PQ_BYTES} code bytes + an 8-byte id a sentence)")

if __name__ == "__main__":
    main()
