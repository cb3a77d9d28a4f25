"""Shared fixtures: real models loaded once per test session, a fresh store per test."""
from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples" / "policies"
AMAZON = EXAMPLES / "amazon.com.html"


@pytest.fixture(scope="session")
def embedder():
    from assistant.models.retriever.model import Embedder

    return Embedder()


@pytest.fixture(scope="session")
def retriever():
    from assistant.models.retriever.model import Embedder

    return Embedder.load_retriever()


@pytest.fixture(scope="session")
def policyie():
    from assistant.models.policyie.model import PolicyIETagger

    return PolicyIETagger.load()


@pytest.fixture(scope="session")
def reader():
    from assistant.models.reader.model import SpanReader

    return SpanReader.load()


@pytest.fixture
def home(tmp_path: Path) -> Path:
    return tmp_path / "home"


@pytest.fixture
def assistant(home, embedder, retriever, policyie, reader):
    from assistant.engine import Assistant
    from assistant.foundation.settings import Settings

    return Assistant(Settings(home=home), embedder=embedder, retriever=retriever, policyie=policyie, reader=reader)


@pytest.fixture(scope="session")
def amazon_home(tmp_path_factory, embedder, retriever, policyie) -> Path:
    """A store holding the Amazon example policy, ingested once for the read-only tests."""
    from assistant.engine import Assistant
    from assistant.foundation.settings import Settings

    home = tmp_path_factory.mktemp("amazon") / "home"
    Assistant(Settings(home=home), embedder=embedder, retriever=retriever, policyie=policyie).ingest(AMAZON, name="amazon")
    return home


@pytest.fixture
def amazon(amazon_home, embedder, retriever, policyie, reader):
    from assistant.engine import Assistant
    from assistant.foundation.settings import Settings

    return Assistant(Settings(home=amazon_home), embedder=embedder, retriever=retriever, policyie=policyie,
                     reader=reader)


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


def cli_env(home: Path, **extra: str) -> dict[str, str]:
    env = dict(os.environ, ASSISTANT_HOME=str(home), COLUMNS="200", **extra)
    env.pop("FORCE_COLOR", None)
    return env


def policy_files() -> list[Path]:
    """The bundled example policies plus all 115 OPP-115 sanitized policies (from the bundled corpus)."""
    from assistant.corpora import corpus_dir

    return sorted(EXAMPLES.glob("*.html")) + sorted((corpus_dir("opp115") / "sanitized_policies").glob("*.html"))
