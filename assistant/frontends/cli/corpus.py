"""`assistant corpus`: many policies at once (`assistant.corpus`): ingest on Ray, report, search, ask.

The corpus modules are imported inside the commands, for start-up speed (Ray and the models take seconds)."""
from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated

import typer

from assistant.frontends.cli.common import console, err_console, friendly_errors, make_assistant, print_json

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
    """A rich bar with documents per second on a terminal; elsewhere a line on stderr every 10 or more documents."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    started = time.perf_counter()
    if not err_console.is_terminal:
        printed = 0

        def line(done: int, total: int) -> None:
            nonlocal printed
            if done - printed >= 10 or done == total and done != printed:
                printed = done
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


@app.command("report")
@friendly_errors
def report(
    corpus: Annotated[Path, typer.Argument(help="A corpus folder written by `assistant corpus ingest`.")],
    out: Annotated[Path | None, typer.Option(help="The report folder (default: CORPUS/report).")] = None,
    at: Annotated[str | None, typer.Option(
        help="Dates to take shares over time at, YYYY-MM-DD,… (default: 1 July of every year the corpus covers).")
    ] = None,
    title: Annotated[str | None, typer.Option(help="The page's title (default: the folder's name).")] = None,
) -> None:
    """The corpus at a glance: shares per verdict with intervals, length, reading level, trends; HTML and CSV."""
    from assistant.corpus.page import write_report  # lazy: pandas and matplotlib
    from assistant.corpus.report import build_report

    dates = _dates(at) if at else None
    built = build_report(corpus, dates)
    page = write_report(built, out or corpus / "report", title or f"Corpus report: {corpus.resolve().name}")
    console.print(f"{len(built.stored)} policies of {built.stored['service'].nunique()} services; "
                  f"report: {page}", markup=False)
    for row in built.changes.head(5).itertuples():
        console.print(f"  {row.facet}: {row.first:.0%} → {row.last:.0%} ({row.change:+.0%}, 95 % interval "
                      f"{row.low:+.0%} to {row.high:+.0%})", markup=False)


@app.command("search")
@friendly_errors
def search(
    text: Annotated[str, typer.Argument(help="What to look for, in your own words.")],
    corpus: Annotated[Path, typer.Option(help="A corpus folder written by `assistant corpus ingest`.")],
    facet: Annotated[str | None, typer.Option(help="Only sentences that address this facet (sale, retention, …).")
                     ] = None,
    top: Annotated[int, typer.Option(min=1, max=1000)] = 10,
    as_json: Annotated[bool, typer.Option("--json")] = False,
) -> None:
    """The corpus's sentences closest to TEXT, with their service."""
    from assistant.corpus.catalogue import search as search_corpus  # lazy: FAISS, pandas, the retriever

    matches = search_corpus(corpus, _encoder(), text, top, facet)
    if as_json:
        print_json([dataclasses.asdict(m) for m in matches])
        return
    for match in matches:
        console.print(f"{match.score:.3f}  {match.service}{' ' + match.date if match.date else ''}, sentence "
                      f"{match.sentence_id}: {match.text}", markup=False, soft_wrap=True)


@app.command("ask")
@friendly_errors
def ask(
    question: Annotated[str, typer.Argument(help="One question, asked of every policy of the corpus.")],
    corpus: Annotated[Path, typer.Option(help="A corpus folder written by `assistant corpus ingest`.")],
    out: Annotated[Path | None, typer.Option(help="Write the answers as Parquet here.")] = None,
    as_json: Annotated[bool, typer.Option("--json")] = False,
) -> None:
    """Ask every service's latest policy one question: verdicts per policy and how many say each."""
    import pandas as pd  # lazy: with the corpus modules

    from assistant.corpus.catalogue import ask as ask_corpus  # lazy: FAISS, pandas, the retriever

    answers = ask_corpus(corpus, question, _encoder())
    table = pd.DataFrame([a.to_dict() for a in answers.answers])
    if out is not None:
        table.to_parquet(out, index=False)
    if as_json:
        print_json({"question": question, "facet": answers.facet, "summary": answers.summary(),
                    "answers": [a.to_dict() for a in answers.answers]})
        return
    if answers.facet is None:
        console.print("Not one of the profile's questions: each policy's closest sentence.", markup=False)
    if len(answers.answers) > 1:
        for row in answers.summary():
            console.print(f"{row['verdict']}: {row['policies']} policies ({row['share']:.0%}, 95 % interval "
                          f"{row['low']:.0%}–{row['high']:.0%})", markup=False)
    for answer in answers.answers:
        console.print(f"{answer.service}{' (' + answer.date + ')' if answer.date else ''}: {answer.headline}",
                      markup=False, soft_wrap=True)
        if answer.quote:
            console.print(f"  \u201c{answer.quote}\u201d (sentence {answer.sentence_id})", markup=False,
                          soft_wrap=True)
        for number, text in answer.also:
            console.print(f"  \u201c{text}\u201d (sentence {number})", markup=False, soft_wrap=True)


def _dates(text: str) -> list[str]:
    import datetime

    try:
        return [datetime.date.fromisoformat(d.strip()).isoformat() for d in text.split(",") if d.strip()]
    except ValueError:
        raise typer.BadParameter(f"{text!r}: dates are YYYY-MM-DD, separated by commas.") from None


def _encoder():
    """The retriever's vector of a text (the model the corpus's sentence vectors come from)."""
    retriever = make_assistant().retriever
    return lambda text: retriever.encode([text])[0]
