"""What this process's writes committed to a store, in words: the message after an interruption.

A Ctrl-C can arrive at any instant, also as SQLite's COMMIT returns. Whether the store changed is then
decided by SQLite alone (`Store._transaction` records a write once SQLite says it is committed), never
guessed from where the interruption landed. Light on purpose: every CLI command imports it.
"""
from __future__ import annotations


class CommitLog:
    """The user-visible writes this process committed ("amazon stored as version 2"), in order."""

    def __init__(self) -> None:
        self.entries: list[str] = []

    def record(self, what: str) -> None:
        self.entries.append(what)

    def interruption_message(self) -> str:
        """What an interrupted command says happened to the store."""
        if not self.entries:
            return "interrupted; the store is unchanged."
        return f"interrupted after the store was changed: {'; '.join(self.entries)} (kept)."


COMMITS = CommitLog()
