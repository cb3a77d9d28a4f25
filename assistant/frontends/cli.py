"""The `assistant` command line: ingest, policies, remove, ask, label, compare, diff, search, doctor, repair,
serve, eval, train.

Each command imports the engine or the model it needs inside its function, on purpose: torch and
the models take seconds to import, and `--help` or a bad argument must answer at once. `ask`, `label`
and `policies` first ask `assistant serve` when it runs on the same store (`frontends/client.py`):
the same output, without loading a model.
"""
from __future__ import annotations

import dataclasses
import json
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import wraps
from pathlib import Path
from typing import Annotated, Any
from urllib.parse import urlencode

import typer
from rich.text import Text

from assistant.answering.label import PrivacyLabel
from assistant.foundation.errors import AssistantError, environment_message
from assistant.foundation.settings import Settings
from assistant.foundation.text import escape_json_controls
from assistant.foundation.types import Answer
from assistant.frontends.client import call_server
from assistant.frontends.render import (
    SafeConsole,
    ingest_message,
    policy_row,
    print_error,
    removal_message,
    render_across,
    render_alignment,
    render_alignment_report,
    render_answer,
    render_attributes_report,
    render_comparison,
    render_diff,
    render_facets_report,
    render_label,
    render_policies,
    render_privacyqa_report,
    render_search,
)
from assistant.understanding.validation import require_utf8, validate_question

app = typer.Typer(
    help="Ask questions about privacy policies and get answers quoted and cited from the policy.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)
console = SafeConsole()
err_console = SafeConsole(stderr=True)


def _friendly_errors(command: Callable[..., Any]) -> Callable[..., Any]:
    """Turn expected failures into a one-line message on stderr and a non-zero exit."""

    @wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except AssistantError as error:
            print_error(err_console, str(error))
            raise typer.Exit(code=2) from None
        except KeyboardInterrupt:
            print_error(err_console, "interrupted; the store is unchanged.")
            raise typer.Exit(code=130) from None
        except OSError as error:  # the environment outside the store (which reports its own): a full disk...
            print_error(err_console, environment_message(error))
            raise typer.Exit(code=2) from None

    return wrapper


@contextmanager
def _progress_bar(first_stage: str) -> Iterator[Callable[[str, int, int], None]]:
    """A transient rich progress bar on stderr, driven by the engine's (stage, done, total) callback."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn  # ingest only

    with Progress(
        TextColumn("[progress.description]{task.description}"), BarColumn(), MofNCompleteColumn(),
        TimeElapsedColumn(), console=err_console, transient=True,
    ) as bar:
        task = bar.add_task(first_stage, total=None)

        def progress(stage: str, done: int, total: int) -> None:
            bar.update(task, description=stage, completed=done, total=total)

        yield progress


def _assistant(max_size: int | None = None, timeout: float | None = None):
    from assistant.engine import Assistant  # lazy: see the module docstring

    settings = Settings.from_env()
    if max_size is not None:
        settings = dataclasses.replace(settings, max_bytes=max_size)
    if timeout is not None:
        settings = dataclasses.replace(settings, fetch_timeout=timeout)
    return Assistant(settings)


@app.command()
@_friendly_errors
def ingest(
    source: Annotated[str, typer.Argument(
        metavar="PATH_OR_URL", help="Policy file (.html, .htm, .md, .txt or .pdf) or an http(s) URL.")],
    name: Annotated[str | None, typer.Option(
        help="Name to store it under (default: the file name, or the URL's host without www.).")] = None,
    max_size: Annotated[int | None, typer.Option(
        help="Largest file or page accepted, in bytes (default 10 MB).")] = None,
    timeout: Annotated[float | None, typer.Option(
        min=0.1, help="Seconds a URL's whole fetch may take (default 30).")] = None,
    force: Annotated[bool, typer.Option(
        "--force", help="Store it even if it does not look like an English privacy policy.")] = False,
) -> None:
    """Store a policy (a new version if its content changed) and index its sentences."""
    name = require_utf8(name, "policy name")
    assistant = _assistant(max_size, timeout)
    with _progress_bar("fetching" if "://" in source else "parsing") as progress:
        result = assistant.ingest(source, name=name, progress=progress, force=force)
    console.print(ingest_message(result))
    if not result.unchanged and result.version.version > 1:  # a new version of a stored policy: what changed
        console.print(assistant.diff(result.version.name).summary_line(), soft_wrap=True, markup=False)
    if result.warning:
        err_console.print(Text(f"warning: {result.warning}", style="yellow"), soft_wrap=True)


@app.command()
@_friendly_errors
def policies(
    as_json: Annotated[bool, typer.Option("--json", help="Print the list as JSON.")] = False,
) -> None:
    """List the stored policies."""
    rows = _served("GET", "/policies")
    if rows is None:
        rows = [policy_row(summary) for summary in _assistant().policies()]
    if as_json:
        _print_json(rows)
    elif not rows:
        console.print("No policies stored yet: add one with `assistant ingest PATH`.")
    else:
        console.print(render_policies(rows, console.width))


@app.command()
@_friendly_errors
def remove(name: Annotated[str, typer.Argument(help="Policy name.")]) -> None:
    """Delete a stored policy and all its versions."""
    removed = _assistant().remove(require_utf8(name, "policy name"))
    console.print(removal_message(name, removed))


@app.command()
@_friendly_errors
def ask(
    question: Annotated[str, typer.Argument(help="Your question, in plain English.")],
    policy: Annotated[str | None, typer.Option(help="Policy name (optional when only one is stored).")] = None,
    version: Annotated[int | None, typer.Option(help="Policy version (default: latest).")] = None,
    top: Annotated[int, typer.Option("--top", min=1, max=20, help="How many evidence sentences to show.")] = 3,
    as_json: Annotated[bool, typer.Option("--json", help="Print the answer as JSON.")] = False,
    across_all: Annotated[bool, typer.Option("--all", help="Ask every stored policy: a table of verdicts.")] = False,
    across: Annotated[str | None, typer.Option(
        "--policies", help="Ask these stored policies (comma-separated names): a table of verdicts.")] = None,
) -> None:
    """Answer a question about a stored policy, quoting and citing its sentences."""
    validate_question(question)  # before anything loads: a bad question is answered at once
    policy = require_utf8(policy, "policy name")
    if across_all or across is not None:
        return _ask_across(question, across, policy, version, as_json)
    served = _served("POST", "/ask", {"question": question, "policy": policy, "version": version, "top": top})
    if served is None:
        assistant = _assistant()
        served = assistant.ask(question, policy=assistant.choose_policy(policy), version=version,
                               top_k=top).to_dict()
    if as_json:
        _print_json(served)
    else:
        console.print(render_answer(Answer.from_dict(served)))


@app.command()
@_friendly_errors
def label(
    policy: Annotated[str | None, typer.Option(help="Policy name (optional when only one is stored).")] = None,
    version: Annotated[int | None, typer.Option(help="Policy version (default: latest).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the label as JSON.")] = False,
) -> None:
    """A privacy "nutrition label" of a stored policy: data collected and shared, with whom, why, how long."""
    policy = require_utf8(policy, "policy name")
    query = {key: value for key, value in (("policy", policy), ("version", version)) if value is not None}
    served = _served("GET", "/label" + (f"?{urlencode(query)}" if query else ""))
    if served is None:
        assistant = _assistant()
        served = assistant.label(assistant.choose_policy(policy), version).to_dict()
    if as_json:
        _print_json(served)
    else:
        console.print(render_label(PrivacyLabel.from_dict(served)))


@app.command()
@_friendly_errors
def doctor() -> None:
    """Check the store (database integrity, every version's index); exit 1 if anything is wrong."""
    health = _assistant().doctor()
    for note in health.notes:
        console.print(f"note: {note}", soft_wrap=True, markup=False)
    if health.healthy:
        console.print(f"The store is healthy: {_count(health.policies, 'policy', 'policies')}, "
                      f"{_count(health.versions, 'version', 'versions')}.")
        return
    for problem in health.problems:
        console.print(f"problem: {problem}", soft_wrap=True, markup=False)
    raise typer.Exit(code=1)


@app.command()
@_friendly_errors
def repair() -> None:
    """Rebuild missing or mismatched indexes from the stored sentences; says what it cannot repair."""
    report = _assistant().repair()
    for version in report.rebuilt:
        console.print(f"Rebuilt the index of {version.name} version {version.version} "
                      f"({version.n_sentences} sentences).", soft_wrap=True, markup=False)
    if not report.rebuilt and not report.refused:
        console.print("Nothing to repair: every index matches its sentences.")
    for refusal in report.refused:
        print_error(err_console, f"cannot repair: {refusal}")
    if report.refused:
        raise typer.Exit(code=2)


# -- comparing policies and versions (issue 20) -----------------------------------------------


def _ask_across(question: str, names: str | None, policy: str | None, version: int | None, as_json: bool) -> None:
    """`ask --all` / `ask --policies a,b,c`: one question, the latest version of each policy."""
    if policy is not None or version is not None:
        raise AssistantError("--all and --policies ask the latest version of several policies: leave out "
                             "--policy and --version.")
    chosen = None if names is None else [n.strip() for n in require_utf8(names, "policy names").split(",")
                                         if n.strip()]
    if chosen is not None and not chosen:
        raise AssistantError("--policies needs at least one policy name (comma-separated).")
    result = _assistant().ask_across(question, chosen)
    if as_json:
        _print_json(result.to_dict())
    else:
        console.print(render_across(result))


@app.command()
@_friendly_errors
def compare(
    policies: Annotated[list[str], typer.Argument(help="Two or more stored policy names.")],
    facet: Annotated[str | None, typer.Option(help="Compare only this facet (e.g. sale).")] = None,
    topic: Annotated[str | None, typer.Option(
        help="Show each policy's sentences on this issue instead (a facet, an OPP-115 practice, or words).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the comparison as JSON.")] = False,
) -> None:
    """Policies side by side, facet by facet: each one's verdict with its quote, differences first."""
    from assistant.answering.compare import check_facet  # lazy: see the module docstring

    names = [require_utf8(name, "policy name") for name in policies]
    if len(dict.fromkeys(n.lower() for n in names)) < 2:
        raise AssistantError("Name at least two different stored policies to compare.")
    if topic is not None:
        if facet is not None:
            raise AssistantError("Choose either --facet or --topic, not both.")
        (aligned,) = _assistant().align(names, require_utf8(topic, "topic"))
        if as_json:
            _print_json(aligned.to_dict())
        else:
            console.print(render_alignment(aligned))
        return
    result = _assistant().compare(names, check_facet(facet))
    if as_json:
        _print_json(result.to_dict())
    else:
        console.print(render_comparison(result))


@app.command()
@_friendly_errors
def diff(
    name: Annotated[str, typer.Argument(help="Policy name.")],
    from_version: Annotated[int | None, typer.Option(
        "--from", min=1, help="The older version (default: the one before --to).")] = None,
    to_version: Annotated[int | None, typer.Option("--to", min=1, help="The newer version (default: latest).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the changes as JSON.")] = False,
) -> None:
    """What changed between two versions: sentences added, removed, reworded (by issue) and facets changed."""
    result = _assistant().diff(require_utf8(name, "policy name"), from_version, to_version)
    if as_json:
        _print_json(result.to_dict())
    else:
        console.print(render_diff(result))


@app.command()
@_friendly_errors
def search(
    text: Annotated[str, typer.Argument(help="What to look for, in plain words.")],
    all_policies: Annotated[bool, typer.Option(
        "--all", help="Search every stored policy's latest version (the default).")] = False,
    policy: Annotated[str | None, typer.Option(help="Search only this policy's latest version.")] = None,
    top: Annotated[int, typer.Option(min=1, max=1000, help="How many sentences to show.")] = 10,
    as_json: Annotated[bool, typer.Option("--json", help="Print the sentences as JSON.")] = False,
) -> None:
    """The stored sentences closest in meaning to TEXT, across policies: policy, version, section, sentence, score."""
    if all_policies and policy is not None:
        raise AssistantError("Choose either --all or --policy NAME, not both.")
    result = _assistant().search_sentences(text, require_utf8(policy, "policy name"), top)
    if as_json:
        _print_json(result.to_dict())
    else:
        console.print(render_search(result))


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


@app.command()
@_friendly_errors
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on (a non-loopback one exposes the store).")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help="Port to listen on.")] = 8765,
    allow_origin: Annotated[list[str] | None, typer.Option(
        "--allow-origin", metavar="URL", help="A web origin whose pages may call the API (repeatable).")] = None,
    threads: Annotated[int, typer.Option(
        min=1, help="Torch threads for the models (1: short inputs gain nothing from more).")] = 1,
) -> None:
    """Serve the HTTP API (docs/api.md) on one warm engine; `ask`, `label` and `policies` then use it."""
    from assistant.frontends.api import serve as serve_api  # lazy: FastAPI and the engine load only here

    serve_api(Settings.from_env(), host, port, allow_origin or (), threads,
              say=lambda line: console.print(line, markup=False, soft_wrap=True))


def _served(method: str, path: str, body: dict[str, Any] | None = None) -> Any | None:
    """The reply of `assistant serve` when it runs on this store, else None (then the command works in process)."""
    return call_server(Settings.from_env().home, method, path, body)


eval_app = typer.Typer(
    help="Measure the assistant on research benchmarks (each in a throwaway store).", no_args_is_help=True
)
app.add_typer(eval_app, name="eval")


@eval_app.command("privacyqa")
@_friendly_errors
def eval_privacyqa(
    data: Annotated[Path | None, typer.Option(
        "--data", help="PrivacyQA file: the official policy_test_data.csv (tab-separated) or the reconstructed "
        "JSON (default: the bundled privacyqa_lb_dev.json).",
    )] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the scores as JSON (percentages).")] = False,
    limit: Annotated[int | None, typer.Option(min=1, help="Evaluate only the first N questions.")] = None,
    max_evidence: Annotated[
        int | None, typer.Option(min=1, max=50, help="top_k passed to ask (default: the shipped selection's cap).")
    ] = None,
) -> None:
    """Sentence-level precision / recall / F1 on PrivacyQA, with answerability and baselines."""
    from assistant.corpora import corpus_dir  # lazy: see the module docstring
    from assistant.corpora.privacyqa import LB_DEV_FILE  # lazy: see the module docstring
    from assistant.evaluation.privacyqa import run_privacyqa  # lazy: see the module docstring

    data = data or corpus_dir("privacyqa") / LB_DEV_FILE
    with _progress_bar("loading") as progress:
        report = run_privacyqa(data, limit=limit, max_evidence=max_evidence, progress=progress)
    if as_json:
        _print_json(report.to_json())
    else:
        console.print(render_privacyqa_report(report))


@eval_app.command("answers")
@_friendly_errors
def eval_answers(
    data: Annotated[Path | None, typer.Option(
        "--data", help="JSON Lines of questions with gold verdicts (default: the bundled answers set).")] = None,
    policies: Annotated[Path | None, typer.Option(
        "--policies", help="Folder of the policy files the items name (default: the OPP-115 policies).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the scores as JSON (percentages).")] = False,
) -> None:
    """Does a person get the right answer: verdict accuracy, first-quote support, not-stated precision / recall."""
    from assistant.evaluation.answers import run_answers  # lazy: see the module docstring

    with _progress_bar("loading") as progress:
        report = run_answers(data, policies, progress=progress)
    console.print_json(data=report.to_json()) if as_json else console.print(report.to_json())


@eval_app.command("attributes")
@_friendly_errors
def eval_attributes(
    split: Annotated[str, typer.Option(help="OPP-115 majority split: validation or test.")] = "test",
    as_json: Annotated[bool, typer.Option("--json", help="Print the scores as JSON.")] = False,
) -> None:
    """Per attribute (Does/Does Not, Purpose, Retention Period, …) micro / macro F1 of the OPP-115 attribute
    heads on a split's segments and sentences, beside a majority-class baseline."""
    from assistant.models.attributes.evaluate import evaluate  # lazy: see the module docstring

    result = evaluate(_check_split(split, ("validation", "test")))
    console.print_json(data=result) if as_json else console.print(render_attributes_report(result))


@eval_app.command("facets")
@_friendly_errors
def eval_facets(
    as_json: Annotated[bool, typer.Option("--json", help="Print the scores as JSON.")] = False,
) -> None:
    """Which privacy facet a question asks about: the facet classifier (where confident, else the word rules)
    beside the rules alone and the model alone, on the labelled PrivacyQA test questions."""
    from assistant.models.facets.evaluate import evaluate  # lazy: see the module docstring
    from assistant.understanding.facets import facet_rules  # lazy: see the module docstring

    result = evaluate(facet_rules(), "test")
    console.print_json(data=result) if as_json else console.print(render_facets_report(result))


@eval_app.command("categories")
@_friendly_errors
def eval_categories(
    split: Annotated[str, typer.Option(help="OPP-115 majority split: validation or test.")] = "test",
    sentences: Annotated[bool, typer.Option(
        "--sentences", help="Score single sentences labelled from the annotators' spans, not segments.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the scores as JSON.")] = False,
) -> None:
    """Macro / micro F1 of the practice-category classifier (PrivacyGLUE OPP-115 task), or its
    sentence-level scores."""
    from assistant.models.practices.evaluate import evaluate  # lazy: see the module docstring

    result = evaluate(_check_split(split, ("validation", "test")), sentences=sentences)
    console.print_json(data=result) if as_json else console.print(result)


@eval_app.command("alignment")
@_friendly_errors
def eval_alignment(
    split: Annotated[str, typer.Option(help="OPP-115 majority split scored: test (k is chosen on validation).")] = "test",
    limit: Annotated[int | None, typer.Option(min=2, help="Use only the first N segments of each split.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the scores as JSON.")] = False,
) -> None:
    """Alignment by issue (Liu et al., COLING 2014): pairwise P / R / F1 of "same issue" decisions between
    segments of different OPP-115 policies, a bag-of-words clustering baseline beside ours."""
    from assistant.evaluation.alignment import evaluate  # lazy: see the module docstring

    result = evaluate(_check_split(split, ("test",)), limit,
                      progress=lambda stage: err_console.print(f"[dim]{stage}…[/dim]"))
    if as_json:
        _print_json(result)
    else:
        console.print(render_alignment_report(result))


@eval_app.command("policyie")
@_friendly_errors
def eval_policyie(
    split: Annotated[str, typer.Option(help="PolicyIE split: valid or test (test only for the final report).")] = "test",
    as_json: Annotated[bool, typer.Option("--json", help="Print the scores as JSON.")] = False,
    limit: Annotated[int | None, typer.Option(min=1, help="Evaluate only the first N sentences.")] = None,
) -> None:
    """Intent F1, type-I / type-II slot F1 and exact match of the PolicyIE model (Ahmad et al. 2021)."""
    from assistant.models.policyie.evaluate import evaluate  # lazy: see the module docstring

    result = evaluate(_check_split(split, ("train", "valid", "test")), limit=limit)
    console.print_json(data=result) if as_json else console.print(result)


@eval_app.command("piextract")
@_friendly_errors
def eval_piextract(
    split: Annotated[str, typer.Option(
        help="PI-Extract split: test (the final report) or dev (10% of train, for tuning).")] = "test",
    as_json: Annotated[bool, typer.Option("--json", help="Print the scores as JSON.")] = False,
    limit: Annotated[int | None, typer.Option(min=1, help="Evaluate only the first N sentences.")] = None,
) -> None:
    """Entity-level (exact span) P / R / F1 per tag (COLLECT, NOT_COLLECT, SHARE, NOT_SHARE) and overall
    of the PI-Extract tagger (Bui et al. 2021, PrivacyGLUE's PI-Extract task)."""
    from assistant.models.piextract.evaluate import evaluate  # lazy: see the module docstring

    result = evaluate(_check_split(split, ("dev", "test")), limit=limit)
    console.print_json(data=result) if as_json else console.print(result)


@eval_app.command("policyqa")
@_friendly_errors
def eval_policyqa(
    split: Annotated[str, typer.Option(help="PolicyQA split: dev or test (test only for the final report).")] = "test",
    as_json: Annotated[bool, typer.Option("--json", help="Print the scores as JSON.")] = False,
    limit: Annotated[int | None, typer.Option(min=1, help="Evaluate only the first N questions.")] = None,
) -> None:
    """SQuAD 1.1 exact match and F1 of the span reader on PolicyQA (gold contexts)."""
    from assistant.models.reader.evaluate import evaluate  # lazy: see the module docstring

    result = evaluate(_check_split(split, ("dev", "test")), limit=limit)
    console.print_json(data=result) if as_json else console.print(result)


@eval_app.command("stance")
@_friendly_errors
def eval_stance(
    split: Annotated[str, typer.Option(help="OPP-115 majority split: train, validation or test.")] = "validation",
    as_json: Annotated[bool, typer.Option("--json", help="Print the scores as JSON.")] = False,
) -> None:
    """Precision / recall / F1 of reading denials ("we do not sell …") on OPP-115's Does/Does Not
    sentences: the word rules, PolicyIE's polarity slot, and their union (what the label uses)."""
    from assistant.evaluation.stance import evaluate  # lazy: see the module docstring

    result = evaluate(_check_split(split, ("train", "validation", "test")))
    console.print_json(data=result) if as_json else console.print(result)


train_app = typer.Typer(help="Reproduce the shipped fine-tuned weights (resumable).", no_args_is_help=True)
app.add_typer(train_app, name="train")


@train_app.command("attributes")
@_friendly_errors
def train_attributes() -> None:
    """Fit the OPP-115 attribute heads over the retriever's vectors into weights/attributes/ (a few minutes)."""
    from assistant.models.attributes.train import train  # lazy: see the module docstring

    train(log=console.print)


@train_app.command("facets")
@_friendly_errors
def train_facets() -> None:
    """Fit the question-facet classifier over question embeddings into weights/facets/ (about a minute)."""
    from assistant.models.facets.train import train  # lazy: see the module docstring
    from assistant.understanding.facets import facet_rules  # lazy: see the module docstring

    train(facet_rules(), log=console.print)


@train_app.command("answer-sentences")
@_friendly_errors
def train_answer_sentences(
    policies_root: Annotated[Path, typer.Option(
        "--policies-root", help="Where scripts/heldout_policies.py rebuilt the held-out sets' policies.")] = Path("data"),
    home: Annotated[Path | None, typer.Option(
        "--home", help="Keep the sets' stores here (a second run reads them back); default: a throwaway folder.")] = None,
) -> None:
    """Fit the answer-sentence scorer on the answers sets' labelled sentences into weights/answer_sentences/
    (ingests the sets' 90 policies: about ten minutes, a minute with --home kept)."""
    from assistant.evaluation.answer_sentences import train  # lazy: see the module docstring

    if home is not None:
        train(policies_root, home, log=console.print)
        return
    with tempfile.TemporaryDirectory(prefix="answer-sentences-") as folder:
        train(policies_root, Path(folder), log=console.print)


@train_app.command("categories")
@_friendly_errors
def train_categories(
    lexical_only: Annotated[bool, typer.Option(
        "--lexical-only", help="Refit only the TF-IDF half on the shipped encoder (about a minute).")] = False,
) -> None:
    """Fine-tune the OPP-115 practice-category classifier into weights/practice_categories/ (resumes
    per epoch), then fit its lexical half."""
    from assistant.models.practices.train import fit_lexical, train_release  # lazy: see the module docstring

    console.print(fit_lexical(log=console.print) if lexical_only else train_release(log=console.print))


@train_app.command("questions")
@_friendly_errors
def train_questions() -> None:
    """Train the question classifiers (answerability, categories) into weights/question_classifier/."""
    from assistant.models.questions.train import train_release  # lazy: see the module docstring
    from assistant.models.retriever.model import Embedder  # lazy: see the module docstring

    console.print(train_release(Embedder()))


@train_app.command("policyie")
@_friendly_errors
def train_policyie() -> None:
    """Fine-tune the PolicyIE intent + slot model into weights/policyie/ (resumes per epoch)."""
    from assistant.models.policyie.train import train_release  # lazy: see the module docstring

    console.print(train_release(log=console.print))


@train_app.command("piextract")
@_friendly_errors
def train_piextract() -> None:
    """Fine-tune the PI-Extract tagger into weights/piextract/ (resumes per epoch)."""
    from assistant.models.piextract.train import train_release  # lazy: see the module docstring

    console.print(train_release(log=console.print))


@train_app.command("reader")
@_friendly_errors
def train_reader() -> None:
    """Fine-tune the PolicyQA span reader into weights/reader/ (checkpoints and resumes)."""
    from assistant.models.reader.train import train_release  # lazy: see the module docstring

    console.print(train_release(log=console.print))


@train_app.command("retriever")
@_friendly_errors
def train_retriever() -> None:
    """Fine-tune the bi-encoder's top layers on PolicyQA pairs into weights/retriever/ (resumes)."""
    from assistant.models.retriever.train import train_release  # lazy: see the module docstring

    console.print(train_release(log=console.print))


@app.command()
@_friendly_errors
def export(
    force: Annotated[bool, typer.Option("--force", help="Export again even if the cache has the graphs.")] = False,
) -> None:
    """Export every shipped model to ONNX (the cache in ASSISTANT_ONNX_CACHE, default the per-user cache),
    at the precision ASSISTANT_BACKEND runs it at; a model already exported is skipped (quick)."""
    from assistant.models.runtime import export_all  # lazy: torch loads only if a graph is missing

    for name, path, fresh in export_all(force=force):
        console.print(f"{name}: {path} ({'exported' if fresh else 'cached'})", markup=False, soft_wrap=True)


def _print_json(data: Any) -> None:
    """Pretty JSON on stdout, non-ASCII kept readable and every control character escaped."""
    sys.stdout.write(escape_json_controls(json.dumps(data, ensure_ascii=False, indent=2)) + "\n")


def _check_split(split: str, allowed: tuple[str, ...]) -> str:
    if split not in allowed:
        raise AssistantError(f"Unknown split '{split}'; choose one of: {', '.join(allowed)}.")
    return split


@train_app.command("policy-detector")
@_friendly_errors
def train_policy_detector() -> None:
    """Fit the privacy-policy detector on the screening corpus into weights/policy_detector/ (about a minute;
    rebuild the corpus first with scripts/screening_corpus.py)."""
    from assistant.evaluation.screening import train_release  # lazy: see the module docstring

    _print_json(train_release(log=console.print))


@eval_app.command("policy-detector")
@_friendly_errors
def eval_policy_detector() -> None:
    """Grouped cross-validation of screening on its corpus: policy precision / recall (current and
    OPP-115 apart), the whole verdict, language accuracy."""
    from assistant.evaluation.screening import evaluate, read_corpus  # lazy: see the module docstring

    _print_json(evaluate(read_corpus()))


def main() -> None:
    """Run the command in `sys.argv`. A question runs in an app of `ask` alone: typer builds every command's
    options before it parses, about 11 ms for all fourteen and 1 ms for one, a twentieth of a cold
    `assistant ask`. Same function, options and messages; `--help` shows the whole app's help."""
    arguments = sys.argv[1:]
    if arguments[:1] == ["ask"] and "--help" not in arguments:
        ask_alone = typer.Typer(add_completion=False, pretty_exceptions_enable=False)
        ask_alone.callback()(_no_options)  # a group of one, so that usage lines still say "assistant ask"
        ask_alone.command()(ask)
        ask_alone()
    else:
        app()


def _no_options() -> None:
    """The one-command app's group: no options of its own."""


if __name__ == "__main__":
    main()
