"""Compose the answer: the selected evidence, its facts and span, or why there is no answer."""
from __future__ import annotations

from assistant.answering.ranking import EvidenceRanking
from assistant.answering.reasons import POLICY_SILENT
from assistant.answering.selection import Selection
from assistant.foundation.types import Answer, AnswerSpan, Evidence, EvidenceFacts


def compose(ranking: EvidenceRanking, selection: Selection, span: AnswerSpan | None) -> Answer:
    """Stage: the `Answer` for a ranking and the selection made from it.

    The answer text is the first evidence sentence. A refused question (`ranking.reason`) has no
    evidence; a silent policy (`selection.silent`) keeps its closest evidence but no answer or facts.
    """
    reason = ranking.reason or (POLICY_SILENT if selection.silent else None)
    selected = [ranking.ranked[i] for i in selection.positions]
    evidence = [Evidence(r.sentence.ordinal, r.sentence.section, r.sentence.text, _round(r.score)) for r in selected]
    facts = [EvidenceFacts(r.sentence.ordinal, r.sentence.facts.intent, list(r.sentence.facts.slots))
             for r in selected if r.sentence.facts is not None]
    return Answer(
        question=ranking.question,
        policy=ranking.version.name,
        version=ranking.version.version,
        answerable=reason is None,
        reason=reason,
        answer=evidence[0].text if reason is None else None,
        confidence=_round(_confidence(ranking, reason, selection.best_relevance)),
        evidence=evidence if ranking.reason is None else [],
        facts=facts if reason is None else [],
        span=span if reason is None else None,
    )


def _confidence(ranking: EvidenceRanking, reason: str | None, best_relevance: float) -> float:
    """The classifier's probability for a refusal reason; the answer sentence's relevance probability
    for an answer; the best relevance (below the silence threshold) when the policy is silent."""
    if ranking.reason:
        return ranking.confidence
    return ranking.ranked[0].relevance if reason is None else best_relevance


def _round(value: float) -> float:
    return float(f"{value:.4g}")
