"""Policies side by side: each facet's verdict in every policy, with its quote, the facets where the
policies differ first. Built from each policy's glance (`answering.profile`); no decision is made here."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass

from assistant.answering.label import GlanceRow
from assistant.foundation.errors import UnknownFacetError
from assistant.understanding.facets import GLANCE_QUESTIONS


@dataclass(frozen=True)
class PolicyGlance:
    """One policy version at a glance: the input of a comparison."""

    policy: str
    version: int
    rows: list[GlanceRow]


@dataclass(frozen=True)
class ComparedCell:
    """What one policy says on one facet."""

    policy: str
    version: int
    verdict: str  # yes | no | conditional | not_stated
    headline: str
    sentence_id: int | None  # the supporting sentence (None when not stated)
    quote: str | None  # that sentence, verbatim


@dataclass(frozen=True)
class ComparedFacet:
    """One facet across the policies."""

    facet: str
    question: str
    differs: bool  # the policies' verdicts are not all the same
    cells: list[ComparedCell]


@dataclass(frozen=True)
class Comparison:
    """The compared policies (in the order asked) and one row per facet, the differing ones first."""

    policies: list[str]
    versions: list[int]
    facets: list[ComparedFacet]

    def to_dict(self) -> dict:
        return {"policies": [{"name": n, "version": v} for n, v in zip(self.policies, self.versions, strict=True)],
                "facets": [asdict(f) for f in self.facets]}


def check_facet(facet: str | None) -> str | None:
    """`facet` unchanged when it is one of the label's facets (or None), else a one-line error listing them."""
    if facet is not None and facet not in GLANCE_QUESTIONS:
        raise UnknownFacetError(f"Unknown facet '{facet}'; choose one of: {', '.join(GLANCE_QUESTIONS)}.")
    return facet


def compare(glances: Sequence[PolicyGlance]) -> Comparison:
    """Stage: line the policies' glance rows up by facet; rows whose verdicts differ come first, each
    group in label order."""
    by_facet: dict[str, list[ComparedCell]] = {}
    questions: dict[str, str] = {}
    for policy in glances:
        for row in policy.rows:
            questions[row.facet] = row.question
            by_facet.setdefault(row.facet, []).append(
                ComparedCell(policy.policy, policy.version, row.verdict, row.headline, row.sentence_id, row.quote))
    rows = [ComparedFacet(facet, questions[facet], len({c.verdict for c in cells}) > 1, cells)
            for facet, cells in by_facet.items()]
    rows.sort(key=lambda row: not row.differs)  # stable: label order within each group
    return Comparison([g.policy for g in glances], [g.version for g in glances], rows)
