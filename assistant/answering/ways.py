"""Answers that do the asker's job: for "how do I …" and "how do I contact …" questions, the concrete ways the
policy gives — e-mail addresses, links, phone numbers, settings, forms, postal addresses — quoted and grouped by
channel, before the sentence that states the right.

A way counts when its sentence is the supporting one or itself speaks of the question's facet
(`Facet.addressed_by`; for a question of no known facet, one within `NEAR` sentences of it in the same section): the channels of an unrelated "contact us" far
from the right are not offered as the way to use it, unless the question is about contacting, or the right's
sentence sends you there ("… please contact us"): then the ways in its section or under the policy's contact
heading."""
from __future__ import annotations

import re
from dataclasses import dataclass

from assistant.answering.ranking import CONTACT, EvidenceRanking
from assistant.understanding.channels import Channel, channels_in
from assistant.understanding.facets import Facet

NEAR = 3  # sentences either side of the supporting one whose ways are its ways
MAX_SENTENCES = 3  # way sentences quoted at most
MAX_PER_KIND = 2  # ways of one kind named in a headline at most
# a sentence stating a right that sends you to the policy's contact details, and the section that gives them
_POINTS_TO_CONTACT = re.compile(r"\b(?:contact(?:ing)? us|get in touch|write to us|e-?mail us|reach us|let us know|"
                                r"contact (?:our|the) (?:privacy|support|customer|data protection)|contact \w+ (?:at|using|via|through))\b",
                                re.IGNORECASE)
_CONTACT_SECTION = re.compile(r"\b(?:contact|questions|reach us|get in touch)\b", re.IGNORECASE)
_OFFICER = re.compile(r"\b(?:data protection officer|DPO|privacy officer|grievance officer)\b", re.IGNORECASE)


@dataclass(frozen=True)
class Ways:
    """The way sentences (positions in the ranking, best first) and the headline that names their channels."""

    positions: tuple[int, ...]
    headline: str


def find_ways(ranking: EvidenceRanking, support: int, facet: Facet | None) -> Ways | None:
    """The ways the policy gives for a how-to or contact question whose supporting sentence is `support`; None
    when no candidate sentence near it or about it gives one."""
    ranked = ranking.ranked
    anchor = ranked[support].sentence
    contact = facet is not None and facet.name == CONTACT
    asks_officer = bool(_OFFICER.search(ranking.question))

    def distance(i: int) -> int:
        sentence = ranked[i].sentence
        return abs(sentence.ordinal - anchor.ordinal) if sentence.section == anchor.section else 10 * NEAR

    def relevant(i: int) -> bool:
        sentence = ranked[i].sentence
        if facet is not None:  # a neighbour giving ways for another right ("unsubscribe") is not this one's way
            return i == support or facet.addressed_by(sentence.text)
        return i == support or (abs(sentence.ordinal - anchor.ordinal) <= NEAR and sentence.section == anchor.section)

    with_ways = [i for i in range(len(ranked)) if channels_in(ranked[i].sentence.text) and relevant(i)]
    if support in with_ways:  # the supporting sentence gives ways itself: its neighbours' may be another right's
        with_ways = [i for i in with_ways if i == support or (facet is not None and facet.addressed_by(
            ranked[i].sentence.text))]
    if not with_ways and _POINTS_TO_CONTACT.search(anchor.text):  # "… please contact us": the policy's contact details
        with_ways = [i for i in range(len(ranked)) if channels_in(ranked[i].sentence.text)
                     and (ranked[i].sentence.section == anchor.section
                          or _CONTACT_SECTION.search(ranked[i].sentence.section or ""))]
    if not with_ways:
        return None
    # an officer asked for: the sentences naming one first; then the supporting sentence, its neighbours, the rest
    with_ways.sort(key=lambda i: (asks_officer and not _OFFICER.search(ranked[i].sentence.text), i != support,
                                  distance(i), -ranked[i].selection_logit))
    chosen = tuple(with_ways[:MAX_SENTENCES])
    channels = [c for i in chosen for c in channels_in(ranked[i].sentence.text)]
    cited = ", ".join(str(ranked[i].sentence.ordinal) for i in chosen)
    cited = f"(sentence{'s' if len(chosen) > 1 else ''} {cited})"
    policy = ranking.version.name
    named = _grouped(channels)
    if contact:
        officer = any(_OFFICER.search(ranked[i].sentence.text) for i in chosen)
        who = "its data protection officer" if officer else "its privacy contact"
        opening = (f"The {policy} policy names no data protection officer; it gives {who}"
                   if asks_officer and not officer else f"The {policy} policy gives {who}")
        return Ways(chosen, f"{opening}: {named} {cited}.")
    return Ways(chosen, f"The {policy} policy gives these ways: {named} {cited}.")


def _grouped(channels: list[Channel]) -> str:
    """"by e-mail: a@b.example; online: https://…": each kind once, in the channels file's order."""
    by_label: dict[str, list[str]] = {}
    for channel in channels:
        values = by_label.setdefault(channel.label, [])
        if channel.text not in values and len(values) < MAX_PER_KIND:
            values.append(channel.text)
    return "; ".join(f"{label}: {' or '.join(values)}" for label, values in by_label.items())
