"""Rebuild the web-page corpus (data/webpages/pages.tsv): real privacy-policy pages as served, 2023-2026.

    python scripts/webpage_corpus.py --mirrors DIR   # from local git copies: DIR/OWNER+NAME/repo
    python scripts/webpage_corpus.py --download      # from github.com, at the pinned commits

Each page is the HTML that Open Terms Archive's robots downloaded (its *-snapshots repositories), written
byte for byte under data/webpages/pages/; next to it, under data/webpages/gold/, the Markdown that Open Terms
Archive extracted from that same snapshot with the hand-written selectors of its declarations (its
*-versions repositories): the policy's own text, used as the reference by scripts/webpage_measure.py.
Both folders are ignored by git (ODC-BY 1.0 data, redistributable with attribution, but kept out of the
repository like the screening corpus; see data/webpages/SOURCES.md).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from pinned_sources import add_source_options, read_pinned, read_tsv

CORPUS = Path(__file__).resolve().parent.parent / "data" / "webpages"


def read_index(corpus: Path = CORPUS) -> list[dict[str, str]]:
    """The corpus's rows: file, gold, organisation, captured, and where each file comes from."""
    return read_tsv(corpus / "pages.tsv")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_source_options(parser)
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    args = parser.parse_args()
    rows = read_index(args.corpus)
    for row in rows:
        for target, repository, commit, path in (
                (row["file"], row["repository"], row["commit"], row["path"]),
                (row["gold"], row["gold_repository"], row["gold_commit"], row["gold_path"])):
            content = read_pinned(repository, commit, path, args.mirrors)
            destination = args.corpus / target
            destination.parent.mkdir(parents=True, exist_ok=True)
            destination.write_bytes(content)
    print(f"{len(rows)} pages and their reference texts written under {args.corpus}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
