"""Settings read from the environment, with documented defaults."""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from platformdirs import user_data_dir

from assistant.errors import AssistantError

DEFAULT_MAX_BYTES = 10 * 1024 * 1024
MAX_QUESTION_CHARS = 1000

# Cross-encoder probability (sigmoid of the MS MARCO MiniLM-L-12 logit) below which the best
# evidence is too weak to quote: the answer becomes `answerable: false, reason: policy_silent`.
# Tuned with the other selection settings on the PrivacyQA dev file by scripts/tune_selection.py
# (docs/results.md).
DEFAULT_SILENCE_THRESHOLD = 0.00005

# Evidence beyond the best sentence is kept only when its cross-encoder probability reaches this
# value (at most --top sentences), so the evidence set has a variable size. Tuned with
# scripts/tune_selection.py.
DEFAULT_EVIDENCE_THRESHOLD = 0.0003

# Question categories (OPP-115) predicted with at least this probability steer retrieval: a policy
# with no sentence of those categories is `policy_silent`, and candidate sentences tagged with one
# of them get `category_bonus` added to their cross-encoder logit. Tuned on the PrivacyQA dev file.
DEFAULT_CATEGORY_CONFIDENCE = 0.9
DEFAULT_CATEGORY_BONUS = 5.0

# How many FAISS candidates the cross-encoder rescoring sees.
DEFAULT_CANDIDATES = 30


@dataclass(frozen=True)
class Settings:
    home: Path
    max_bytes: int = DEFAULT_MAX_BYTES
    silence_threshold: float = DEFAULT_SILENCE_THRESHOLD
    evidence_threshold: float = DEFAULT_EVIDENCE_THRESHOLD
    category_confidence: float = DEFAULT_CATEGORY_CONFIDENCE
    category_bonus: float = DEFAULT_CATEGORY_BONUS
    candidates: int = DEFAULT_CANDIDATES

    @property
    def database_path(self) -> Path:
        return self.home / "assistant.sqlite3"

    @property
    def index_dir(self) -> Path:
        return self.home / "indexes"

    @classmethod
    def from_env(cls) -> "Settings":
        """`ASSISTANT_HOME`, `ASSISTANT_MAX_BYTES`, `ASSISTANT_SILENCE_THRESHOLD` and
        `ASSISTANT_EVIDENCE_THRESHOLD` override the defaults."""
        home = Path(os.environ.get("ASSISTANT_HOME") or user_data_dir("privacy-assistant", appauthor=False))
        return cls(
            home=home.expanduser(),
            max_bytes=_env_int("ASSISTANT_MAX_BYTES", DEFAULT_MAX_BYTES),
            silence_threshold=_env_float("ASSISTANT_SILENCE_THRESHOLD", DEFAULT_SILENCE_THRESHOLD),
            evidence_threshold=_env_float("ASSISTANT_EVIDENCE_THRESHOLD", DEFAULT_EVIDENCE_THRESHOLD),
            category_confidence=_env_float("ASSISTANT_CATEGORY_CONFIDENCE", DEFAULT_CATEGORY_CONFIDENCE),
            category_bonus=_env_float("ASSISTANT_CATEGORY_BONUS", DEFAULT_CATEGORY_BONUS),
        )


def _env_int(name: str, default: int) -> int:
    return int(_env_number(name, default, int))


def _env_float(name: str, default: float) -> float:
    return float(_env_number(name, default, float))


def _env_number(name: str, default: float, kind: type) -> float:
    raw = os.environ.get(name)
    if not raw:
        return default
    try:
        return kind(raw)
    except ValueError:
        raise AssistantError(f"{name}={raw!r} is not a valid {kind.__name__}.") from None
