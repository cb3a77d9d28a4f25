"""Stores made by hand, and what a test compares stores by."""
from __future__ import annotations

import sqlite3
from pathlib import Path

import numpy as np

from assistant.foundation.types import ParsedPolicy, Sentence
from assistant.store.index import SentenceIndex


def store_snapshot(home: Path) -> dict:
    """Every row of every table plus the index files with their sizes: equal snapshots = same store."""
    snapshot: dict = {"files": {}}
    database = home / "assistant.sqlite3"
    if database.exists():
        with sqlite3.connect(database) as db:
            tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name")]
            for table in tables:
                snapshot[table] = sorted(db.execute(f"SELECT * FROM {table}").fetchall(), key=repr)
    index_dir = home / "indexes"
    if index_dir.exists():
        snapshot["files"] = {p.name: p.stat().st_size for p in index_dir.iterdir()}
    return snapshot


def make_policy(sentences: list[str], section: str = "Intro") -> ParsedPolicy:
    text, parsed = "", []
    for ordinal, sentence in enumerate(sentences, start=1):
        start = len(text)
        text += sentence + " "
        parsed.append(Sentence(ordinal, sentence, start, start + len(sentence), section))
    return ParsedPolicy(title=None, text=text, sections=[section], sentences=parsed)


def random_index(n: int, seed: int = 0) -> SentenceIndex:
    vectors = np.random.default_rng(seed).normal(size=(n, 8)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    return SentenceIndex.build(vectors)


def assert_consistent(home: Path) -> None:
    """Every version's index exists and has one row per stored sentence; no stray files."""
    from assistant.store.database import Store

    store = Store(home)  # opening cleans up what a killed writer left behind
    referenced = set()
    for summary in store.list_policies():
        for number in range(1, summary.versions + 1):
            version = store.get_version(summary.latest.name, number)
            referenced.add(version.index_file)
            assert store.load_index(version).size == version.n_sentences > 0
    assert {p.name for p in (home / "indexes").iterdir()} == referenced
    assert sqlite3.connect(home / "assistant.sqlite3").execute("PRAGMA integrity_check").fetchone() == ("ok",)
    store.close()
