"""The `assistant` entry point loads the question's models early only when this process will answer."""
from __future__ import annotations

import json
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from assistant.frontends.launch import _answers_in_process
from tests.support.cli import cli_env


@pytest.mark.parametrize("arguments", [[], ["policies"], ["label", "amazon"], ["ask", "--help"],
                                       ["ask", "Do they sell my data?", "-h"]])
def test_other_commands_and_help_load_nothing_early(arguments, monkeypatch):
    monkeypatch.setenv("ASSISTANT_SERVER", "off")
    assert not _answers_in_process(arguments)


def test_a_question_is_answered_in_process_when_no_server_listens(monkeypatch):
    with socket.socket() as probe:  # a port that was free a moment ago: nothing listens there now
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    monkeypatch.setenv("ASSISTANT_SERVER", f"http://127.0.0.1:{port}")
    assert _answers_in_process(["ask", "Do they sell my data?"])
    monkeypatch.setenv("ASSISTANT_SERVER", "off")
    assert _answers_in_process(["ask", "Do they sell my data?"])


def test_a_listening_server_means_no_models_are_loaded_here(monkeypatch):
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        monkeypatch.setenv("ASSISTANT_SERVER", f"http://127.0.0.1:{server.getsockname()[1]}")
        assert not _answers_in_process(["ask", "Do they sell my data?"])


def test_a_bad_server_setting_is_left_to_the_command_to_report(monkeypatch, tmp_path):
    monkeypatch.setenv("ASSISTANT_SERVER", "ftp://example")
    assert not _answers_in_process(["ask", "Do they sell my data?"])
    env = cli_env(tmp_path, ASSISTANT_SERVER="ftp://example")
    done = subprocess.run([sys.executable, "-m", "assistant.frontends.launch", "ask", "Do they sell my data?"], env=env,
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode != 0
    assert "ASSISTANT_SERVER='ftp://example' is not a server address" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_a_question_answered_in_process_prints_all_of_its_answer_and_keeps_its_exit_status(amazon_home):
    # the process ends without the interpreter's teardown: its piped output must still be flushed whole
    env = cli_env(amazon_home, ASSISTANT_SERVER="off")
    command = [sys.executable, "-m", "assistant.frontends.launch", "ask"]
    done = subprocess.run([*command, "Do they sell my data?", "--policy", "amazon", "--json"], env=env,
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["policy"] == "amazon" and answer["evidence"]
    done = subprocess.run([*command, "Do they sell my data?", "--policy", "nosuchpolicy"], env=env,
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 2  # the command line's status for a bad argument
    assert "nosuchpolicy" in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr


@pytest.mark.parametrize("arguments", [["ask"], ["ask", "--top", "0", "Do they sell my data?"],
                                       ["ask", "--bogus", "Do they sell my data?"], ["ask", "-h"]])
def test_a_question_parsed_alone_gets_the_whole_apps_messages(arguments, tmp_path):
    # `ask` runs in an app of its one command (cli.main): its usage errors must read as the whole app's do
    env = cli_env(tmp_path, ASSISTANT_SERVER="off")
    alone = subprocess.run([str(Path(sys.executable).with_name("assistant")), *arguments], env=env,
                           capture_output=True, text=True, timeout=120, check=False)
    whole = subprocess.run([sys.executable, "-c", "from assistant.frontends.cli import app; app(prog_name='assistant')",
                            *arguments], env=env, capture_output=True, text=True, timeout=120, check=False)
    assert alone.returncode == whole.returncode == 2
    assert alone.stderr.startswith("Usage: assistant ask [OPTIONS] ")
    assert alone.stderr == whole.stderr
