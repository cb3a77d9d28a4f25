"""The terminal chat (`scripts/serve.sh shell`, `make chat`): text wrapped with its indentation, menus by
title, and (against the real stack, in a pseudo-terminal) no warnings before the prompt."""
from __future__ import annotations

import os
import re
import select
import subprocess
import time

import pytest

from rasa_addons.terminal import button_title, wrap_text

ANSWER = (
    "Answer (amazon.com): We do not sell your personal information to anyone, ever, under any circumstances at all.\n"
    "  “Amazon.com does not sell customer information to others; information about our customers is an important "
    "part of our business.”\n"
    "  — § Does Amazon.com Share the Information It Receives?, sentence 29\n"
    "\n"
    "What amazon.com does cover:\n"
    "  • Information You Give Us, Automatic Information, Mobile, E-mail Communications, Information from Other Sources"
)


def test_wrapped_lines_fit_keep_every_word_and_their_indentation():
    width = 50
    wrapped = wrap_text(ANSWER, width)
    lines = wrapped.splitlines()
    assert all(len(line) <= width for line in lines), wrapped
    assert wrapped.split() == ANSWER.split()  # no word broken, lost or added
    assert "" in lines  # the blank line stays
    quote = lines.index(next(line for line in lines if line.startswith("  “")))
    assert lines[quote + 1].startswith("   ") and not lines[quote + 1].startswith("    ")  # under the quote's text
    citation = next(i for i, line in enumerate(lines) if line.startswith("  — "))
    assert lines[citation + 1].startswith("    ") and lines[citation + 1][4] != " "  # under the citation's text
    bullet = next(i for i, line in enumerate(lines) if line.startswith("  • "))
    assert lines[bullet + 1].startswith("    ") and lines[bullet + 1][4] != " "


def test_short_lines_and_long_words_are_left_alone():
    assert wrap_text("Hi!\n\n  short", 40) == "Hi!\n\n  short"
    url = "https://www.example.com/" + "a" * 60
    assert url in wrap_text(f"See {url} for more.", 40)


def test_menu_entries_show_the_title_not_the_payload():
    button = {"title": "amazon.com", "payload": '/choose_policy{"policy_name": "amazon.com"}'}
    assert button_title(button, 0) == "1: amazon.com"
    assert "payload" in button  # Rasa's own version popped the keys


@pytest.fixture(scope="module")
def stack(request, tmp_path_factory, embedder, retriever, policyie):
    from tests.support.chat_stack import shared_stack

    return shared_stack(request, tmp_path_factory, embedder, retriever, policyie)


@pytest.mark.e2e
def test_the_terminal_chat_starts_without_warnings_and_shows_readable_menus(stack):
    """`python -m rasa_addons.terminal shell` (what serve.sh shell runs) in a pseudo-terminal 72 columns
    wide, on the stack's action server."""
    import pty

    from tests.support.chat_stack import MODEL, RASA_PYTHON, free_port
    from tests.support.paths import ROOT

    env = dict(stack.env(), COLUMNS="72", LINES="40", TERM="xterm", PYTHONWARNINGS="",
               RASA_PORT=str(free_port()), CHAT_REST_TOKEN="unused", CHAT_SESSION_SECRET="unused",
               CHAT_ALLOWED_ORIGINS="http://127.0.0.1")
    leader, follower = pty.openpty()
    import fcntl
    import struct
    import termios

    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 72, 0, 0))
    process = subprocess.Popen(
        [str(RASA_PYTHON), "-m", "rasa_addons.terminal", "shell", "--model", str(MODEL), "--endpoints",
         "endpoints.yml", "-i", "127.0.0.1", "-p", env["RASA_PORT"], "--quiet"],
        cwd=ROOT, env=env, stdin=follower, stdout=follower, stderr=follower, start_new_session=True)
    os.close(follower)
    output = b""

    def read_until(pattern: bytes, timeout: float) -> bytes:
        nonlocal output
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            ready, _, _ = select.select([leader], [], [], 1)
            if ready:
                try:
                    output += os.read(leader, 65536)
                except OSError:
                    break
                if re.search(pattern, output):
                    return output
        raise AssertionError(f"no {pattern!r} in:\n{output.decode(errors='replace')[-3000:]}")

    try:
        read_until(rb"Your input ->", 240)
        before_prompt = output.decode(errors="replace")
        assert "Warning" not in before_prompt and "deprecated" not in before_prompt.lower(), before_prompt
        os.write(leader, b"Do they collect my email address?\r")
        read_until(rb"Type out your own message", 120)  # the "which policy?" menu
        menu = output.decode(errors="replace")
        assert "amazon.com" in menu and "choose_policy" not in menu, menu
        plain = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", menu)
        second = re.search(r"2\) (\S+)", plain).group(1)  # issue 39: "2" then Enter picked the first entry
        os.write(leader, b"2")
        os.write(leader, b"\r")  # its payload chooses that policy, then the waiting question is answered
        read_until(rb"now answering from " + re.escape(second.encode()), 120)
        read_until(rb"(?:says|does)|Answer \(|\d+\.com: |I can't answer", 120)
        shown = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", output.decode(errors="replace"))
        bot_lines = shown[shown.index("now answering from") - 20:].splitlines()
        assert all(len(line.rstrip()) <= 72 for line in bot_lines[:12]), bot_lines
    finally:
        os.killpg(process.pid, 15)
        process.wait(timeout=30)
        os.close(leader)
