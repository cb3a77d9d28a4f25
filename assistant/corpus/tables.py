"""A corpus's Parquet tables and how they are written so that a run can be killed at any moment and resumed.

    DIR/documents/   one row per document: source, service, date, status (ok | refused | error), the error or
                     refusal, language, kept-text ratio, sentences, words, reading grade, seconds
    DIR/sentences/   one row per sentence: text, section, offsets, practices and their scores, PolicyIE facts, vector
    DIR/statements/  the policy graph: one row per statement (`understanding.graph`)
    DIR/profiles/    one row per policy: for each facet, its verdict, headline, quote, sentence and value

Each batch of documents is one part file in each table, named after the batch. A part is written to a temporary
name and renamed, and the documents part is written last: it is the batch's commit. A part of another table
with no documents part beside it (a batch killed before its commit) is removed when the next run starts, and
its documents are done again."""
from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

TABLES = ("sentences", "statements", "profiles", "documents")  # the order a batch writes them in: documents last
COMMIT_TABLE = "documents"
OK, REFUSED, ERROR = "ok", "refused", "error"


def part_path(out: Path, table: str, part: str) -> Path:
    return out / table / f"{part}.parquet"


def write_part(out: Path, table: str, part: str, rows: list[dict]) -> None:
    """Write one batch's rows of `table` atomically (a temporary file renamed over the part)."""
    path = part_path(out, table, part)
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    pq.write_table(_typed(pa.Table.from_pylist(rows)) if rows else pa.table({"doc_id": pa.array([], pa.string())}),
                   temporary)
    os.replace(temporary, path)


def _typed(table: pa.Table) -> pa.Table:
    """Vectors as fixed-size float32 lists (half the size of the doubles Python's floats become)."""
    if "vector" not in table.column_names:
        return table
    dimension = len(table.column("vector")[0])
    column = table.column("vector").cast(pa.list_(pa.float32(), dimension))
    return table.set_column(table.column_names.index("vector"), "vector", column)


def committed_parts(out: Path) -> set[str]:
    folder = out / COMMIT_TABLE
    return {path.stem for path in folder.glob("*.parquet")} if folder.is_dir() else set()


def remove_uncommitted(out: Path) -> int:
    """Remove the parts and temporary files of batches that never wrote their documents part; how many."""
    committed = committed_parts(out)
    removed = 0
    for table in TABLES:
        folder = out / table
        if not folder.is_dir():
            continue
        for path in folder.iterdir():
            if path.name.startswith(".") and path.name.endswith(".tmp") or (
                    path.suffix == ".parquet" and path.stem not in committed):
                path.unlink()
                removed += 1
    return removed


def finished_ids(out: Path) -> set[str]:
    """The documents a committed batch holds (whatever their status: an error is recorded, not retried)."""
    table = read_table(out, COMMIT_TABLE, columns=["doc_id"])
    return set(table.column("doc_id").to_pylist()) if table is not None else set()


def iter_parts(out: Path, table: str, columns: list[str] | None = None) -> Iterator[pa.Table]:
    """The committed parts of one table with rows, in part-name order, one at a time."""
    committed = committed_parts(out)
    paths = sorted(p for p in (out / table).glob("*.parquet") if p.stem in committed) if (out / table).is_dir() else []
    for path in paths:
        if pq.read_metadata(path).num_rows:
            yield pq.read_table(path, columns=columns)


def read_table(out: Path, table: str, columns: list[str] | None = None) -> pa.Table | None:
    """One table of the corpus, every committed part in part-name order; None when it has none."""
    tables = list(iter_parts(out, table, columns))
    return pa.concat_tables(tables, promote_options="permissive") if tables else None
