"""The ingest limits end to end: refused before the costly work, with one clear line, store unchanged."""
from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from assistant.engine import Assistant
from assistant.foundation.errors import AssistantError, IngestLimitError, InputFileError, NotAPolicyError
from assistant.foundation.limits import IngestLimits
from assistant.foundation.settings import Settings
from tests.support.cli import cli_env
from tests.support.paths import AMAZON, EXAMPLES
from tests.support.store import store_snapshot


def bare_assistant(home: Path, **limits) -> Assistant:
    """An assistant with no model loaded (they load on first use)."""
    assistant = Assistant(Settings(home=home, limits=IngestLimits(**limits)))
    assistant.policies()  # creates the empty store
    return assistant


def no_model_loaded(assistant: Assistant) -> bool:
    return not {"retriever", "embedder", "policyie", "practice_classifier", "_tagging"} & set(assistant.__dict__)


def test_sentence_limit_is_checked_before_any_model_loads(home):
    """Issue 5: 50,000 sentences took 55 min and 1.3 GB; now refused before embedding."""
    assistant = bare_assistant(home, max_sentences=100)  # amazon.com.html has 116 sentences
    before = store_snapshot(home)
    with pytest.raises(IngestLimitError, match="more than 100 sentences.*ASSISTANT_MAX_SENTENCES"):
        assistant.ingest(AMAZON)
    assert no_model_loaded(assistant)
    assert store_snapshot(home) == before


def test_spent_time_budget_stops_the_ingest_with_the_store_unchanged(home):
    assistant = bare_assistant(home, max_seconds=1e-9)
    before = store_snapshot(home)
    with pytest.raises(IngestLimitError, match="time budget ran out while parsing.*nothing was stored"):
        assistant.ingest(AMAZON)
    assert no_model_loaded(assistant)
    assert store_snapshot(home) == before


def test_time_budget_is_checked_between_embedding_batches(home, embedder, retriever, policyie):
    """A budget that runs out during embedding stops it after that batch; nothing is stored."""
    budget = 3.0
    assistant = Assistant(Settings(home=home, limits=IngestLimits(max_seconds=budget)), embedder=embedder,
                          retriever=retriever, policyie=policyie)
    assistant.policies()
    before = store_snapshot(home)
    stages: list[str] = []

    def slow_progress(stage: str, done: int, total: int) -> None:
        stages.append(stage)
        if stage == "embedding":
            time.sleep(budget)  # the budget runs out during the first batch

    with pytest.raises(IngestLimitError, match="while embedding sentences"):
        assistant.ingest(EXAMPLES / "steampowered.com.html", progress=slow_progress)
    assert stages == ["embedding"]  # stopped after the first batch, before tagging
    assert store_snapshot(home) == before


@pytest.mark.parametrize("name", ["--help", "-x", " -v"])
def test_names_starting_with_a_dash_are_refused(home, tmp_path, name):
    """Issue 9: a policy named --help could only be removed with `remove -- --help`."""
    assistant = bare_assistant(home)
    with pytest.raises(InputFileError, match="starts with '-'.*pick another --name"):
        assistant.ingest(AMAZON, name=name)
    dashed = tmp_path / "--help.html"
    dashed.write_bytes(AMAZON.read_bytes())
    with pytest.raises(InputFileError, match="pick another --name"):
        assistant.ingest(dashed)
    with pytest.raises(InputFileError, match="control or bidirectional"):
        assistant.ingest(AMAZON, name="bad\x1b[2Jname")
    for bidi in ("\u202e", "\u2066", "\u200f"):  # issue 42: "acme\u202egnp.exe" is shown as "acmeexe.png"
        with pytest.raises(InputFileError, match="bidirectional-formatting characters"):
            assistant.ingest(AMAZON, name=f"acme{bidi}gnp.exe")
    assert no_model_loaded(assistant)


def test_symbolic_link_to_etc_passwd_is_refused(home, tmp_path):
    """Issue 9: a link to /etc/passwd was ingested and quoted back."""
    assistant = bare_assistant(home)
    link = tmp_path / "policy.txt"
    link.symlink_to("/etc/passwd")
    with pytest.raises(InputFileError, match="symbolic link to a file outside its folder") as error:
        assistant.ingest(link)
    assert "\n" not in str(error.value)


def test_limits_come_from_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("ASSISTANT_HOME", str(tmp_path))
    assert Settings.from_env().limits == IngestLimits()
    for name, value in [("ASSISTANT_MAX_SENTENCES", "7"), ("ASSISTANT_MAX_HTML_DEPTH", "64"),
                        ("ASSISTANT_MAX_PARAGRAPH_CHARS", "3000"), ("ASSISTANT_INGEST_SECONDS", "2.5")]:
        monkeypatch.setenv(name, value)
    assert Settings.from_env().limits == IngestLimits(max_sentences=7, max_html_depth=64, max_paragraph_chars=3000,
                                                      max_seconds=2.5)
    for value in ["0", "-3", "many"]:
        monkeypatch.setenv("ASSISTANT_MAX_SENTENCES", value)
        with pytest.raises(AssistantError, match="ASSISTANT_MAX_SENTENCES"):
            Settings.from_env()


def test_cli_reports_a_limit_as_one_error_line(tmp_path):
    home = tmp_path / "home"
    result = subprocess.run(
        [str(Path(sys.executable).with_name("assistant")), "ingest", str(AMAZON)], capture_output=True, text=True,
        env=cli_env(home, ASSISTANT_MAX_SENTENCES="5", PYTHONPATH=os.environ.get("PYTHONPATH", "")),
        timeout=300, check=False,
    )
    assert result.returncode == 2
    expected = ("error: The policy has more than 5 sentences, the most one ingest accepts (raise the limit with "
                "the ASSISTANT_MAX_SENTENCES environment variable).")
    assert result.stderr.strip().splitlines() == [expected]


def test_a_text_screening_refuses_is_refused_before_it_is_split(home, tmp_path, monkeypatch):
    """Issue 42: a megabyte of ". " took minutes to split into sentences before screening said it has no words."""
    from assistant.ingest import pipeline

    splits, split = [], pipeline.build_policy
    monkeypatch.setattr(pipeline, "build_policy", lambda *args, **kwargs: splits.append(args) or
                        split(*args, **kwargs))
    dots = tmp_path / "dots.txt"
    dots.write_text(". " * 500_000)
    assistant = bare_assistant(home)
    with pytest.raises(NotAPolicyError, match="only 0 words"):
        assistant.ingest(dots)
    assert splits == [] and no_model_loaded(assistant)
