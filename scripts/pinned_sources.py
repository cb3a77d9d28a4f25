"""One file of a public repository at a pinned commit: from a local git copy or from github.com.
Shared by the corpus scripts (screening_corpus.py, webpage_corpus.py, heldout_policies.py), with their
index reader and the first two's `--mirrors | --download` options (heldout_policies.py also reads the mirrors
folder from ASSISTANT_MIRRORS). No folder of git copies is assumed: the caller names it."""
from __future__ import annotations

import argparse
import csv
import subprocess
import urllib.parse
import urllib.request
from pathlib import Path


def read_tsv(path: Path) -> list[dict[str, str]]:
    """A corpus index: one row per file, tab-separated, with a header line."""
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle, delimiter="\t"))


def add_source_options(parser: argparse.ArgumentParser) -> None:
    """`--mirrors DIR` (local git copies) or `--download` (github.com): where the pinned files come from."""
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--mirrors", type=Path, help="folder of git copies named OWNER+NAME/repo")
    source.add_argument("--download", action="store_true", help="fetch each file from github.com")


def read_pinned(repository: str, commit: str, path: str, mirrors: Path | None = None) -> bytes:
    """`path` of `repository` (OWNER/NAME) at `commit`, byte for byte: from `mirrors`/OWNER+NAME/repo
    when given, else downloaded from github.com."""
    if mirrors is not None:
        git_dir = mirrors / repository.replace("/", "+") / "repo"
        return subprocess.run(["git", "-C", str(git_dir), "show", f"{commit}:{path}"],
                              capture_output=True, check=True).stdout
    url = f"https://github.com/{repository}/raw/{commit}/{urllib.parse.quote(path)}"
    with urllib.request.urlopen(url, timeout=60) as response:
        return response.read()
