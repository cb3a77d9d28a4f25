"""One file of a public repository at a pinned commit: from a local git copy or from github.com.
Shared by the corpus scripts (screening_corpus.py, webpage_corpus.py)."""
from __future__ import annotations

import subprocess
import urllib.parse
import urllib.request
from pathlib import Path


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
