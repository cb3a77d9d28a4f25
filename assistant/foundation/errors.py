"""Errors the assistant reports to users as one line (the CLI exits non-zero on them)."""


class AssistantError(Exception):
    """Base class: the message is a complete, user-facing sentence."""


class InputFileError(AssistantError):
    """The policy file cannot be ingested (missing, empty, binary, too large, no text...)."""


class UnknownPolicyError(AssistantError):
    """No stored policy (or version) has that name."""


class InvalidQuestionError(AssistantError):
    """The question is empty or too long."""


class IngestLimitError(InputFileError):
    """The policy exceeds an ingest limit (sentences, HTML nesting depth, time); the store is unchanged."""
