"""What the command line does with hostile arguments and hostile stored text (issue 23, items 4, 6
and 9): a one-line error before anything heavy loads, and nothing printed can drive the terminal."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.cli import cli_env, run

NOT_UTF8 = os.fsdecode(b"do they sell my \xff data?")  # how Python hands a non-UTF-8 argument over


def run_in_process(home: Path, *args: str) -> dict:
    """Run the CLI in a fresh interpreter and report its exit code, stderr and whether torch was imported."""
    script = (
        "import io, json, sys, contextlib\n"
        "from assistant.frontends.cli import app\n"
        "err = io.StringIO()\n"
        "with contextlib.redirect_stderr(err):\n"
        "    try:\n"
        f"        code = app({list(args)!r}, standalone_mode=False) or 0\n"
        "    except SystemExit as exit:\n"
        "        code = exit.code\n"
        "    except Exception as error:\n"
        "        code = getattr(error, 'exit_code', repr(error))\n"
        "print(json.dumps({'code': code, 'torch': 'torch' in sys.modules}))\n"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=cli_env(home),
                            timeout=120, check=True)
    return json.loads(result.stdout.splitlines()[-1]) | {"stderr": result.stderr}


@pytest.mark.parametrize("args", [
    ("ask", ""),
    ("ask", "x" * 1001),
    ("ask", NOT_UTF8),
    ("ingest", "/no/such/policy.html"),
    ("remove", "no-such-policy"),
    ("policies",),
])
def test_bad_input_and_store_commands_never_import_torch(tmp_path, args):
    outcome = run_in_process(tmp_path / "home", *args)
    assert outcome["torch"] is False, outcome
    assert outcome["code"] == (0 if args == ("policies",) else 2), outcome


def test_arguments_that_are_not_utf8_get_a_one_line_error(tmp_path):
    home = tmp_path / "home"
    for args in (("ask", NOT_UTF8), ("ask", "sell?", "--policy", NOT_UTF8), ("remove", NOT_UTF8),
                 ("ingest", "/no/such.html", "--name", NOT_UTF8)):
        result = run(home, *args)
        assert result.returncode == 2, (args, result.stderr)
        assert result.stderr.startswith("error: ") and result.stderr.count("\n") == 1, result.stderr
        assert "not valid UTF-8" in result.stderr


def test_long_question_near_the_limit_is_answered(cli_home_with_amazon):
    # ~500 one-letter words: ~500 word pieces, more than the reader's 256-token window.
    question = "How long do they keep my data " + "a " * 480 + "?"
    assert len(question) <= 1000
    result = run(cli_home_with_amazon, "ask", question, "--json")
    assert result.returncode == 0, result.stderr[-500:]
    assert json.loads(result.stdout)["policy"] == "amazon"


@pytest.fixture(scope="module")
def hostile_home(tmp_path_factory, embedder, retriever, policyie) -> Path:
    """A store whose policy text holds control characters, as stores written before ingest removed
    them do: ingest now removes them, so they are written into the database afterwards, each in place
    of a space (the same length: every sentence stays text[start:end])."""
    import sqlite3

    from assistant.engine import Assistant
    from assistant.foundation.sentences import policy_from_sentences
    from assistant.foundation.settings import Settings

    home = tmp_path_factory.mktemp("hostile") / "home"
    policy = policy_from_sentences([
        "We do not sell your personal information [2J to anyone.",
        "We keep your data for 2J two years after you close your account.",
        "You can delete your account at any time from the settings page.",
    ])
    Assistant(Settings(home=home), embedder=embedder, retriever=retriever, policyie=policyie).store_policy(
        policy, "hostile", "test", "0" * 64)
    with sqlite3.connect(home / "assistant.sqlite3") as db:
        for table in ("sentences", "versions"):
            db.execute(f"UPDATE {table} SET text = replace(replace(text, ' [2J', char(27) || '[2J'), "
                       "' 2J two', char(155) || '2J two')")
    return home


def test_stored_control_characters_never_reach_the_terminal(hostile_home):
    for args in (("ask", "Do they sell my data?"), ("ask", "How long do they keep my data?", "--json"),
                 ("label", "--json"), ("label",), ("policies",)):
        result = run(hostile_home, *args)
        assert result.returncode == 0, (args, result.stderr[-500:])
        assert "\x1b" not in result.stdout and "\x9b" not in result.stdout, args
    text = run(hostile_home, "ask", "Do they sell my data?").stdout
    assert "\\x1b[2J" in text  # shown, escaped, where the policy has it
    answer = json.loads(run(hostile_home, "ask", "How long do they keep my data?", "--json").stdout)
    quoted = [item["text"] for item in answer["evidence"]]
    assert any("\x9b2J" in text for text in quoted)  # JSON still carries the stored text exactly


@pytest.fixture(scope="module")
def cli_home_with_amazon(amazon_home) -> Path:
    return amazon_home


def test_policies_json_lists_every_stored_policy(hostile_home, tmp_path):
    [policy] = json.loads(run(hostile_home, "policies", "--json").stdout)
    assert policy["name"] == "hostile" and policy["version"] == 1 and policy["sentences"] == 3
    assert set(policy) >= {"versions", "sections", "source", "ingested_at", "sha256", "title"}
    empty = run(tmp_path / "empty", "policies", "--json")
    assert empty.returncode == 0 and json.loads(empty.stdout) == []


BIDI_SENTENCES = [
    "We do not sell your personal information \u202eto anyone\u202c.",  # RLO ... PDF: shown raw, reversed
    "We keep your data for two years after you close your account.",
    "You can delete your account at any time from the settings page \u2067\u05d0\u200f\u2069.",
]
BIDI_NAME = "acme\u202egnp.exe"  # printed raw: "acmeexe.png"


@pytest.fixture(scope="module")
def bidi_home(tmp_path_factory, embedder, retriever, policyie) -> Path:
    """A store whose policy name and text hold bidirectional formatting characters, which ingest keeps."""
    from assistant.engine import Assistant
    from assistant.foundation.sentences import policy_from_sentences
    from assistant.foundation.settings import Settings

    home = tmp_path_factory.mktemp("bidi") / "home"
    Assistant(Settings(home=home), embedder=embedder, retriever=retriever, policyie=policyie).store_policy(
        policy_from_sentences(BIDI_SENTENCES), BIDI_NAME, "test", "0" * 64)
    return home


def test_stored_bidirectional_characters_are_shown_escaped(bidi_home):
    """Issue 42: U+202E and the other bidirectional controls in a name or a policy were printed raw, and the
    terminal reordered what followed them. Now shown as escapes, in text and in JSON; the quotes in the JSON
    are still the stored sentences, character for character."""
    import sqlite3

    from assistant.foundation.text import BIDI_CONTROLS

    outputs = {}
    for args in (("ask", "Do they sell my data?"), ("ask", "Do they sell my data?", "--json"), ("label",),
                 ("policies",), ("policies", "--json")):
        result = run(bidi_home, *args)
        assert result.returncode == 0, (args, result.stderr[-500:])
        assert BIDI_CONTROLS.isdisjoint(result.stdout + result.stderr), args
        outputs[args] = result.stdout
    assert "information \\u202eto anyone\\u202c." in outputs["ask", "Do they sell my data?"]
    assert "acme\\u202egnp.exe" in outputs["ask", "Do they sell my data?"]
    assert "acme\\u202egnp.exe" in outputs["policies",]
    assert [policy["name"] for policy in json.loads(outputs["policies", "--json"])] == [BIDI_NAME]
    answer = json.loads(outputs["ask", "Do they sell my data?", "--json"])
    with sqlite3.connect(bidi_home / "assistant.sqlite3") as db:
        stored = {text for (text,) in db.execute("SELECT text FROM sentences")}
    assert stored == set(BIDI_SENTENCES)
    quoted = [item["text"] for item in answer["evidence"]]
    assert BIDI_SENTENCES[0] in quoted and set(quoted) <= stored


def test_bidirectional_characters_in_an_error_are_shown_escaped(tmp_path):
    result = run(tmp_path / "home", "ingest", "/no/such/evil\u202elmth.exe", "--name", "acme")
    assert result.returncode == 2 and result.stderr.count("\n") == 1, result.stderr
    assert "evil\\u202elmth.exe" in result.stderr and "\u202e" not in result.stderr
