"""The research corpora shipped as `archives/NAME.tar.xz` (see archives/README.md), extracted on first use
into the cache folder (`ASSISTANT_CACHE`)."""
from __future__ import annotations

import os
import shutil
import tarfile
from pathlib import Path

from assistant.foundation.resources import cache_dir, package_path

CORPORA_DIR = package_path("corpora", "archives")
NAMES = ("opp115", "piextract", "policyie", "policyqa", "privacyqa")


def corpus_dir(name: str) -> Path:
    """The extracted folder of a corpus, extracting its archive on first use (atomically)."""
    if name not in NAMES:
        raise ValueError(f"unknown corpus {name!r}; known: {', '.join(NAMES)}")
    extracted = cache_dir() / "corpora"
    target = extracted / name
    if target.is_dir():
        return target
    staging = extracted / f".{name}.{os.getpid()}"
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    with tarfile.open(CORPORA_DIR / f"{name}.tar.xz") as archive:
        archive.extractall(staging, filter="data")
    try:
        os.rename(staging / name, target)
    except OSError:  # another process extracted it first
        if not target.is_dir():
            raise
    shutil.rmtree(staging, ignore_errors=True)
    return target


if __name__ == "__main__":
    for corpus in NAMES:
        print(f"{corpus}: {corpus_dir(corpus)}")
