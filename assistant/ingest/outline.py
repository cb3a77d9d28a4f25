"""The outline shared by the HTML, plain-text and PDF parsers: which text is a heading, and the headings in force.

Text is collapsed (`collapse`) before it is judged; `Outline` keeps the stack of headings that gives
every block its section path.
"""
from __future__ import annotations

import re

from assistant.foundation.text import CONTROL_CHARACTERS

PSEUDO_HEADING_MAX = 120  # bold text longer than this is a paragraph, never a pseudo-heading
BULLET = re.compile(r"[-*•·‣◦▪]\s+")
ENUMERATOR = re.compile(r"(?:\d{1,3}\.|\(?(?:\d{1,3}|[A-Za-z]|[ivxlcIVXLC]{1,6})\))\s+")

_TEXT_HEADING_MAX = 80
_PLAIN_HEADING_MAX = 80
_PLAIN_HEADING_WORDS = 10
# Invisible characters are dropped; control characters (raw or from entities such as &#27;) become spaces.
_CLEAN = dict.fromkeys(map(ord, "\u00ad\u200b\u200c\u200d\u2060\ufeff")) | dict.fromkeys(map(ord, CONTROL_CHARACTERS), " ")
_SECTION_NUMBER = re.compile(r"(?:(?:section|article|part)\s+)?(\d+(?:\.\d+)*)\.?(?=\s|$)", re.IGNORECASE)
_SMALL_WORDS = frozenset(
    "a an the and or nor but of in on at to for by with from as via vs per into onto upon about".split()
)


def collapse(text: str) -> str:
    """Collapse whitespace runs to single spaces, drop invisible and control characters, and strip."""
    return " ".join(text.translate(_CLEAN).split())


def _section_name(heading: str) -> str:
    """Heading text as a section path entry: collapsed whitespace, trailing ':' removed."""
    return re.sub(r"[\s:]+$", "", collapse(heading))


class Outline:
    """The stack of headings in force: real headings by level plus at most one pseudo-heading."""

    def __init__(self) -> None:
        self._headings: list[tuple[int, str]] = []
        self.pseudo: str | None = None

    @property
    def path(self) -> tuple[str, ...]:
        names = tuple(name for _, name in self._headings)
        return (*names, self.pseudo) if self.pseudo else names

    def open(self, level: int, heading: str) -> None:
        """Open a heading of `level`, closing any at that level or deeper."""
        while self._headings and self._headings[-1][0] >= level:
            self._headings.pop()
        self._headings.append((level, _section_name(heading)))
        self.pseudo = None

    def open_pseudo(self, heading: str) -> None:
        """Open a pseudo-heading one level below the deepest real heading."""
        self.pseudo = _section_name(heading)


def _is_title_case(text: str) -> bool:
    words = [w.lstrip("\"'“‘(") for w in text.split()]
    words = [w for w in words if w and w[0].isalpha()]
    significant = [w for w in words if w.lower() not in _SMALL_WORDS]
    return bool(significant) and words[0][0].isupper() and all(w[0].isupper() for w in significant)


def _is_all_caps(text: str) -> bool:
    return sum(ch.isalpha() for ch in text) >= 2 and text.upper() == text


def _looks_like_title(text: str) -> bool:
    """ALL CAPS, Title Case, or starting with a section number."""
    return _is_all_caps(text) or _is_title_case(text) or _SECTION_NUMBER.match(text) is not None


def is_pseudo_heading(text: str) -> bool:
    """Short bold text that does not read as a sentence (a final '.' is tolerated on titles)."""
    if len(text) > PSEUDO_HEADING_MAX or not any(ch.isalpha() for ch in text):
        return False
    return not text.endswith(".") or _looks_like_title(text)


def is_plain_heading(text: str) -> bool:
    """A short line on its own that reads as a title, not a sentence ("Use of Cookies")."""
    return (
        len(text) <= _PLAIN_HEADING_MAX
        and len(text.split()) <= _PLAIN_HEADING_WORDS
        and text[-1] not in ".,;:"
        and any(ch.isalpha() for ch in text)
        and _looks_like_title(text)
    )


def text_heading_level(line: str) -> int | None:
    """Heading level of a plain-text paragraph's lone short line, or None when it does not look like a heading."""
    text = collapse(line)
    if not text or len(text) > _TEXT_HEADING_MAX or text[-1] in ".;," or not any(ch.isalpha() for ch in text):
        return None
    number = _SECTION_NUMBER.match(text)
    if number:
        return number.group(1).count(".") + 1
    if BULLET.match(text) or ENUMERATOR.match(text):
        return None
    return 1 if _is_all_caps(text) or _is_title_case(text) else None
