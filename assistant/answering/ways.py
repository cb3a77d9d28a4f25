"""Answers that do the asker's job: for "how do I …" and "how do I contact …" questions, the concrete ways the
policy gives — e-mail addresses, links, phone numbers, settings, forms, postal addresses — quoted and grouped by
channel, before the sentence that states the right.

A way counts when its sentence is the supporting one, speaks of the question's facet (`Facet.addressed_by`, or
names the right in a request: "To submit a deletion request, visit …"), or, for a right, is a route for rights
requests in general that singles out no other right ("To exercise these rights, e-mail …"; quoted after the
right's own ways). For a question of no known facet, a way within `NEAR` sentences of the support in the same
section counts. The channels of an unrelated "contact us" far from the right are not offered as the way to use it,
unless the question is about contacting, or the right's sentence sends you there ("… please contact us"): then the
ways in its section or under the policy's contact heading."""
from __future__ import annotations

import re
from dataclasses import dataclass

from assistant.answering.ranking import CONTACT, EvidenceRanking, ScoredSentence
from assistant.understanding.channels import ADDRESS_LINE_WORDS, Channel, address_block, channels_in
from assistant.understanding.facets import BY_NAME, Facet

NEAR = 3  # sentences either side of the supporting one whose ways are its ways
MAX_SENTENCES = 3  # way sentences quoted at most
MAX_PER_KIND = 2  # ways of one kind named in a headline at most
# a sentence stating a right that sends you to the policy's contact details, and the section that gives them
_POINTS_TO_CONTACT = re.compile(r"\b(?:contact(?:ing)? us|get in touch|write to us|e-?mail us|reach us|let us know|"
                                r"contact (?:our|the) (?:privacy|support|customer|data protection)|contact \w+ (?:at|using|via|through))\b",
                                re.IGNORECASE)
_CONTACT_SECTION = re.compile(r"\b(?:contact|questions|reach us|get in touch)\b", re.IGNORECASE)
_OFFICER = re.compile(r"\b(?:data protection officer|DPO|privacy officer|grievance officer)\b", re.IGNORECASE)
# a route for rights requests in general ("To exercise any of the rights above, submit a request …", "You may also
# submit a request by calling …"): a way for each right it does not single out another one from
_RIGHTS_REQUEST = re.compile(r"\bexercis\w* (?:any of |one of |all of )?(?:these|your|the|such|those|this|that|any|all|them)\b"
                             r"(?: (?:\w+ ){0,3}rights?\b)?|\b(?:submit\w*|mak\w*|send\w*) (?:a|an|your|the|such|these) "
                             r"(?:\w+ ){0,3}requests?\b|\brequests? (?:can|may) (?:also )?be (?:made|submitted|sent)\b",
                             re.IGNORECASE)
POSTAL = "postal"  # the channel kind of a postal address (`lang/channels.toml`)
_RIGHTS = ("deletion", "access_correction", "opt_out_ads")  # the rights a general request route serves


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

    def specific(i: int) -> bool:  # the sentence speaks of the asked right, or asks a request of it by name
        text = ranked[i].sentence.text
        return facet is not None and (facet.addressed_by(text) or bool(
            facet.sentence.search(text) and _RIGHTS_REQUEST.search(text)))

    def general(i: int) -> bool:  # a route for rights requests that names no other right only
        text = ranked[i].sentence.text
        return (facet is not None and facet.name in _RIGHTS and bool(_RIGHTS_REQUEST.search(text))
                and not any(BY_NAME[other].sentence.search(text) for other in _RIGHTS if other != facet.name))

    at = {(r.sentence.section, r.sentence.ordinal): k for k, r in enumerate(ranked)}

    def introduced(i: int) -> bool:  # a line of the address a sentence of the answer introduces ("… write to us at:")
        block = _address(ranked, at, i)
        first = ranked[block[0]].sentence
        before = at.get((first.section, first.ordinal - 1))
        return (len(block) > 1 and before is not None and ranked[before].sentence.text.rstrip().endswith(":")
                and (before == support or specific(before)))

    def relevant(i: int) -> bool:
        sentence = ranked[i].sentence
        if introduced(i):
            return True
        if facet is not None:  # a neighbour giving ways for another right ("unsubscribe") is not this one's way
            return i == support or specific(i) or general(i)
        return i == support or (abs(sentence.ordinal - anchor.ordinal) <= NEAR and sentence.section == anchor.section)

    with_ways = [i for i in range(len(ranked)) if channels_in(ranked[i].sentence.text) and relevant(i)]
    if support in with_ways:  # the supporting sentence gives ways itself: its neighbours' may be another right's
        with_ways = [i for i in with_ways if i == support or specific(i) or general(i)]
    if not with_ways and _POINTS_TO_CONTACT.search(anchor.text):  # "… please contact us": the policy's contact details
        with_ways = [i for i in range(len(ranked)) if channels_in(ranked[i].sentence.text)
                     and (ranked[i].sentence.section == anchor.section
                          or _CONTACT_SECTION.search(ranked[i].sentence.section or ""))]
    if not with_ways:
        return None
    # an officer asked for: the sentences naming one first; then the supporting sentence, its neighbours, the rest
    # (a general request route after the ways named for the right itself)
    with_ways.sort(key=lambda i: (asks_officer and not _OFFICER.search(ranked[i].sentence.text), i != support,
                                  facet is not None and not specific(i), distance(i), -ranked[i].selection_logit))
    units: list[list[int]] = []  # a sentence, or the lines of one postal address, quoted together
    for i in with_ways:
        if len(units) < MAX_SENTENCES and not any(i in unit for unit in units):
            units.append(_address(ranked, at, i))
    chosen = tuple(i for unit in units for i in unit)
    channels = [c for unit in units for c in _channels(ranked, unit)]
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


def _address(ranked: list[ScoredSentence], at: dict[tuple[str, int], int], i: int) -> list[int]:
    """`i`, or the ranked lines of the postal address it is a line of, in document order (`channels.address_block`;
    `at`: each ranked sentence's position by its section and ordinal)."""
    section, ordinal = ranked[i].sentence.section, ranked[i].sentence.ordinal
    lo = hi = ordinal
    while (section, lo - 1) in at and ordinal - lo < ADDRESS_LINE_WORDS:
        lo -= 1
    while (section, hi + 1) in at and hi - ordinal < ADDRESS_LINE_WORDS:
        hi += 1
    lines = [at[(section, o)] for o in range(lo, hi + 1)]
    return [lines[k] for k in address_block([ranked[j].sentence.text for j in lines], ordinal - lo)]


def _channels(ranked: list[ScoredSentence], unit: list[int]) -> list[Channel]:
    """The channels a unit gives; an address printed over several lines is one postal channel, its lines joined."""
    if len(unit) == 1:
        return channels_in(ranked[unit[0]].sentence.text)
    lines = [ranked[i].sentence.text.strip().rstrip(".,;") for i in unit]
    others = [c for i in unit for c in channels_in(ranked[i].sentence.text) if c.kind != POSTAL]
    postal = next(c for i in unit for c in channels_in(ranked[i].sentence.text) if c.kind == POSTAL)
    return [Channel(POSTAL, postal.label, ", ".join(lines)), *others]


def _grouped(channels: list[Channel]) -> str:
    """"by e-mail: a@b.example; online: https://…": each kind once, in the channels file's order."""
    by_label: dict[str, list[str]] = {}
    for channel in channels:
        values = by_label.setdefault(channel.label, [])
        if channel.text not in values and len(values) < MAX_PER_KIND:
            values.append(channel.text)
    return "; ".join(f"{label}: {' or '.join(values)}" for label, values in by_label.items())
