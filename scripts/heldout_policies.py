"""Rebuild a held-out answers set's policies (data/SET/policies/): current privacy policies published in
public git repositories (by their owners, or archived by Open Terms Archive), each pinned to a
repository, commit and path in data/SET/policies.tsv.

    python scripts/heldout_policies.py --mirrors DIR                 # first set, from git copies DIR/OWNER+NAME/repo
    python scripts/heldout_policies.py --set heldout2 --download     # second set, from github.com
    python scripts/heldout_policies.py --set heldout3 --mirrors DIR  # third set
    python scripts/heldout_policies.py --set heldout4 --mirrors DIR  # fourth set
    python scripts/heldout_policies.py --set heldout5 --mirrors DIR  # fifth set
    python scripts/heldout_policies.py --set heldout6 --mirrors DIR  # sixth set
    python scripts/heldout_policies.py --set heldout7 --mirrors DIR  # seventh set
    python scripts/heldout_policies.py --set heldout8 --mirrors DIR  # eighth set
    python scripts/heldout_policies.py --set heldout9 --mirrors DIR  # ninth set
    python scripts/heldout_policies.py --set heldout10 --mirrors DIR # tenth set
    python scripts/heldout_policies.py --set heldout11 --mirrors DIR # eleventh set
    python scripts/heldout_policies.py --set heldout12 --mirrors DIR # twelfth set

The files are the published texts, written byte for byte; the folder is ignored by git (the documents
are not ours to redistribute). Only the questions (assistant/evaluation/data/answers_SET.jsonl) are in
the repository; score them with

    assistant eval answers --data assistant/evaluation/data/answers_heldout.jsonl --policies data/heldout/policies
    assistant eval answers --data assistant/evaluation/data/answers_heldout2.jsonl --policies data/heldout2/policies
    assistant eval answers --data assistant/evaluation/data/answers_heldout3.jsonl --policies data/heldout3/policies
    assistant eval answers --data assistant/evaluation/data/answers_heldout4.jsonl --policies data/heldout4/policies
    assistant eval answers --data assistant/evaluation/data/answers_heldout5.jsonl --policies data/heldout5/policies
    assistant eval answers --data assistant/evaluation/data/answers_heldout6.jsonl --policies data/heldout6/policies
    assistant eval answers --data assistant/evaluation/data/answers_heldout7.jsonl --policies data/heldout7/policies
    assistant eval answers --data assistant/evaluation/data/answers_heldout8.jsonl --policies data/heldout8/policies
    assistant eval answers --data assistant/evaluation/data/answers_heldout9.jsonl --policies data/heldout9/policies
    assistant eval answers --data assistant/evaluation/data/answers_heldout10.jsonl --policies data/heldout10/policies
    assistant eval answers --data assistant/evaluation/data/answers_heldout11.jsonl --policies data/heldout11/policies
    assistant eval answers --data assistant/evaluation/data/answers_heldout12.jsonl --policies data/heldout12/policies
"""
from __future__ import annotations

import argparse
import hashlib
import subprocess
import sys
import urllib.error
from pathlib import Path

from pinned_sources import add_source_options, read_pinned, read_tsv

DATA = Path(__file__).resolve().parent.parent / "data"
SETS = ("heldout", "heldout2", "heldout3", "heldout4", "heldout5", "heldout6", "heldout7", "heldout8",
        "heldout9", "heldout10", "heldout11", "heldout12")
FOLDER = DATA / "heldout"


def read_index(folder: Path = FOLDER) -> list[dict[str, str]]:
    """The pinned policies: file, organisation, repository, commit, path, last_changed (and, from the second
    set on, sha256: the file's digest, checked after each rebuild)."""
    return read_tsv(folder / "policies.tsv")


def fetch(row: dict[str, str], mirrors: Path | None) -> bytes:
    """One pinned policy's bytes; a one-line error when it cannot be read or is not the pinned text."""
    source = f"{row['repository']}@{row['commit'][:10]}:{row['path']}"
    try:
        data = read_pinned(row["repository"], row["commit"], row["path"], mirrors)
    except subprocess.CalledProcessError as error:
        raise SystemExit(f"{source}: not readable from {mirrors} ({error.stderr.decode(errors='replace').strip()})")
    except (urllib.error.URLError, OSError) as error:
        raise SystemExit(f"{source}: not downloadable ({error})")
    expected = row.get("sha256")
    if expected and hashlib.sha256(data).hexdigest() != expected:
        raise SystemExit(f"{source}: sha256 differs from the pinned one; the file was not written")
    return data


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_source_options(parser)
    parser.add_argument("--set", choices=SETS, default="heldout", help="which held-out set (default: heldout)")
    parser.add_argument("--folder", type=Path, help="the set's folder (default: data/SET)")
    args = parser.parse_args()
    args.folder = args.folder or DATA / args.set
    rows = read_index(args.folder)
    for row in rows:
        destination = args.folder / "policies" / row["file"]
        destination.parent.mkdir(parents=True, exist_ok=True)
        destination.write_bytes(fetch(row, args.mirrors))
    print(f"{len(rows)} policies written under {args.folder / 'policies'}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
