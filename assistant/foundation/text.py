"""Text hygiene shared by every parser: no control character ever reaches a stored text."""
from __future__ import annotations

# C0 and C1 control characters and DEL (exactly Unicode's category Cc), except the line break and tab
# that stored texts may hold. Raw or from an HTML entity (&#27;), they could drive a terminal (ESC [2J).
CONTROL_CHARACTERS = frozenset(chr(code) for code in [*range(0x20), *range(0x7F, 0xA0)]) - {"\n", "\t"}
_TO_SPACE = dict.fromkeys(map(ord, CONTROL_CHARACTERS), " ")


def without_controls(text: str) -> str:
    """`text` with every control character (other than newline and tab) replaced by a space."""
    return text.translate(_TO_SPACE)


def has_controls(text: str) -> bool:
    """Whether `text` holds a control character other than newline and tab."""
    return not CONTROL_CHARACTERS.isdisjoint(text)
