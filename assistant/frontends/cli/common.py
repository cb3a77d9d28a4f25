"""What the command groups share: the consoles, the one-line error handling, the progress bar, the engine,
the running server, JSON output and split checks.

The engine is imported inside `make_assistant`, for start-up speed: torch and the models take seconds to
import, and `--help` or a bad argument must answer at once.
"""
from __future__ import annotations

import dataclasses
import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import wraps
from typing import TYPE_CHECKING, Any

import typer

from assistant.foundation.errors import AssistantError, environment_message
from assistant.foundation.settings import Settings
from assistant.foundation.text import escape_json_controls
from assistant.frontends.client import call_server
from assistant.frontends.render import SafeConsole, print_error
from assistant.store.commits import COMMITS

if TYPE_CHECKING:
    from assistant.engine import Assistant

console = SafeConsole()
err_console = SafeConsole(stderr=True)


def friendly_errors(command: Callable[..., Any]) -> Callable[..., Any]:
    """Turn expected failures into a one-line message on stderr and a non-zero exit."""

    @wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except AssistantError as error:
            print_error(err_console, str(error))
            raise typer.Exit(code=2) from None
        except KeyboardInterrupt:
            print_error(err_console, COMMITS.interruption_message())  # what SQLite committed, not a guess
            raise typer.Exit(code=130) from None
        except OSError as error:  # the environment outside the store (which reports its own): a full disk...
            print_error(err_console, environment_message(error))
            raise typer.Exit(code=2) from None

    return wrapper


@contextmanager
def progress_bar(first_stage: str) -> Iterator[Callable[[str, int, int], None]]:
    """A transient rich progress bar on stderr, driven by the engine's (stage, done, total) callback; none when
    stderr is not a terminal (a bar there would only leave an empty line before the result or an error)."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn  # ingest only

    if not err_console.is_terminal:
        yield lambda stage, done, total: None
        return

    with Progress(
        TextColumn("[progress.description]{task.description}"), BarColumn(), MofNCompleteColumn(),
        TimeElapsedColumn(), console=err_console, transient=True,
    ) as bar:
        task = bar.add_task(first_stage, total=None)

        def progress(stage: str, done: int, total: int) -> None:
            bar.update(task, description=stage, completed=done, total=total)

        yield progress


def make_assistant(max_size: int | None = None, timeout: float | None = None, allow_private: bool = False) -> Assistant:
    """The engine on the user's settings, with the command's limits on ingesting (`allow_private` only turns
    `Settings.allow_private` on)."""
    from assistant.engine import Assistant  # lazy, for start-up speed

    return Assistant(command_settings(max_size, timeout, allow_private))


def command_settings(max_size: int | None = None, timeout: float | None = None,
                     allow_private: bool = False) -> Settings:
    """The user's settings (`Settings.from_env`) with the options a command was given."""
    settings = Settings.from_env()
    if max_size is not None:
        settings = dataclasses.replace(settings, max_bytes=max_size)
    if timeout is not None:
        settings = dataclasses.replace(settings, fetch_timeout=timeout)
    if allow_private:
        settings = dataclasses.replace(settings, allow_private=True)
    return settings


def ask_server(method: str, path: str, body: dict[str, Any] | None = None) -> Any | None:
    """The reply of `assistant serve` when it runs on this store, else None (then the command works in process)."""
    return call_server(Settings.from_env().home, method, path, body)


def print_json(data: Any) -> None:
    """Pretty JSON on stdout, non-ASCII kept readable and every control character escaped."""
    sys.stdout.write(escape_json_controls(json.dumps(data, ensure_ascii=False, indent=2)) + "\n")


def check_split(split: str, allowed: tuple[str, ...]) -> str:
    if split not in allowed:
        raise AssistantError(f"Unknown split '{split}'; choose one of: {', '.join(allowed)}.")
    return split

