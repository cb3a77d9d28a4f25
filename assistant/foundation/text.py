"""Text hygiene shared by every parser: no control character ever reaches a stored text, and none
(nor a bidirectional formatting character) reaches a terminal unescaped."""
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


# Unicode's bidirectional formatting characters: the Arabic letter mark, the left-to-right and right-to-left
# marks, the embeddings and overrides (U+202A-U+202E) and the isolates (U+2066-U+2069). Stored text keeps them
# (right-to-left text needs the marks), but printed raw they reorder what a terminal shows after them, so that
# a name or a quote reads as something it does not say ("evil\u202etxt.exe" shows as "evilexe.txt").
BIDI_CONTROLS = frozenset(chr(code) for code in [0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F),
                                                 *range(0x2066, 0x206A)])

# What leaves the assistant is escaped, not removed: stores written before this hygiene (or a name)
# may still hold control characters, and the user should see that they are there.
_CONTROL = re.compile("[" + re.escape("".join(sorted(CONTROL_CHARACTERS | BIDI_CONTROLS))) + "]")
_JSON_RAW = re.compile("[\x7f-\x9f" + re.escape("".join(sorted(BIDI_CONTROLS))) + "]")


def escape_controls(text: str) -> str:
    """`text` with each control and bidirectional formatting character written as a visible escape
    (`\\xNN`, or `\\uNNNN` above U+00FF) for a terminal; the text itself is not changed."""
    return _CONTROL.sub(lambda match: _escape(match.group()), text)


def _escape(character: str) -> str:
    code = ord(character)
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def escape_json_controls(serialised: str) -> str:
    """A JSON document with the C1 characters, DEL and the bidirectional formatting characters that
    `json.dumps(ensure_ascii=False)` leaves raw written as `\\uNNNN` escapes (the encoder already escapes C0
    characters): the same strings once decoded, nothing that reorders a terminal's output."""
    return _JSON_RAW.sub(lambda match: f"\\u{ord(match.group()):04x}", serialised)
