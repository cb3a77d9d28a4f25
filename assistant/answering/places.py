"""Answers to "where is my data stored / sent?": the countries and regions the candidate sentences name and the
safeguards they name for sending data abroad (standard contractual clauses, adequacy decisions, the Data Privacy
Framework …), each in the policy's words with its sentence. The names are data (`lang/concepts.toml`, kinds
`place` and `safeguard`)."""
from __future__ import annotations

from dataclasses import dataclass

from assistant.answering.ranking import EvidenceRanking
from assistant.understanding.concepts import PLACE, SAFEGUARD, Vocabulary, vocabulary

DEPTH = 12  # the best-ranked candidates read for any place named (further down: only where data is stored or sent)
MAX_SENTENCES = 3  # sentences quoted at most
MAX_NAMED = 6  # places (and safeguards) named in a headline at most


@dataclass(frozen=True)
class Places:
    positions: tuple[int, ...]  # the sentences quoted, best first
    headline: str


def find_places(ranking: EvidenceRanking, words: Vocabulary | None = None) -> Places | None:
    """The places and safeguards the best candidates name, or None when none names one."""
    words = words or vocabulary()
    places: dict[str, int] = {}  # the policy's words for a place → the sentence naming it first
    safeguards: dict[str, int] = {}
    quoted: list[int] = []
    for position, scored in enumerate(ranking.ranked):
        if len(quoted) == MAX_SENTENCES:  # every place named is in a quoted sentence
            break
        sentence = scored.sentence
        # a place counts where the sentence speaks of storing or sending data there (not a company's address)
        moving = position < DEPTH or bool(words.actions_in(sentence.text) & {"transfer", "keep"})
        found = False
        for concept in words.concepts.values():
            if concept.kind not in (PLACE, SAFEGUARD) or (concept.kind == PLACE and not moving):
                continue
            into = places if concept.kind == PLACE else safeguards
            for match in concept.matches(sentence.text):
                found = True
                if not any(match.group().lower() == known.lower() for known in into):
                    into[match.group()] = sentence.ordinal
        if found:
            quoted.append(position)
    if not places and not safeguards:
        return None
    policy = ranking.version.name
    parts = []
    if places:
        parts.append("these countries or regions: " + _listed(places))
    if safeguards:
        parts.append("these safeguards for data sent abroad: " + _listed(safeguards))
    return Places(tuple(quoted[:MAX_SENTENCES]), f"The {policy} policy names {'; and '.join(parts)}.")


def _listed(named: dict[str, int]) -> str:
    return ", ".join(f"{name} (sentence {ordinal})" for name, ordinal in list(named.items())[:MAX_NAMED])
