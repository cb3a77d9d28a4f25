"""What a policy sentence says of a data practice: the one home of the sentence-level decisions.

- The PolicyIE fact readers: a slot's role, kind and attribute in plain words, whether it carries content, and
  the one-line statement composed from a sentence's facts (`statement`).
- Whether a sentence *denies* its practice (`denied`: PolicyIE's polarity slot or the word rules of
  `understanding.stance`), allows it only if (your consent or choice, exceptions, "by default"), or speaks of
  some products, purposes or residents only (`limited_to_some`, `for_some_residents`, `purpose_limit`); its
  stance on a facet's practice, yes / no / conditional, comes from all of them (`stance`).
- Whether it can state a practice at all: not a heading, a definition or one of the facet's asides
  (`states_practice`); the period and the age it states (`PERIOD`, `AGE`).

What a facet is and its words live in `understanding.facets`; the verdict on a ranking and its headline in
`answering.verdict`; the privacy label in `answering.label`.
"""
from __future__ import annotations

import collections
import re
import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources

from assistant.foundation.types import Facts, Sentence, Slot
from assistant.understanding.facets import BY_NAME, Facet
from assistant.understanding.stance import denies, negations_read_otherwise

YES, NO, CONDITIONAL = "yes", "no", "conditional"  # a sentence's stance on a practice
SCOPED = "scoped"  # an answer that holds for some people, places or products only (`scope_of`)

# -- PolicyIE's facts --------------------------------------------------------------------------------------------

# Words that alone say nothing: a slot made only of them ("and", "your") is not shown.
_FUNCTION_WORDS = frozenset(
    "a an and any are as at be by for from in is it its of on or our the their them they this to us we "
    "with you your yours".split()
)


def informative(slot: Slot) -> bool:
    """Whether a slot's text carries content (not only function words or punctuation)."""
    return any(len(w) > 1 and w.lower() not in _FUNCTION_WORDS for w in slot.text.replace("-", " ").split()
               if any(c.isalpha() for c in w))


def role(slot: Slot) -> str:
    """The slot type without its attribute: `data-shared.data-contact` → `data-shared`."""
    return slot.slot.split(".", 1)[0]


# PolicyIE's attribute values (its annotation scheme's names) in the words a privacy label uses.
READABLE = {
    # data types
    "data-general": "personal information in general", "data-other": "other data",
    "data-aggregated-nonidentifiable": "aggregated or de-identified data", "data-computer-device": "device data",
    "data-contact": "contact details", "data-cookies-web-beacons-and-other-technologies": "cookies and similar technologies",
    "data-demographic": "demographics", "data-finance": "financial data", "data-location": "location",
    "data-user-online-activities-profiles": "online activity",
    # purposes
    "advertising-marketing": "advertising and marketing", "analytics-research": "analytics and research",
    "basic-service-feature": "providing the service", "communications": "communicating with you",
    "legal-requirement": "legal requirements", "merge-acquisition": "mergers and acquisitions", "other": "other purposes",
    "personalization-customization": "personalisation", "service-operation-and-security": "running and securing the service",
    # security measures
    "access-limitation": "access limits", "encryptions": "encryption", "general-safeguard-method": "general safeguards",
    "protection-other": "other protections", "user-authentication": "user authentication",
}
UNTYPED = frozenset({"data-general", "data-other"})  # data of no stated type


def kind(slot: Slot) -> str:
    """The slot's attribute as PolicyIE names it: `data-shared.data-contact` → `data-contact`."""
    return slot.slot.split(".", 1)[-1]


def attribute(slot: Slot) -> str:
    """The attribute in plain words: `data-shared.data-contact` → `contact details`,
    `purpose-argument.basic-service-feature` → `providing the service`."""
    value = kind(slot)
    return READABLE.get(value, value.removeprefix("data-").replace("-", " "))


def has_polarity(facts: Facts) -> bool:
    """Whether PolicyIE tagged a `polarity` (negation) slot in the sentence."""
    return any(role(s) == "polarity" for s in facts.slots)


# -- denials, conditions and scope ---------------------------------------------------------------------------------


def denied(facts: Facts | None, text: str | None) -> bool:
    """Whether a sentence says its practice is *not* done: PolicyIE's polarity slot, or the word
    rules of `understanding.stance` on its text (the model often misses the negation). The slot does not count
    where the rules read every negation as something else ("may not be able to … in all circumstances")."""
    if text is not None and denies(text):
        return True
    return facts is not None and has_polarity(facts) and not (text is not None and negations_read_otherwise(text))


# A denial that limits only the purpose ("They have access to personal information …, but may not use it for other
# purposes"): the data is used, just not for those purposes.
_PURPOSE_LIMIT = re.compile(r"\b(?:not|never)\b[^.;]{0,50}?\bfor (?:any )?(?:other|unrelated|different|(?:their|its) own)\b"
                            r"[^.;]{0,30}?\bpurposes?\b|\bfor (?:any )?purposes? other than\b", re.IGNORECASE)


def purpose_limit(text: str) -> int | None:
    """Where a denial that limits only the purpose starts ("may not use it for other purposes"), or None: what is
    said before it is not denied."""
    found = _PURPOSE_LIMIT.search(text)
    return found.start() if found else None


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
# What you may choose to give or turn on ("Users may choose to send us audio", "You may set your device permissions to
# grant … access", "if you've chosen to use a voice feature", "only if you select the option to share it").
# What else the person turns on, grants, links, joins or chooses beyond ordinary use, and a legal demand, are read by
# `on_your_setting` (`lang/conditions.toml`, measured on real sentences labelled blind).
_PROVIDE = r"(?:send|share|provide|give|upload|submit|record|allow|enable|turn on|use (?:a |the |our )?(?:voice|\w+ feature))"
_YOU_MAY_CHOOSE = re.compile(
    rf"\b(?:you|users|members|customers) (?:may|can|could) (?:choose|elect|opt|decide) to {_PROVIDE}\b|"
    rf"\bif you(?:'ve| have)? (?:choose|chosen|chose|decide|decided|elect|elected|select|selected) to {_PROVIDE}\b|"
    r"\b(?:grant|give) (?:\w+ ){0,2}(?:access|permission)\b|\bdevice permissions?\b|\bonly if you (?:select|choose|"
    r"enable|opt)\b|\byou (?:elect|choose|opt|decide) to (?:enable|turn on|allow|activate)\b|"
    r"\b(?:provide|give|grant) (?:the |your )?(?:requisite |required |necessary |explicit |express |prior )?consent\b",
    re.IGNORECASE)
# consent the law may require ("with your consent when required", "where required by law"): no condition the policy
# sets on the practice
_CONSENT_WHERE_REQUIRED = re.compile(r"\bconsent,? (?:when|where|if|as) (?:legally )?(?:required|necessary|applicable)\b",
                                     re.IGNORECASE)
# Main clauses a sentence joins: by a semicolon, a dash, or ", and we / it / they …".
_JOINED_CLAUSES = re.compile(r"\s*(?:;|\s[—–]\s|,\s+and\s+(?=(?:we|it|they|our)\b))\s*", re.IGNORECASE)
# clauses a sentence joins with a semicolon, a dash or "but" ("does not reveal your identity … but may include …
# country, location")
_CLAUSE_BREAK = re.compile(r"\s*(?:;|\s[—–]\s|,?\s+but\s+)\s*")
# A sentence for the residents of some states only ("Colorado residents can submit … requests by emailing us at …"):
# the facet's preferred words in it give way to the same words in a sentence for everyone.
_RESIDENTS = re.compile(r"\b(?:[A-Z][a-z]+ ){1,2}residents\b")


def limited_to_some(text: str) -> bool:
    """Whether a sentence speaks of some products or purposes only ("… when you use Le Chat Enterprise", "for
    marketing purposes", "precise geolocation"): a denial in it is no blanket denial."""
    return bool(_SCOPED.search(text))


def for_some_residents(text: str) -> bool:
    """Whether a sentence is for the residents of some states only ("Colorado residents can submit …")."""
    return bool(_RESIDENTS.search(text))


@dataclass(frozen=True)
class PatternRule:
    """One pattern rule of a file in `lang/`: whom a statement applies to (`scopes.toml`), or what a practice waits
    on (`conditions.toml`), with the sentences it must and must not match."""

    name: str
    pattern: re.Pattern
    match: tuple[str, ...] = ()
    no_match: tuple[str, ...] = ()
    facets: frozenset[str] = frozenset()  # scopes: the facets whose subject the group is ("children under 13")


@cache
def _rules(file: str) -> tuple[PatternRule, ...]:
    """The rules of a file in `lang/`, their shared verbs (a `[verbs]` entry, if any) filled in, read once."""
    data = tomllib.loads(resources.files("assistant.understanding").joinpath(f"lang/{file}").read_text("utf-8"))
    verbs = data.pop("verbs", {}).get("words", "")
    return tuple(PatternRule(name, re.compile(entry["pattern"].replace("{verbs}", verbs), re.IGNORECASE),
                             tuple(entry.get("match", ())), tuple(entry.get("no_match", ())),
                             frozenset(entry.get("facets", ())))
                 for name, entry in data.items())


def scope_rules() -> tuple[PatternRule, ...]:
    """The shipped scope rules (`lang/scopes.toml`)."""
    return _rules("scopes.toml")


def scope_of(text: str, facet: Facet | None = None) -> str | None:
    """Whom a statement applies to when it names some only ("California residents", "student personal data",
    "enterprise customers", "children under 16"), in its own words; None for a statement about everyone — also when
    the group is one of several it names ("Student Data or Customer Personal Data"), or the subject of `facet`'s own
    question ("children under 13" for a question about children)."""
    asked = {facet.name, facet.refines} if facet is not None else set()
    for rule in scope_rules():
        if rule.facets & asked:
            continue
        for found in rule.pattern.finditer(text):
            if not _COORDINATED.match(text, found.end()) and not _asked_of(facet, found.group()):
                return found.group().strip()
    return None


def _asked_of(facet: Facet | None, group: str) -> bool:
    """Whether a group is what `facet` (or the broader facet it refines) asks about: its question words name it."""
    asked = [facet, BY_NAME.get(facet.refines or "")] if facet is not None else []
    return any(f is not None and f.question.search(group) for f in asked)


_COORDINATED = re.compile(r",?\s+(?:or|and|as well as)\s+(?!you\b|we\b|they\b)", re.IGNORECASE)


def condition_rules() -> tuple[PatternRule, ...]:
    """The shipped condition rules (`lang/conditions.toml`)."""
    return _rules("conditions.toml")


# the person's own act that hands device data over: "If you share your contacts, we will collect …", "when you
# connect your calendar", "once you upload your address book" (for data behind a device permission only)
_YOU_HAND_IT_OVER = re.compile(r"\b(?:if|when|where|once|whenever|should|after)\s+you\s+(?:\w+ly\s+)?(?:share|sync|"
                               r"upload|connect|import|link|give us access|grant us access|provide us with access)\b",
                               re.IGNORECASE)


def on_permission(text: str) -> bool:
    """Whether a statement about data an app reaches through a device permission (contacts, precise location,
    camera …) says it does so on the person's permission or choice: a condition `stance` reads as theirs ("with
    your permission", "if you choose to sync your contacts", "in accordance with your device permissions"), or
    the person's own act of handing it over ("If you share your contacts, …")."""
    if _CONSENT_WHERE_REQUIRED.search(text):
        return False
    return bool(_YOUR_CHOICE.search(text) or _YOU_MAY_CHOOSE.search(text) or on_your_setting(text)
                or _YOU_HAND_IT_OVER.search(text))


def on_your_setting(text: str) -> bool:
    """Whether a statement makes the practice depend on something the person chooses beyond ordinary use ("When you
    enable Location Services, we collect …", "if you have given us your consent") or on a legal demand: not
    ordinary use of the service."""
    return any(rule.pattern.search(text) for rule in condition_rules())


def on_consent(text: str) -> bool:
    """Whether the condition a sentence states is your consent or choice ("without your explicit consent", "if you
    choose to allow it"), not some other case."""
    return bool(_WITHOUT_CONSENT.search(text) or _YOUR_CHOICE.search(text))


def stance(sentence: Sentence, facet: Facet | None) -> str:
    """yes, no or conditional: what a sentence says of the facet's practice.

    - The facet's own words for an "only if" or a "no" (`Facet.condition`, `Facet.denial`) come first.
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
    if facet is not None and facet.denial_only:
        return YES
    if not denied(sentence.facts, text):
        # done only on your choice ("If you choose to allow …, we may collect", "Users may choose to send us audio",
        # "only with your permission"): only if — not for the rights you exercise ("you can choose to delete")
        chosen = (_YOUR_CHOICE.search(text) or _YOU_MAY_CHOOSE.search(text) or on_your_setting(text)) and not (
            _CONSENT_WHERE_REQUIRED.search(text))
        return CONDITIONAL if chosen and not (facet is not None and facet.about_you) else YES
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


# -- statements of a practice ---------------------------------------------------------------------------------------

MIN_STATEMENT_WORDS = 5
# A sentence or list item ends with punctuation, or with an address to write to ("… contact details are: dpo@x.com").
_CLOSED = re.compile(r"(?:[.!?;:][\"'”’)\]]*|\S+@\S+\.[a-z]{2,}|https?://\S+)\s*$", re.IGNORECASE)
_TITLE_WORD = re.compile(r"\s[A-Z][a-z]")  # "… with advertisers (including Targeted Advertising)": a title's capitals
# "Do Not Sell or Share my Personal Information.": a link's or a heading's title, however it ends.
_TITLE_CASE = re.compile(r"^\W*(?:[A-Z][\w’'-]*,?\s+(?:(?:or|and|of|the|a|an|to|for|my|your|our|in|on|with)\s+)?)+"
                         r"[A-Z][\w’'-]*\W*$")
# "A cookie is a small text file …", "Cookies are small pieces of information …": what a thing is, not a practice,
# also after the label of a list item ("Information from cookies & other technologies: A cookie is a string …").
_DEFINITION = re.compile(r"^\W*(?:[^:.]{1,60}:\s+)?(?:an?\s+|the\s+)?(?:[\"“‘']?[\w-]+[\"”’']?\s+){1,3}(?:is|are)\s+(?:an?\s+|small\s+|"
                         r"tiny\s+|)(?:small|tiny|text|pieces?|piece|files?|data files?|electronic|unique|alphanumeric|"
                         r"strings?)\b|"
                         # a defined term ("“Customer” means an entity that has contracted with Tempo … to access our
                         # Services")
                         r"^\W*(?:the\s+)?[\"“‘'][^\"”’']{1,40}[\"”’']\s+(?:means|refers to|shall mean)\b", re.IGNORECASE)
# An age ("under the age of 13", "at least 16 years old"): what a "how old" answer quotes.
AGE = re.compile(r"\b(?:under|younger than|below|over|older than|at least)\s+(?:the\s+age\s+of\s+)?\d{1,2}\b"
                 r"(?:\s+years?(?:\s+of\s+age|\s+old)?)?|\b\d{1,2}\s+years?\s+(?:of\s+age|old)\b", re.IGNORECASE)
# A sentence naming who runs the service or answers for the data (the answer to `facets.ASKS_CONTROLLER`).
NAMES_CONTROLLER = re.compile(r"\b(?:data )?controllers?\b|\bresponsible for (?:the )?(?:processing|(?:your|the) "
                              r"(?:personal )?(?:data|information))\b", re.IGNORECASE)
# A period of time, or a rule for one: what a "how long" answer quotes.
PERIOD = re.compile(
    r"\b(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|twelve|thirty|sixty|ninety)\s+(?:\(\d+\)\s+)?"
    r"(?:days?|weeks?|months?|years?)\b|\bas long as [^,.;]+|\buntil [^,.;]+|\bindefinitely\b", re.IGNORECASE)


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


VERBS = {
    "data-collection-usage": "collects",
    "data-sharing-disclosure": "shares",
    "data-storage-retention-deletion": "keeps",
    "data-security-protection": "protects",
}
NEGATED_VERBS = {
    "collects": "does not collect", "shares": "does not share", "keeps": "does not keep",
    "protects": "does not protect",
}
_ACTORS = ("data-collector", "data-sharer", "data-holder", "data-protector")
_DATA = ("data-collected", "data-shared", "data-retained", "data-protected")


def statement(facts: Facts, text: str | None) -> str | None:
    """'We (“we”) shares contact data (“email address”) with “advertising partners” …', or None for `Other`.

    `text` is the sentence the facts come from: the verb is negated ("does not share") when the
    sentence denies the practice (`denied`), unless the denial limits only the purpose (`purpose_limit`: "… for
    providing the service but not for other purposes")."""
    verb = VERBS.get(facts.intent)
    if verb is None:
        return None
    by_role: dict[str, list[Slot]] = collections.defaultdict(list)
    for slot in facts.slots:
        if informative(slot) or role(slot) in ("polarity", "data-collector", "data-sharer", "data-holder",
                                               "data-protector"):
            by_role[role(slot)].append(slot)
    limit = purpose_limit(text) if text is not None else None
    if denied(facts, text) and limit is None:
        verb = NEGATED_VERBS[verb]
    actors = [s for r in _ACTORS for s in by_role.get(r, [])]
    data = [s for r in _DATA for s in by_role.get(r, [])]
    who = _quote(actors[:1]) if actors else "The policy"
    what = "; ".join(_quote([s]) if kind(s) in UNTYPED else f"{attribute(s)} ({_quote([s])})" for s in data[:4]) or "data"
    parts = [f"{who} {verb} {what}"]
    if by_role.get("data-provider"):
        parts.append(f"from {_quote(by_role['data-provider'][:2])}")
    if by_role.get("data-receiver"):
        parts.append(f"with {_quote(by_role['data-receiver'][:3])}")
    if by_role.get("retention-period"):
        parts.append(f"for {_quote(by_role['retention-period'][:1])}")
    if by_role.get("storage-place"):
        parts.append(f"in {_quote(by_role['storage-place'][:1])}")
    if by_role.get("method"):
        parts.append(f"by {_quote(by_role['method'][:3])}")
    if by_role.get("protect-against"):
        parts.append(f"against {_quote(by_role['protect-against'][:2])}")
    purposes = by_role.get("purpose-argument", [])
    allowed = sorted({attribute(s) for s in purposes if limit is None or s.start < limit})
    excluded = sorted({attribute(s) for s in purposes if limit is not None and s.start >= limit} - set(allowed))
    if allowed:
        parts.append("for " + ", ".join(allowed))
    if excluded:
        parts.append(("but " if allowed else "") + "not for " + ", ".join(excluded))
    if by_role.get("condition-argument"):
        parts.append(f"— condition: {_quote(by_role['condition-argument'][:2])}")
    return " ".join(parts) + "."


def _quote(slots: list[Slot]) -> str:
    return ", ".join(f"“{s.text}”" for s in slots)
