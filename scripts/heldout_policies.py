"""Rebuild an answers set's policies (sets/answers/NAME/policies/): current privacy policies published in public git
repositories (by their owners, or archived by Open Terms Archive), each pinned to a repository, commit, path and
sha256 in the set's policies.tsv.

    python scripts/heldout_policies.py --set heldout12 --mirrors DIR   # from git copies DIR/OWNER+NAME/repo
    python scripts/heldout_policies.py --all --mirrors DIR             # every set with pinned policies
    python scripts/heldout_policies.py --set heldout2 --download       # from github.com
    ASSISTANT_MIRRORS=DIR python scripts/heldout_policies.py --all     # the git copies named by the environment

The files are the published texts, written byte for byte; the folder is ignored by git (the documents are not ours
to redistribute). The dev set's policies are OPP-115's, read from the bundled corpus: nothing to rebuild. Score a
set with

    assistant eval answers --set heldout12
"""
from __future__ import annotations

import argparse
import hashlib
import os
import subprocess
import sys
import urllib.error
from pathlib import Path

from pinned_sources import read_pinned, read_tsv

MIRRORS_ENV = "ASSISTANT_MIRRORS"


def read_index(folder: Path) -> list[dict[str, str]]:
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


def rebuild(folder: Path, mirrors: Path | None) -> int:
    """Write the pinned policies of the set in `folder` into `folder`/policies/; how many."""
    rows = read_index(folder)
    for row in rows:
        destination = folder / "policies" / row["file"]
        destination.parent.mkdir(parents=True, exist_ok=True)
        destination.write_bytes(fetch(row, mirrors))
    return len(rows)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--set", dest="name", help="the answers set (sets/answers/NAME/)")
    which.add_argument("--all", action="store_true", help="every set whose policies are pinned files")
    which.add_argument("--folder", type=Path, help="a set's folder given by path (holding its policies.tsv)")
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--mirrors", type=Path, help=f"folder of git copies named OWNER+NAME/repo "
                                                     f"(default: ${MIRRORS_ENV})")
    source.add_argument("--download", action="store_true", help="fetch each file from github.com")
    args = parser.parse_args()
    mirrors = args.mirrors or (Path(os.environ[MIRRORS_ENV]) if os.environ.get(MIRRORS_ENV) else None)
    if mirrors is None and not args.download:
        parser.error(f"say where the files come from: --mirrors DIR, ${MIRRORS_ENV}, or --download")
    if args.folder is not None:
        folders = [args.folder]
    else:
        from assistant.evaluation.sets import all_sets, find_set  # the one place that knows where sets live
        from assistant.foundation.errors import AssistantError

        try:
            sets = all_sets() if args.all else [find_set(args.name)]
        except AssistantError as error:
            raise SystemExit(str(error)) from None
        for answers_set in sets:
            if answers_set.corpus is not None:
                print(f"{answers_set.name}: its policies are {answers_set.corpus}'s, read from the bundled corpus; "
                      "nothing to rebuild", file=sys.stderr)
        folders = [s.folder for s in sets if s.corpus is None]
    for folder in folders:
        count = rebuild(folder, None if args.download else mirrors)
        print(f"{count} policies written under {folder / 'policies'}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
