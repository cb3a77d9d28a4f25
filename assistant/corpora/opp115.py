"""OPP-115 (Wilson et al., ACL 2016): the 115 sanitized policies, split into segments, and every
annotator's data-practice annotations."""
from __future__ import annotations

import csv
import html
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from assistant.corpora import corpus_dir

_TAG = re.compile(r"<[^>]+>")


def segment_text(raw: str) -> str:
    """An OPP-115 segment as PolicyQA's contexts show it: plain text, single spaces."""
    return " ".join(html.unescape(_TAG.sub(" ", raw)).split())


def opp115_policies() -> dict[str, Path]:
    """OPP-115 policy name (e.g. `ticketmaster.com`, PolicyQA's `title`) → sanitized HTML file."""
    files = sorted((corpus_dir("opp115") / "sanitized_policies").glob("*.html"))
    return {path.stem.split("_", 1)[1]: path for path in files}


@dataclass(frozen=True)
class AnnotationRow:
    """One annotator's practice on one segment, as in OPP-115's annotation files."""

    segment_id: int
    annotator: str
    practice: str
    attributes: dict[str, dict]  # attribute → {"selectedText", "startIndexInSegment", "value", …}

    def highlights(self) -> Iterator[tuple[str, dict, str]]:
        """(attribute, its annotation, the highlighted text with whitespace collapsed) for each
        attribute whose highlight has text and an offset."""
        for attribute, value in self.attributes.items():
            text = " ".join(html.unescape(value.get("selectedText") or "").split())
            if text and text != "null" and value.get("startIndexInSegment", -1) >= 0:
                yield attribute, value, text


def annotated_policy(path: Path) -> tuple[list[str], list[AnnotationRow]]:
    """An OPP-115 policy's segments (as PolicyQA shows them) and its annotation rows."""
    segments = [segment_text(s) for s in path.read_text(encoding="utf-8").split("|||")]
    policy_id = path.stem.split("_", 1)[0]
    (annotation_file,) = (corpus_dir("opp115") / "annotations").glob(f"{policy_id}_*.csv")
    with open(annotation_file, newline="", encoding="utf-8") as handle:
        rows = [AnnotationRow(int(row[4]), row[2], row[5], json.loads(row[6])) for row in csv.reader(handle)]
    return segments, rows
