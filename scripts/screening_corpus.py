"""Rebuild the screening corpus's documents from their public sources (data/screening/documents.tsv).

    python scripts/screening_corpus.py --mirrors DIR   # from local git copies: DIR/OWNER+NAME/repo
    python scripts/screening_corpus.py --download      # from github.com, at the pinned commits

Each document is written byte for byte as its repository holds it at the pinned commit, under
data/screening/documents/ (ignored by git: most licences do not allow redistribution here; see
data/screening/SOURCES.md). The pages written for the corpus (data/screening/written/) need nothing.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from pinned_sources import add_source_options, read_pinned, read_tsv

CORPUS = Path(__file__).resolve().parent.parent / "data" / "screening"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_source_options(parser)
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    args = parser.parse_args()
    rows = [row for row in read_tsv(args.corpus / "documents.tsv") if row["repository"]]
    for row in rows:
        target = args.corpus / row["file"]
        content = read_pinned(row["repository"], row["commit"], row["path"], args.mirrors)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(content)
    print(f"{len(rows)} documents written under {args.corpus / 'documents'}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
