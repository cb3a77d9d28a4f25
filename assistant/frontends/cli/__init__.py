"""The `assistant` command line: ingest, policies, remove, ask, label, graph, compare, diff, search, doctor, repair,
serve, export, corpus, eval, train.

One module per group: `policies` (the store), `questions` (reading stored policies), `serve`, `corpus`
(`assistant corpus`: many policies at once), `evaluate` (`assistant eval`), `train` (`assistant train`); `common`
holds what they share. Each command imports the engine or the model it needs inside its function, for start-up
speed: torch and the models take seconds to import, and `--help` or a bad argument must answer at once. `ask`, `label` and `policies` first ask
`assistant serve` when it runs on the same store (`frontends/client.py`): the same output, without loading a
model.
"""
from __future__ import annotations

import sys

import typer

from assistant.frontends.cli import corpus, evaluate, policies, questions, serve, train
from assistant.frontends.cli.questions import ask

app = typer.Typer(
    help="Ask questions about privacy policies and get answers quoted and cited from the policy.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)
# the order of `assistant --help`
for command in (policies.ingest, policies.policies, policies.remove, questions.ask, questions.label, questions.graph,
                policies.doctor, policies.repair, questions.compare, questions.diff, questions.search, serve.serve,
                policies.export):
    app.command()(command)
app.add_typer(corpus.app, name="corpus")
app.add_typer(evaluate.app, name="eval")
app.add_typer(train.app, name="train")


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
