"""Commands that read stored policies: ask, label, compare, diff, search.

The engine loads inside the commands, for start-up speed (see `common`); `ask` and `label` first ask
`assistant serve` when it runs on the same store (`frontends/client.py`): the same output, without loading
a model.
"""
from __future__ import annotations

from typing import Annotated
from urllib.parse import urlencode

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
    policy: Annotated[str | None, typer.Option(help="Policy name (optional when only one is stored).")] = None,
    version: Annotated[int | None, typer.Option(help="Policy version (default: latest).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the label as JSON.")] = False,
) -> None:
    """A privacy "nutrition label" of a stored policy: data collected and shared, with whom, why, how long."""
    policy = require_utf8(policy, "policy name")
    query = {key: value for key, value in (("policy", policy), ("version", version)) if value is not None}
    served = ask_server("GET", "/label" + (f"?{urlencode(query)}" if query else ""))
    if served is None:
        assistant = make_assistant()
        served = assistant.label(assistant.choose_policy(policy), version).to_dict()
    if as_json:
        print_json(served)
    else:
        console.print(render_label(PrivacyLabel.from_dict(served)))


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

