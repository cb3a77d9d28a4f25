"""Errors the assistant reports to users as one line (the CLI exits non-zero on them)."""
import errno

_DISK_FULL = {errno.ENOSPC, errno.EFBIG, errno.EDQUOT}


class AssistantError(Exception):
    """Base class: the message is a complete, user-facing sentence."""


class InputFileError(AssistantError):
    """The policy file cannot be ingested (missing, empty, binary, too large, no text...)."""


class NotAPolicyError(InputFileError):
    """Screening refused the document: not a privacy policy, not English, or too little text."""


class UnknownPolicyError(AssistantError):
    """No stored policy (or version) has that name."""


class InvalidQuestionError(AssistantError):
    """The question is empty or too long."""


class IngestLimitError(InputFileError):
    """The policy exceeds an ingest limit (sentences, HTML nesting depth, time); the store is unchanged."""


class FetchError(AssistantError):
    """A policy URL cannot be fetched (bad scheme, DNS, refused, HTTP error, time-out, too large, wrong type...)."""


class StoreError(AssistantError):
    """The store cannot be used: read-only or missing folder, full disk, corrupt or locked database."""


class DamagedIndexError(StoreError):
    """A policy version's index file is missing, unreadable or does not match its sentences."""


class UnknownFacetError(AssistantError):
    """A facet name that is not one of the label's facets."""


def environment_message(error: OSError) -> str:
    """One line for a failure of the machine rather than the input: a full disk, a read-only or
    missing folder (a model library writing a temporary file, say). Nothing has been stored then:
    the store writes only after everything else succeeded, and reports its own failures."""
    detail = error.strerror or str(error)
    if error.errno in _DISK_FULL:
        return f"The disk is full ({detail}); nothing was stored."
    where = f" ({error.filename})" if error.filename else ""
    return f"The system refused a file operation: {detail}{where}; nothing was stored."
