"""Long policies of distinct real text, for tests that need an ingest to take a while."""
from __future__ import annotations

from pathlib import Path

from tests.support.paths import EXAMPLES


def long_policy(folder: Path, words_wanted: int) -> Path:
    """A long policy of distinct real text (100,000 words: about 4,000 sentences): the bundled examples, then
    OPP-115's policies, each section under its own heading. Repeating one text would not do: ingest drops
    repeated sentences."""
    from assistant.corpora import corpus_dir
    from assistant.ingest.parsing import load_document

    sources = sorted(EXAMPLES.glob("*.html")) + sorted((corpus_dir("opp115") / "sanitized_policies").glob("*.html"))
    lines, words = [], 0
    for source in sources:
        for block in load_document(source, 10 * 1024 * 1024).blocks:
            if not block.is_heading:
                lines += [f"\n## {source.stem}: {' > '.join(block.section_path) or 'Introduction'}\n", block.text]
                words += len(block.text.split())
        if words >= words_wanted:
            break
    path = folder / "long.md"
    path.write_text("\n".join(lines), encoding="utf-8")
    return path
