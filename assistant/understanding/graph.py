"""A policy graph in the manner of PoliGraph and PolicyLint: each sentence's statement about your data as a tuple —
actions (collect, use, share, sell, keep, transfer, protect), the kinds of data, recipients and purposes it names,
its polarity (does / does not), its condition (only with your consent, only in some cases) and its scope (whom or
where it applies to) — read from the stored sentences by the concept vocabulary (`lang/concepts.toml`) and the
sentence readers (`understanding.statements`).

A sentence is a statement when it names a kind of data, a recipient or a purpose, and an action (in its words or
its section heading's: "Information we collect" makes a list item a statement of collection)."""
from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from assistant.foundation.types import Sentence
from assistant.understanding.concepts import ACTION, DATA, PURPOSE, RECIPIENT, Vocabulary, vocabulary
from assistant.understanding.statements import CONDITIONAL, denied, on_consent, scope_of, stance

DOES, DOES_NOT = "does", "does not"


@dataclass(frozen=True)
class Statement:
    """What one sentence states about your data."""

    sentence_id: int
    actions: tuple[str, ...]  # collect, use, share, sell, keep, transfer, protect
    data: tuple[str, ...]  # concept names (`lang/concepts.toml`)
    recipients: tuple[str, ...]
    purposes: tuple[str, ...]
    polarity: str  # does | does not
    condition: str  # "" | "with your consent" | "in some cases"
    scope: str  # "" or whom it applies to, in the sentence's words ("California residents")
    text: str  # the sentence, verbatim

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def statement(sentence: Sentence, words: Vocabulary | None = None) -> Statement | None:
    """The sentence's statement, or None when it names no data, recipient or purpose, or no action."""
    words = words or vocabulary()
    named = {kind: tuple(words.named_in(sentence.text, (kind,))) for kind in (DATA, RECIPIENT, PURPOSE)}
    if not any(named.values()):
        return None
    actions = words.actions_in(sentence.text) or words.actions_in(sentence.section)
    if not actions:
        return None
    negative = denied(sentence.facts, sentence.text)
    condition = ("with your consent" if on_consent(sentence.text)
                 else "in some cases" if stance(sentence, None) == CONDITIONAL else "")
    order = [c.name for c in words.concepts.values() if c.kind == ACTION]
    return Statement(sentence.ordinal, tuple(a for a in order if a in actions), named[DATA], named[RECIPIENT],
                     named[PURPOSE], DOES_NOT if negative else DOES, condition, scope_of(sentence.text) or "",
                     sentence.text)


def policy_graph(sentences: list[Sentence]) -> list[Statement]:
    """Every statement of a policy version, in sentence order."""
    words = vocabulary()
    return [s for s in (statement(sentence, words) for sentence in sentences) if s is not None]
