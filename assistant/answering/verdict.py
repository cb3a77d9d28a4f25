"""Decide the answer to a question: the verdict (yes / no / not stated), the sentence that
supports it, and a plain-English headline that says it.

The supporting sentence is the best-ranked candidate that speaks of the question's facet (its
words: "sell", "rent" … for the sale of data); when none of the best candidates does, the policy
does not say, and the candidates are only related passages. A yes/no verdict is "no" when that
sentence denies the practice (PolicyIE's polarity slot or the word rules of
`understanding.stance`), else "yes". The headline is ours in its connecting words and carries
only what the facet and the verdict say; the quote under it carries the policy's words.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from assistant.answering.label import denied
from assistant.answering.ranking import EvidenceRanking
from assistant.answering.reasons import POLICY_SILENT, explain_reason
from assistant.answering.selection import Selection
from assistant.understanding.facets import BY_NAME, YES_NO, Facet

SUPPORT_DEPTH = 50  # how many of the best candidates may support the verdict
DENIAL_DEPTH = 3  # a denial among this many of the facet's best sentences is preferred
YES, NO, CONDITIONAL, NOT_STATED = "yes", "no", "conditional", "not_stated"
# A period of time, or a rule for one: what a "how long" answer quotes.
_PERIOD = re.compile(
    r"\b(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|twelve|thirty|sixty|ninety)\s+(?:\(\d+\)\s+)?"
    r"(?:days?|weeks?|months?|years?)\b|\bas long as [^,.;]+|\buntil [^,.;]+|\bindefinitely\b", re.IGNORECASE)


@dataclass(frozen=True)
class Verdict:
    """The decided answer: what it says, and which ranked candidate supports it."""

    verdict: str | None  # yes | no | conditional | not_stated (any question the policy does not address);
    # None when the question is not yes/no and the policy addresses it
    headline: str  # one complete sentence
    support: int | None  # position in the ranking of the supporting sentence; None when the policy is silent


def decide(ranking: EvidenceRanking, selection: Selection) -> Verdict:
    """Stage: the verdict and headline for a ranking (which carries the question's type and facet)
    and the selection made from it."""
    policy, question_type, facet = ranking.version.name, ranking.question_type, ranking.facet
    yes_no = question_type == YES_NO
    if ranking.reason is not None and ranking.reason != POLICY_SILENT:
        return Verdict(None, explain_reason(ranking.reason), None)
    support = None if selection.silent or ranking.reason else _support(ranking, BY_NAME.get(facet))
    if support is None:
        related = " The closest passages are shown as related, not as the answer." if ranking.ranked else ""
        return Verdict(NOT_STATED, f"The {policy} policy does not say.{related}", None)
    sentence = ranking.ranked[support].sentence
    cited = f"(sentence {sentence.ordinal})"
    if not yes_no:
        period = _PERIOD.search(sentence.text) if question_type == "how_long" else None
        if period:
            return Verdict(None, f"The {policy} policy says: “{period.group()}” {cited}.", support)
        return Verdict(None, f"The {policy} policy addresses this in sentence {sentence.ordinal}, quoted below.",
                       support)
    # A stated period is a "yes" to retention even when worded as a limit ("we do not retain … for more than 25 months").
    states_period = facet == "retention" and _PERIOD.search(sentence.text)
    verdict = NO if denied(sentence.facts, sentence.text) and not states_period else YES
    return Verdict(verdict, _headline(verdict, policy, BY_NAME.get(facet), cited), support)


def _support(ranking: EvidenceRanking, facet: Facet | None) -> int | None:
    """The best candidate that speaks of the facet (the best candidate when the facet is unknown). For
    facets that policies deny in one sentence ("we do not sell …", `denials_first`), an explicit
    denial among the first `DENIAL_DEPTH` that speak of it is preferred: the best-ranked one is
    often a related aside ("if you believe your child has given us information …")."""
    if facet is None:
        return 0 if ranking.ranked else None
    matching = [i for i, r in enumerate(ranking.ranked[:SUPPORT_DEPTH]) if facet.addressed_by(r.sentence.text)]
    denial = None if not facet.denials_first else next(
        (i for i in matching[:DENIAL_DEPTH] if denied(ranking.ranked[i].sentence.facts, ranking.ranked[i].sentence.text)),
        None)
    preferred = None if facet.preferred is None else next(
        (i for i in matching[:DENIAL_DEPTH] if facet.preferred.search(ranking.ranked[i].sentence.text)), None)
    return next((i for i in (denial, preferred) if i is not None), matching[0] if matching else None)


def _headline(verdict: str, policy: str, facet: Facet | None, cited: str) -> str:
    if facet is None:
        said = "so" if verdict == YES else "not"
        return f"{verdict.capitalize()} — the {policy} policy says {said} {cited}."
    if facet.about_you:
        return f"{verdict.capitalize()} — {policy} says {facet.does if verdict == YES else facet.does_not} {cited}."
    return f"{verdict.capitalize()} — {policy} says it {facet.does if verdict == YES else facet.does_not} {cited}."
