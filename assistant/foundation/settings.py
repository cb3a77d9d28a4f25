"""What a user sets: where the store lives and how large a policy file may be.

The evidence-selection parameters are not settings: they are tuned, and ship as a versioned file
beside the weights (`assistant.answering.selection.SelectionParameters`).
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from platformdirs import user_data_dir

from assistant.foundation.errors import AssistantError
from assistant.foundation.resources import APP_NAME

DEFAULT_MAX_BYTES = 10 * 1024 * 1024
DEFAULT_FETCH_TIMEOUT = 30.0
MAX_QUESTION_CHARS = 1000


@dataclass(frozen=True)
class Settings:
    home: Path  # the store: assistant.sqlite3 and one FAISS index per policy version in indexes/
    max_bytes: int = DEFAULT_MAX_BYTES  # the largest policy file (or fetched page) ingest accepts
    fetch_timeout: float = DEFAULT_FETCH_TIMEOUT  # seconds a policy URL's whole fetch may take

    @classmethod
    def from_env(cls) -> Settings:
        """`ASSISTANT_HOME` (default: the per-user data directory), `ASSISTANT_MAX_BYTES` and
        `ASSISTANT_FETCH_TIMEOUT`."""
        home = Path(os.environ.get("ASSISTANT_HOME") or user_data_dir(APP_NAME, appauthor=False))
        return cls(home=home.expanduser(), max_bytes=_env_int("ASSISTANT_MAX_BYTES", DEFAULT_MAX_BYTES),
                   fetch_timeout=_env_float("ASSISTANT_FETCH_TIMEOUT", DEFAULT_FETCH_TIMEOUT))


def _env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if not raw:
        return default
    try:
        return int(raw)
    except ValueError:
        raise AssistantError(f"{name}={raw!r} is not a valid int.") from None


def _env_float(name: str, default: float) -> float:
    raw = os.environ.get(name)
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise AssistantError(f"{name}={raw!r} is not a number.") from None
    if not value > 0:
        raise AssistantError(f"{name}={raw!r} must be a positive number of seconds.")
    return value
