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

from assistant.answering.collected import ASKS_DATA_COLLECTED, collected_headline, data_collected
from assistant.answering.label import denied
from assistant.answering.ranking import EvidenceRanking
from assistant.answering.reasons import POLICY_SILENT, explain_reason
from assistant.answering.selection import Selection
from assistant.foundation.types import Sentence
from assistant.understanding.facets import ASKS_AGE, BY_NAME, YES_NO, Facet
from assistant.understanding.stance import denies

DENIAL_DEPTH = 3  # a denial among this many of the facet's best sentences is preferred
PREFER_DEPTH = 5  # a sentence that states the practice is preferred among this many of the facet's best
# A sentence with the facet's preferred words is preferred when its selection logit is within this of the
# facet's best sentence's (not one ranked far down: a denial of "direct marketing" lists at rank 27).
PREFERRED_MARGIN = 4.0
MIN_STATEMENT_WORDS = 5
# A sentence or list item ends with punctuation, or with an address to write to ("… contact details are: dpo@x.com").
_CLOSED = re.compile(r"(?:[.!?;:][\"'”’)\]]*|\S+@\S+\.[a-z]{2,}|https?://\S+)\s*$", re.IGNORECASE)
_TITLE_WORD = re.compile(r"\s[A-Z][a-z]")  # "… with advertisers (including Targeted Advertising)": a title's capitals
# "Do Not Sell or Share my Personal Information.": a link's or a heading's title, however it ends.
_TITLE_CASE = re.compile(r"^\W*(?:[A-Z][\w’'-]*,?\s+(?:(?:or|and|of|the|a|an|to|for|my|your|our|in|on|with)\s+)?)+"
                         r"[A-Z][\w’'-]*\W*$")
# A sentence for the residents of some states only ("Colorado residents can submit … requests by emailing us at …"):
# the facet's preferred words in it give way to the same words in a sentence for everyone.
_RESIDENTS = re.compile(r"\b(?:[A-Z][a-z]+ ){1,2}residents\b")
# "A cookie is a small text file …", "Cookies are small pieces of information …": what a thing is, not a practice,
# also after the label of a list item ("Information from cookies & other technologies: A cookie is a string …").
_DEFINITION = re.compile(r"^\W*(?:[^:.]{1,60}:\s+)?(?:an?\s+|the\s+)?(?:[\"“‘']?[\w-]+[\"”’']?\s+){1,3}(?:is|are)\s+(?:an?\s+|small\s+|"
                         r"tiny\s+|)(?:small|tiny|text|pieces?|piece|files?|data files?|electronic|unique|alphanumeric|"
                         r"strings?)\b|"
                         # a defined term ("“Customer” means an entity that has contracted with Tempo … to access our
                         # Services")
                         r"^\W*(?:the\s+)?[\"“‘'][^\"”’']{1,40}[\"”’']\s+(?:means|refers to|shall mean)\b", re.IGNORECASE)
YES, NO, CONDITIONAL, NOT_STATED = "yes", "no", "conditional", "not_stated"
# A denial limited to some products or purposes ("we do not use your Input … to train our models when you use Le
# Chat Team, Le Chat Enterprise or the paid version", "does not process training data for the purposes of inferring
# … sensitive data") is no blanket denial: it is not preferred over the facet's best sentences.
# (not a description of usage data: "information about how and when you use our Services")
_PRODUCT_SCOPE = r"(?<!how and )(?<!how or )\b(?:when|if|while) you (?:use|are using|subscribe)\b"
_SCOPED = re.compile(_PRODUCT_SCOPE + r"|\bfor (?:the )?purposes? of\b|\bin relation to\b|\bexcluding\b|"
                     # only the precise kind ("does not intentionally collect … precise geolocation"): approximate
                     # location may still be collected
                     r"\bprecise (?:geo-?)?location\b|"
                     # only for the recipients' own marketing ("… with other, third-party companies for their commercial
                     # or marketing use without your consent"): data may still go to processors
                     r"\bfor (?:their|its) (?:own )?(?:\w+ (?:or|and) )?(?:commercial|marketing|advertising)\b|"
                     # ("does not transfer or rent personal data to third parties for marketing purposes without …")
                     r"\bfor (?:\w+ )?(?:commercial|marketing|advertising) purposes\b|"
                     r"\b(?:other|apart) (?:than|from)\b", re.IGNORECASE)
# A denial for some products only, or with exceptions ("We do not use Inputs … to train our models unless: (1) they
# are flagged for security review …, (2) you explicitly …"), is conditional: "only in some cases".
# ("except as described in this policy" is a formula, not an exception)
# A denial that holds "by default" holds until you change a setting.
_FOR_SOME_CASES = re.compile(_PRODUCT_SCOPE + r"|\bunless\b|\bby default\b|\bexcept\b(?! as (?:described|stated|set (?:forth|out)|provided|"
                             r"outlined|otherwise|noted|explained|disclosed|specified)\b)", re.IGNORECASE)
# "… without your (explicit) consent", "unless you opt in": a denial that holds only until you agree.
_WITHOUT_CONSENT = re.compile(
    r"\bwithout (?:first )?(?:obtaining |getting |receiving |asking for )?(?:your|the user'?s|their|the) (?:\w+ ){0,2}"
    r"(?:consent|permission|authori[sz]ation|agreement|opt-in)\b(?! of (?:a |the )?(?:court|authorit))|\bunless you (?:\w+ ){0,2}(?:consent|opt[- ]in|"
    r"agree|authori[sz]e|allow|choose)\b", re.IGNORECASE)
# "if you choose to allow it", "with your permission": a practice that depends on your choice.
_YOUR_CHOICE = re.compile(
    r"\bif you (?:choose to |decide to |elect to )?(?:allow|enable|consent|agree|opt[- ]in|turn on|permit)\b|"
    r"\bwith your (?:\w+ )?(?:consent|permission)\b|\bonly (?:if|when) you\b", re.IGNORECASE)
# Main clauses a sentence joins: by a semicolon, a dash, or ", and we / it / they …".
_JOINED_CLAUSES = re.compile(r"\s*(?:;|\s[—–]\s|,\s+and\s+(?=(?:we|it|they|our)\b))\s*", re.IGNORECASE)
# clauses a sentence joins with a semicolon, a dash or "but" ("does not reveal your identity … but may include …
# country, location")
_CLAUSE_BREAK = re.compile(r"\s*(?:;|\s[—–]\s|,?\s+but\s+)\s*")
# An age ("under the age of 13", "at least 16 years old"): what a "how old" answer quotes.
AGE = re.compile(r"\b(?:under|younger than|below|over|older than|at least)\s+(?:the\s+age\s+of\s+)?\d{1,2}\b"
                 r"(?:\s+years?(?:\s+of\s+age|\s+old)?)?|\b\d{1,2}\s+years?\s+(?:of\s+age|old)\b", re.IGNORECASE)
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
        period = (_PERIOD.search(sentence.text) if question_type == "how_long" else
                  AGE.search(sentence.text) if facet == "children_use" and ASKS_AGE.search(ranking.question) else None)
        if period:
            return Verdict(None, f"The {policy} policy says: “{period.group()}” {cited}.", support)
        return Verdict(None, f"The {policy} policy addresses this in sentence {sentence.ordinal}, quoted below.",
                       support)
    # A stated period is a "yes" to retention even when worded as a limit ("we do not retain … for more than 25 months").
    states_period = facet == "retention" and _PERIOD.search(sentence.text)
    verdict = YES if states_period else stance(sentence, BY_NAME.get(facet))
    return Verdict(verdict, _headline(verdict, policy, BY_NAME.get(facet), cited, sentence.text), support)


def stance(sentence: Sentence, facet: Facet | None) -> str:
    """yes, no or conditional: what the supporting sentence says of the practice.

    - A denial qualified by the user's consent ("are not … used for training purposes without your
      explicit consent") is conditional: only with your consent. So is one limited to some products
      ("… when you use Le Chat Team, Le Chat Enterprise or the paid version") or with exceptions ("… unless
      they are flagged for security review"; "except as described below").
    - A sentence that denies one thing and states the practice in another clause ("your precise
      location may also be processed …; it is not sent to Mozilla's servers") is not a denial: yes,
      or conditional when that clause depends on your choice ("if you choose to allow it").
    """
    text = sentence.text
    if facet is not None and facet.condition is not None and facet.condition.search(text):
        return CONDITIONAL
    if facet is not None and facet.denial is not None and facet.denial.search(text):
        return NO
    if not denied(sentence.facts, text):
        return YES
    # the condition must qualify the facet's own clause: "We'll never sell your personal information …, and we
    # won't use your name … without your permission either" is a plain no to selling
    own = " ".join(clause for clause in _JOINED_CLAUSES.split(text)
                   if facet is None or facet.sentence.search(clause)) or text
    if _WITHOUT_CONSENT.search(own) or _FOR_SOME_CASES.search(own):
        return CONDITIONAL
    stated = [clause for clause in _CLAUSE_BREAK.split(text)
              if not denies(clause) and (facet is None or facet.addressed_by(clause) and not (
                  facet.aside and facet.aside.search(clause)))]
    if stated and len(stated) < len(_CLAUSE_BREAK.split(text)):
        return CONDITIONAL if any(_YOUR_CHOICE.search(clause) for clause in stated) else YES
    return NO


def _support(ranking: EvidenceRanking, facet: Facet | None) -> int | None:
    """The best candidate that speaks of the facet (the best candidate when the facet is unknown), by its
    selection logit plus its answer score (`ScoredSentence.answer_score`).

    Among the first `PREFER_DEPTH` that speak of it, a sentence that states the practice is preferred
    over a heading, a definition ("A cookie is a small text file …") or one of the facet's asides (a
    merger under "sharing"); when none of them does (rows of a table of uses), the first further down that
    does; of a two-part question, the ones that speak of both parts (`Facet.covers_parts`); among those, for
    facets that policies deny in one sentence ("we do not sell …", `denials_first`), an explicit denial among
    the first `DENIAL_DEPTH` in the ranking's order is preferred (the best-ranked one is often a related aside: "if you believe your
    child has given us information …") unless it is limited to some products or purposes (`_SCOPED`), then one
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
         and not _SCOPED.search(ranking.ranked[i].sentence.text)), None)
    floor = ranking.ranked[window[0]].selection_logit - PREFERRED_MARGIN
    # a facet whose preferred sentences are searched in the whole policy looks for them beyond the window too
    pool = stated if not facet.preferred_anywhere else [
        i for i in matching if states_practice(ranking.ranked[i].sentence.text, facet)]
    pool = sorted(pool, key=lambda i: (bool(_RESIDENTS.search(ranking.ranked[i].sentence.text)),
                                       bool(facet.one_case and facet.one_case.search(ranking.ranked[i].sentence.text))))
    preferred = None if facet.preferred is None else next(
        (i for i in pool if facet.preferred.search(ranking.ranked[i].sentence.text)
         and (facet.preferred_anywhere or ranking.ranked[i].selection_logit >= floor)), None)
    return next((i for i in (denial, preferred) if i is not None), stated[0])


def states_practice(text: str, facet: Facet) -> bool:
    """Whether a sentence can state a practice: not a heading or list fragment (no closing punctuation,
    fewer than `MIN_STATEMENT_WORDS` words, or in capitals), not a definition, not one of the facet's asides.
    An item of a list of rights ("Have personal data we hold about you deleted (in certain circumstances)")
    has no closing punctuation but states the right: one with the facet's preferred words and no capitalised
    word after its first ("Information we share with advertisers (including Targeted Advertising)" is a title)
    is no fragment."""
    letters = [c for c in text if c.isalpha()]
    item = facet.preferred is not None and facet.preferred.search(text) and not _TITLE_WORD.search(text)
    unclosed = not _CLOSED.search(text) and not item
    heading = (len(text.split()) < MIN_STATEMENT_WORDS or unclosed or bool(_TITLE_CASE.match(text))
               or sum(c.isupper() for c in letters) > 0.6 * len(letters))
    return not (heading or _DEFINITION.match(text) or (facet.aside is not None and facet.aside.search(text)))


def _headline(verdict: str, policy: str, facet: Facet | None, cited: str, quote: str = "") -> str:
    if verdict == CONDITIONAL and facet is not None and facet.conditional_opening and facet.condition.search(quote):
        return f"{facet.conditional_opening} — {policy} says it {facet.does} only as quoted below {cited}."
    if verdict == CONDITIONAL:
        consent = _WITHOUT_CONSENT.search(quote) or _YOUR_CHOICE.search(quote)
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
