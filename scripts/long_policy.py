"""A long policy made of real policy text, for the benchmarks: the bundled examples, then OPP-115's
sanitized policies, each section under a distinct heading ("amazon.com: Cookies"), until `words` words."""
from __future__ import annotations

from pathlib import Path

from assistant.corpora import corpus_dir
from assistant.ingest.parsing import load_document

ROOT = Path(__file__).resolve().parent.parent


def sources() -> list[Path]:
    return (sorted((ROOT / "examples" / "policies").glob("*.html"))
            + sorted((corpus_dir("opp115") / "sanitized_policies").glob("*.html")))


def write_long_policy(path: Path, words: int) -> int:
    """Write a Markdown policy of at least `words` words to `path`; returns its word count."""
    lines, count = [], 0
    for source in sources():
        heading = None
        for block in load_document(source, 10 * 1024 * 1024).blocks:
            if block.is_heading:
                continue
            section = f"{source.stem}: {' > '.join(block.section_path) or 'Introduction'}"
            if section != heading:
                lines.append(f"\n## {section}\n")
                heading = section
            lines.append(block.text + "\n")
            count += len(block.text.split())
            if count >= words:
                path.write_text("\n".join(lines), encoding="utf-8")
                return count
    raise SystemExit(f"only {count} words of policy text available")
