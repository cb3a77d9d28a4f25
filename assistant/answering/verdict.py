"""Decide the answer to a question: the verdict (yes / no / not stated), the sentence that
supports it, and a plain-English headline that says it.

The supporting sentence is the best-ranked candidate that speaks of the question's facet (its
words: "sell", "rent" … for the sale of data); when none of the best candidates does, the policy
does not say, and the candidates are only related passages. A yes/no verdict is that sentence's stance
(yes, no or conditional: `understanding.statements.stance`, which also decides whether a sentence denies,
conditions or limits the practice). The headline is ours in its connecting words and carries
only what the facet and the verdict say; the quote under it carries the policy's words.
"""
from __future__ import annotations

from dataclasses import dataclass

from assistant.answering.collected import ASKS_DATA_COLLECTED, collected_headline, data_collected
from assistant.answering.ranking import EvidenceRanking
from assistant.answering.selection import Selection
from assistant.foundation.reasons import POLICY_SILENT, explain_reason
from assistant.understanding.facets import ASKS_AGE, BY_NAME, YES_NO, Facet
from assistant.understanding.statements import (
    AGE,
    CONDITIONAL,
    PERIOD,
    YES,
    denied,
    for_some_residents,
    limited_to_some,
    on_consent,
    stance,
    states_practice,
)

DENIAL_DEPTH = 3  # a denial among this many of the facet's best sentences is preferred
PREFER_DEPTH = 5  # a sentence that states the practice is preferred among this many of the facet's best
# A sentence with the facet's preferred words is preferred when its selection logit is within this of the
# facet's best sentence's (not one ranked far down: a denial of "direct marketing" lists at rank 27).
PREFERRED_MARGIN = 4.0
NOT_STATED = "not_stated"  # the policy does not address the question (besides a sentence's yes, no, conditional)


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
    # the age itself is the answer to "Is there a minimum age?", not a yes or no about letting children in
    yes_no = question_type == YES_NO and not (facet == "children_use" and ASKS_AGE.search(ranking.question))
    if ranking.reason is not None and ranking.reason != POLICY_SILENT:
        return Verdict(None, explain_reason(ranking.reason), None)
    support = None if selection.silent or ranking.reason else _support(ranking, BY_NAME.get(facet))
    if support is None:
        related = " The closest passages are shown as related, not as the answer." if ranking.ranked else ""
        return Verdict(NOT_STATED, f"The {policy} policy does not say.{related}", None)
    sentence = ranking.ranked[support].sentence
    cited = f"(sentence {sentence.ordinal})"
    if not yes_no and facet is None and ASKS_DATA_COLLECTED.search(ranking.question):
        collected = data_collected(ranking, selection.positions)
        if collected is not None:  # the kinds of data named across the candidates, the fullest sentence quoted
            return Verdict(None, collected_headline(policy, collected), collected.support)
    if not yes_no:
        period = (PERIOD.search(sentence.text) if question_type == "how_long" else
                  AGE.search(sentence.text) if facet == "children_use" and ASKS_AGE.search(ranking.question) else None)
        if period:
            return Verdict(None, f"The {policy} policy says: “{period.group()}” {cited}.", support)
        return Verdict(None, f"The {policy} policy addresses this in sentence {sentence.ordinal}, quoted below.",
                       support)
    # A stated period is a "yes" to retention even when worded as a limit ("we do not retain … for more than 25 months").
    states_period = facet == "retention" and PERIOD.search(sentence.text)
    verdict = YES if states_period else stance(sentence, BY_NAME.get(facet))
    return Verdict(verdict, _headline(verdict, policy, BY_NAME.get(facet), cited, sentence.text), support)


def _support(ranking: EvidenceRanking, facet: Facet | None) -> int | None:
    """The best candidate that speaks of the facet (the best candidate when the facet is unknown), by its
    selection logit plus its answer score (`ScoredSentence.answer_score`).

    Among the first `PREFER_DEPTH` that speak of it, a sentence that states the practice is preferred
    over a heading, a definition ("A cookie is a small text file …") or one of the facet's asides (a
    merger under "sharing"); when none of them does (rows of a table of uses), the first further down that
    does; of a two-part question, the ones that speak of both parts (`Facet.covers_parts`); among those, for
    facets that policies deny in one sentence ("we do not sell …", `denials_first`), an explicit denial among
    the first `DENIAL_DEPTH` in the ranking's order is preferred (the best-ranked one is often a related aside: "if you believe your
    child has given us information …") unless it is limited to some products or purposes (`limited_to_some`), then one
    with the facet's preferred words ("you can request …", "questions about this policy", "disclose … in
    response to a subpoena") among all of them, unless its logit is `PREFERRED_MARGIN` below the best (for
    `Facet.preferred_anywhere`, among all the facet's candidates, however far down: a privacy mailbox is the answer
    wherever it stands)."""
    if facet is None:
        return 0 if ranking.ranked else None
    # the facet's sentences, those a reader would quote first (the answer-sentence scorer's word) moved up
    matching = sorted((i for i, r in enumerate(ranking.ranked) if facet.addressed_by(r.sentence.text)),
                      key=lambda i: -(ranking.ranked[i].selection_logit + ranking.ranked[i].answer_score))
    if not matching:
        return None
    window = matching[:PREFER_DEPTH]
    # when none of those states it (a table of rows, a list of headings), the facet's first sentence that does
    stated = [i for i in window if states_practice(ranking.ranked[i].sentence.text, facet)] or [
        i for i in matching if states_practice(ranking.ranked[i].sentence.text, facet)][:1] or window
    # a two-part question ("Can I see my data and correct it?"): what you can do about both parts first
    stated = [i for i in stated if facet.covers_parts(ranking.question, ranking.ranked[i].sentence.text)
              and facet.preferred is not None and facet.preferred.search(ranking.ranked[i].sentence.text)] or stated
    # the denials in the ranking's own order: the scorer's order let a CCPA "we do not 'sell' or 'share'" come
    # before the advertising partners a policy lists (lab.answer_sentence_study: two verdicts on sets 3 and 11)
    denial = None if not facet.denials_first else next(
        (i for i in sorted(stated)[:DENIAL_DEPTH] if denied(ranking.ranked[i].sentence.facts, ranking.ranked[i].sentence.text)
         and not limited_to_some(ranking.ranked[i].sentence.text)), None)
    floor = ranking.ranked[window[0]].selection_logit - PREFERRED_MARGIN
    # a facet whose preferred sentences are searched in the whole policy looks for them beyond the window too
    pool = stated if not facet.preferred_anywhere else [
        i for i in matching if states_practice(ranking.ranked[i].sentence.text, facet)]
    pool = sorted(pool, key=lambda i: (for_some_residents(ranking.ranked[i].sentence.text),
                                       bool(facet.one_case and facet.one_case.search(ranking.ranked[i].sentence.text))))
    preferred = None if facet.preferred is None else next(
        (i for i in pool if facet.preferred.search(ranking.ranked[i].sentence.text)
         and (facet.preferred_anywhere or ranking.ranked[i].selection_logit >= floor)), None)
    return next((i for i in (denial, preferred) if i is not None), stated[0])


def _headline(verdict: str, policy: str, facet: Facet | None, cited: str, quote: str = "") -> str:
    if verdict == CONDITIONAL and facet is not None and facet.conditional_opening and facet.condition.search(quote):
        return f"{facet.conditional_opening} — {policy} says it {facet.does} only as quoted below {cited}."
    if verdict == CONDITIONAL:
        consent = on_consent(quote)
        condition = "only with your consent" if consent else "only under the conditions quoted below"
        opening = "Only with your consent" if consent else "Only in some cases"
        if facet is None:
            return f"{opening} — the {policy} policy says so {condition} {cited}."
        subject = "" if facet.about_you else "it "
        return f"{opening} — {policy} says {subject}{facet.does} {condition} {cited}."
    if facet is None:
        said = "so" if verdict == YES else "not"
        return f"{verdict.capitalize()} — the {policy} policy says {said} {cited}."
    if facet.about_you:
        return f"{verdict.capitalize()} — {policy} says {facet.does if verdict == YES else facet.does_not} {cited}."
    return f"{verdict.capitalize()} — {policy} says it {facet.does if verdict == YES else facet.does_not} {cited}."
