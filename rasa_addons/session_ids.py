"""Server-issued conversation ids for the socketio channel: unguessable, and recognisable as ours.

An id is a random nonce and its HMAC-SHA256 signature under a per-server secret
(`<32 hex>.<32 hex>`). The server keeps no list of the ids it issued: an id whose signature checks
out was issued by a server holding the secret, so a page reload that sends its id back keeps its
conversation, while an id a client made up (or one signed under another secret) is replaced.
Standard library only: the module is imported by the Rasa server (.venv-rasa) and the tests (.venv).
"""
from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass

NONCE_BYTES = 16
SIGNATURE_HEX = 32  # 128 bits of the HMAC-SHA256 digest


@dataclass(frozen=True)
class SessionIds:
    secret: bytes

    @classmethod
    def from_secret(cls, secret: str | None) -> SessionIds:
        """Ids signed under `secret`; without one, under a random secret of this process."""
        return cls(secret.encode() if secret else secrets.token_bytes(32))

    def issue(self) -> str:
        nonce = secrets.token_hex(NONCE_BYTES)
        return f"{nonce}.{self._sign(nonce)}"

    def is_issued(self, session_id: object) -> bool:
        """Whether `session_id` is an id this secret signed."""
        if not isinstance(session_id, str) or session_id.count(".") != 1:
            return False
        nonce, signature = session_id.split(".")
        if len(nonce) != 2 * NONCE_BYTES:
            return False
        return hmac.compare_digest(signature, self._sign(nonce))

    def confirm(self, claimed: object) -> str:
        """The id a client asked for if this server issued it, otherwise a fresh one."""
        return claimed if self.is_issued(claimed) else self.issue()  # type: ignore[return-value]

    def _sign(self, nonce: str) -> str:
        return hmac.new(self.secret, nonce.encode(), hashlib.sha256).hexdigest()[:SIGNATURE_HEX]
