"""Answers to "what …?" and "who …?" questions about practices — what they collect, with whom they share it, what
they use it for: a deduplicated list of the kinds of data, recipients or purposes the best candidate statements
name (the policy graph's concepts: `understanding.graph`), each in the policy's own words with its sentence, and no
sentence quoted twice."""
from __future__ import annotations

import re
from dataclasses import dataclass

from assistant.answering.ranking import EvidenceRanking
from assistant.understanding.concepts import DATA, PURPOSE, RECIPIENT, Vocabulary, vocabulary
from assistant.understanding.facets import ASKS_CONTROLLER
from assistant.understanding.graph import DOES_NOT, statement

DEPTH = 15  # the best-ranked candidates read
MAX_ITEMS = 8  # items named in a headline at most
MAX_QUOTES = 4  # sentences quoted at most

# What a question lists: recipients ("with whom", "who gets", "which companies"), purposes ("what for", "why",
# "how do you use"), else kinds of data ("what do you collect / share / sell").
_ASKS_RECIPIENTS = re.compile(r"\b(?:who|whom)\b|\b(?:what|which)\s+(?:(?:kinds?|types?|sorts?|categor(?:y|ies))\s+of\s+)?"
                              r"(?:other\s+)?(?:companies|third[- ]part(?:y|ies)|(?:third[- ]party\s+)?(?:service\s+)?"
                              r"providers|partners|organi[sz]ations|parties|vendors|businesses|recipients|advertisers)\b",
                              re.IGNORECASE)
_ASKS_PURPOSES = re.compile(r"\b(?:why|what (?:for|purposes?)|for what|purposes?|how (?:do|does|will) (?:you|they|it|"
                            r"\w+) use)\b|\bfor\W*$", re.IGNORECASE)
_KIND_WORDS = {DATA: "kinds of data", RECIPIENT: "recipients", PURPOSE: "purposes"}


@dataclass(frozen=True)
class Listing:
    positions: tuple[int, ...]  # the sentences quoted, best first
    headline: str


def asked_kind(question: str) -> str:
    """Which concepts a what / who question lists: recipients, purposes or kinds of data."""
    if _ASKS_RECIPIENTS.search(question):
        return RECIPIENT
    return PURPOSE if _ASKS_PURPOSES.search(question) else DATA


def find_listing(ranking: EvidenceRanking, words: Vocabulary | None = None) -> Listing | None:
    """The list for a what / who question from its best candidates' statements (not their denials), or None when
    they name nothing of the asked kind."""
    words = words or vocabulary()
    if ASKS_CONTROLLER.search(ranking.question):
        return None
    kind = asked_kind(ranking.question)
    action = ranking.frame.action
    items: dict[str, tuple[str, int]] = {}  # concept → (the policy's words for it, the sentence naming it first)
    quoted: list[int] = []
    for position, scored in enumerate(ranking.ranked[:DEPTH]):
        found = statement(scored.sentence, words)
        if found is None or found.polarity == DOES_NOT or (
                action is not None and kind == DATA and not words.answers_action(action, set(found.actions))):
            continue
        names = {DATA: found.data, RECIPIENT: found.recipients, PURPOSE: found.purposes}[kind]
        new = [n for n in names if n not in items and not words.concepts[n].generic]
        if not new:
            continue
        if len(quoted) == MAX_QUOTES:  # every item named is in a quoted sentence
            break
        quoted.append(position)
        for name in new:
            match = words.concepts[name].matches(scored.sentence.text)
            items[name] = (match[0].group() if match else words.concepts[name].label, scored.sentence.ordinal)
    if not items:
        return None
    listed = "; ".join(f"{words.concepts[name].label} (“{said}”, sentence {ordinal})"
                       for name, (said, ordinal) in list(items.items())[:MAX_ITEMS])
    more = f" and {len(items) - MAX_ITEMS} more" if len(items) > MAX_ITEMS else ""
    return Listing(tuple(quoted), f"The {ranking.version.name} policy names these {_KIND_WORDS[kind]}: {listed}{more}.")
