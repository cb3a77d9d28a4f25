"""One corpus worker: the engine's own ingest, run on each document, with its results turned into table rows.

A worker is an `Assistant` over a private scratch store, its models loaded once. Each document is ingested
exactly as `assistant ingest` stores it (parse, screen, split, embed, tag, profile), read back (sentences, vectors,
profile, policy graph) and removed from the scratch store. A document that fails costs its own row with the error;
it never stops the batch."""
from __future__ import annotations

import dataclasses
import hashlib
import json
import re
import shutil
import tempfile
import threading
import time
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import numpy as np
import pyphen

from assistant.corpus.sources import CorpusDocument
from assistant.corpus.tables import ERROR, OK, REFUSED, write_part
from assistant.engine import Assistant
from assistant.foundation.errors import InputFileError, NotAPolicyError
from assistant.foundation.inference import set_threads
from assistant.foundation.settings import Settings
from assistant.foundation.types import PolicyProfile, PolicyVersion, Sentence
from assistant.ingest.pipeline import validate_name
from assistant.understanding.graph import policy_graph

_WORD = re.compile(r"[A-Za-z]+(?:'[A-Za-z]+)?")


@dataclass
class DocumentRows:
    """What one document adds to each table."""

    document: dict
    sentences: list[dict] = field(default_factory=list)
    statements: list[dict] = field(default_factory=list)
    profile: list[dict] = field(default_factory=list)


class CorpusWorker:
    """Ray Data's callable class: loads the models once, then turns batches of documents into table parts."""

    def __init__(self, out: str, threads: int = 1) -> None:
        set_threads(threads)
        self.out = Path(out)
        self.scratch = Path(tempfile.mkdtemp(prefix="assistant-corpus-"))
        self.assistant = Assistant(dataclasses.replace(Settings.from_env(), home=self.scratch))
        self.assistant.load_models()
        self._threads = threading.local()

    def __call__(self, batch: dict[str, np.ndarray]) -> dict[str, list]:
        """Process a batch (columns of `CorpusDocument` fields), write its parts, return one summary row each."""
        documents = [CorpusDocument(*values) for values in zip(batch["doc_id"], batch["source"], batch["service"],
                                                               batch["date"], strict=True)]
        documents = [dataclasses.replace(d, date=d.date or None) for d in documents]
        engine = self._engine()
        results = [process(engine, document) for document in documents]
        write_batch(self.out, documents, results)
        return {"doc_id": [r.document["doc_id"] for r in results], "status": [r.document["status"] for r in results],
                "sentences": [r.document["sentences"] for r in results]}

    def _engine(self) -> Assistant:
        """The engine of the thread Ray calls from: a twin (the models shared, its own store connection, which
        SQLite ties to its thread), made once per thread, so the profile's fixed questions are embedded once."""
        engine = getattr(self._threads, "engine", None)
        if engine is None:
            engine = self._threads.engine = self.assistant.twin()
        return engine

    def __del__(self) -> None:
        shutil.rmtree(getattr(self, "scratch", ""), ignore_errors=True)


def process(engine: Assistant, document: CorpusDocument) -> DocumentRows:
    """Ingest one document into the scratch store, read its rows back, and remove it."""
    started = time.perf_counter()
    row = {**document.to_dict(), "status": OK, "error": None, "language": None, "kept_ratio": None,
           "sentences": 0, "words": 0, "reading_grade": None, "seconds": 0.0}
    name = scratch_name(document)
    try:
        version = engine.ingest(document.source, name=name).version
        rows = _rows(engine, document, version, row)
    except NotAPolicyError as refusal:
        rows = DocumentRows({**row, "status": REFUSED, "error": _one_line(refusal)})
    except Exception as failure:  # noqa: BLE001 - a bad document costs its own row, never the run
        rows = DocumentRows({**row, "status": ERROR, "error": f"{type(failure).__name__}: {_one_line(failure)}"})
    finally:
        if name in engine.policy_names():
            engine.remove(name)
    rows.document["seconds"] = round(time.perf_counter() - started, 3)
    return rows


def scratch_name(document: CorpusDocument) -> str:
    """The name a document is stored under in the scratch store: its service's, as `assistant ingest --name`
    would take it (answers name the policy), else its id when the service's name is not a valid policy name."""
    try:
        return validate_name(document.service)
    except InputFileError:
        return f"doc-{document.doc_id}"


def _rows(engine: Assistant, document: CorpusDocument, version: PolicyVersion, row: dict) -> DocumentRows:
    store = engine.store
    sentences = store.sentences(version.id)
    vectors = store.load_index(version).vectors()
    profile = engine.profile(version)
    text = " ".join(s.text for s in sentences)
    row.update(language=version.language, sentences=len(sentences), words=len(_WORD.findall(text)),
               reading_grade=reading_grade(sentences),
               kept_ratio=(round(version.kept_words / version.visible_words, 4)
                           if version.kept_words is not None and version.visible_words else None))
    return DocumentRows(row, sentence_rows(document.doc_id, sentences, vectors),
                        [{"doc_id": document.doc_id, **s.to_dict()} for s in policy_graph(sentences)],
                        [profile_row(document, profile)])


def sentence_rows(doc_id: str, sentences: list[Sentence], vectors: np.ndarray) -> list[dict]:
    return [{"doc_id": doc_id, "ordinal": s.ordinal, "text": s.text, "section": s.section, "start": s.start,
             "end": s.end, "categories": list(s.categories),
             "practice_scores": json.dumps(s.practice_scores, sort_keys=True),
             "facts": json.dumps(s.facts.to_dict()) if s.facts else None,
             "vector": vector.astype(np.float32).tolist()}
            for s, vector in zip(sentences, vectors, strict=True)]


def profile_row(document: CorpusDocument, profile: PolicyProfile) -> dict:
    """One row per policy, a column group per facet: FACET.verdict, .headline, .quote, .sentence, .value."""
    row: dict = {"doc_id": document.doc_id, "service": document.service, "date": document.date,
                 "rules": profile.rules}
    for facet in profile.facets:
        row.update({f"{facet.facet}.verdict": facet.verdict, f"{facet.facet}.headline": facet.headline,
                    f"{facet.facet}.quote": facet.quote, f"{facet.facet}.sentence": facet.sentence_id,
                    f"{facet.facet}.value": facet.value})
    return row


def write_batch(out: Path, documents: list[CorpusDocument], results: list[DocumentRows]) -> str:
    """Write a batch's part of every table, documents last (the commit); the part's name."""
    part = "part-" + hashlib.sha256(",".join(d.doc_id for d in documents).encode()).hexdigest()[:16]
    write_part(out, "sentences", part, [s for r in results for s in r.sentences])
    write_part(out, "statements", part, [s for r in results for s in r.statements])
    write_part(out, "profiles", part, [p for r in results for p in r.profile])
    write_part(out, "documents", part, [r.document for r in results])
    return part


@cache
def _hyphenator() -> pyphen.Pyphen:
    return pyphen.Pyphen(lang="en_US")


def reading_grade(sentences: list[Sentence]) -> float | None:
    """The Flesch–Kincaid grade level (0.39 words/sentence + 11.8 syllables/word − 15.59), syllables counted by
    pyphen's hyphenation points (a dictionary in the package, no download)."""
    words = [w for s in sentences for w in _WORD.findall(s.text)]
    if not words or not sentences:
        return None
    syllables = sum(len(_hyphenator().positions(w.lower())) + 1 for w in words)
    return round(0.39 * len(words) / len(sentences) + 11.8 * syllables / len(words) - 15.59, 2)


def _one_line(error: BaseException) -> str:
    return " ".join(str(error).split())[:500]
