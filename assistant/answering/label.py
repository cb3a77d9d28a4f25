"""The privacy label: the PolicyIE facts of a whole policy version aggregated by section (data collected,
shared, with whom, purposes, retention, security, user choices), every cell listing its sentences.

The facts are read, and a sentence's denial decided, by `understanding.statements`. Everything shown comes
from the policy: slot texts are quoted verbatim; only category names are ours.
"""
from __future__ import annotations

import collections
from dataclasses import asdict, dataclass, field

from assistant.foundation.types import Sentence
from assistant.understanding.statements import attribute, denied, informative, purpose_limit, role

CHOICE_CATEGORIES = ("User Choice/Control", "User Access, Edit and Deletion")


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
