"""Answers that do the asker's job: for "how do I …" and "how do I contact …" questions, the concrete ways the
policy gives — e-mail addresses, links, phone numbers, settings, forms, postal addresses — quoted and grouped by
channel, before the sentence that states the right.

A way counts when its sentence is the supporting one, speaks of the question's facet (`Facet.addressed_by`, or
names the right in a request: "To submit a deletion request, visit …"), or, for a right, is a route for exercising
rights in general that singles out no other right ("To exercise these rights, e-mail …"), or a request route within
`NEAR` sentences of the support ("You may also submit a request by calling …"); the right's own ways are quoted
first. For a question of no known facet, a way within `NEAR` sentences of the support in the same section counts.
A support that introduces steps ("If you want to delete your information, you can:") is followed by them, channels
or not; one that introduces a postal address printed line by line, by its lines; one that sends you to "the address
below", by the first postal address after it. Asked for the officer, an address one of whose lines names the officer
is a way wherever it stands. The channels of an unrelated
"contact us" far from the right are not offered as the way to use it, unless the question is about contacting, or
the right's sentence sends you there ("… please contact us"): then the ways in its section or under the policy's
contact heading. The regulator is a way only to complain."""
from __future__ import annotations

import re
from dataclasses import dataclass

from assistant.answering.ranking import CONTACT, EvidenceRanking, ScoredSentence
from assistant.understanding.channels import ADDRESS_LINE_WORDS, Channel, address_block, block_line, channels_in
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
# a route for exercising rights in general ("To exercise any of the rights above, e-mail …"), and a request route
# ("You may also submit a request by calling …"), which serves the right beside it
_EXERCISE_RIGHTS = re.compile(r"\bexercis\w* (?:any of |one of |all of )?(?:these|your|the|such|those|this|that|any|all|"
                              r"them)\b(?: (?:\w+ ){0,3}rights?\b)?", re.IGNORECASE)
_REQUEST = re.compile(r"\b(?:submit\w*|mak\w*|send\w*) (?:a|an|your|the|such|these) (?:\w+ ){0,3}requests?\b|"
                      r"\brequests? (?:can|may) (?:also )?be (?:made|submitted|sent)\b", re.IGNORECASE)
_COMPLAINT = re.compile(r"\b(?:complain\w*|regulator|supervisory|authorit(?:y|ies)|escalat\w*|appeal)\b", re.IGNORECASE)
# a sentence that introduces the steps after it ("…, you can:", "To do so, please:", "in one of the following ways:"),
# not a list of what the right covers ("You have the right to know:")
_INTRODUCES_STEPS = re.compile(r"\b(?:you (?:can|may|could|should|will need to)|please|by|steps?|as follows|(?:following|these) "
                               r"(?:ways|options|methods|channels)|one of the following)\W*:\s*$", re.IGNORECASE)
MAX_STEPS = 4  # sentences a support ending in ":" introduces, quoted after it
# a sentence that sends you to an address further down ("You can contact our data protection officer at the address
# below.", "… write to us at the following address:"): the first postal address after it in its section is its way
_POINTS_BELOW = re.compile(r"\b(?:address|addresses|details|information)\s+(?:\w+\s+){0,2}?below\b|"
                           r"\bthe following (?:postal |mailing |physical )?address\b", re.IGNORECASE)
MAX_BELOW = 12  # sentences after such a sentence searched for the address
POSTAL, AUTHORITY = "postal", "authority"  # channel kinds (`lang/channels.toml`)
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
    to_complain = bool(_COMPLAINT.search(ranking.question))
    at = {(r.sentence.section, r.sentence.ordinal): k for k, r in enumerate(ranked)}

    def ways(i: int) -> list[Channel]:  # the regulator only for a complaint
        return [c for c in channels_in(ranked[i].sentence.text) if to_complain or c.kind != AUTHORITY]

    def near(i: int) -> bool:
        sentence = ranked[i].sentence
        return sentence.section == anchor.section and abs(sentence.ordinal - anchor.ordinal) <= NEAR

    def another_right(text: str) -> bool:
        return facet is None or any(BY_NAME[other].sentence.search(text) for other in _RIGHTS if other != facet.name)

    def specific(i: int) -> bool:  # the sentence speaks of the asked right, or asks a request of it by name
        text = ranked[i].sentence.text
        return facet is not None and (facet.addressed_by(text) or bool(
            facet.sentence.search(text) and (_REQUEST.search(text) or _EXERCISE_RIGHTS.search(text))))

    def general(i: int) -> bool:  # a route for rights requests that singles out no other right
        text = ranked[i].sentence.text
        return (facet is not None and facet.name in _RIGHTS and not another_right(text)
                and bool(_EXERCISE_RIGHTS.search(text) or (near(i) and _REQUEST.search(text))))

    def introduced(i: int) -> bool:  # a line of the address a sentence of the answer introduces ("… write to us at:")
        block = _address(ranked, at, i)
        first = ranked[block[0]].sentence
        before = at.get((first.section, first.ordinal - 1))
        return (len(block) > 1 and before is not None and ranked[before].sentence.text.rstrip().endswith(":")
                and (before == support or specific(before)))

    def officers(i: int) -> bool:  # a postal address one of whose lines names the officer asked for
        return asks_officer and any(_OFFICER.search(ranked[j].sentence.text) for j in _address(ranked, at, i))

    def relevant(i: int) -> bool:
        if introduced(i) or officers(i):
            return True
        if facet is not None:  # a neighbour giving ways for another right ("unsubscribe") is not this one's way
            return i == support or specific(i) or general(i)
        return i == support or near(i)

    steps = _steps(ranked, at, support) or _address_below(ranked, at, support)
    with_ways = [i for i in range(len(ranked)) if ways(i) and relevant(i) and i not in steps]
    if support in with_ways:  # the supporting sentence gives ways itself: its neighbours' may be another right's
        with_ways = [i for i in with_ways if i == support or specific(i) or general(i) or officers(i)]
    if not with_ways and not steps and _POINTS_TO_CONTACT.search(anchor.text):  # "… please contact us": the contact details
        with_ways = [i for i in range(len(ranked)) if ways(i)
                     and (ranked[i].sentence.section == anchor.section
                          or _CONTACT_SECTION.search(ranked[i].sentence.section or ""))]
    if not with_ways and not steps:
        return None
    # an officer asked for: the sentences (or addresses) naming one first; then the supporting sentence, its
    # neighbours, the rest
    # (a general request route after the ways named for the right itself)
    with_ways.sort(key=lambda i: (not officers(i), i != support,
                                  facet is not None and not specific(i),
                                  abs(ranked[i].sentence.ordinal - anchor.ordinal) if near(i) else 10 * NEAR,
                                  -ranked[i].selection_logit))
    units: list[list[int]] = [steps] if steps else []  # a sentence, the steps, or the lines of one postal address
    for i in with_ways:
        if len(units) < MAX_SENTENCES and not any(i in unit for unit in units):
            units.append(_address(ranked, at, i))
    chosen = tuple(i for unit in units for i in unit)
    channels = [c for unit in units for c in _channels(ranked, unit) if to_complain or c.kind != AUTHORITY]
    cited = ", ".join(str(ranked[i].sentence.ordinal) for i in chosen)
    cited = f"(sentence{'s' if len(chosen) > 1 else ''} {cited})"
    policy = ranking.version.name
    # steps that name no channel are said in their own words, before the channels of the rest
    said_steps = "" if any(ways(i) for i in steps) else "; ".join(f"“{ranked[i].sentence.text.strip()}”" for i in steps)
    named = "; ".join(part for part in (said_steps, _grouped(channels)) if part)
    if contact:
        officer = any(_OFFICER.search(ranked[i].sentence.text) for i in chosen)
        who = "its data protection officer" if officer else "its privacy contact"
        opening = f"The {policy} policy gives {who}"
        if asks_officer and not officer:  # an officer named elsewhere is not said to be missing
            named_at = next((r.sentence.ordinal for r in ranked if _OFFICER.search(r.sentence.text)), None)
            opening = (f"The {policy} policy names no data protection officer; it gives {who}" if named_at is None else
                       f"The {policy} policy mentions a data protection officer (sentence {named_at}) but gives no "
                       f"way to reach them there; it gives {who}")
        return Ways(chosen, f"{opening}: {named} {cited}.")
    return Ways(chosen, f"The {policy} policy gives these ways: {named} {cited}.")


def _steps(ranked: list[ScoredSentence], at: dict[tuple[str, int], int], support: int) -> list[int]:
    """The sentences a support ending in ":" introduces ("If you want to delete your information, you can:"): the
    ranked ones right after it in its section, at most `MAX_STEPS`, until one that introduces something else."""
    sentence = ranked[support].sentence
    if not _INTRODUCES_STEPS.search(sentence.text):
        return []
    steps = []
    for ordinal in range(sentence.ordinal + 1, sentence.ordinal + 1 + MAX_STEPS):
        position = at.get((sentence.section, ordinal))
        if position is None or ranked[position].sentence.text.rstrip().endswith(":"):
            break
        steps.append(position)
    return steps


def _address_below(ranked: list[ScoredSentence], at: dict[tuple[str, int], int], support: int) -> list[int]:
    """The lines of the first postal address after a support that sends you to one (`_POINTS_BELOW`), within
    `MAX_BELOW` sentences of its section; none when it sends you nowhere or no address follows."""
    sentence = ranked[support].sentence
    if not _POINTS_BELOW.search(sentence.text):
        return []
    for ordinal in range(sentence.ordinal + 1, sentence.ordinal + 1 + MAX_BELOW):
        position = at.get((sentence.section, ordinal))
        if position is not None and any(c.kind == POSTAL for c in channels_in(ranked[position].sentence.text)):
            return _address(ranked, at, position)
    return []


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
    found = [c for i in unit for c in channels_in(ranked[i].sentence.text)]
    postal = next((c for c in found if c.kind == POSTAL), None)
    if len(unit) == 1 or postal is None or not all(block_line(ranked[i].sentence.text) for i in unit):
        return found  # one sentence, or the steps a sentence introduces
    lines = [ranked[i].sentence.text.strip().rstrip(".,;") for i in unit]
    return [Channel(POSTAL, postal.label, ", ".join(lines)), *(c for c in found if c.kind != POSTAL)]


def _grouped(channels: list[Channel]) -> str:
    """"by e-mail: a@b.example; online: https://…": each kind once, in the channels file's order."""
    by_label: dict[str, list[str]] = {}
    for channel in channels:
        values = by_label.setdefault(channel.label, [])
        if channel.text not in values and len(values) < MAX_PER_KIND:
            values.append(channel.text)
    return "; ".join(f"{label}: {' or '.join(values)}" for label, values in by_label.items())
