"""Ingest limits: what a hostile or broken file may cost before it is refused, and the time budget.

The defaults accept every real policy comfortably: the longest real policies have a few thousand
sentences, a nesting depth in the tens and paragraphs of a few thousand characters.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

from assistant.foundation.errors import IngestLimitError

DEFAULT_MAX_SENTENCES = 10_000
# Blink stops nesting HTML elements at 512 levels; lexbor's tree builder slows down quadratically with depth.
DEFAULT_MAX_HTML_DEPTH = 512
# A longer paragraph is cut (at a sentence end, else at whitespace) into pieces the splitter handles
# in linear total time; no sentence is longer. The longest real paragraphs have ~2,000 characters.
DEFAULT_MAX_PARAGRAPH_CHARS = 2_000
DEFAULT_INGEST_SECONDS = 1_800.0  # a 10,000-sentence policy takes ~15 minutes to tag on 2 CPU cores


@dataclass(frozen=True)
class IngestLimits:
    """The limits one ingest runs under (`Settings.limits`; environment variables in README)."""

    max_sentences: int = DEFAULT_MAX_SENTENCES  # ASSISTANT_MAX_SENTENCES
    max_html_depth: int = DEFAULT_MAX_HTML_DEPTH  # ASSISTANT_MAX_HTML_DEPTH
    max_paragraph_chars: int = DEFAULT_MAX_PARAGRAPH_CHARS  # ASSISTANT_MAX_PARAGRAPH_CHARS
    max_seconds: float = DEFAULT_INGEST_SECONDS  # ASSISTANT_INGEST_SECONDS


class Deadline:
    """The ingest time budget, checked between stages and batches: `check` raises once it is spent."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self._ends = time.monotonic() + seconds

    def check(self, stage: str) -> None:
        """Raise `IngestLimitError` if the budget is spent; `stage` says what was being done."""
        if time.monotonic() > self._ends:
            raise IngestLimitError(
                f"Ingest stopped after its {self.seconds:g}-second time budget ran out while {stage}; "
                "nothing was stored (raise the budget with the ASSISTANT_INGEST_SECONDS environment variable)."
            )
