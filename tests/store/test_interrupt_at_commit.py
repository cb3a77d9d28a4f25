"""Ctrl-C as SQLite's COMMIT returns (a real SIGINT the process sends itself then, `tests/support/interrupt_at_commit`):
the committed write is kept whole, its index file too, and the command says what was stored, never "unchanged"."""
from __future__ import annotations

import sqlite3
from functools import partial
from pathlib import Path

import pytest

from tests.support.cli import run
from tests.support.paths import AMAZON
from tests.support.store import make_policy, random_index

pytestmark = pytest.mark.slow

HARNESS = str(Path(__file__).parents[1] / "support" / "interrupt_at_commit")


def interrupted(home: Path, *args: str):
    return run(home, *args, INTERRUPT_AT_COMMIT="1", PYTHONPATH=HARNESS)


def healthy(home: Path) -> None:
    doctor = run(home, "doctor")
    assert doctor.returncode == 0, doctor.stdout + doctor.stderr


def test_interrupt_as_a_new_policy_commits_keeps_it_and_says_so(tmp_path):
    home = tmp_path / "home"
    result = interrupted(home, "ingest", str(AMAZON), "--name", "amazon")
    assert result.returncode == 130
    assert result.stderr.strip() == ("error: interrupted after the store was changed: amazon stored as version 1 "
                                     "(kept).")
    healthy(home)
    assert "amazon" in run(home, "policies").stdout


def test_interrupt_as_a_new_version_commits_keeps_it_and_says_so(tmp_path):
    home = tmp_path / "home"
    assert run(home, "ingest", str(AMAZON), "--name", "acme").returncode == 0
    changed = tmp_path / "acme.md"
    changed.write_text(AMAZON.read_text(encoding="utf-8") + "\n\nWe keep your data for ten years.\n",
                       encoding="utf-8")
    result = interrupted(home, "ingest", str(changed), "--name", "acme")
    assert result.returncode == 130
    assert "acme stored as version 2 (kept)" in result.stderr and "unchanged" not in result.stderr
    healthy(home)


def test_interrupt_as_repair_commits_keeps_the_new_index(tmp_path):
    home = tmp_path / "home"
    assert run(home, "ingest", str(AMAZON), "--name", "amazon").returncode == 0
    for index_file in (home / "indexes").iterdir():
        index_file.unlink()
    result = interrupted(home, "repair")
    assert result.returncode == 130
    assert "the index of amazon version 1 rebuilt (kept)" in result.stderr
    healthy(home)


def test_interrupt_before_anything_commits_says_unchanged(tmp_path):
    """The harness fires on the first COMMIT: a refused ingest never reaches one."""
    home = tmp_path / "home"
    assert run(home, "ingest", str(AMAZON), "--name", "amazon").returncode == 0
    result = interrupted(home, "ingest", str(AMAZON), "--name", "amazon")  # identical: nothing to write
    assert result.returncode == 0 and "unchanged" in result.stdout
    healthy(home)


class _CommitThenInterrupt(sqlite3.Connection):
    """A connection on which KeyboardInterrupt arrives just after COMMIT returns (committed)."""

    def execute(self, sql, *args):
        cursor = super().execute(sql, *args)
        if sql == "COMMIT":
            raise KeyboardInterrupt
        return cursor


def test_the_store_alone_keeps_a_write_interrupted_at_commit(tmp_path, monkeypatch):
    """In process: the cleanup after the interruption looks at what is committed, not at where it landed."""
    from assistant.store.commits import COMMITS
    from assistant.store.database import Store

    monkeypatch.setattr(sqlite3, "connect", partial(sqlite3.connect, factory=_CommitThenInterrupt))
    store = Store(tmp_path)
    with pytest.raises(KeyboardInterrupt):
        store.add_version("acme", "/a", "s1", make_policy(["A.", "B."]), random_index(2), "e")
    version = store.get_version("acme")
    assert (tmp_path / "indexes" / version.index_file).exists()
    assert store.index_problem(version) is None
    assert COMMITS.entries[-1] == "acme stored as version 1"
