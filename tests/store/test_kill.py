"""kill -9 a real `assistant ingest` mid-way: the store must be exactly as before (or, if the
kill came after the commit, hold the complete new version), never half a policy."""
from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import time
from pathlib import Path

import pytest

from tests.support.cli import ASSISTANT, cli_env, run
from tests.support.long_policy import long_policy
from tests.support.paths import AMAZON
from tests.support.store import assert_consistent, store_snapshot

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def big_policy(tmp_path_factory) -> Path:
    """About 4,000 sentences (half a minute of ingest or more, under the 10,000-sentence limit): still
    ingesting when the last of the timed kills comes."""
    return long_policy(tmp_path_factory.mktemp("big"), 100_000)


@pytest.fixture(scope="module")
def commit_policy(tmp_path_factory) -> Path:
    """About 1,300 sentences: a commit that writes over a thousand rows, at a third of the big policy's ingest."""
    return long_policy(tmp_path_factory.mktemp("commit"), 32_000)


@pytest.fixture
def seeded_home(tmp_path) -> Path:
    home = tmp_path / "home"
    assert run(home, "ingest", str(AMAZON), "--name", "amazon").returncode == 0
    return home


def start_ingest(home: Path, policy: Path, name: str) -> subprocess.Popen:
    return subprocess.Popen(
        [ASSISTANT, "ingest", str(policy), "--name", name],
        env=cli_env(home), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )


def kill(process: subprocess.Popen) -> None:
    os.kill(process.pid, signal.SIGKILL)
    process.wait(timeout=30)


@pytest.mark.parametrize("delay", [1.0, 6.0, 12.0])
def test_kill_during_ingest_leaves_store_as_before(seeded_home, big_policy, delay):
    before = store_snapshot(seeded_home)
    process = start_ingest(seeded_home, big_policy, "big")
    time.sleep(delay)
    assert process.poll() is None, "the ingest finished before the kill; make the policy bigger"
    kill(process)
    assert_consistent(seeded_home)
    assert store_snapshot(seeded_home) == before
    listing = run(seeded_home, "policies").stdout
    assert "amazon" in listing and "big" not in listing


def test_kill_at_commit_is_all_or_nothing(seeded_home, commit_policy):
    """Kill as soon as the new index file appears, i.e. while the database transaction runs."""
    before = store_snapshot(seeded_home)
    known = set(before["files"])
    process = start_ingest(seeded_home, commit_policy, "big")
    index_dir = seeded_home / "indexes"
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline and process.poll() is None:
        if any(p.name not in known for p in index_dir.iterdir()):
            break
        time.sleep(0.001)
    assert process.poll() is None, "the ingest ended before its index file was seen"
    kill(process)
    assert_consistent(seeded_home)
    after = store_snapshot(seeded_home)
    if after != before:  # the commit completed before the kill: the whole version is there
        with sqlite3.connect(seeded_home / "assistant.sqlite3") as db:
            [(count,)] = db.execute(
                "SELECT COUNT(*) FROM sentences s JOIN versions v ON v.id = s.version_id "
                "JOIN policies p ON p.id = v.policy_id WHERE p.name = 'big'"
            ).fetchall()
        assert count > 1000
    ingest = run(seeded_home, "ingest", str(commit_policy), "--name", "big")
    assert ingest.returncode == 0, ingest.stderr
    assert_consistent(seeded_home)
