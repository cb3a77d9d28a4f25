"""One question across many policies: each policy's answer, ordered so that the policies that answer
come first (yes / no, then conditional or scoped, then not stated), each group by the answer's confidence."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from assistant.answering.verdict import NOT_STATED
from assistant.foundation.types import Answer
from assistant.understanding.statements import CONDITIONAL, NO, SCOPED, YES

_GROUP = {YES: 0, NO: 0, CONDITIONAL: 1, SCOPED: 1, NOT_STATED: 2}


@dataclass(frozen=True)
class AnswersAcross:
    """The answers to one question from several policies, in reading order."""

    question: str
    answers: list[Answer]

    def to_dict(self) -> dict:
        return {"question": self.question, "answers": [_row(a) for a in self.answers]}


def order_answers(question: str, answers: Sequence[Answer]) -> AnswersAcross:
    """Stage: yes / no first, then conditional, then not stated, then refusals; by confidence within a group
    (an answer to a question that is not yes/no ranks with yes / no when the policy addresses it)."""
    return AnswersAcross(question, sorted(answers, key=lambda a: (_group(a), -a.confidence, a.policy.lower())))


def _group(answer: Answer) -> int:
    if answer.verdict is None:
        return 0 if answer.answerable else 3
    return _GROUP.get(answer.verdict, 3)


def _row(answer: Answer) -> dict:
    quote = answer.evidence[0] if answer.evidence and answer.verdict != NOT_STATED and answer.answerable else None
    return {"policy": answer.policy, "version": answer.version, "verdict": answer.verdict,
            "headline": answer.headline, "confidence": answer.confidence, "answerable": answer.answerable,
            "reason": answer.reason, "sentence_id": quote.sentence_id if quote else None,
            "quote": quote.text if quote else None, "facet": answer.facet}
