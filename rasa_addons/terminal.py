"""`rasa shell` for people: `python -m rasa_addons.terminal shell ARGS…` (what `scripts/serve.sh shell`
and `make chat` run) is Rasa's own CLI with three changes made before it starts:

- no warnings before the prompt: SQLAlchemy's 2.0 notice is silenced by its own environment variable,
  and the deprecation warnings of Rasa's dependencies (pkg_resources, TensorFlow, matplotlib,
  sanic-cors …) by warnings filters set after Sanic's import and after Rasa's own filters, both of
  which turn some of them back on;
- the bot's text is wrapped to the terminal's width at spaces, each continuation line indented like
  the line it continues (quotes, bullets, numbered items keep their column);
- menus show the buttons' titles ("1) amazon.com"), not their payloads
  (`/choose_policy{"policy_name": …}`), and an entry's number chooses it ("2" then Enter: the second;
  questionary's shortcuts); choosing one still sends the payload.

Only the text functions are used outside Rasa's environment (tests); Rasa is imported in `main`.
"""
from __future__ import annotations

import os
import re
import shutil
import sys
import textwrap
import warnings
from typing import Any

MIN_WIDTH = 40
MAX_WIDTH = 100
# A line's lead that its continuation lines align under: indentation, then a bullet, a number, a dash
# or an opening quote ("  • ", "1. ", "— ", "“").
_LEAD = re.compile(r"^(\s*)((?:[•\-*]|\d+[.)]|—)\s+)?(“)?")


def wrap_text(text: str, width: int) -> str:
    """`text` wrapped to `width` columns at spaces (never inside a word), each line's continuation
    indented under the start of its text; blank lines and line breaks kept."""
    return "\n".join(_wrap_line(line, width) for line in text.split("\n"))


def _wrap_line(line: str, width: int) -> str:
    if len(line) <= width or not line.strip():
        return line
    lead = _LEAD.match(line)
    indent, marker, quote = lead.group(1), lead.group(2) or "", lead.group(3) or ""
    hanging = " " * len(indent + marker + quote)
    if len(hanging) > width // 2:
        hanging = indent[: width // 4]
    wrapper = textwrap.TextWrapper(width=width, initial_indent=indent + marker + quote, subsequent_indent=hanging,
                                   break_long_words=False, break_on_hyphens=False)
    return "\n".join(wrapper.wrap(line[lead.end():]))


def terminal_width() -> int:
    return max(MIN_WIDTH, min(MAX_WIDTH, shutil.get_terminal_size((80, 24)).columns - 1))


def button_title(button: dict[str, Any], index: int) -> str:
    """A menu entry: its number and title, without the payload."""
    return f"{index + 1}: {button.get('title') or button.get('payload', '')}"


def quiet_warnings() -> None:
    """Silence the dependencies' warnings at their sources (see the module docstring)."""
    os.environ.setdefault("SQLALCHEMY_SILENCE_UBER_WARNING", "1")
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    os.environ.setdefault("RASA_TELEMETRY_ENABLED", "false")
    import sanic  # noqa: F401  (its app module adds filterwarnings("once", DeprecationWarning): import it first)
    from rasa.utils import common

    _ignore_deprecations()
    rasa_filters = common._filter_warnings

    def filters_then_ours(*args: Any, **kwargs: Any) -> None:
        rasa_filters(*args, **kwargs)  # puts "once" for every UserWarning first (pyparsing's deprecations are both)
        _ignore_deprecations()

    common._filter_warnings = filters_then_ours


def _ignore_deprecations() -> None:
    for category in (DeprecationWarning, PendingDeprecationWarning, FutureWarning):
        warnings.filterwarnings("ignore", category=category)


def readable_console() -> None:
    """Wrap the bot's text and show menus by title (patches Rasa's console channel)."""
    import questionary
    from rasa.cli import utils as cli_utils
    from rasa.core.channels import console

    print_bot_output = console._print_bot_output

    def wrapped_output(message: dict[str, Any], is_latest_message: bool = False, **kwargs: Any) -> Any:
        message = dict(message)
        if message.get("text"):
            message["text"] = wrap_text(message["text"], terminal_width())
        return print_bot_output(message, is_latest_message, **kwargs)

    def choices(message: dict[str, Any], allow_free_text_input: bool = True) -> list[Any]:
        entries: list[Any] = [questionary.Choice(title=str(button.get("title") or button.get("payload", "")),
                                                 value=button.get("payload", ""))
                              for button in message.get("buttons") or []]  # numbered by the shortcuts
        return entries + ([cli_utils.FREE_TEXT_INPUT_PROMPT] if allow_free_text_input else [])

    select = questionary.select

    def select_by_number(*args: Any, **kwargs: Any) -> Any:
        kwargs.setdefault("use_shortcuts", True)  # "1".."9": the entry; before, typed digits were ignored
        return select(*args, **kwargs)

    async def payload(question: Any) -> str:
        return await question.ask_async()  # the choice's value: the payload itself

    console._print_bot_output = wrapped_output
    console.questionary.select = select_by_number
    cli_utils.button_choices_from_message_data = choices
    cli_utils.button_to_string = button_title
    cli_utils.payload_from_button_question = payload


def main(argv: list[str]) -> None:
    quiet_warnings()
    readable_console()
    from rasa.__main__ import main as rasa_main

    sys.argv = ["rasa", *argv]
    rasa_main()


if __name__ == "__main__":
    main(sys.argv[1:])
