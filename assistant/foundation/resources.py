"""Where the assistant's files are: what ships inside the package (weights, corpora, word lists) and
the writable folders for extracted corpora and training checkpoints.

Shipped files are found through package resources, so a wheel install works like a checkout.
`ASSISTANT_CACHE` (default: the per-user cache directory) holds the extracted corpora;
`ASSISTANT_TRAIN_DIR` (default: `.train` in the working directory) holds resumable training
checkpoints.
"""
from __future__ import annotations

import os
from importlib.resources import files
from pathlib import Path

from platformdirs import user_cache_dir

APP_NAME = "privacy-assistant"


def package_path(*parts: str) -> Path:
    """A file or folder shipped inside the `assistant` package (installed as plain files)."""
    return Path(str(files("assistant").joinpath(*parts)))


WEIGHTS_DIR = package_path("weights")


def cache_dir() -> Path:
    """Writable folder for files derived from shipped ones (extracted corpora)."""
    return Path(os.environ.get("ASSISTANT_CACHE") or user_cache_dir(APP_NAME, appauthor=False)).expanduser()


def checkpoint_dir(model: str) -> Path:
    """Where `assistant train MODEL` keeps its resumable checkpoints."""
    return Path(os.environ.get("ASSISTANT_TRAIN_DIR") or ".train").expanduser() / model
