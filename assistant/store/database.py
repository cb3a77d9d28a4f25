"""The policy store: one SQLite file plus one FAISS index file per policy version.

Consistency rule: the database is the source of truth. An index file is written (atomically)
before the transaction that references it commits, and files that no committed row references
are deleted when the store opens. So an ingest or removal killed at any moment leaves the store
as it was before it started. Writers hold an exclusive lock on `write.lock` (released by the OS
if the process dies), so the clean-up never deletes the file of an ingest still in progress.
"""
from __future__ import annotations

import fcntl
import json
import sqlite3
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from assistant.foundation.errors import UnknownPolicyError
from assistant.foundation.types import Facts, ParsedPolicy, PolicyVersion, Sentence
from assistant.store.index import SentenceIndex

SCHEMA = """
CREATE TABLE IF NOT EXISTS policies (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE COLLATE NOCASE
);
CREATE TABLE IF NOT EXISTS versions (
    id INTEGER PRIMARY KEY,
    policy_id INTEGER NOT NULL REFERENCES policies(id) ON DELETE CASCADE,
    version INTEGER NOT NULL,
    source_path TEXT NOT NULL,
    sha256 TEXT NOT NULL,
    ingested_at TEXT NOT NULL,
    title TEXT,
    text TEXT NOT NULL,
    index_file TEXT NOT NULL UNIQUE,
    embedder TEXT NOT NULL,
    UNIQUE (policy_id, version)
);
CREATE TABLE IF NOT EXISTS sections (
    version_id INTEGER NOT NULL REFERENCES versions(id) ON DELETE CASCADE,
    ordinal INTEGER NOT NULL,
    path TEXT NOT NULL,
    PRIMARY KEY (version_id, ordinal)
);
CREATE TABLE IF NOT EXISTS sentences (
    version_id INTEGER NOT NULL REFERENCES versions(id) ON DELETE CASCADE,
    ordinal INTEGER NOT NULL,
    section TEXT NOT NULL,
    start INTEGER NOT NULL,
    end INTEGER NOT NULL,
    text TEXT NOT NULL,
    categories TEXT NOT NULL DEFAULT '[]',  -- JSON list of OPP-115 practice categories
    facts TEXT,  -- JSON {"intent", "slots"} from the PolicyIE model (NULL: not read)
    practice_scores TEXT NOT NULL DEFAULT '{}',  -- JSON {category: probability} from the practice tagger
    PRIMARY KEY (version_id, ordinal)
);
"""

_VERSION_COLUMNS = """
    v.id, p.name, v.version, v.source_path, v.sha256, v.ingested_at,
    (SELECT COUNT(*) FROM sections s WHERE s.version_id = v.id),
    (SELECT COUNT(*) FROM sentences s WHERE s.version_id = v.id),
    v.index_file, v.title, v.requested_url, v.fetched_at
"""


@dataclass(frozen=True)
class PolicySummary:
    """One row of `assistant policies`: the latest version and how many versions exist."""

    latest: PolicyVersion
    versions: int


class Store:
    """SQLite metadata and sentences, FAISS index files beside the database."""

    def __init__(self, home: Path) -> None:
        self.home = home
        self.index_dir = home / "indexes"
        self.index_dir.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(home / "assistant.sqlite3", timeout=30, isolation_level=None)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.execute("PRAGMA foreign_keys=ON")
        self.db.executescript(SCHEMA)
        self._migrate()
        self._lock_path = home / "write.lock"
        self.remove_orphan_files()

    def _migrate(self) -> None:
        """Bring stores written by older versions up to the current schema."""
        columns = {row[1] for row in self.db.execute("PRAGMA table_info(sentences)")}
        if "categories" not in columns:
            self.db.execute("ALTER TABLE sentences ADD COLUMN categories TEXT NOT NULL DEFAULT '[]'")
        if "facts" not in columns:
            self.db.execute("ALTER TABLE sentences ADD COLUMN facts TEXT")
        if "practice_scores" not in columns:
            self.db.execute("ALTER TABLE sentences ADD COLUMN practice_scores TEXT NOT NULL DEFAULT '{}'")
        if "page" not in columns:  # the PDF page a sentence is printed on (NULL: not a PDF)
            self.db.execute("ALTER TABLE sentences ADD COLUMN page INTEGER")
        version_columns = {row[1] for row in self.db.execute("PRAGMA table_info(versions)")}
        for column in ("requested_url", "fetched_at"):  # fetched policies (source_path holds the final URL)
            if column not in version_columns:
                self.db.execute(f"ALTER TABLE versions ADD COLUMN {column} TEXT")

    def close(self) -> None:
        self.db.close()

    @contextmanager
    def _writer_lock(self, wait: bool = True) -> Iterator[bool]:
        """Hold the store's writer lock; yields False when `wait` is False and another writer has it."""
        with open(self._lock_path, "a") as handle:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX if wait else fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                yield False
                return
            try:
                yield True
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield self.db
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    # -- reading -------------------------------------------------------------------------

    def list_policies(self) -> list[PolicySummary]:
        rows = self.db.execute(
            f"""SELECT {_VERSION_COLUMNS},
                       (SELECT COUNT(*) FROM versions w WHERE w.policy_id = p.id)
                FROM versions v JOIN policies p ON p.id = v.policy_id
                WHERE v.version = (SELECT MAX(version) FROM versions w WHERE w.policy_id = p.id)
                ORDER BY p.name COLLATE NOCASE"""
        ).fetchall()
        return [PolicySummary(PolicyVersion(*row[:-1]), row[-1]) for row in rows]

    def policy_names(self) -> list[str]:
        return [row[0] for row in self.db.execute("SELECT name FROM policies ORDER BY name COLLATE NOCASE")]

    def get_version(self, name: str, version: int | None = None) -> PolicyVersion:
        """The given version of a policy (the latest when `version` is None)."""
        query = f"SELECT {_VERSION_COLUMNS} FROM versions v JOIN policies p ON p.id = v.policy_id WHERE p.name = ?"
        if version is None:
            row = self.db.execute(query + " ORDER BY v.version DESC LIMIT 1", (name,)).fetchone()
        else:
            row = self.db.execute(query + " AND v.version = ?", (name, version)).fetchone()
        if row is None:
            raise UnknownPolicyError(self._unknown_message(name, version))
        return PolicyVersion(*row)

    def _unknown_message(self, name: str, version: int | None) -> str:
        names = self.policy_names()
        if version is not None and any(n.lower() == name.lower() for n in names):
            return f"Policy '{name}' has no version {version}."
        known = ", ".join(names) if names else "none (ingest one with `assistant ingest PATH`)"
        return f"Unknown policy '{name}'. Stored policies: {known}."

    def sentences(self, version_id: int) -> list[Sentence]:
        rows = self.db.execute(
            "SELECT ordinal, text, start, end, section, categories, facts, practice_scores, page FROM sentences "
            "WHERE version_id = ? ORDER BY ordinal",
            (version_id,),
        )
        return [
            Sentence(*row[:5], categories=tuple(json.loads(row[5])),
                     facts=Facts.from_dict(json.loads(row[6])) if row[6] else None,
                     practice_scores=json.loads(row[7]), page=row[8])
            for row in rows
        ]

    def pipeline(self, version: PolicyVersion) -> str:
        """The ingest pipeline that produced a stored version (see `assistant.ingest.tagging.TAGGING_PIPELINE`)."""
        return self.db.execute("SELECT embedder FROM versions WHERE id = ?", (version.id,)).fetchone()[0]

    def policy_text(self, version_id: int) -> str:
        return self.db.execute("SELECT text FROM versions WHERE id = ?", (version_id,)).fetchone()[0]

    def sections(self, version_id: int) -> list[str]:
        rows = self.db.execute("SELECT path FROM sections WHERE version_id = ? ORDER BY ordinal", (version_id,))
        return [row[0] for row in rows]

    def load_index(self, version: PolicyVersion) -> SentenceIndex:
        return SentenceIndex.load(self.index_dir / version.index_file)

    # -- writing -------------------------------------------------------------------------

    def add_version(
        self, name: str, source_path: str, sha256: str, policy: ParsedPolicy, index: SentenceIndex, embedder: str,
        requested_url: str | None = None, fetched_at: str | None = None,
    ) -> PolicyVersion:
        """Store a new version of `name` (version 1 for a new name) with its index, all or nothing.

        `embedder` names the ingest pipeline (embedder and taggers) that produced the version. A fetched
        policy's `source_path` is the final URL; `requested_url` and `fetched_at` say what was asked for, when.
        """
        with self._writer_lock():
            return self._add_version_locked(name, source_path, sha256, policy, index, embedder,
                                            requested_url, fetched_at)

    def _add_version_locked(
        self, name: str, source_path: str, sha256: str, policy: ParsedPolicy, index: SentenceIndex, embedder: str,
        requested_url: str | None = None, fetched_at: str | None = None,
    ) -> PolicyVersion:
        index_file = f"{uuid.uuid4().hex}.faiss"
        index.save(self.index_dir / index_file)
        try:
            with self._transaction() as db:
                policy_id = self._policy_id(db, name)
                number = db.execute(
                    "SELECT COALESCE(MAX(version), 0) + 1 FROM versions WHERE policy_id = ?", (policy_id,)
                ).fetchone()[0]
                version_id = db.execute(
                    """INSERT INTO versions (policy_id, version, source_path, sha256, ingested_at, title, text,
                                             index_file, embedder, requested_url, fetched_at)
                       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
                    (policy_id, number, source_path, sha256, _now(), policy.title, policy.text, index_file, embedder,
                     requested_url, fetched_at),
                ).lastrowid
                db.executemany(
                    "INSERT INTO sections (version_id, ordinal, path) VALUES (?, ?, ?)",
                    [(version_id, i, path) for i, path in enumerate(policy.sections, start=1)],
                )
                db.executemany(
                    "INSERT INTO sentences (version_id, ordinal, section, start, end, text, categories, facts, "
                    "practice_scores, page) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    [(version_id, s.ordinal, s.section, s.start, s.end, s.text, json.dumps(list(s.categories)),
                      json.dumps(s.facts.to_dict()) if s.facts else None, json.dumps(s.practice_scores), s.page)
                     for s in policy.sentences],
                )
        except BaseException:
            (self.index_dir / index_file).unlink(missing_ok=True)
            raise
        return self.get_version(name, number)

    def _policy_id(self, db: sqlite3.Connection, name: str) -> int:
        row = db.execute("SELECT id FROM policies WHERE name = ?", (name,)).fetchone()
        if row:
            return row[0]
        return db.execute("INSERT INTO policies (name) VALUES (?)", (name,)).lastrowid

    def remove(self, name: str) -> int:
        """Delete a policy and all its versions; returns how many versions were removed."""
        self.get_version(name)  # raises UnknownPolicyError
        with self._writer_lock(), self._transaction() as db:
            files = [r[0] for r in db.execute(
                "SELECT index_file FROM versions v JOIN policies p ON p.id = v.policy_id WHERE p.name = ?", (name,)
            )]
            db.execute("DELETE FROM policies WHERE name = ?", (name,))
        for file in files:
            (self.index_dir / file).unlink(missing_ok=True)
        return len(files)

    def remove_orphan_files(self) -> None:
        """Delete index files (and temporaries) that no committed version references."""
        with self._writer_lock(wait=False) as acquired:
            if not acquired:
                return  # a writer is at work; its files may not be committed yet
            referenced = {row[0] for row in self.db.execute("SELECT index_file FROM versions")}
            for path in self.index_dir.iterdir():
                if path.name not in referenced:
                    path.unlink(missing_ok=True)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")
