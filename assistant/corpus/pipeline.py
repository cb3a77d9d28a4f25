"""`assistant corpus ingest`: the corpus's documents through `CorpusWorker`s on Ray Data.

Local Ray by default (as many CPUs as the machine has); an existing cluster when an address is given, with the same
code. The documents not finished by an earlier run become a dataset of rows, mapped in batches by a pool of worker
actors (the models load once per actor); each batch writes its own table parts (`tables`), so what is written does
not pass through the driver, and a worker killed mid-batch loses only that batch, which Ray runs again on a new
actor (and a killed run, which the next run does)."""
from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pyarrow.parquet as pq

from assistant.corpus.sources import CorpusDocument
from assistant.corpus.tables import (
    COMMIT_TABLE,
    ERROR,
    OK,
    REFUSED,
    committed_parts,
    finished_ids,
    part_path,
    remove_uncommitted,
)
from assistant.corpus.worker import CorpusWorker

DEFAULT_BATCH = 4  # documents per batch: a part file per table each


@dataclass(frozen=True)
class CorpusRun:
    """What one run did."""

    documents: int  # in the sources
    skipped: int  # finished by an earlier run
    done: int
    ok: int
    refused: int
    errors: int
    sentences: int
    seconds: float
    removed_parts: int  # parts of batches an earlier run left unfinished

    @property
    def documents_per_second(self) -> float:
        return self.done / self.seconds if self.seconds else 0.0


Progress = Callable[[int, int], None]  # (documents done this run, documents to do)


def run_corpus(documents: list[CorpusDocument], out: Path, workers: int = 1, address: str | None = None,
               batch_size: int = DEFAULT_BATCH, progress: Progress | None = None) -> CorpusRun:
    """Ingest every document of `documents` not finished in `out`, on `workers` Ray actors."""
    import ray  # ~1 s: only when a corpus runs

    started = time.perf_counter()
    out.mkdir(parents=True, exist_ok=True)
    removed = remove_uncommitted(out)
    finished = finished_ids(out)
    pending = [d for d in documents if d.doc_id not in finished]
    counts = {OK: 0, REFUSED: 0, ERROR: 0}
    sentences = 0
    if pending:
        _start_ray(ray, address, workers)
        watcher = _watch(out, len(finished), len(pending), progress) if progress else None
        try:
            for summary in _summaries(ray, pending, out, workers, batch_size):
                counts[summary["status"]] += 1
                sentences += int(summary["sentences"])
        finally:
            if watcher:
                watcher.set()
            ray.shutdown()
        if progress:
            progress(sum(counts.values()), len(pending))
    return CorpusRun(len(documents), len(documents) - len(pending), sum(counts.values()), counts[OK],
                     counts[REFUSED], counts[ERROR], sentences, time.perf_counter() - started, removed)


def _watch(out: Path, before: int, total: int, progress: Progress, every: float = 1.0) -> threading.Event:
    """Report progress from the committed parts on disk (Ray hands results to the driver in large bundles, the
    parts are committed as each batch ends); the event returned stops it."""
    stop = threading.Event()
    counted: dict[str, int] = {}

    def poll() -> None:
        while not stop.wait(every):
            for part in committed_parts(out) - counted.keys():
                counted[part] = pq.read_metadata(part_path(out, COMMIT_TABLE, part)).num_rows
            done = sum(counted.values()) - before
            if done and not stop.is_set():
                progress(min(done, total), total)

    threading.Thread(target=poll, daemon=True, name="corpus-progress").start()
    return stop


def _start_ray(ray, address: str | None, workers: int) -> None:
    os.environ.setdefault("RAY_AUTH_MODE", "disabled")  # a local instance for this run alone; no token to mint
    context = ray.data.DataContext.get_current()
    context.enable_progress_bars = False  # the CLI draws its own (documents per second)
    context.print_on_execution_start = False
    if address:
        ray.init(address=address, logging_level=logging.ERROR, log_to_driver=False)
    else:
        ray.init(num_cpus=max(os.cpu_count() or 1, workers), include_dashboard=False,
                 logging_level=logging.ERROR, log_to_driver=False)


def _summaries(ray, pending: list[CorpusDocument], out: Path, workers: int, batch_size: int):
    """One summary row per document, as the workers finish them."""
    rows = [{**d.to_dict(), "date": d.date or ""} for d in pending]
    dataset = ray.data.from_items(rows, override_num_blocks=max(1, -(-len(rows) // batch_size)))
    for name in ("ray", "ray.data"):  # Ray Data's notices (its executor's start and end): the bar says enough
        logging.getLogger(name).setLevel(logging.ERROR)
    mapped = dataset.map_batches(
        CorpusWorker, fn_constructor_kwargs={"out": str(out.resolve()), "threads": 1}, batch_size=batch_size,
        compute=ray.data.ActorPoolStrategy(size=workers), num_cpus=0.9, batch_format="numpy")
    yield from mapped.iter_rows()
