"""The ingest pipeline: read and parse a file → split into sentences → embed and tag → store."""
from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from assistant.foundation.errors import IngestLimitError, InputFileError, UnknownPolicyError
from assistant.foundation.limits import Deadline, IngestLimits
from assistant.foundation.sentences import build_policy
from assistant.foundation.text import has_controls
from assistant.foundation.types import ParsedPolicy, PolicyVersion, ProgressCallback
from assistant.ingest.parsing import load_document
from assistant.ingest.tagging import TAGGING_PIPELINE, SentenceTagging
from assistant.store.database import Store
from assistant.store.index import SentenceIndex

MAX_NAME_CHARS = 100


@dataclass(frozen=True)
class IngestResult:
    """What an ingest did: `unchanged` is True when identical content was already stored."""

    version: PolicyVersion
    unchanged: bool
    seconds: float


class IngestPipeline:
    """Stores policy files as versions. `tagging` is called only when there is something to tag,
    so re-ingesting identical content loads no model."""

    def __init__(self, store: Store, tagging: Callable[[], SentenceTagging], max_bytes: int,
                 limits: IngestLimits | None = None) -> None:
        self.store = store
        self.tagging = tagging
        self.max_bytes = max_bytes
        self.limits = limits or IngestLimits()

    def run(self, path: Path, name: str | None = None, progress: ProgressCallback | None = None) -> IngestResult:
        """Parse, split, embed, tag and store a policy file as a new version of `name` (default: file stem).

        Within the ingest limits (`IngestLimits`): what is over one is refused before the costly work,
        and an ingest that runs past its time budget stops with the store unchanged."""
        started = time.perf_counter()
        deadline = Deadline(self.limits.max_seconds)
        name = validate_name(name if name is not None else path.stem)
        document = load_document(path, self.max_bytes, self.limits.max_html_depth)
        deadline.check("parsing")
        sha256 = hashlib.sha256(path.read_bytes()).hexdigest()
        existing = self._latest_or_none(name)
        if existing and existing.sha256 == sha256 and self.store.pipeline(existing) == TAGGING_PIPELINE:
            return IngestResult(existing, unchanged=True, seconds=time.perf_counter() - started)
        policy = build_policy(document, self.limits.max_sentences, self.limits.max_paragraph_chars)
        if not policy.sentences:
            raise InputFileError(f"{path}: no sentences found in the visible text.")
        deadline.check("splitting sentences")
        version = self.store_policy(policy, name, str(path.resolve()), sha256, progress, deadline)
        return IngestResult(version, unchanged=False, seconds=time.perf_counter() - started)

    def store_policy(self, policy: ParsedPolicy, name: str, source: str, sha256: str,
                     progress: ProgressCallback | None = None, deadline: Deadline | None = None) -> PolicyVersion:
        """Embed, tag and store an already parsed policy as the next version of `name`."""
        if len(policy.sentences) > self.limits.max_sentences:  # (build_policy refuses earlier)
            raise IngestLimitError(f"The policy has more than {self.limits.max_sentences} sentences, the most one "
                                   "ingest accepts (raise the limit with the ASSISTANT_MAX_SENTENCES environment "
                                   "variable).")
        deadline = deadline or Deadline(self.limits.max_seconds)
        tagged = self.tagging().run(policy, progress, deadline)
        deadline.check("tagging")
        return self.store.add_version(name, source, sha256, tagged.policy, SentenceIndex.build(tagged.vectors),
                                      TAGGING_PIPELINE)

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
    if name.startswith("-"):
        raise InputFileError(f"The policy name {name[:40]!r} starts with '-', which commands would read as an "
                             "option: pick another --name.")
    if has_controls(name):
        raise InputFileError("The policy name contains control characters: pick another --name.")
    if len(name) > MAX_NAME_CHARS:
        raise InputFileError(f"The policy name is over {MAX_NAME_CHARS} characters: pass a shorter --name.")
    return name
