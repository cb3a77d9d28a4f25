"""Check the store and rebuild damaged indexes: `assistant doctor` and `assistant repair`.

An index is rebuilt from the version's stored sentences by re-embedding them with the retriever,
exactly as ingest built it, so only versions ingested by the current pipeline
(`TAGGING_PIPELINE`) can be rebuilt; the database itself cannot be repaired from the indexes.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from assistant.foundation.types import PolicyVersion
from assistant.ingest.tagging import TAGGING_PIPELINE
from assistant.models.retriever.model import Embedder
from assistant.store.database import Store, damage_message
from assistant.store.index import SentenceIndex


@dataclass(frozen=True)
class StoreHealth:
    """What `assistant doctor` found: `problems` (one sentence each; empty when healthy) and
    `notes` (harmless findings, such as files in indexes/ the store leaves alone)."""

    policies: int
    versions: int
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def healthy(self) -> bool:
        return not self.problems


@dataclass(frozen=True)
class RepairReport:
    """What `assistant repair` did: the versions it rebuilt and, one sentence each, what it could not repair."""

    rebuilt: list[PolicyVersion] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)


def check_store(store: Store) -> StoreHealth:
    """A full check: SQLite's integrity_check and every version's index (present, readable, one
    row per sentence)."""
    problems: list[str] = []
    database = store.database_problem(full=True)
    if database:
        problems.append(f"The database {store.database} is damaged ({database}); restore it from a backup, "
                        "or move it aside and ingest the policies again.")
    versions = store.all_versions()
    for version in versions:
        problem = store.index_problem(version) or _unloadable(store, version)
        if problem:
            problems.append(damage_message(version, problem))
    foreign = store.foreign_files()
    listed = ", ".join(foreign[:5]) + (" …" if len(foreign) > 5 else "")
    note = f"{len(foreign)} file(s) in {store.index_dir} were not created by the store and are left alone: {listed}."
    notes = [note] if foreign else []
    return StoreHealth(len({v.name for v in versions}), len(versions), problems, notes)


def _unloadable(store: Store, version: PolicyVersion) -> str | None:
    try:
        SentenceIndex.load(store.index_dir / version.index_file)
    except ValueError as error:
        return f"its index file is unreadable ({error})"
    return None


def repair_store(store: Store, retriever: Callable[[], Embedder]) -> RepairReport:
    """Rebuild every damaged index that can be rebuilt; `retriever` is called only if one must be."""
    database = store.database_problem(full=True)
    if database:
        return RepairReport(refused=[(
            f"The database {store.database} is damaged ({database}); repair rebuilds indexes from the database "
            "and cannot repair the database itself: restore it from a backup, or move it aside and ingest the "
            "policies again.")])
    report = RepairReport()
    for version in store.all_versions():
        if not (store.index_problem(version) or _unloadable(store, version)):
            continue
        if store.pipeline(version) != TAGGING_PIPELINE:
            report.refused.append(
                f"Policy '{version.name}' version {version.version} was ingested by an older pipeline, whose "
                f"vectors cannot be remade; ingest its file again (`assistant ingest {version.source_path} "
                f"--name {version.name}`) or remove it.")
            continue
        report.rebuilt.append(rebuild_index(store, retriever(), version))
    return report


def rebuild_index(store: Store, retriever: Embedder, version: PolicyVersion) -> PolicyVersion:
    """Re-embed the version's stored sentences and give it the new index."""
    vectors = retriever.encode([s.text for s in store.sentences(version.id)])
    return store.replace_index(version, SentenceIndex.build(vectors))
