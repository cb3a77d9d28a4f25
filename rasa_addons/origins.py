"""The web page origins allowed to talk to the Rasa server from a browser."""
from __future__ import annotations


def parse_origins(value: str | list[str] | None) -> frozenset[str]:
    """Origins from credentials.yml: a list, or one string of origins separated by spaces or commas."""
    if not value:
        return frozenset()
    items = value if isinstance(value, list) else value.replace(",", " ").split()
    return frozenset(str(item).strip().rstrip("/") for item in items if str(item).strip())


def is_foreign(origin: str | None, allowed: frozenset[str]) -> bool:
    """Whether a request's Origin header names a page that is not allowed (no header: not a browser page)."""
    return origin is not None and origin not in allowed
