"""Small policies of our own, written out and ingested for a test: the shared step of the answering tests."""
from __future__ import annotations

from pathlib import Path


def ingested(assistant, tmp_path: Path, name: str, text: str):
    """`assistant` with `text` stored as the policy `name` (screening skipped: the text is ours)."""
    path = tmp_path / f"{name}.md"
    path.write_text(text)
    assistant.ingest(path, name=name, force=True)
    return assistant
