"""The ingest pipeline: read and parse a file → split into sentences → embed and tag → store."""
from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from assistant.foundation.errors import InputFileError, UnknownPolicyError
from assistant.foundation.sentences import build_policy
from assistant.foundation.types import ParsedPolicy, PolicyVersion, ProgressCallback
from assistant.ingest.parsing import load_document
from assistant.ingest.repair import rebuild_index
from assistant.ingest.tagging import TAGGING_PIPELINE, SentenceTagging
from assistant.store.database import Store
from assistant.store.index import SentenceIndex

MAX_NAME_CHARS = 100


@dataclass(frozen=True)
class IngestResult:
    """What an ingest did: `unchanged` is True when identical content was already stored;
    `repaired` when it was, but its damaged index had to be rebuilt; `requested_name` is the name
    asked for (the stored one, `version.name`, may differ in case: names match without regard to case)."""

    version: PolicyVersion
    unchanged: bool
    seconds: float
    repaired: bool = False
    requested_name: str = ""


class IngestPipeline:
    """Stores policy files as versions. `tagging` is called only when there is something to tag,
    so re-ingesting identical content loads no model."""

    def __init__(self, store: Store, tagging: Callable[[], SentenceTagging], max_bytes: int) -> None:
        self.store = store
        self.tagging = tagging
        self.max_bytes = max_bytes

    def run(self, path: Path, name: str | None = None, progress: ProgressCallback | None = None) -> IngestResult:
        """Parse, split, embed, tag and store a policy file as a new version of `name` (default: file stem)."""
        started = time.perf_counter()
        name = validate_name(name if name is not None else path.stem)
        document = load_document(path, self.max_bytes)
        sha256 = hashlib.sha256(path.read_bytes()).hexdigest()
        existing = self._latest_or_none(name)
        if existing and existing.sha256 == sha256 and self.store.pipeline(existing) == TAGGING_PIPELINE:
            if self.store.index_problem(existing) is None:
                return IngestResult(existing, True, time.perf_counter() - started, requested_name=name)
            repaired = rebuild_index(self.store, self.tagging().retriever, existing)
            return IngestResult(repaired, False, time.perf_counter() - started, repaired=True, requested_name=name)
        policy = build_policy(document)
        if not policy.sentences:
            raise InputFileError(f"{path}: no sentences found in the visible text.")
        version, added = self._store(policy, name, str(path.resolve()), sha256, progress)
        return IngestResult(version, not added, time.perf_counter() - started, requested_name=name)

    def store_policy(self, policy: ParsedPolicy, name: str, source: str, sha256: str,
                     progress: ProgressCallback | None = None) -> PolicyVersion:
        """Embed, tag and store an already parsed policy as the next version of `name`."""
        return self._store(policy, name, source, sha256, progress)[0]

    def _store(self, policy: ParsedPolicy, name: str, source: str, sha256: str,
               progress: ProgressCallback | None) -> tuple[PolicyVersion, bool]:
        """Store a new version unless an identical one was stored meanwhile (checked under the
        store's writer lock); says whether it added one."""
        tagged = self.tagging().run(policy, progress)
        return self.store.add_version_if_new(name, source, sha256, tagged.policy,
                                             SentenceIndex.build(tagged.vectors), TAGGING_PIPELINE)

    def _latest_or_none(self, name: str) -> PolicyVersion | None:
        try:
            return self.store.get_version(name)
        except UnknownPolicyError:
            return None


def validate_name(name: str) -> str:
    """The policy name with its whitespace normalised; empty or over-long names are refused."""
    name = " ".join(name.split())
    if not name:
        raise InputFileError("The policy name is empty: pass --name NAME.")
    if len(name) > MAX_NAME_CHARS:
        raise InputFileError(f"The policy name is over {MAX_NAME_CHARS} characters: pass a shorter --name.")
    return name
