"""Text hygiene shared by every parser: no control character ever reaches a stored text."""
from __future__ import annotations

import re

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


# What leaves the assistant is escaped, not removed: stores written before this hygiene (or a name)
# may still hold control characters, and the user should see that they are there.
_CONTROL = re.compile("[" + "".join(sorted(CONTROL_CHARACTERS)).replace("\\", "\\\\").replace("]", "\\]") + "]")


def escape_controls(text: str) -> str:
    """`text` with each control character written as a visible `\\xNN` escape (for a terminal)."""
    return _CONTROL.sub(lambda match: f"\\x{ord(match.group()):02x}", text)


def escape_json_controls(serialised: str) -> str:
    """A JSON document with the C1 characters (and DEL) that `json.dumps(ensure_ascii=False)` leaves raw
    written as `\\u00NN` escapes (the encoder already escapes C0 characters)."""
    return re.sub("[\x7f-\x9f]", lambda match: f"\\u{ord(match.group()):04x}", serialised)
