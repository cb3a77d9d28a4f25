"""What a user sets: where the store lives, how large a policy file may be, what a URL's fetch may reach and
the ingest limits.

The evidence-selection parameters are not settings: they are tuned, and ship as a versioned file
beside the weights (`assistant.answering.selection.SelectionParameters`).
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from platformdirs import user_data_dir

from assistant.foundation.errors import AssistantError
from assistant.foundation.limits import IngestLimits
from assistant.foundation.resources import APP_NAME

DEFAULT_MAX_BYTES = 10 * 1024 * 1024
DEFAULT_FETCH_TIMEOUT = 30.0
MAX_QUESTION_CHARS = 1000


@dataclass(frozen=True)
class Settings:
    home: Path  # the store: assistant.sqlite3 and one FAISS index per policy version in indexes/
    max_bytes: int = DEFAULT_MAX_BYTES  # the largest policy file (or fetched page) ingest accepts
    fetch_timeout: float = DEFAULT_FETCH_TIMEOUT  # seconds a policy URL's whole fetch may take
    limits: IngestLimits = field(default_factory=IngestLimits)  # what one ingest may cost
    allow_private: bool = False  # whether a URL may lead to a loopback, private or link-local address

    @classmethod
    def from_env(cls) -> Settings:
        """`ASSISTANT_HOME` (default: the per-user data directory), `ASSISTANT_MAX_BYTES`,
        `ASSISTANT_FETCH_TIMEOUT`, `ASSISTANT_ALLOW_PRIVATE` (1: a URL may lead to this machine or a private
        network; default 0) and the ingest limits `ASSISTANT_MAX_SENTENCES`, `ASSISTANT_MAX_HTML_DEPTH`,
        `ASSISTANT_MAX_PARAGRAPH_CHARS` and `ASSISTANT_INGEST_SECONDS`."""
        home = Path(os.environ.get("ASSISTANT_HOME") or user_data_dir(APP_NAME, appauthor=False))
        defaults = IngestLimits()
        limits = IngestLimits(
            max_sentences=_env_int("ASSISTANT_MAX_SENTENCES", defaults.max_sentences),
            max_html_depth=_env_int("ASSISTANT_MAX_HTML_DEPTH", defaults.max_html_depth),
            max_paragraph_chars=_env_int("ASSISTANT_MAX_PARAGRAPH_CHARS", defaults.max_paragraph_chars),
            max_seconds=_env_number("ASSISTANT_INGEST_SECONDS", defaults.max_seconds),
        )
        return cls(home=home.expanduser(), max_bytes=_env_int("ASSISTANT_MAX_BYTES", DEFAULT_MAX_BYTES),
                   fetch_timeout=_env_number("ASSISTANT_FETCH_TIMEOUT", DEFAULT_FETCH_TIMEOUT),
                   allow_private=_env_switch("ASSISTANT_ALLOW_PRIVATE"), limits=limits)


def _env_switch(name: str) -> bool:
    """An on/off setting: 1 is on; unset, empty or 0 is off."""
    raw = os.environ.get(name, "").strip()
    if raw not in ("", "0", "1"):
        raise AssistantError(f"{name}={raw!r} must be 1 (on) or 0 (off).")
    return raw == "1"


def _env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise AssistantError(f"{name}={raw!r} is not a valid int.") from None
    if value <= 0:
        raise AssistantError(f"{name}={raw!r} must be a positive number.")
    return value


def _env_number(name: str, default: float) -> float:
    raw = os.environ.get(name)
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise AssistantError(f"{name}={raw!r} is not a valid number.") from None
    if not value > 0:  # also refuses nan
        raise AssistantError(f"{name}={raw!r} must be a positive number.")
    return value
