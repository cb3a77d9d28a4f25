"""`assistant corpus`: many policies at once (`assistant.corpus`): ingest on Ray, report, search, ask.

The corpus modules are imported inside the commands, for start-up speed (Ray and the models take seconds)."""
from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated

import typer

from assistant.frontends.cli.common import console, err_console, friendly_errors, print_json

app = typer.Typer(help="Many policies at once: ingest a corpus on Ray, report on it, search it, ask it.",
                  no_args_is_help=True)


@app.command("ingest")
@friendly_errors
def ingest(
    sources: Annotated[list[str], typer.Argument(
        metavar="SOURCE...", help="Folders of policy files (SERVICE/YYYY-MM-DD.md files are dated versions), list "
                                  "files (.tsv with source/service/date columns, or one path or URL a line), files "
                                  "or URLs.")],
    out: Annotated[Path, typer.Option(help="The corpus folder: Parquet tables, resumed when it has some.")],
    workers: Annotated[int, typer.Option(min=1, help="Ray actors, each with the models loaded once.")] = 1,
    ray_address: Annotated[str | None, typer.Option(
        "--ray", help="An existing Ray cluster's address (default: a local Ray for this run).")] = None,
    batch_size: Annotated[int, typer.Option(min=1, help="Documents per batch (one part file per table).")] = 4,
) -> None:
    """Parse, screen, split, embed, tag and profile every document, in parallel; a re-run skips finished ones."""
    from assistant.corpus.pipeline import run_corpus  # lazy: Ray and the models
    from assistant.corpus.sources import read_sources

    documents = read_sources(sources)
    with documents_progress() as progress:
        run = run_corpus(documents, out, workers, ray_address, batch_size, progress)
    console.print(f"{run.done} documents in {run.seconds:.1f} s ({run.documents_per_second:.2f}/s, "
                  f"{run.sentences} sentences): {run.ok} stored, {run.refused} refused, {run.errors} errors; "
                  f"{run.skipped} already done." + (f" Removed {run.removed_parts} unfinished parts of an earlier run."
                                                     if run.removed_parts else ""), markup=False)
    console.print(f"Tables in {out}/ (documents, sentences, statements, profiles).", markup=False)


@contextmanager
def documents_progress() -> Iterator[Callable[[int, int], None]]:
    """A rich bar with documents per second on a terminal; elsewhere a line on stderr every 10 documents."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    started = time.perf_counter()
    if not err_console.is_terminal:
        def line(done: int, total: int) -> None:
            if done % 10 == 0 or done == total:
                rate = done / max(time.perf_counter() - started, 1e-9)
                err_console.print(f"{done}/{total} documents, {rate:.2f}/s", markup=False)
        yield line
        return
    with Progress(TextColumn("documents"), BarColumn(), MofNCompleteColumn(),
                  TextColumn("{task.fields[rate]}/s"), TimeElapsedColumn(), console=err_console) as bar:
        task = bar.add_task("documents", total=None, rate="0.00")

        def update(done: int, total: int) -> None:
            rate = done / max(time.perf_counter() - started, 1e-9)
            bar.update(task, completed=done, total=total, rate=f"{rate:.2f}")

        yield update


_ = print_json  # used by the commands below
