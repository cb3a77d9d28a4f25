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
MAX_QUESTION_CHARS = 1000


@dataclass(frozen=True)
class Settings:
    home: Path  # the store: assistant.sqlite3 and one FAISS index per policy version in indexes/
    max_bytes: int = DEFAULT_MAX_BYTES  # the largest policy file ingest accepts

    @classmethod
    def from_env(cls) -> Settings:
        """`ASSISTANT_HOME` (default: the per-user data directory) and `ASSISTANT_MAX_BYTES`."""
        home = Path(os.environ.get("ASSISTANT_HOME") or user_data_dir(APP_NAME, appauthor=False))
        return cls(home=home.expanduser(), max_bytes=_env_int("ASSISTANT_MAX_BYTES", DEFAULT_MAX_BYTES))


def _env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if not raw:
        return default
    try:
        return int(raw)
    except ValueError:
        raise AssistantError(f"{name}={raw!r} is not a valid int.") from None
