"""What a corpus is made of: the documents named by `assistant corpus ingest SOURCE…`.

A SOURCE is
- a folder: every policy file under it (.html, .htm, .md, .txt, .pdf). A file named by a date
  (`SERVICE/2021-03-04.md`) is that service's version of that date; any other file is the service its name says
  (`duolingo.md`), undated;
- a list: a `.tsv` file with a `source` column (a path or an http(s) URL) and optional `service` and `date` columns,
  or any other text file with one path or URL per line (`#` starts a comment);
- a single policy file or URL.
Relative paths in a list are read from the list's folder. Each document's id is a digest of its source, so a
re-run recognises the documents it has finished."""
from __future__ import annotations

import csv
import datetime
import hashlib
from dataclasses import dataclass
from pathlib import Path

from assistant.foundation.errors import InputFileError

POLICY_SUFFIXES = (".html", ".htm", ".md", ".txt", ".pdf")


@dataclass(frozen=True)
class CorpusDocument:
    """One document of a corpus: where it is read from, the service it belongs to, and its date when known."""

    doc_id: str  # 16 hex digits of the source's SHA-256
    source: str  # an absolute path or an http(s) URL
    service: str
    date: str | None = None  # YYYY-MM-DD

    def to_dict(self) -> dict[str, str | None]:
        return {"doc_id": self.doc_id, "source": self.source, "service": self.service, "date": self.date}


def document(source: str, service: str | None = None, date: str | None = None) -> CorpusDocument:
    """A document of `source`: its service defaults to the file's stem (or the URL's host), its date to none."""
    if _is_url(source):
        default = source.split("://", 1)[1].split("/", 1)[0].removeprefix("www.")
    else:
        source = str(Path(source).resolve())
        default = Path(source).stem
    return CorpusDocument(hashlib.sha256(source.encode()).hexdigest()[:16], source, service or default,
                          _valid_date(date, source) if date else None)


def read_sources(sources: list[str]) -> list[CorpusDocument]:
    """Every document the sources name, each once, in the order given (a folder's files sorted by path)."""
    found: dict[str, CorpusDocument] = {}
    for source in sources:
        for item in _documents_of(source):
            found.setdefault(item.doc_id, item)
    if not found:
        raise InputFileError(f"No policy files found in {', '.join(sources)} ({', '.join(POLICY_SUFFIXES)}).")
    return list(found.values())


def _documents_of(source: str) -> list[CorpusDocument]:
    if _is_url(source):
        return [document(source)]
    path = Path(source)
    if path.is_dir():
        return [_file_document(file) for file in sorted(path.rglob("*"))
                if file.is_file() and file.suffix.lower() in POLICY_SUFFIXES]
    if not path.is_file():
        raise InputFileError(f"{source}: no such file, folder or URL.")
    suffix = path.suffix.lower()
    if suffix == ".tsv" or suffix == ".txt" and not _looks_like_policy(path):
        return _listed(path)
    return [_file_document(path)]


def _file_document(path: Path) -> CorpusDocument:
    """A file of a folder: SERVICE/DATE.ext is dated, any other file is the service its stem names."""
    if _parse_date(path.stem):
        return document(str(path), path.parent.name, path.stem)
    return document(str(path))


def _listed(path: Path) -> list[CorpusDocument]:
    """The documents a list file names (a .tsv with a header, else one source per line)."""
    text = path.read_text(encoding="utf-8")
    base = path.parent
    if path.suffix.lower() == ".tsv":
        rows = list(csv.DictReader(text.splitlines(), delimiter="\t"))
        if rows and "source" not in rows[0]:
            raise InputFileError(f"{path}: a .tsv list needs a 'source' column (and may have 'service', 'date').")
        return [document(_resolve(row["source"], base), row.get("service") or None, row.get("date") or None)
                for row in rows if row.get("source", "").strip()]
    lines = [line.split("#", 1)[0].strip() for line in text.splitlines()]
    return [document(_resolve(line, base)) for line in lines if line]


def _looks_like_policy(path: Path) -> bool:
    """A .txt file is a list when every non-empty line is a path or URL, else a policy."""
    lines = [line.split("#", 1)[0].strip() for line in path.read_text(encoding="utf-8", errors="replace").splitlines()]
    lines = [line for line in lines if line]
    return not lines or not all(_is_url(line) or line.lower().endswith(POLICY_SUFFIXES) for line in lines)


def _resolve(source: str, base: Path) -> str:
    source = source.strip()
    return source if _is_url(source) or Path(source).is_absolute() else str(base / source)


def _is_url(source: str) -> bool:
    return source.startswith(("http://", "https://"))


def _parse_date(text: str) -> datetime.date | None:
    try:
        return datetime.date.fromisoformat(text[:10]) if len(text) >= 10 and text[4] == "-" else None
    except ValueError:
        return None


def _valid_date(text: str, source: str) -> str:
    parsed = _parse_date(text.strip())
    if parsed is None:
        raise InputFileError(f"{source}: date {text!r} is not YYYY-MM-DD.")
    return parsed.isoformat()
