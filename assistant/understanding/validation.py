"""Checks a question before anything is loaded: a bad question is refused at once."""
from __future__ import annotations

from assistant.foundation.errors import AssistantError, InvalidQuestionError
from assistant.foundation.settings import MAX_QUESTION_CHARS


def validate_question(question: str) -> str:
    """The question with its whitespace normalised; empty, over-long or non-UTF-8 questions are refused."""
    require_utf8(question, "question", InvalidQuestionError)
    question = " ".join(question.split())
    if not question:
        raise InvalidQuestionError("The question is empty: ask something about the policy.")
    if len(question) > MAX_QUESTION_CHARS:
        raise InvalidQuestionError(
            f"The question is {len(question)} characters long; the limit is {MAX_QUESTION_CHARS}."
        )
    return question


def require_utf8(value: str | None, what: str, error: type[AssistantError] = AssistantError) -> str | None:
    """`value` unchanged, or a one-line error when it holds lone surrogates: bytes that were not UTF-8
    (Python keeps a shell argument's as surrogates, JSON can carry them), which no tokenizer, database
    or terminal accepts."""
    if value is not None:
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise error(f"The {what} is not valid UTF-8 text; retype it.") from None
    return value
