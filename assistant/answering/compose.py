"""Compose the answer: the selected evidence, its facts and span, or why there is no answer."""
from __future__ import annotations

from assistant.answering.ranking import EvidenceRanking
from assistant.answering.selection import Selection
from assistant.answering.verdict import NOT_STATED, Verdict
from assistant.foundation.reasons import POLICY_SILENT
from assistant.foundation.types import Answer, AnswerSpan, Evidence, EvidenceFacts


def compose(ranking: EvidenceRanking, selection: Selection, verdict: Verdict, span: AnswerSpan | None) -> Answer:
    """Stage: the `Answer` for a ranking, the selection made from it and the verdict decided on it.

    The sentence that supports the verdict comes first and is the answer text. A refused question
    (`ranking.reason`) has no evidence; a silent policy (nothing reaches the silence threshold)
    keeps its closest passages as evidence, but no answer or facts. So does a policy whose relevant
    sentences do not address what is asked (the verdict `not_stated`): `answerable` agrees with the verdict.
    """
    silent = selection.silent or verdict.verdict == NOT_STATED
    reason = ranking.reason or (POLICY_SILENT if silent else None)
    positions = selection.positions
    if verdict.support is not None and reason is None:  # the support first (and the ways after it, all of them)
        first = [verdict.support, *verdict.quotes]
        positions = (first + [p for p in positions if p not in first])[: max(len(positions), len(first))]
    selected = [ranking.ranked[i] for i in positions]
    evidence = [Evidence(r.sentence.ordinal, r.sentence.section, r.sentence.text, _round(r.score), r.sentence.page)
                for r in selected]
    facts = [EvidenceFacts(r.sentence.ordinal, r.sentence.facts.intent, list(r.sentence.facts.slots))
             for r in selected if r.sentence.facts is not None]
    return Answer(
        question=ranking.question,
        policy=ranking.version.name,
        version=ranking.version.version,
        answerable=reason is None,
        reason=reason,
        answer=evidence[0].text if reason is None else None,
        confidence=_round(_confidence(ranking, reason, selection.best_relevance, selected)),
        evidence=evidence if ranking.reason is None else [],
        facts=facts if reason is None else [],
        span=span if reason is None else None,
        verdict=verdict.verdict,
        headline=verdict.headline,
        facet=ranking.facet,
        question_type=ranking.question_type,
    )


def _confidence(ranking: EvidenceRanking, reason: str | None, best_relevance: float, selected: list) -> float:
    """The classifier's probability for a refusal reason; the answer sentence's relevance probability
    for an answer; the best relevance when the policy is silent."""
    if ranking.reason:
        return ranking.confidence
    return selected[0].relevance if reason is None else best_relevance


def _round(value: float) -> float:
    return float(f"{value:.4g}")
