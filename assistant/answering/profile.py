"""The policy at a glance: the verdict on each facet's plain question ("Do they sell my personal
information?"), decided by the same stages as `ask`, with the sentence that supports it."""
from __future__ import annotations

from collections.abc import Iterable

from assistant.answering.label import GlanceRow
from assistant.answering.pipeline import AnswerPipeline
from assistant.answering.verdict import NOT_STATED
from assistant.foundation.types import PolicyVersion
from assistant.understanding.facets import GLANCE_QUESTIONS


def glance(pipeline: AnswerPipeline, version: PolicyVersion, facets: Iterable[str] | None = None) -> list[GlanceRow]:
    """One row per facet, in label order (only `facets`, when given)."""
    wanted = set(GLANCE_QUESTIONS if facets is None else facets)
    rows = []
    for facet, question in GLANCE_QUESTIONS.items():
        if facet not in wanted:
            continue
        ranking, verdict = pipeline.decide(question, version)
        support = ranking.ranked[verdict.support].sentence if verdict.support is not None else None
        rows.append(GlanceRow(facet, question, verdict.verdict or NOT_STATED, verdict.headline,
                              support.ordinal if support else None, support.text if support else None))
    return rows
