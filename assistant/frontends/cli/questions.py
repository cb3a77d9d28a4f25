"""Commands that read stored policies: ask, label, compare, diff, search.

The engine loads inside the commands, for start-up speed (see `common`); `ask` and `label` first ask
`assistant serve` when it runs on the same store (`frontends/client.py`): the same output, without loading
a model.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Annotated
from urllib.parse import urlencode, urlsplit

import typer

from assistant.answering.label import PrivacyLabel
from assistant.foundation.errors import AssistantError
from assistant.foundation.types import Answer
from assistant.frontends.cli.common import ask_server, console, friendly_errors, make_assistant, print_json
from assistant.frontends.render import (
    render_across,
    render_alignment,
    render_answer,
    render_comparison,
    render_diff,
    render_graph,
    render_label,
    render_search,
)
from assistant.understanding.validation import require_utf8, validate_question


@friendly_errors
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
    served = ask_server("POST", "/ask", {"question": question, "policy": policy, "version": version, "top": top})
    if served is None:
        assistant = make_assistant()
        served = assistant.ask(question, policy=assistant.choose_policy(policy), version=version,
                               top_k=top).to_dict()
    if as_json:
        print_json(served)
    else:
        console.print(render_answer(Answer.from_dict(served)))


def _ask_across(question: str, names: str | None, policy: str | None, version: int | None, as_json: bool) -> None:
    """`ask --all` / `ask --policies a,b,c`: one question, the latest version of each policy."""
    if policy is not None or version is not None:
        raise AssistantError("--all and --policies ask the latest version of several policies: leave out "
                             "--policy and --version.")
    chosen = None if names is None else [n.strip() for n in require_utf8(names, "policy names").split(",")
                                         if n.strip()]
    if chosen is not None and not chosen:
        raise AssistantError("--policies needs at least one policy name (comma-separated).")
    result = make_assistant().ask_across(question, chosen)
    if as_json:
        print_json(result.to_dict())
    else:
        console.print(render_across(result))


@friendly_errors
def label(
    names: Annotated[list[str] | None, typer.Argument(
        metavar="[NAME]...", show_default=False,
        help="The policy (or --policy); two or three names with --html: their labels side by side.")] = None,
    policy: Annotated[str | None, typer.Option(help="Policy name (optional when only one is stored).")] = None,
    version: Annotated[int | None, typer.Option(help="Policy version (default: latest).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the label as JSON (several: a list).")] = False,
    as_html: Annotated[bool, typer.Option(
        "--html", help="The label as a web page people read at a glance (standalone: its CSS inline).")] = False,
    out: Annotated[Path | None, typer.Option(help="Write the --html page to this file instead of printing it.")] = None,
    base_url: Annotated[str | None, typer.Option(
        help="Where the page's links open the policy (a server with /policy: `assistant serve` or the chat "
             "page's server); default ASSISTANT_SERVER or http://127.0.0.1:8765; \"\" for relative links.")] = None,
) -> None:
    """A privacy "nutrition label" of a stored policy: data collected and shared, with whom, why, how long."""
    chosen = _label_names(names, policy, version)
    if (out is not None or base_url is not None) and not as_html:
        raise AssistantError("--out and --base-url go with --html.")
    if as_html and as_json:
        raise AssistantError("Choose either --json or --html, not both.")
    if len(chosen) > 1 and not (as_html or as_json):
        raise AssistantError("Several labels are shown side by side as a web page: add --html (or --json).")
    base = _base_url(base_url) if as_html else ""
    engine: list = []  # the engine, made on the first label the server does not send
    served = [_label_data(name, version, engine) for name in chosen]
    if as_json:
        print_json(served if len(served) > 1 else served[0])
    elif as_html:
        from assistant.frontends.label_html import comparison_page, label_page  # lazy: --html only

        labels = [PrivacyLabel.from_dict(data) for data in served]
        page = label_page(labels[0], base) if len(labels) == 1 else comparison_page(labels, base)
        if out is None:
            sys.stdout.write(page + "\n")
        else:
            out.write_text(page + "\n", encoding="utf-8")
            console.print(f"Wrote the privacy label{'s' if len(labels) > 1 else ''} of "
                          f"{', '.join(label.policy for label in labels)} to {out}.", markup=False)
    else:
        console.print(render_label(PrivacyLabel.from_dict(served[0])))


def _label_names(names: list[str] | None, policy: str | None, version: int | None) -> list[str | None]:
    """The policies a `label` command shows: [None] for the only stored one; at most MAX_COMPARED, distinct."""
    from assistant.frontends.label_html import MAX_COMPARED  # lazy: --html only needs the rest of it

    chosen = [require_utf8(name, "policy name") for name in names or []]
    if chosen and policy is not None:
        raise AssistantError("Name the policy either as an argument or with --policy, not both.")
    if not chosen:
        return [require_utf8(policy, "policy name")]
    if len(chosen) > MAX_COMPARED:
        raise AssistantError(f"Labels side by side: name two or three policies, not {len(chosen)}.")
    if len(dict.fromkeys(name.lower() for name in chosen)) < len(chosen):
        raise AssistantError("Name each policy once.")
    if len(chosen) > 1 and version is not None:
        raise AssistantError("--version reads one policy; labels side by side show the latest versions.")
    return chosen


def _label_data(policy: str | None, version: int | None, engine: list) -> dict:
    """A label's JSON, from `assistant serve` when it runs on this store, else from the engine."""
    query = {key: value for key, value in (("policy", policy), ("version", version)) if value is not None}
    served = ask_server("GET", "/label" + (f"?{urlencode(query)}" if query else ""))
    if served is None:
        if not engine:
            engine.append(make_assistant())
        served = engine[0].label(engine[0].choose_policy(policy), version).to_dict()
    return served


def _base_url(given: str | None) -> str:
    """Where an --html page's links open the policy: `given` ("" relative), else the configured server."""
    from assistant.frontends.client import DEFAULT_SERVER  # lazy: --html only

    raw = given if given is not None else os.environ.get("ASSISTANT_SERVER", "").strip()
    if given is None and (not raw or raw.lower() == "off"):
        raw = DEFAULT_SERVER
    if raw == "":
        return ""
    parts = urlsplit(raw.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
        raise AssistantError(f"--base-url {raw!r} is not a server address such as {DEFAULT_SERVER} (or \"\").")
    return raw.strip().rstrip("/")


@friendly_errors
def graph(
    policy: Annotated[str | None, typer.Option(help="Policy name (optional when only one is stored).")] = None,
    version: Annotated[int | None, typer.Option(help="Policy version (default: latest).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the statements as JSON.")] = False,
) -> None:
    """The policy graph: each sentence's statement about your data — what is done (collect, share, sell …), to
    which kinds of data, with whom, why, whether it is denied, on what condition, and for whom."""
    policy = require_utf8(policy, "policy name")
    assistant = make_assistant()
    statements = assistant.graph(assistant.choose_policy(policy), version)
    if as_json:
        print_json([s.to_dict() for s in statements])
    else:
        console.print(render_graph(statements))


@friendly_errors
def compare(
    policies: Annotated[list[str], typer.Argument(help="Two or more stored policy names.")],
    facet: Annotated[str | None, typer.Option(help="Compare only this facet (e.g. sale).")] = None,
    topic: Annotated[str | None, typer.Option(
        help="Show each policy's sentences on this issue instead (a facet, an OPP-115 practice, or words).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the comparison as JSON.")] = False,
) -> None:
    """Policies side by side, facet by facet: each one's verdict with its quote, differences first."""
    from assistant.answering.compare import check_facet  # lazy, for start-up speed

    names = [require_utf8(name, "policy name") for name in policies]
    if len(dict.fromkeys(n.lower() for n in names)) < 2:
        raise AssistantError("Name at least two different stored policies to compare.")
    if topic is not None:
        if facet is not None:
            raise AssistantError("Choose either --facet or --topic, not both.")
        (aligned,) = make_assistant().align(names, require_utf8(topic, "topic"))
        if as_json:
            print_json(aligned.to_dict())
        else:
            console.print(render_alignment(aligned))
        return
    result = make_assistant().compare(names, check_facet(facet))
    if as_json:
        print_json(result.to_dict())
    else:
        console.print(render_comparison(result))


@friendly_errors
def diff(
    name: Annotated[str, typer.Argument(help="Policy name.")],
    from_version: Annotated[int | None, typer.Option(
        "--from", min=1, help="The older version (default: the one before --to).")] = None,
    to_version: Annotated[int | None, typer.Option("--to", min=1, help="The newer version (default: latest).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the changes as JSON.")] = False,
) -> None:
    """What changed between two versions: sentences added, removed, reworded (by issue) and facets changed."""
    result = make_assistant().diff(require_utf8(name, "policy name"), from_version, to_version)
    if as_json:
        print_json(result.to_dict())
    else:
        console.print(render_diff(result))


@friendly_errors
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
    result = make_assistant().search_sentences(text, require_utf8(policy, "policy name"), top)
    if as_json:
        print_json(result.to_dict())
    else:
        console.print(render_search(result))

