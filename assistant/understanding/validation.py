"""Checks a question before anything is loaded: a bad question is refused at once."""
from __future__ import annotations

from assistant.foundation.errors import InvalidQuestionError
from assistant.foundation.settings import MAX_QUESTION_CHARS


def validate_question(question: str) -> str:
    """The question with its whitespace normalised; empty, over-long or non-UTF-8 questions are refused."""
    try:
        question.encode("utf-8")
    except UnicodeEncodeError:
        raise InvalidQuestionError("The question is not valid UTF-8 text; retype it.") from None
    question = " ".join(question.split())
    if not question:
        raise InvalidQuestionError("The question is empty: ask something about the policy.")
    if len(question) > MAX_QUESTION_CHARS:
        raise InvalidQuestionError(
            f"The question is {len(question)} characters long; the limit is {MAX_QUESTION_CHARS}."
        )
    return question
