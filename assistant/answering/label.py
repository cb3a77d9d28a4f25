"""Structured facts from PolicyIE slots: a one-line statement per sentence, and the privacy label.

Everything shown comes from the policy: slot texts are quoted verbatim; only connecting words
("shares … with …") and category names are ours.
"""
from __future__ import annotations

import collections
from dataclasses import asdict, dataclass, field

from assistant.foundation.types import Facts, Sentence, Slot
from assistant.understanding.stance import denies, negations_read_otherwise, purpose_limit

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
CHOICE_CATEGORIES = ("User Choice/Control", "User Access, Edit and Deletion")


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
    "data-general": "information (no type named)", "data-other": "other data",
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


def denied(facts: Facts | None, text: str | None) -> bool:
    """Whether a sentence says its practice is *not* done: PolicyIE's polarity slot, or the word
    rules of `understanding.stance` on its text (the model often misses the negation). The slot does not count
    where the rules read every negation as something else ("may not be able to … in all circumstances")."""
    if text is not None and denies(text):
        return True
    return facts is not None and has_polarity(facts) and not (text is not None and negations_read_otherwise(text))


def statement(facts: Facts, text: str | None) -> str | None:
    """'We (“we”) shares contact data (“email address”) with “advertising partners” …', or None for `Other`.

    `text` is the sentence the facts come from: the verb is negated ("does not share") when the
    sentence denies the practice (PolicyIE's polarity slot, or `denies(text)`)."""
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


@dataclass
class LabelCell:
    """One row of a label section: an item (e.g. a data type) and where the policy says it."""

    item: str
    examples: list[str] = field(default_factory=list)  # verbatim slot texts, most frequent first
    sentences: list[int] = field(default_factory=list)  # ordinals of the sentences it comes from
    negated: bool = False  # at least one of those sentences says it does *not* happen
    negated_sentences: list[int] = field(default_factory=list)  # those sentences' ordinals

    @property
    def only_negated(self) -> bool:
        """Every sentence behind the cell denies it: the policy says it is *not* done."""
        return bool(self.sentences) and len(self.negated_sentences) == len(self.sentences)


@dataclass
class LabelSection:
    title: str
    rows: list[LabelCell]


@dataclass
class GlanceRow:
    """One facet of the label at a glance: the verdict on its plain question, and the sentence behind it."""

    facet: str
    question: str
    verdict: str  # yes | no | conditional | not_stated
    headline: str
    sentence_id: int | None = None  # the supporting sentence (None when not stated)
    quote: str | None = None  # that sentence, verbatim
    value: str | None = None  # what it states, verbatim: a period, a link, a minimum age, the data types
    described: str | None = None  # the OPP-115 attribute value read in it ("Retention Period: Stated Period")


@dataclass
class PrivacyLabel:
    policy: str
    version: int
    sections: list[LabelSection]
    sentences_read: int
    glance: list[GlanceRow] = field(default_factory=list)  # one row per facet (assistant.answering.profile)

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> PrivacyLabel:
        """The label back from its JSON form (`to_dict`), e.g. as `assistant serve` sent it."""
        sections = [LabelSection(s["title"], [LabelCell(**cell) for cell in s["rows"]]) for s in data["sections"]]
        return cls(data["policy"], data["version"], sections, data["sentences_read"],
                   [GlanceRow(**row) for row in data["glance"]])


# (section title, slot roles grouped by attribute in that section)
_LABEL_SECTIONS = (
    ("Data collected", ("data-collected",), "attribute"),
    ("Data shared", ("data-shared",), "attribute"),
    ("Shared with", ("data-receiver",), "text"),
    ("Purposes", ("purpose-argument",), "attribute"),
    ("Data retained", ("data-retained",), "attribute"),
    ("Retention periods", ("retention-period",), "text"),
    ("Security measures", ("method",), "attribute"),
)
MAX_EXAMPLES = 3


def build_label(policy: str, version: int, sentences: list[Sentence]) -> PrivacyLabel:
    """The privacy label of a policy version from its stored facts and practice categories."""
    sections = []
    for title, roles, grouping in _LABEL_SECTIONS:
        cells: dict[str, LabelCell] = {}
        texts: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
        for sentence in sentences:
            if sentence.facts is None:
                continue
            negated = denied(sentence.facts, sentence.text)
            limit = purpose_limit(sentence.text) if negated else None
            for slot in sentence.facts.slots:
                if role(slot) not in roles or not informative(slot):
                    continue
                # a denial of some purposes only ("may not use it for other purposes") denies those purposes alone
                slot_negated = negated and (limit is None or (role(slot) == "purpose-argument" and slot.start >= limit))
                key = attribute(slot) if grouping == "attribute" else " ".join(slot.text.lower().split())
                cell = cells.setdefault(key, LabelCell(key))
                texts[key][slot.text] += 1
                if sentence.ordinal not in cell.sentences:
                    cell.sentences.append(sentence.ordinal)
                    if slot_negated:  # a denying sentence never counts as plain "collected / shared"
                        cell.negated_sentences.append(sentence.ordinal)
                cell.negated = cell.negated or slot_negated
        for key, cell in cells.items():
            cell.examples = [text for text, _ in texts[key].most_common(MAX_EXAMPLES)]
        rows = sorted(cells.values(), key=lambda c: (-len(c.sentences), c.item))
        sections.append(LabelSection(title, rows))
    choices = [s.ordinal for s in sentences if set(s.categories) & set(CHOICE_CATEGORIES)]
    choice_rows = [LabelCell("choices and access", [], choices)] if choices else []
    sections.append(LabelSection("User choices", choice_rows))
    return PrivacyLabel(policy, version, sections, sum(1 for s in sentences if s.facts is not None))
