"""The screening corpus (`data/screening/`): current privacy policies and pages that are not privacy
policies (terms of service, cookie notices, news and blog posts, READMEs, error and JavaScript-shell
pages), English and not, each with its kind, language and the organisation it belongs to; plus the
OPP-115 policies (2015) as more policies.

`documents.tsv` lists every document with its source (repository, path, commit, licence; see
`SOURCES.md`). The documents taken from public repositories are rebuilt into `documents/` by
`scripts/screening_corpus.py`; the pages written for this corpus are in `written/`.
"""
from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

from assistant.corpora import corpus_dir
from assistant.foundation.errors import AssistantError

# The checkout's copy; not shipped in the wheel (training and evaluation run from a checkout).
SCREENING_DIR = Path(__file__).resolve().parents[2] / "data" / "screening"
INDEX_FILE = "documents.tsv"
KINDS = ("policy", "terms", "cookies", "other")  # "policy": a privacy policy; the rest are not


class ScreeningCorpusError(AssistantError):
    """The screening corpus (or one of its documents) is not there."""


@dataclass(frozen=True)
class ScreeningDocument:
    """One document of the corpus: its file, what it is and where it came from."""

    path: Path
    kind: str  # one of KINDS
    language: str  # ISO 639-1
    group: str  # the organisation: documents of one group are never split between train and test
    era: str  # "current" (2020s) or "2015" (OPP-115)
    repository: str = ""
    source_path: str = ""
    commit: str = ""
    licence: str = ""

    @property
    def is_policy(self) -> bool:
        return self.kind == "policy"


def load_documents(directory: Path = SCREENING_DIR, require_files: bool = True) -> list[ScreeningDocument]:
    """The documents listed in `directory/documents.tsv`; with `require_files`, refuses when one is
    missing (rebuild them with scripts/screening_corpus.py)."""
    index = directory / INDEX_FILE
    if not index.is_file():
        raise ScreeningCorpusError(f"No screening corpus index at {index}.")
    with index.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    documents = [
        ScreeningDocument(directory / row["file"], row["label"], row["language"], row["group"], row["era"],
                          row["repository"], row["path"], row["commit"], row["licence"])
        for row in rows
    ]
    missing = [d.path for d in documents if not d.path.is_file()]
    if require_files and missing:
        raise ScreeningCorpusError(
            f"{len(missing)} of the {len(documents)} screening documents are missing (first: {missing[0]}); "
            "rebuild them with scripts/screening_corpus.py.")
    return documents


def opp115_documents(limit: int | None = None) -> list[ScreeningDocument]:
    """The OPP-115 policies (2015-era HTML), each its own group."""
    paths = sorted((corpus_dir("opp115") / "sanitized_policies").glob("*.html"))[:limit]
    return [ScreeningDocument(path, "policy", "en", f"opp115:{path.stem}", "2015", "OPP-115",
                              f"sanitized_policies/{path.name}", "", "OPP-115 (research, teaching, scholarship)")
            for path in paths]
