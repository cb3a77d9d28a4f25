"""Control characters (C0 other than tab and newline, DEL, C1) made visible before text reaches a
terminal, a JSON stream or a chat bubble: stored policy text or a name must never drive the terminal
(`ESC [2J` would clear the user's screen)."""
from __future__ import annotations

import re

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def escape_controls(text: str) -> str:
    """`text` with each control character written as a visible `\\xNN` escape."""
    return _CONTROL.sub(lambda match: f"\\x{ord(match.group()):02x}", text)


def escape_json_controls(serialised: str) -> str:
    """A JSON document with the C1 characters that `json.dumps(ensure_ascii=False)` leaves raw
    written as `\\u00NN` escapes (C0 characters are already escaped by the encoder)."""
    return re.sub(r"[\x7f-\x9f]", lambda match: f"\\u{ord(match.group()):04x}", serialised)
