"""Rasa's REST channel behind a bearer token, closed to web pages.

Rasa's REST channel answers anyone who reaches the port, for any sender id they name: posting
"why?" with a browser user's session id returned that user's last answer (issue 19, item 5).
This channel (name "rest": the actions see the same input channel) refuses

- every request when no token is configured (403),
- requests from a web page of another origin (an Origin header not in `allowed_origins`: 403),
- requests without `Authorization: Bearer <token>` or with a wrong token (401); a cross-origin
  "simple" POST (text/plain, no custom headers) can never carry it.

credentials.yml:

    rasa_addons.rest_token.TokenRestInput:
      token: ${CHAT_REST_TOKEN}
      allowed_origins: ${CHAT_ALLOWED_ORIGINS}

REST conversations have sender ids of their own ("rest:" + the sender), so even a token holder
cannot address a conversation of the socketio channel.
"""
from __future__ import annotations

import hmac
from typing import Any

from rasa.core.channels.channel import InputChannel
from rasa.core.channels.rest import RestInput
from sanic import Blueprint, response
from sanic.request import Request
from sanic.response import HTTPResponse

from rasa_addons.origins import is_foreign, parse_origins

SENDER_PREFIX = "rest:"


class TokenRestInput(RestInput):
    def __init__(self, token: str | None = None, allowed_origins: frozenset[str] = frozenset()) -> None:
        self.token = token or None
        self.allowed_origins = allowed_origins

    @classmethod
    def from_credentials(cls, credentials: dict[str, Any] | None) -> InputChannel:
        credentials = credentials or {}
        token = credentials.get("token")
        return cls(str(token) if token else None, parse_origins(credentials.get("allowed_origins")))

    async def _extract_sender(self, req: Request) -> str | None:
        sender = req.json.get("sender")
        return None if sender is None else f"{SENDER_PREFIX}{sender}"

    def blueprint(self, on_new_message: Any) -> Blueprint:
        blueprint = super().blueprint(on_new_message)

        @blueprint.middleware("request")
        async def guard(request: Request) -> HTTPResponse | None:
            return self.refusal(request)

        return blueprint

    def refusal(self, request: Request) -> HTTPResponse | None:
        """The response refusing `request`, or None when it may pass."""
        if self.token is None:
            return response.json({"error": "The REST channel has no token configured."}, status=403)
        if is_foreign(request.headers.get("origin"), self.allowed_origins):
            return response.json({"error": "This origin may not use the REST channel."}, status=403)
        scheme, _, given = request.headers.get("authorization", "").partition(" ")
        if scheme.lower() != "bearer" or not hmac.compare_digest(given.strip().encode(), self.token.encode()):
            return response.json({"error": "A valid bearer token is required."}, status=401,
                                 headers={"WWW-Authenticate": "Bearer"})
        return None

