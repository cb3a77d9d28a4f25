"""Rebuild the held-out answers set's policies (data/heldout/policies/): current privacy policies that
their owners publish in public git repositories, each pinned to a repository, commit and path in
data/heldout/policies.tsv.

    python scripts/heldout_policies.py --mirrors DIR   # from local git copies: DIR/OWNER+NAME/repo
    python scripts/heldout_policies.py --download      # from github.com, at the pinned commits

The files are the owners' texts, written byte for byte; the folder is ignored by git (the documents are
not ours to redistribute). Only the questions (assistant/evaluation/data/answers_heldout.jsonl) are in
the repository; score them with

    assistant eval answers --data assistant/evaluation/data/answers_heldout.jsonl --policies data/heldout/policies
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from pinned_sources import add_source_options, read_pinned, read_tsv

FOLDER = Path(__file__).resolve().parent.parent / "data" / "heldout"


def read_index(folder: Path = FOLDER) -> list[dict[str, str]]:
    """The pinned policies: file, organisation, repository, commit, path, last_changed."""
    return read_tsv(folder / "policies.tsv")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_source_options(parser)
    parser.add_argument("--folder", type=Path, default=FOLDER)
    args = parser.parse_args()
    rows = read_index(args.folder)
    for row in rows:
        destination = args.folder / "policies" / row["file"]
        destination.parent.mkdir(parents=True, exist_ok=True)
        destination.write_bytes(read_pinned(row["repository"], row["commit"], row["path"], args.mirrors))
    print(f"{len(rows)} policies written under {args.folder / 'policies'}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
