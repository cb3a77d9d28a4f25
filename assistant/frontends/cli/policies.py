"""Commands on the store: ingest, policies, remove, doctor, repair, export.

The models' modules are imported inside the commands, for start-up speed (see `common`); `policies` first
asks `assistant serve` when it runs on the same store (`frontends/client.py`).
"""
from __future__ import annotations

from typing import Annotated

import typer
from rich.text import Text

from assistant.frontends.cli.common import (
    ask_server,
    console,
    err_console,
    friendly_errors,
    make_assistant,
    print_json,
    progress_bar,
)
from assistant.frontends.render import (
    ingest_message,
    policy_row,
    print_error,
    removal_message,
    render_policies,
)
from assistant.understanding.validation import require_utf8


@friendly_errors
def ingest(
    source: Annotated[str, typer.Argument(
        metavar="PATH_OR_URL", help="Policy file (.html, .htm, .md, .txt or .pdf), an http(s) URL, or a site "
                                    "(duolingo.com): a page that is not a policy leads to the policy it links.")],
    name: Annotated[str | None, typer.Option(
        help="Name to store it under (default: the file name; for a URL, the organisation its title names, else "
             "its host, and never another document's name).")] = None,
    max_size: Annotated[int | None, typer.Option(
        help="Largest file or page accepted, in bytes (default 10 MB).")] = None,
    timeout: Annotated[float | None, typer.Option(
        min=0.1, help="Seconds a URL's whole fetch may take (default 30).")] = None,
    force: Annotated[bool, typer.Option(
        "--force", help="Store it even if it does not look like an English privacy policy.")] = False,
    allow_private: Annotated[bool, typer.Option(
        "--allow-private", help="Let the URL (or a redirect) lead to this machine or a private network "
                                "(also ASSISTANT_ALLOW_PRIVATE=1).")] = False,
) -> None:
    """Store a policy (a new version if its content changed) and index its sentences."""
    name = require_utf8(name, "policy name")
    assistant = make_assistant(max_size, timeout, allow_private)
    with progress_bar("fetching" if "://" in source else "parsing") as progress:
        result = assistant.ingest(source, name=name, progress=progress, force=force)
    console.print(ingest_message(result))
    if not result.unchanged and result.version.version > 1:  # a new version of a stored policy: what changed
        console.print(assistant.diff(result.version.name).summary_line(), soft_wrap=True, markup=False)
    if result.warning:
        err_console.print(Text(f"warning: {result.warning}", style="yellow"), soft_wrap=True)


@friendly_errors
def policies(
    as_json: Annotated[bool, typer.Option("--json", help="Print the list as JSON.")] = False,
) -> None:
    """List the stored policies."""
    rows = ask_server("GET", "/policies")
    if rows is None:
        rows = [policy_row(summary) for summary in make_assistant().policies()]
    if as_json:
        print_json(rows)
    elif not rows:
        console.print("No policies stored yet: add one with `assistant ingest PATH`.")
    else:
        console.print(render_policies(rows, console.width))


@friendly_errors
def remove(name: Annotated[str, typer.Argument(help="Policy name.")]) -> None:
    """Delete a stored policy and all its versions."""
    removed = make_assistant().remove(require_utf8(name, "policy name"))
    console.print(removal_message(name, removed))


@friendly_errors
def doctor() -> None:
    """Check the store (database integrity, every version's index); exit 1 if anything is wrong."""
    health = make_assistant().doctor()
    for note in health.notes:
        console.print(f"note: {note}", soft_wrap=True, markup=False)
    if health.healthy:
        console.print(f"The store is healthy: {_count(health.policies, 'policy', 'policies')}, "
                      f"{_count(health.versions, 'version', 'versions')}.")
        return
    for problem in health.problems:
        console.print(f"problem: {problem}", soft_wrap=True, markup=False)
    raise typer.Exit(code=1)


@friendly_errors
def repair() -> None:
    """Rebuild missing or mismatched indexes from the stored sentences; says what it cannot repair."""
    report = make_assistant().repair()
    for version in report.rebuilt:
        console.print(f"Rebuilt the index of {version.name} version {version.version} "
                      f"({version.n_sentences} sentences).", soft_wrap=True, markup=False)
    if not report.rebuilt and not report.refused:
        console.print("Nothing to repair: every index matches its sentences.")
    for refusal in report.refused:
        print_error(err_console, f"cannot repair: {refusal}")
    if report.refused:
        raise typer.Exit(code=2)


@friendly_errors
def export(
    force: Annotated[bool, typer.Option("--force", help="Export again even if the cache has the graphs.")] = False,
) -> None:
    """Export every shipped model to ONNX (the cache in ASSISTANT_ONNX_CACHE, default the per-user cache),
    at the precision ASSISTANT_BACKEND runs it at; a model already exported is skipped (quick)."""
    from assistant.models.runtime import export_all  # lazy: torch loads only if a graph is missing

    for name, path, fresh in export_all(force=force):
        console.print(f"{name}: {path} ({'exported' if fresh else 'cached'})", markup=False, soft_wrap=True)


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"

