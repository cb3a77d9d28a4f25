"""Rasa's socketio channel with server-issued sessions, an origin check, and fixes for Python 3.11.

Everything not listed here is rasa.core.channels.socketio.SocketIOInput, including its name
("socketio": the actions see the same input channel) and its credentials.yml settings.

Security (issue 19, item 5): Rasa's channel uses whatever session id the client sends as the
conversation's sender id, so a client could name another user's session and read or write it.
Here:

1. `session_request`: the id the client asks for is kept only if this server issued it (signed
   under `session_secret`, rasa_addons/session_ids.py), so a page reload keeps its conversation;
   anything else gets a fresh server-issued id. The confirmed id is kept in the socket's
   server-side session (python-socketio's per-socket store, gone when the socket disconnects).
2. Every user message is the conversation of the socket's confirmed id, never the `session_id`
   the message names; a socket that has not asked for a session is not heard.
3. Engine.io requests whose Origin header is not one of `allowed_origins` (the chat page's) are
   refused with 403, so no other web page can open a socket (requests without an Origin header
   are not from a web page and pass).

A custom payload (the web page's answer cards, actions/formatting.py) is sent as `{"custom": payload}`
in the conversation's room (CustomPayloadSocketIOOutput).

Python 3.11 fixes:

- Sanic 21.12's websocket implementation fails on every received frame under Python 3.11
  ("Passing coroutines is forbidden, use tasks explicitly"): clients are told not to upgrade
  from HTTP long-polling, which works.
- Rasa calls python-socketio 5's coroutine `enter_room` without `await`, so the client never
  joined its session's room; the session handler here awaits it.
"""
from __future__ import annotations

import functools
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from rasa.core.channels.channel import InputChannel, UserMessage
from rasa.core.channels.socketio import SocketIOInput, SocketIOOutput
from sanic import Blueprint, response
from sanic.request import Request

from rasa_addons.origins import is_foreign, parse_origins
from rasa_addons.session_ids import SessionIds

logger = logging.getLogger(__name__)


class CustomPayloadSocketIOOutput(SocketIOOutput):
    """Rasa's socketio output, except that
    - a custom payload (an action's `json_message`) reaches the client as `{"custom": payload}` in the room of
      the conversation, as every other message does (Rasa passes the payload's keys to `emit` as its arguments
      instead);
    - a text reaches it as one message. Rasa sends each paragraph as a message of its own, so a long reply
      (the passages behind an answer) trickled in part by part, and a part still on its way when the person sent
      the next question was shown, and kept in the page's transcript, after that question. The page renders
      Markdown: the paragraphs are kept inside the one message."""

    async def send_text_message(self, recipient_id: str, text: str, **kwargs: Any) -> None:
        await self._send_message(recipient_id, {"text": text.strip()})

    async def send_custom_json(self, recipient_id: str, json_message: dict[str, Any], **kwargs: Any) -> None:
        await self._send_message(recipient_id, {"custom": json_message})


class PollingSocketIOInput(SocketIOInput):
    """credentials.yml adds `session_secret` and `allowed_origins` (space-separated) to Rasa's settings;
    sessions always persist (Rasa's `session_persistence: true`), whatever that setting says."""

    session_ids: SessionIds = SessionIds.from_secret(None)
    allowed_origins: frozenset[str] = frozenset()

    @classmethod
    def from_credentials(cls, credentials: dict[str, Any] | None) -> InputChannel:
        credentials = credentials or {}
        channel = super().from_credentials(credentials)
        assert isinstance(channel, PollingSocketIOInput)
        if not credentials.get("session_secret"):
            logger.warning("No session_secret for the socketio channel: session ids last as long as this process.")
        channel.session_ids = SessionIds.from_secret(credentials.get("session_secret"))
        channel.allowed_origins = parse_origins(credentials.get("allowed_origins"))
        return channel

    def blueprint(self, on_new_message: Callable[[UserMessage], Awaitable[Any]]) -> Blueprint:
        blueprint = super().blueprint(on_new_message)
        sio = self.sio
        assert sio is not None
        sio.eio.allow_upgrades = False
        sio.eio.transports = ["polling"]
        sio.eio.handle_request = self._refusing_foreign_origins(sio.eio.handle_request)
        namespace = self.namespace or "/"

        async def session_request(sid: str, data: Any) -> None:
            claimed = data.get("session_id") if isinstance(data, dict) else None
            session_id = self.session_ids.confirm(claimed)
            session = await sio.get_session(sid, namespace=namespace)
            previous = session.get("session_id")
            if previous and previous != session_id:
                await sio.leave_room(sid, previous, namespace=namespace)
            await sio.save_session(sid, {"session_id": session_id}, namespace=namespace)
            await sio.enter_room(sid, session_id, namespace=namespace)
            await sio.emit("session_confirm", session_id, room=sid, namespace=namespace)

        async def handle_message(sid: str, data: Any) -> None:
            session_id = (await sio.get_session(sid, namespace=namespace)).get("session_id")
            if session_id is None:
                logger.warning("A message from a socket without a confirmed session was ignored.")
                return
            data = data if isinstance(data, dict) else {}
            metadata = data.get(self.metadata_key) or {}
            if isinstance(metadata, str):
                try:
                    metadata = json.loads(metadata)
                except ValueError:
                    metadata = {}
            message = UserMessage(
                data.get("message", ""), CustomPayloadSocketIOOutput(sio, self.bot_message_evt), session_id,
                input_channel=self.name(), metadata=metadata,
            )
            await on_new_message(message)

        sio.on("session_request", session_request, namespace=namespace)
        sio.on(self.user_message_evt, handle_message, namespace=namespace)
        return blueprint

    def _refusing_foreign_origins(self, handle_request: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
        @functools.wraps(handle_request)
        async def guarded(request: Request, *args: Any, **kwargs: Any) -> Any:
            if is_foreign(request.headers.get("origin"), self.allowed_origins):
                return response.text("This origin may not use the chat.", status=403)
            return await handle_request(request, *args, **kwargs)

        return guarded
