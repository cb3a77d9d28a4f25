"""The policy store: one SQLite file plus one FAISS index file per policy version.

Consistency rule: the database is the source of truth, and the store touches only files it can
prove are its own. Before an index file is written, its name is committed to `index_files`; then
the file is written (atomically), then the transaction that references it commits. A name in
`index_files` that no version references is an interrupted write or removal: the store deletes
that file (and its temporary) when it opens. So an ingest or removal killed at any moment leaves
the store as it was, and nothing else in `indexes/` is ever deleted. Writers hold an exclusive
lock on `write.lock` (released by the OS if the process dies), so the clean-up never deletes the
file of an ingest still in progress, and refuse to write into a database that fails
`PRAGMA quick_check`. Failures of the environment (read-only folder, full disk, corrupt or
locked database) are raised as one-line `StoreError`s (`assistant.store.failures`).
"""
from __future__ import annotations

import fcntl
import json
import shutil
import sqlite3
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from assistant.foundation.errors import DamagedIndexError, StoreError, UnknownPolicyError
from assistant.foundation.types import (
    FacetProfile,
    FacetSentence,
    Facts,
    ParsedPolicy,
    PolicyProfile,
    PolicyVersion,
    Provenance,
    Sentence,
)
from assistant.store.commits import COMMITS
from assistant.store.cross_index import CrossIndex, versions_key
from assistant.store.failures import DATABASE_FILE, reported
from assistant.store.index import SentenceIndex, rows_in_header, temporary_path, write_atomically

MAX_SQLITE_INTEGER = 2**63 - 1  # SQLite stores integers in 64 bits; a larger one cannot be bound
# Computes a version's privacy profile from the version as stored (see `add_version`).
ProfileMaker = Callable[[PolicyVersion], PolicyProfile]

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
CREATE TABLE IF NOT EXISTS index_files (  -- every index file the store created or is about to create
    name TEXT PRIMARY KEY,
    created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS profiles (  -- a version's privacy profile (answering/profile.py), stored at ingest
    version_id INTEGER PRIMARY KEY REFERENCES versions(id) ON DELETE CASCADE,
    rules TEXT NOT NULL,  -- the key of the rules that computed it (profile.PROFILE_RULES): another is stale
    computed_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS profile_facets (  -- one row per facet, in label order
    version_id INTEGER NOT NULL REFERENCES profiles(version_id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    facet TEXT NOT NULL,
    question TEXT NOT NULL,
    verdict TEXT NOT NULL,  -- yes | no | conditional | not_stated
    headline TEXT NOT NULL,
    sentence_id INTEGER,  -- the supporting sentence's ordinal (NULL: not stated); its text is the quote
    value TEXT,  -- the value it states (a period, a link, a minimum age, data types)
    described TEXT,  -- the OPP-115 attribute value read in it ("Retention Period: Stated Period")
    PRIMARY KEY (version_id, facet)
);
CREATE TABLE IF NOT EXISTS profile_sentences (  -- every sentence that addresses a facet
    version_id INTEGER NOT NULL REFERENCES profiles(version_id) ON DELETE CASCADE,
    facet TEXT NOT NULL,
    ordinal INTEGER NOT NULL,
    stance TEXT NOT NULL,  -- yes | no | conditional
    value TEXT,
    PRIMARY KEY (version_id, facet, ordinal)
);
CREATE TABLE IF NOT EXISTS cross_indexes (  -- the index over every latest version's sentences (at most one row)
    name TEXT PRIMARY KEY,  -- its file in indexes/, also named in index_files
    key TEXT NOT NULL  -- cross_index.versions_key of the versions it was built from
);
"""

_VERSION_COLUMNS = """
    v.id, p.name, v.version, v.source_path, v.sha256, v.ingested_at,
    (SELECT COUNT(*) FROM sections s WHERE s.version_id = v.id),
    (SELECT COUNT(*) FROM sentences s WHERE s.version_id = v.id),
    v.index_file, v.title, v.requested_url, v.fetched_at, v.language, v.kept_words, v.visible_words
"""


@dataclass(frozen=True)
class PolicySummary:
    """One row of `assistant policies`: the latest version, how many versions exist, and what is
    wrong with any of them (`damaged`: one sentence per damaged version, empty when all are sound)."""

    latest: PolicyVersion
    versions: int
    damaged: tuple[str, ...] = ()


class Store:
    """SQLite metadata and sentences, FAISS index files beside the database."""

    @reported
    def __init__(self, home: Path, busy_timeout: float = 30.0) -> None:
        self.home = home
        self.index_dir = home / "indexes"
        self.index_dir.mkdir(parents=True, exist_ok=True)
        self.database = home / DATABASE_FILE
        self.read_only = False
        try:
            self.db = sqlite3.connect(self.database, timeout=busy_timeout, isolation_level=None)
            self._prepare(time.monotonic() + busy_timeout)
        except sqlite3.OperationalError:
            if not self.database.is_file():
                raise
            self.db = self._open_read_only()  # a copy on a read-only disk or folder still answers
        self._lock_path = home / "write.lock"
        self.finish_interrupted_writes()

    @reported
    def check_writable(self, needed_bytes: int = 0) -> None:
        """Before the costly work of a write (tagging: seconds of models), refuse at once, in one line, a store
        that cannot take it: read-only, damaged, or on a disk without `needed_bytes` free."""
        if self.read_only:
            raise StoreError(f"Cannot write the store in {self.home}: it is read-only (its policies can be read, "
                             "not changed); set ASSISTANT_HOME to a writable folder.")
        self._refuse_if_damaged()
        with tempfile.TemporaryFile(dir=self.index_dir):
            pass  # the folder the index file will be written to takes a new file
        free = shutil.disk_usage(self.index_dir).free
        if free < needed_bytes:
            raise StoreError(f"The disk is full ({free} bytes free, about {needed_bytes} needed): could not write "
                             f"the store in {self.home}; nothing was written. Free some space and try again.")

    def _open_read_only(self) -> sqlite3.Connection:
        """The database opened for reading only, when it cannot be opened for writing. A cleanly closed store
        has no -wal or -shm file, and SQLite cannot create them in a read-only folder: the file is then
        opened as immutable (nothing can change it there). Every write is refused as a one-line StoreError."""
        self.read_only = True
        uri = f"{self.database.resolve().as_uri()}?mode=ro"
        if not Path(f"{self.database}-wal").exists():
            uri += "&immutable=1"
        db = sqlite3.connect(uri, uri=True, isolation_level=None)
        db.execute("SELECT COUNT(*) FROM versions").fetchone()  # fails now, as the StoreError it is, if unreadable
        return db

    def _prepare(self, deadline: float) -> None:
        """Journal mode, schema and migrations. Every step is idempotent, and processes opening a new store
        at the same moment race on them (SQLite may answer "locked" to a journal-mode change without
        waiting; two processes may both find a column missing and both add it), so a step that loses
        such a race is retried until `deadline`."""
        tracked = None  # whether the store had index_files before this process touched the schema
        while True:
            try:
                self.db.execute("PRAGMA journal_mode=WAL")
                self.db.execute("PRAGMA synchronous=FULL")
                self.db.execute("PRAGMA foreign_keys=ON")
                if tracked is None:
                    tracked = self._has_table("index_files")
                self.db.executescript(SCHEMA)
                self._migrate(tracked)
                return
            except sqlite3.OperationalError as error:
                message = str(error)
                if not ("locked" in message or "duplicate column" in message) or time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    def _has_table(self, name: str) -> bool:
        return self.db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (name,)).fetchone() \
            is not None

    def _migrate(self, tracked: bool) -> None:
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
        added = {"requested_url": "TEXT", "fetched_at": "TEXT",  # fetched policies (source_path: the final URL)
                 "language": "TEXT", "kept_words": "INTEGER", "visible_words": "INTEGER"}  # screening, loss check
        for column, kind in added.items():
            if column not in version_columns:
                self.db.execute(f"ALTER TABLE versions ADD COLUMN {column} {kind}")
        if "described" not in {row[1] for row in self.db.execute("PRAGMA table_info(profile_facets)")}:
            self.db.execute("ALTER TABLE profile_facets ADD COLUMN described TEXT")  # profiles before attribute heads
        if not tracked:  # before index_files: the files committed versions reference are provably ours
            self.db.execute("INSERT OR IGNORE INTO index_files (name, created_at) "
                            "SELECT index_file, ingested_at FROM versions")

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
    def _transaction(self, done: Callable[[], str] | None = None) -> Iterator[sqlite3.Connection]:
        """BEGIN IMMEDIATE … COMMIT, rolled back on any exception before the commit. `done` says in words
        what the write did; it is recorded in `COMMITS` once SQLite has committed, also when an interruption
        arrives as COMMIT returns (SQLite, not where the exception landed, says whether it committed)."""
        self.db.execute("BEGIN IMMEDIATE")
        committing = False
        try:
            yield self.db
            committing = True
            self.db.execute("COMMIT")
        except BaseException:
            if self.db.in_transaction:  # SQLite may already have rolled back (e.g. on a full disk)
                self.db.execute("ROLLBACK")
            elif committing and done is not None:
                COMMITS.record(done())
            raise
        if done is not None:
            COMMITS.record(done())

    # -- reading -------------------------------------------------------------------------

    @reported
    def list_policies(self) -> list[PolicySummary]:
        """The latest version of every policy, with the damage found in any of its versions (the
        index files' headers are read, not the vectors: cheap)."""
        damaged: dict[str, list[str]] = {}
        for version in self.all_versions():
            problem = self.index_problem(version)
            if problem:
                damaged.setdefault(version.name, []).append(f"version {version.version}: {problem}")
        rows = self.db.execute(
            f"""SELECT {_VERSION_COLUMNS},
                       (SELECT COUNT(*) FROM versions w WHERE w.policy_id = p.id)
                FROM versions v JOIN policies p ON p.id = v.policy_id
                WHERE v.version = (SELECT MAX(version) FROM versions w WHERE w.policy_id = p.id)
                ORDER BY p.name COLLATE NOCASE"""
        ).fetchall()
        return [PolicySummary(PolicyVersion(*row[:-1]), row[-1], tuple(damaged.get(row[1], ())))
                for row in rows]

    @reported
    def all_versions(self) -> list[PolicyVersion]:
        """Every stored version of every policy, by name then version."""
        rows = self.db.execute(
            f"SELECT {_VERSION_COLUMNS} FROM versions v JOIN policies p ON p.id = v.policy_id "
            "ORDER BY p.name COLLATE NOCASE, v.version"
        )
        return [PolicyVersion(*row) for row in rows]

    @reported
    def latest_versions(self) -> list[PolicyVersion]:
        """The latest version of every policy, in the order they were stored (the cross index's row order)."""
        rows = self.db.execute(
            f"""SELECT {_VERSION_COLUMNS} FROM versions v JOIN policies p ON p.id = v.policy_id
                WHERE v.version = (SELECT MAX(version) FROM versions w WHERE w.policy_id = p.id) ORDER BY v.id""")
        return [PolicyVersion(*row) for row in rows]

    @reported
    def sentence(self, version_id: int, ordinal: int) -> Sentence:
        """One stored sentence (see `sentences`)."""
        row = self.db.execute(
            "SELECT ordinal, text, start, end, section, categories, facts, practice_scores, page FROM sentences "
            "WHERE version_id = ? AND ordinal = ?", (version_id, ordinal)).fetchone()
        if row is None:
            raise UnknownPolicyError(f"Sentence {ordinal} of stored version {version_id} was removed while it was "
                                     "being read.")
        return _sentence(row)

    @reported
    def cross_index(self) -> CrossIndex:
        """The index over every sentence of the latest versions (`store.cross_index`). The saved one when it
        was built from exactly these versions; else it is rebuilt from the versions' own indexes (their
        stored vectors: no model) and saved for the next search, best effort — when the store cannot be
        written or another writer is at work, the rebuilt index is used and not kept. A damaged version
        index is a DamagedIndexError naming `assistant repair`."""
        versions = self.latest_versions()
        key = versions_key(versions)
        row = self.db.execute("SELECT name FROM cross_indexes WHERE key = ?", (key,)).fetchone()
        if row:
            try:
                return CrossIndex.deserialize((self.index_dir / row[0]).read_bytes(), versions)
            except (OSError, ValueError):
                pass  # missing or unreadable: rebuilt below, and the old file released when the new one is saved
        index = CrossIndex.build(versions, [self.load_index(v).vectors() for v in versions])
        self._save_cross_index(index)
        return index

    def _save_cross_index(self, index: CrossIndex) -> None:
        """Keep `index` as the store's cross index unless the versions changed meanwhile; never raises for
        the environment (the search goes on with the index in memory)."""
        try:
            with self._writer_lock(wait=False) as acquired:
                if not acquired or self.database_problem() or versions_key(self.latest_versions()) != index.key:
                    return
                name = self._claim_index_file()
                try:
                    write_atomically(self.index_dir / name, index.serialize())
                    with self._transaction() as db:
                        stale = self._drop_cross_indexes(db)
                        db.execute("INSERT INTO cross_indexes (name, key) VALUES (?, ?)", (name, index.key))
                except BaseException:
                    self._release_unless_committed(name)
                    raise
                for old in stale:
                    self._release_index_file(old)
        except (OSError, sqlite3.Error, StoreError):
            return

    @staticmethod
    def _drop_cross_indexes(db: sqlite3.Connection) -> list[str]:
        """Inside a writer's transaction: forget the cross index (its versions are changing); returns its
        file names, to be released after the commit (or by the next open when killed before)."""
        names = [row[0] for row in db.execute("SELECT name FROM cross_indexes")]
        db.execute("DELETE FROM cross_indexes")
        return names

    @reported
    def policy_names(self) -> list[str]:
        return [row[0] for row in self.db.execute("SELECT name FROM policies ORDER BY name COLLATE NOCASE")]

    @reported
    def name_of_source(self, sources: list[str]) -> str | None:
        """The policy whose latest version was read from one of `sources` (a fetched page's final or requested
        URL), or None: the name a page fetched again is stored under."""
        marks = ", ".join("?" * len(sources))
        row = self.db.execute(
            f"SELECT p.name FROM versions v JOIN policies p ON p.id = v.policy_id "
            f"WHERE v.version = (SELECT MAX(version) FROM versions WHERE policy_id = v.policy_id) "
            f"AND (v.source_path IN ({marks}) OR v.requested_url IN ({marks})) ORDER BY v.id DESC LIMIT 1",
            [*sources, *sources]).fetchone()
        return row[0] if row else None

    @reported
    def get_version(self, name: str, version: int | None = None) -> PolicyVersion:
        """The given version of a policy (the latest when `version` is None). Names match without
        regard to case."""
        query = f"SELECT {_VERSION_COLUMNS} FROM versions v JOIN policies p ON p.id = v.policy_id WHERE p.name = ?"
        if version is None:
            row = self.db.execute(query + " ORDER BY v.version DESC LIMIT 1", (name,)).fetchone()
        elif not 1 <= version <= MAX_SQLITE_INTEGER:  # no stored version is out of SQLite's range (nor below 1)
            row = None
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

    @reported
    def sentences(self, version_id: int) -> list[Sentence]:
        rows = self.db.execute(
            "SELECT ordinal, text, start, end, section, categories, facts, practice_scores, page FROM sentences "
            "WHERE version_id = ? ORDER BY ordinal",
            (version_id,),
        )
        return [_sentence(row) for row in rows]

    @reported
    def profile(self, version: PolicyVersion) -> PolicyProfile | None:
        """The version's stored privacy profile (None: none stored, e.g. a store written before profiles)."""
        row = self.db.execute("SELECT rules FROM profiles WHERE version_id = ?", (version.id,)).fetchone()
        if row is None:
            return None
        addressing: dict[str, list[FacetSentence]] = {}
        for facet, ordinal, stance, value in self.db.execute(
                "SELECT facet, ordinal, stance, value FROM profile_sentences WHERE version_id = ? "
                "ORDER BY facet, ordinal", (version.id,)):
            addressing.setdefault(facet, []).append(FacetSentence(ordinal, stance, value))
        facets = self.db.execute(
            """SELECT f.facet, f.question, f.verdict, f.headline, f.sentence_id, s.text, f.value, f.described
               FROM profile_facets f LEFT JOIN sentences s ON s.version_id = f.version_id AND s.ordinal = f.sentence_id
               WHERE f.version_id = ? ORDER BY f.position""", (version.id,))
        return PolicyProfile(row[0], tuple(FacetProfile(*columns[:7], tuple(addressing.get(columns[0], ())),
                                                        columns[7]) for columns in facets))

    @reported
    def pipeline(self, version: PolicyVersion) -> str:
        """The ingest pipeline that produced a stored version (see `assistant.ingest.tagging.TAGGING_PIPELINE`)."""
        return self.db.execute("SELECT embedder FROM versions WHERE id = ?", (version.id,)).fetchone()[0]

    @reported
    def policy_text(self, version_id: int) -> str:
        return self.db.execute("SELECT text FROM versions WHERE id = ?", (version_id,)).fetchone()[0]

    @reported
    def sections(self, version_id: int) -> list[str]:
        rows = self.db.execute("SELECT path FROM sections WHERE version_id = ? ORDER BY ordinal", (version_id,))
        return [row[0] for row in rows]

    @reported
    def load_index(self, version: PolicyVersion) -> SentenceIndex:
        """The version's index, checked against its sentences: DamagedIndexError naming the policy
        and `assistant repair` when it is missing, unreadable or has the wrong number of rows;
        UnknownPolicyError when the version was removed meanwhile."""
        path = self.index_dir / version.index_file
        if not path.is_file():
            self._raise_if_removed(version)
            raise DamagedIndexError(damage_message(version, "its index file is missing"))
        try:
            index = SentenceIndex.load(path)
        except ValueError as error:
            raise DamagedIndexError(damage_message(version, f"its index file is unreadable ({error})")) from None
        if index.size != version.n_sentences:
            raise DamagedIndexError(damage_message(version, _row_mismatch(index.size, version.n_sentences)))
        return index

    @reported
    def read_version(self, version: PolicyVersion) -> tuple[SentenceIndex, list[Sentence]]:
        """The version's index and sentences, consistent with each other (see `load_index`)."""
        index = self.load_index(version)
        sentences = self.sentences(version.id)
        if len(sentences) != index.size:
            self._raise_if_removed(version)
            raise DamagedIndexError(damage_message(version, _row_mismatch(index.size, len(sentences))))
        return index, sentences

    def _raise_if_removed(self, version: PolicyVersion) -> None:
        if self.db.execute("SELECT 1 FROM versions WHERE id = ?", (version.id,)).fetchone() is None:
            raise UnknownPolicyError(f"Policy '{version.name}' version {version.version} was removed while "
                                     "it was being read.")

    @reported
    def index_problem(self, version: PolicyVersion) -> str | None:
        """What is wrong with the version's index file, read from its header (None: sound)."""
        path = self.index_dir / version.index_file
        if not path.is_file():
            return "its index file is missing"
        try:
            rows = rows_in_header(path)
        except ValueError as error:
            return f"its index file is unreadable ({error})"
        return _row_mismatch(rows, version.n_sentences) if rows != version.n_sentences else None

    @reported
    def database_problem(self, full: bool = False) -> str | None:
        """What SQLite's `quick_check` (or the slower `integrity_check` when `full`) finds wrong
        with the database, in one line (None: sound)."""
        try:
            rows = [row[0] for row in self.db.execute("PRAGMA integrity_check" if full else "PRAGMA quick_check")]
        except sqlite3.DatabaseError as error:  # damage bad enough to stop the check itself
            if not getattr(error, "sqlite_errorname", "").startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")):
                raise
            return str(error)
        if rows == ["ok"]:
            return None
        more = f" (and {len(rows) - 1} more)" if len(rows) > 1 else ""
        return " ".join(rows[0].split()) + more

    @reported
    def foreign_files(self) -> list[str]:
        """Names in `indexes/` the store did not create (it leaves them alone)."""
        owned = {row[0] for row in self.db.execute("SELECT name FROM index_files")}
        owned |= {temporary_path(Path(name)).name for name in owned}
        return sorted(path.name for path in self.index_dir.iterdir() if path.name not in owned)

    # -- writing -------------------------------------------------------------------------

    def add_version(
        self, name: str, source_path: str, sha256: str, policy: ParsedPolicy, index: SentenceIndex, embedder: str,
        provenance: Provenance | None = None, profile: ProfileMaker | None = None,
    ) -> PolicyVersion:
        """Store a new version of `name` (version 1 for a new name) with its index, all or nothing.

        `embedder` names the ingest pipeline (embedder and taggers) that produced the version. A fetched
        policy's `source_path` is the final URL; `provenance` says what was asked for, when, in which language
        and how much of the page was kept. `profile`, when given, computes the version's privacy profile inside
        the transaction that stores it (it reads the version through this store, uncommitted): the profile is
        stored with the version or, when it fails, neither is.
        """
        return self.add_version_if_new(name, source_path, sha256, policy, index, embedder, provenance, profile)[0]

    @reported
    def add_version_if_new(
        self, name: str, source_path: str, sha256: str, policy: ParsedPolicy, index: SentenceIndex, embedder: str,
        provenance: Provenance | None = None, profile: ProfileMaker | None = None,
    ) -> tuple[PolicyVersion, bool]:
        """Like `add_version`, but when the latest version of `name` already has this sha256 and
        pipeline (e.g. an identical ingest finished meanwhile), return it and write nothing.
        The second value says whether a version was added."""
        with self._writer_lock():
            self._refuse_if_damaged()
            latest = self._latest_or_none(name)
            if latest and latest.sha256 == sha256 and self.pipeline(latest) == embedder:
                return latest, False
            number = self._add_version_locked(name, source_path, sha256, policy, index, embedder,
                                              provenance or Provenance(), profile)
        return self.get_version(name, number), True

    def _latest_or_none(self, name: str) -> PolicyVersion | None:
        try:
            return self.get_version(name)
        except UnknownPolicyError:
            return None

    def _add_version_locked(
        self, name: str, source_path: str, sha256: str, policy: ParsedPolicy, index: SentenceIndex, embedder: str,
        provenance: Provenance, profile: ProfileMaker | None = None,
    ) -> int:
        index_file = self._claim_index_file()
        try:
            index.save(self.index_dir / index_file)
            number = 0
            with self._transaction(lambda: f"{name} stored as version {number}") as db:
                stale = self._drop_cross_indexes(db)
                policy_id = self._policy_id(db, name)
                number = db.execute(
                    "SELECT COALESCE(MAX(version), 0) + 1 FROM versions WHERE policy_id = ?", (policy_id,)
                ).fetchone()[0]
                version_id = db.execute(
                    """INSERT INTO versions (policy_id, version, source_path, sha256, ingested_at, title, text,
                                             index_file, embedder, requested_url, fetched_at, language,
                                             kept_words, visible_words)
                       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
                    (policy_id, number, source_path, sha256, _now(), policy.title, policy.text, index_file, embedder,
                     provenance.requested_url, provenance.fetched_at, provenance.language, provenance.kept_words,
                     provenance.visible_words),
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
                if profile is not None:
                    self._insert_profile(db, version_id, profile(self.get_version(name, number)))
        except BaseException:
            self._release_unless_committed(index_file)
            raise
        for old in stale:
            self._release_index_file(old)
        return number

    @staticmethod
    def _insert_profile(db: sqlite3.Connection, version_id: int, profile: PolicyProfile) -> None:
        """Inside a writer's transaction: replace the version's stored profile with `profile`."""
        db.execute("DELETE FROM profiles WHERE version_id = ?", (version_id,))  # cascades to its rows
        db.execute("INSERT INTO profiles (version_id, rules, computed_at) VALUES (?, ?, ?)",
                   (version_id, profile.rules, _now()))
        db.executemany(
            "INSERT INTO profile_facets (version_id, position, facet, question, verdict, headline, sentence_id, "
            "value, described) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(version_id, position, f.facet, f.question, f.verdict, f.headline, f.sentence_id, f.value, f.described)
             for position, f in enumerate(profile.facets)])
        db.executemany(
            "INSERT INTO profile_sentences (version_id, facet, ordinal, stance, value) VALUES (?, ?, ?, ?, ?)",
            [(version_id, f.facet, s.ordinal, s.stance, s.value) for f in profile.facets for s in f.sentences])

    def save_profile(self, version: PolicyVersion, profile: PolicyProfile) -> bool:
        """Keep `profile` as the version's stored profile (computed on first read for a version stored without
        one, or by older rules). Best effort, like the cross index: never waits for another writer and never
        raises for the environment (the caller goes on with the profile in memory); says whether it was kept."""
        try:
            with self._writer_lock(wait=False) as acquired:
                if not acquired or self.database_problem():
                    return False
                with self._transaction() as db:
                    if db.execute("SELECT 1 FROM versions WHERE id = ? AND index_file = ?",
                                  (version.id, version.index_file)).fetchone() is None:
                        return False  # removed (or its index replaced) meanwhile
                    self._insert_profile(db, version.id, profile)
                return True
        except (OSError, sqlite3.Error, StoreError):
            return False

    def _policy_id(self, db: sqlite3.Connection, name: str) -> int:
        row = db.execute("SELECT id FROM policies WHERE name = ?", (name,)).fetchone()
        if row:
            return row[0]
        return db.execute("INSERT INTO policies (name) VALUES (?)", (name,)).lastrowid

    @reported
    def replace_index(self, version: PolicyVersion, index: SentenceIndex) -> PolicyVersion:
        """Give a stored version a new index file (e.g. rebuilt by `assistant repair`), all or
        nothing; the old file, if any, is deleted afterwards."""
        if index.size != version.n_sentences:
            raise ValueError(f"the new index has {index.size} rows for {version.n_sentences} sentences")
        with self._writer_lock():
            self._refuse_if_damaged()
            self._raise_if_removed(version)
            index_file = self._claim_index_file()
            try:
                index.save(self.index_dir / index_file)
                with self._transaction(lambda: f"the index of {version.name} version {version.version} rebuilt") as db:
                    stale = self._drop_cross_indexes(db)
                    db.execute("UPDATE versions SET index_file = ? WHERE id = ?", (index_file, version.id))
            except BaseException:
                self._release_unless_committed(index_file)
                raise
            for file in [version.index_file, *stale]:
                self._release_index_file(file)
        return self.get_version(version.name, version.version)

    @reported
    def remove(self, name: str) -> int:
        """Delete a policy and all its versions; returns how many versions were removed."""
        self.get_version(name)  # raises UnknownPolicyError
        with self._writer_lock():
            self._refuse_if_damaged()
            files: list[str] = []
            with self._transaction(lambda: f"{name} removed with its {len(files)} version{'' if len(files) == 1 else 's'}") as db:
                files = [r[0] for r in db.execute(
                    "SELECT index_file FROM versions v JOIN policies p ON p.id = v.policy_id WHERE p.name = ?",
                    (name,),
                )]
                db.execute("DELETE FROM policies WHERE name = ?", (name,))
                stale = self._drop_cross_indexes(db)
            for file in files + stale:  # a kill from here on leaves names in index_files: cleaned on next open
                self._release_index_file(file)
        return len(files)

    @reported
    def finish_interrupted_writes(self) -> None:
        """Delete the index files (and temporaries) of writes that were interrupted: those named in
        `index_files` that no version references. Nothing else is ever deleted. Best effort: when
        the store cannot be written (read-only, disk full), the next open tries again."""
        if not self._unreferenced_index_files():
            return  # the common case: nothing to write, so reading needs no write access
        try:
            with self._writer_lock(wait=False) as acquired:
                if not acquired:
                    return  # a writer is at work; its files may not be committed yet
                for name in self._unreferenced_index_files():
                    self._release_index_file(name)
        except (OSError, sqlite3.OperationalError):
            return

    def _unreferenced_index_files(self) -> list[str]:
        return [row[0] for row in self.db.execute(
            "SELECT name FROM index_files WHERE name NOT IN (SELECT index_file FROM versions) "
            "AND name NOT IN (SELECT name FROM cross_indexes)")]

    def _claim_index_file(self) -> str:
        """A new index file name, committed to `index_files` before the file is written."""
        name = f"{uuid.uuid4().hex}.faiss"
        self.db.execute("INSERT INTO index_files (name, created_at) VALUES (?, ?)", (name, _now()))
        return name

    def _release_unless_committed(self, name: str) -> None:
        """After a write failed or was interrupted: release its new index file unless the commit went through
        (a version or the cross index references it). When the database cannot tell, the file is kept: the
        next open releases it if nothing references it."""
        try:
            referenced = self.db.execute(
                "SELECT 1 FROM versions WHERE index_file = ? UNION ALL SELECT 1 FROM cross_indexes WHERE name = ?",
                (name, name)).fetchone() is not None
        except sqlite3.Error:
            return
        if not referenced:
            self._release_index_file(name)

    def _release_index_file(self, name: str) -> None:
        """Delete one of the store's index files (and its temporary), then forget its name. If the
        name cannot be forgotten (e.g. the disk is full), a later open finishes the job."""
        path = self.index_dir / name
        temporary_path(path).unlink(missing_ok=True)
        path.unlink(missing_ok=True)
        try:
            self.db.execute("DELETE FROM index_files WHERE name = ?", (name,))
        except sqlite3.OperationalError:
            pass

    def _refuse_if_damaged(self) -> None:
        """Writers call this first: nothing is written into a database that fails quick_check."""
        problem = self.database_problem()
        if problem:
            raise StoreError(f"The store's database {self.database} is damaged ({problem}); nothing was written. "
                             "Restore it from a backup, or move it aside and ingest the policies again.")


def _sentence(row: tuple) -> Sentence:
    """A Sentence from (ordinal, text, start, end, section, categories, facts, practice_scores, page)."""
    return Sentence(*row[:5], categories=tuple(json.loads(row[5])),
                    facts=Facts.from_dict(json.loads(row[6])) if row[6] else None,
                    practice_scores=json.loads(row[7]), page=row[8])


def damage_message(version: PolicyVersion, problem: str) -> str:
    """One line naming the damaged version and the command that repairs it."""
    return (f"Policy '{version.name}' version {version.version}: {problem}; run `assistant repair` to rebuild "
            "it from the stored sentences.")


def _row_mismatch(rows: int, sentences: int) -> str:
    return f"its index has {rows} rows for {sentences} sentences"


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")
