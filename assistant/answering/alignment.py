"""Alignment by issue: the sentences of several policies grouped by the privacy issue they address, so that
"what does each policy say about retention?" is one lookup.

An issue is one of the question facets (`understanding/facets.py`: a sentence addresses it when it uses the
facet's own words, as the answers' verdicts decide) or one of OPP-115's practice categories (a sentence
addresses it when the practice tagger gave it that category at ingest). Nothing is recomputed: both come from
what the store holds, so aligning needs no model. How well the categories align segments of different
policies: `assistant eval alignment` (docs/results.md).
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass

from assistant.answering.changes import PRACTICES
from assistant.foundation.errors import AssistantError
from assistant.foundation.types import PolicyVersion, Sentence
from assistant.understanding.facets import BY_NAME, GLANCE_QUESTIONS, facet_of

FACET, CATEGORY = "facet", "category"


@dataclass(frozen=True)
class Issue:
    """A facet (`retention`) or an OPP-115 practice category (`Data Retention`)."""

    name: str
    kind: str  # FACET or CATEGORY

    def addressed_by(self, sentence: Sentence) -> bool:
        if self.kind == FACET:
            return BY_NAME[self.name].addressed_by(sentence.text)
        return self.name in sentence.categories


ISSUES = tuple(Issue(name, FACET) for name in GLANCE_QUESTIONS) + tuple(Issue(name, CATEGORY) for name in PRACTICES)


@dataclass(frozen=True)
class AlignedSentence:
    """A policy sentence on the issue, verbatim, with where it is."""

    sentence_id: int
    section: str
    text: str
    page: int | None = None


@dataclass(frozen=True)
class PolicyPassages:
    """What one policy version says on one issue (empty: it says nothing the rules or the tagger see)."""

    policy: str
    version: int
    sentences: list[AlignedSentence]


@dataclass(frozen=True)
class IssueAlignment:
    """One issue across the policies, in the order they were asked for."""

    issue: str
    kind: str
    policies: list[PolicyPassages]

    def to_dict(self) -> dict:
        return asdict(self)


def resolve_issue(text: str) -> Issue:
    """The issue `text` names: a facet name (`retention`), a category name (`data retention`), or words a
    question on a facet uses ("how long do they keep data"); else a one-line error listing them."""
    wanted = " ".join(text.split()).lower()
    for issue in ISSUES:
        if wanted in (issue.name.lower(), issue.name.lower().replace("_", " ")):
            return issue
    facet = facet_of(text)
    if facet is not None and facet.name in GLANCE_QUESTIONS:
        return Issue(facet.name, FACET)
    raise AssistantError(f"No issue matches '{text}'; name a facet ({', '.join(GLANCE_QUESTIONS)}) or an OPP-115 "
                         f"practice ({', '.join(PRACTICES)}), or use words such as 'how long they keep data'.")


def align(policies: Sequence[tuple[PolicyVersion, Sequence[Sentence]]],
          issues: Sequence[Issue] = ISSUES) -> list[IssueAlignment]:
    """Stage: each issue's sentences in each policy, in document order."""
    return [IssueAlignment(issue.name, issue.kind, [
        PolicyPassages(version.name, version.version,
                       [AlignedSentence(s.ordinal, s.section, s.text, s.page) for s in sentences
                        if issue.addressed_by(s)])
        for version, sentences in policies]) for issue in issues]
