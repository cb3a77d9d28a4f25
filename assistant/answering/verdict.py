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

import re
from dataclasses import dataclass

from assistant.answering.collected import ASKS_DATA_COLLECTED, collected_headline, data_collected
from assistant.answering.listing import find_listing
from assistant.answering.places import find_places
from assistant.answering.ranking import EvidenceRanking
from assistant.answering.selection import Selection
from assistant.answering.ways import CONTACT, find_ways
from assistant.foundation.reasons import POLICY_SILENT, explain_reason
from assistant.understanding.asked_words import asked_words, states_asked
from assistant.understanding.claim import Claim, claim_of
from assistant.understanding.concepts import DATA, PLACE, PURPOSE, RECIPIENT, vocabulary
from assistant.understanding.facets import ASKS_AGE, ASKS_CONTROLLER, BY_NAME, YES_NO, Facet
from assistant.understanding.frame import Frame, grounded, speaks_of_action, states_objects
from assistant.understanding.statements import (
    AGE,
    CONDITIONAL,
    NAMES_CONTROLLER,
    NO,
    PERIOD,
    SCOPED,
    YES,
    denied,
    for_some_residents,
    limited_to_some,
    on_consent,
    on_permission,
    on_your_setting,
    scope_of,
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
    quotes: tuple[int, ...] = ()  # positions quoted right after the support (the ways of a how-to answer)


def decide(ranking: EvidenceRanking, selection: Selection) -> Verdict:
    """Stage: the verdict and headline for a ranking (which carries the question's type and facet)
    and the selection made from it."""
    policy, question_type, facet = ranking.version.name, ranking.question_type, ranking.facet
    # the age itself is the answer to "Is there a minimum age?", not a yes or no about letting children in
    yes_no = question_type == YES_NO and not (facet == "children_use" and ASKS_AGE.search(ranking.question))
    if ranking.reason is not None and ranking.reason != POLICY_SILENT:
        return Verdict(None, explain_reason(ranking.reason), None)
    support = None if selection.silent or ranking.reason else _support(ranking, BY_NAME.get(facet))
    frame = ranking.frame
    # only a statement naming what is asked answers it — and one that does answers it even where the facet's words
    # miss it ("Do they collect my email address?" read as a question about contacting them)
    if yes_no and frame.specific and not selection.silent and ranking.reason is None:
        support = _grounded_support(ranking, support, BY_NAME.get(facet))
    elif yes_no and facet is None and not selection.silent and ranking.reason is None:
        # a question of no known topic is answered only by a sentence that says what it asks
        support = _stating_support(ranking, support)
    if support is None:
        related = " The closest passages are shown as related, not as the answer." if ranking.ranked else ""
        whether = f" whether it {_frame_phrase(frame, True)}" if yes_no and _says_frame(frame) else ""
        claim = claim_of(ranking.question, policy) if yes_no and not whether and facet is None else None
        whether = f" whether it {claim.does}" if claim is not None else whether
        return Verdict(NOT_STATED, f"The {policy} policy does not say{whether}.{related}", None)
    sentence = ranking.ranked[support].sentence
    cited = f"(sentence {sentence.ordinal})"
    if question_type in ("what", "who") and ASKS_CONTROLLER.search(ranking.question):  # who runs it: its sentence
        named = next((i for i in range(len(ranking.ranked))
                      if NAMES_CONTROLLER.search(ranking.ranked[i].sentence.text)), None)
        if named is not None:
            sentence = ranking.ranked[named].sentence
            return Verdict(None, f"The {policy} policy says: “{said(sentence.text, None, NAMES_CONTROLLER)}” "
                                 f"(sentence {sentence.ordinal}).", named)
    if question_type in ("what", "who") and facet != CONTACT:  # the kinds of data, recipients or purposes named
        listing = find_listing(ranking)
        if listing is not None:
            first = support if support in listing.positions else listing.positions[0]
            return Verdict(None, listing.headline, first, tuple(p for p in listing.positions if p != first))
    if not yes_no and facet is None and ASKS_DATA_COLLECTED.search(ranking.question):
        collected = data_collected(ranking, selection.positions)
        if collected is not None:  # the kinds of data named across the candidates, the fullest sentence quoted
            return Verdict(None, collected_headline(policy, collected), collected.support)
    if not yes_no:
        if question_type == "how_to" or facet == CONTACT:  # the ways first, then the sentence stating the right
            ways = find_ways(ranking, support, BY_NAME.get(facet))
            if ways is not None:
                after = ways.positions[1:] + ((support,) if support not in ways.positions else ())
                return Verdict(None, ways.headline, ways.positions[0], after)
        if question_type == "where":  # the countries and safeguards named, each with its sentence
            places = find_places(ranking)
            if places is not None:
                first = support if support in places.positions else places.positions[0]
                after = tuple(p for p in (*places.positions, support) if p != first)
                return Verdict(None, places.headline, first, tuple(dict.fromkeys(after)))
        if question_type == "how_long":  # the general rule first, then the periods stated for some data
            kept = _how_long(ranking, support)
            if kept is not None:
                return kept
            if frame.specific and not _names_asked(ranking, support):  # a period for other data answers nothing
                return Verdict(NOT_STATED, f"The {policy} policy does not say how long it keeps "
                                           f"{_asked_data(frame)}. The closest passages are shown as related, not as "
                                           "the answer.", None)
        period = (PERIOD.search(sentence.text) if question_type == "how_long" else
                  AGE.search(sentence.text) if facet == "children_use" and ASKS_AGE.search(ranking.question) else None)
        if period:
            return Verdict(None, f"The {policy} policy says: “{period.group()}” {cited}.", support)
        return Verdict(None, f"The {policy} policy says: “{said(sentence.text, BY_NAME.get(facet))}” {cited}.",
                       support)
    # A stated period is a "yes" to retention even when worded as a limit ("we do not retain … for more than 25 months").
    states_period = facet == "retention" and PERIOD.search(sentence.text)
    verdict = YES if states_period else stance(sentence, BY_NAME.get(facet))
    gated = yes_no and asks_permission_data(frame)
    if gated and verdict == YES:  # data behind a device permission: a statement that it waits on the grant answers
        granted = _permission_statement(ranking, support)
        if granted is not None:
            support, sentence, verdict = granted, ranking.ranked[granted].sentence, CONDITIONAL
            cited = f"(sentence {sentence.ordinal})"
    own_condition = facet is not None and BY_NAME[facet].condition is not None and BY_NAME[facet].condition.search(
        sentence.text)  # the facet's own "only if" ("when required by law", for the authorities) stands
    if verdict == CONDITIONAL and on_your_setting(sentence.text) and not (
            own_condition or on_consent(sentence.text) or gated):
        # one case the person chooses, or the law demands, among statements of the practice for everyone: those
        # answer first ("Unless you have chosen stricter settings, we collect your position" beside "… if the
        # geolocation feature is enabled"); a practice said to wait on your consent or permission stays "only if"
        plain = _plain_statement(ranking, support, BY_NAME.get(facet))
        if plain is not None:
            support, sentence, verdict = plain, ranking.ranked[plain].sentence, YES
            cited = f"(sentence {sentence.ordinal})"
    scope = scope_of(sentence.text, BY_NAME.get(facet)) if verdict in (YES, NO) else None
    if scope:  # a statement for some only: a general one among the best comes first, else the answer is scoped
        general = _general_statement(ranking, support, BY_NAME.get(facet))
        if general is not None:
            support, sentence = general, ranking.ranked[general].sentence
            cited = f"(sentence {sentence.ordinal})"
            verdict, scope = stance(sentence, BY_NAME.get(facet)), None
    # the frame's words where it names what the facet's own words do not (its objects are those the facet leaves)
    says_frame = _says_frame(frame)
    claim = claim_of(ranking.question, policy) if facet is None and not says_frame else None
    if scope:
        does = (_frame_phrase(frame, verdict == YES) if says_frame
                else _facet_phrase(BY_NAME.get(facet), verdict, claim))
        subject = "" if not says_frame and facet is not None and BY_NAME[facet].about_you else "it "
        return Verdict(SCOPED, f"Only for some ({scope}) — {policy} says {subject}{does} {cited}.", support)
    headline = (_frame_headline(verdict, policy, frame, cited, sentence.text) if says_frame
                else _headline(verdict, policy, BY_NAME.get(facet), cited, sentence.text, claim))
    opposite = _opposite(ranking, support, BY_NAME.get(facet), verdict) if verdict in (YES, NO) else None
    if opposite is not None:  # the policy says both: both are shown, not one chosen silently
        other = ranking.ranked[opposite].sentence.ordinal
        return Verdict(verdict, f"{headline} It also says the opposite in sentence {other} (quoted second).",
                       support, (opposite,))
    return Verdict(verdict, headline, support)


CONTRADICTION_DEPTH = 4  # the facet's best statements read for one that says the opposite


def _statements(ranking: EvidenceRanking, support: int, facet: Facet | None) -> list[int]:
    """The candidates that could answer as the support does: they speak of the facet (and name what the question
    names) and can state a practice, best first."""
    out = []
    for i in sorted(range(len(ranking.ranked)),
                    key=lambda i: -(ranking.ranked[i].selection_logit + ranking.ranked[i].answer_score)):
        sentence = ranking.ranked[i].sentence
        if i == support or (facet is not None and not (facet.addressed_by(sentence.text)
                                                      and states_practice(sentence.text, facet))):
            continue
        if ranking.frame.specific and not grounded(ranking.frame, sentence.text, sentence.section):
            continue
        if facet is None and not ranking.frame.specific:
            continue
        out.append(i)
    return out


def _general_statement(ranking: EvidenceRanking, support: int, facet: Facet | None) -> int | None:
    """Among the best statements, one for everyone (no scope: `scope_of`) with a yes or no, if any."""
    return next((i for i in _statements(ranking, support, facet)[:PREFER_DEPTH]
                 if not scope_of(ranking.ranked[i].sentence.text, facet)
                 and stance(ranking.ranked[i].sentence, facet) in (YES, NO)), None)


def _plain_statement(ranking: EvidenceRanking, support: int, facet: Facet | None) -> int | None:
    """Among the best statements, one that states the practice plainly: a "yes" for everyone, under no condition the
    person chooses or the law demands (`on_your_setting`)."""
    return next((i for i in _statements(ranking, support, facet)[:PREFER_DEPTH]
                 if not scope_of(ranking.ranked[i].sentence.text, facet)
                 and not on_your_setting(ranking.ranked[i].sentence.text)
                 and stance(ranking.ranked[i].sentence, facet) == YES), None)


PERMISSION_DEPTH = 8  # the grounded candidates read for a statement that device data waits on the person's grant


def asks_permission_data(frame: Frame) -> bool:
    """Whether the question names data an app reaches only through a device permission (contacts, precise location,
    camera, photo library: `permission` in `lang/concepts.toml`)."""
    return any(vocabulary().concepts[o].permission for o in frame.objects)


def _permission_statement(ranking: EvidenceRanking, support: int) -> int | None:
    """Among the best grounded statements of the asked device data, one that says it is reached on the person's
    permission or choice (`statements.on_permission`): such data is read only once the person grants access, and
    a plain statement of it ("Your contacts", in a list of what is collected) leaves that out. None when no
    statement says so: the plain "yes" stands."""
    frame = ranking.frame
    order = [support] + sorted((i for i in range(len(ranking.ranked)) if i != support),
                               key=lambda i: -(ranking.ranked[i].selection_logit + ranking.ranked[i].answer_score))
    for i in order[:PERMISSION_DEPTH]:
        sentence = ranking.ranked[i].sentence
        if (grounded(frame, sentence.text, sentence.section) and on_permission(sentence.text)
                and not denied(sentence.facts, sentence.text)):
            return i
    return None


def _opposite(ranking: EvidenceRanking, support: int, facet: Facet | None, verdict: str) -> int | None:
    """A statement among the best that says the opposite of the verdict for everyone (a "no" beside a "yes"),
    PolicyLint's contradiction; a scoped or conditional one is no contradiction."""
    want = NO if verdict == YES else YES
    return next((i for i in _statements(ranking, support, facet)[:CONTRADICTION_DEPTH]
                 if _ABOUT_DATA.search(ranking.ranked[i].sentence.text)
                 and not scope_of(ranking.ranked[i].sentence.text, facet)
                 and not limited_to_some(ranking.ranked[i].sentence.text)
                 and stance(ranking.ranked[i].sentence, facet) == want), None)


# a statement about your data at all ("We sell children's products for purchase by adults" is not)
_ABOUT_DATA = re.compile(r"\b(?:information|data|details|personal|content|identifiers?)\b", re.IGNORECASE)


def _facet_phrase(facet: Facet | None, verdict: str, claim: Claim | None = None) -> str:
    if facet is None and claim is not None:
        return claim.does if verdict == YES else claim.does_not
    if facet is None:
        return "does so" if verdict == YES else "does not"
    return facet.does if verdict == YES else facet.does_not


# A general retention rule ("for as long as necessary to provide the services", "while your account is active"),
# as against a period for some data or some case ("deleted items remain for up to 30 days").
GENERAL_RETENTION = re.compile(
    r"\b(?:(?:for )?as long as (?:(?:is |it is |reasonably |strictly )?(?:necessary|needed|required)|your account|"
    r"you (?:use|keep|have|maintain|remain)|we (?:need|have a legitimate)|(?:it is )?(?:relevant|useful))|"
    r"no longer than (?:is )?(?:necessary|needed|required)|no longer (?:necessary|needed|required) for|"
    r"(?:length|period) of time (?:that is |which is )?(?:reasonably |strictly )?(?:necessary|needed|required)|"
    r"while your account|until (?:you (?:delete|close)|"
    r"your account is (?:deleted|closed)|it is no longer (?:necessary|needed))|for the (?:duration|period|time) "
    r"(?:of your|necessary|needed|required|that))", re.IGNORECASE)
RETENTION_DEPTH = 15  # candidates read for the general rule and the periods
MAX_PERIODS = 3


def _how_long(ranking: EvidenceRanking, support: int) -> Verdict | None:
    """"How long do you keep my data?": the general rule the policy states, in its words, then the periods it
    states for some data or cases (each once); None when the candidates state neither."""
    facet = BY_NAME["retention"]
    depth = [i for i in range(min(len(ranking.ranked), RETENTION_DEPTH))
             if facet.addressed_by(ranking.ranked[i].sentence.text) or i == support]
    if ranking.frame.specific:  # "How long do you keep undelivered messages?": its period wherever it ranks
        depth += [i for i in range(RETENTION_DEPTH, len(ranking.ranked))
                  if facet.addressed_by(ranking.ranked[i].sentence.text) and _names_asked(ranking, i)]
    general = next((i for i in [support, *depth] if GENERAL_RETENTION.search(ranking.ranked[i].sentence.text)), None)
    periods: list[tuple[int, str]] = []
    for i in depth:
        if not _names_asked(ranking, i):  # "How long do you keep my search history?": not the period of public posts
            continue
        found = PERIOD.search(ranking.ranked[i].sentence.text)
        if found and i != general and not GENERAL_RETENTION.match(found.group()) and all(
                found.group().lower() != p.lower() for _, p in periods) and len(periods) < MAX_PERIODS:
            periods.append((i, found.group()))
    if general is None and not periods:
        return None
    policy = ranking.version.name
    stated = "; ".join(f"“{period}” (sentence {ranking.ranked[i].sentence.ordinal})" for i, period in periods)
    if general is None:
        return Verdict(None, f"The {policy} policy states no general rule; it states these periods: {stated}.",
                       periods[0][0], tuple(i for i, _ in periods[1:]))
    rule = ranking.ranked[general].sentence
    if ranking.frame.specific and periods and _asked_data(ranking.frame) != "that":  # the asked data's period first
        return Verdict(None, f"For {_asked_data(ranking.frame)}, the {policy} policy states: {stated}. Its general "
                             f"rule: “{said(rule.text, facet)}” (sentence {rule.ordinal}).",
                       periods[0][0], tuple(i for i, _ in periods[1:]) + (general,))
    headline = f"The {policy} policy says: “{said(rule.text, facet)}” (sentence {rule.ordinal})."
    if periods:
        headline += f" For some data or cases it states: {stated}."
    return Verdict(None, headline, general, tuple(i for i, _ in periods))


def _names_asked(ranking: EvidenceRanking, position: int) -> bool:
    """Whether a candidate names what the question names (its data, recipients …), when the question names any."""
    sentence = ranking.ranked[position].sentence
    return not ranking.frame.specific or states_objects(ranking.frame, sentence.text, sentence.section)


def _asked_data(frame: Frame) -> str:
    """The kinds of data a question names, in the concepts' labels ("your search history"); else "that"."""
    labels = [vocabulary().concepts[o].label for o in frame.objects if vocabulary().concepts[o].kind == DATA]
    return " and ".join(labels) or "that"


SAID_CHARS = 240  # a longer sentence is said by its clause that speaks of the facet


def said(text: str, facet: Facet | None, about: re.Pattern | None = None) -> str:
    """What a headline quotes of a sentence: all of it when short; else its clause (between semicolons or
    colons) that speaks of the facet (or matches `about`), or its first; a clause still too long ends at a word with "…". Never a
    phrase cut where the policy's sentence goes on without saying so."""
    text = text.strip()
    if len(text) <= SAID_CHARS:
        return text
    clauses = [c.strip() for c in re.split(r"(?<=[;:])\s+", text) if c.strip()]
    clause = next((c for c in clauses if (about is not None and about.search(c))
                   or (about is None and facet is not None and facet.sentence.search(c))), clauses[0])
    if len(clause) <= SAID_CHARS:
        return clause if clause == clauses[-1] else f"{clause.rstrip(';:,')} …"
    return clause[:SAID_CHARS].rsplit(" ", 1)[0].rstrip(",;:") + " …"


def _grounded_support(ranking: EvidenceRanking, support: int | None, facet: Facet | None) -> int | None:
    """The supporting sentence for a question that names kinds of data, recipients or purposes: the chosen one
    if it names them all and speaks of the asked action (`understanding.frame.grounded`), else the best-ranked
    candidate that does; None when none does (the policy does not say). A denial must deny the asked action
    itself: "we do not sell biometric data" does not say whether they collect it."""
    for i in _chosen_then_best(ranking, support):
        sentence = ranking.ranked[i].sentence
        if not grounded(ranking.frame, sentence.text, sentence.section):
            continue
        if stance(sentence, facet) == NO and not speaks_of_action(ranking.frame, sentence.text, sentence.section,
                                                                  exactly=True):
            continue
        return i
    return None


def _stating_support(ranking: EvidenceRanking, support: int | None) -> int | None:
    """The supporting sentence for a yes/no question of no known topic: the chosen one if it says what the question
    asks (`understanding.asked_words`), else the best-ranked candidate that does; None when none does."""
    asked = asked_words(ranking.question, ranking.version.name)
    if not asked:  # nothing but generic words ("Can they do that?"): nothing to hold a sentence to
        return support
    return next((i for i in _chosen_then_best(ranking, support)
                 if states_asked(asked, ranking.ranked[i].sentence.text)), None)


def _chosen_then_best(ranking: EvidenceRanking, support: int | None) -> list[int]:
    """The chosen support first, then every other candidate by its selection logit plus its answer score."""
    return ([] if support is None else [support]) + sorted(
        (i for i in range(len(ranking.ranked)) if i != support),
        key=lambda i: -(ranking.ranked[i].selection_logit + ranking.ranked[i].answer_score))


# How a headline says the asked action: (does, does not), in the third person.
_ACTION_WORDS = {
    "collect": ("collects", "does not collect"), "use": ("uses", "does not use"),
    "share": ("shares", "does not share"), "sell": ("sells", "does not sell"), "keep": ("keeps", "does not keep"),
    "transfer": ("transfers", "does not transfer"), "protect": ("protects", "does not protect"),
    None: ("uses", "does not use"),
}


def _says_frame(frame: Frame) -> bool:
    """Whether a headline can say the frame in words: it names data, recipients or purposes (a topic such as Do
    Not Track, or a bare name, is said by the generic headline and its quote)."""
    return any(vocabulary().concepts[o].kind in (DATA, RECIPIENT, PURPOSE) for o in frame.objects)


def _frame_phrase(frame: Frame, does: bool) -> str:
    """"collects biometric data", "does not share your purchase history with insurers": the question's frame in
    the headline's words (the concepts' labels, `lang/concepts.toml`)."""
    concepts = [vocabulary().concepts[o] for o in frame.objects]
    data = " and ".join(c.label for c in concepts if c.kind == DATA) or "your data"
    recipients = " and ".join(c.label for c in concepts if c.kind == RECIPIENT)
    purposes = " and ".join(c.label for c in concepts if c.kind == PURPOSE)
    places = " or ".join(c.label for c in concepts if c.kind == PLACE)
    verb = _ACTION_WORDS.get(frame.action, _ACTION_WORDS[None])[0 if does else 1]
    joint = "to" if frame.action == "sell" else "with"
    where = "in" if frame.action == "keep" else "to"
    return (f"{verb} {data}" + (f" {joint} {recipients}" if recipients else "")
            + (f" for {purposes}" if purposes else "") + (f" {where} {places}" if places else ""))


def _frame_headline(verdict: str, policy: str, frame: Frame, cited: str, quote: str) -> str:
    """The headline of a question that names kinds of data, recipients or purposes: what the quote states of
    exactly them (the quote names each: `_grounded_support`)."""
    if verdict == CONDITIONAL:
        consent = on_consent(quote)
        condition = "only with your consent" if consent else "only under the conditions quoted below"
        opening = "Only with your consent" if consent else "Only in some cases"
        return f"{opening} — {policy} says it {_frame_phrase(frame, True)} {condition} {cited}."
    return f"{verdict.capitalize()} — {policy} says it {_frame_phrase(frame, verdict == YES)} {cited}."


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


def _headline(verdict: str, policy: str, facet: Facet | None, cited: str, quote: str = "",
              claim: Claim | None = None) -> str:
    """The headline in the facet's words; for a question no facet covers, in the question's own (`claim`: "Yes —
    instacart says it records customer support calls"), else the generic "the … policy says so"."""
    if verdict == CONDITIONAL and facet is not None and facet.conditional_opening and facet.condition.search(quote):
        return f"{facet.conditional_opening} — {policy} says it {facet.does} as quoted below {cited}."
    if verdict == CONDITIONAL:
        consent = on_consent(quote)
        condition = "only with your consent" if consent else "only under the conditions quoted below"
        opening = "Only with your consent" if consent else "Only in some cases"
        if facet is None and claim is not None:
            return f"{opening} — {policy} says it {claim.does} {condition} {cited}."
        if facet is None:
            return f"{opening} — the {policy} policy says so {condition} {cited}."
        subject = "" if facet.about_you else "it "
        return f"{opening} — {policy} says {subject}{facet.does} {condition} {cited}."
    if facet is None and claim is not None:
        return f"{verdict.capitalize()} — {policy} says it {claim.does if verdict == YES else claim.does_not} {cited}."
    if facet is None:
        said = "so" if verdict == YES else "not"
        return f"{verdict.capitalize()} — the {policy} policy says {said} {cited}."
    if facet.about_you:
        return f"{verdict.capitalize()} — {policy} says {facet.does if verdict == YES else facet.does_not} {cited}."
    return f"{verdict.capitalize()} — {policy} says it {facet.does if verdict == YES else facet.does_not} {cited}."
