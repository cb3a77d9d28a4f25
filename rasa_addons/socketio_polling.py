"""Rasa's socketio channel, made to work with the Python 3.11 Rasa environment.

Two incompatibilities of Rasa 3.6.21's socketio channel with the packages of that environment
(requirements/rasa-freeze-py311.txt) are worked around here; everything else is
rasa.core.channels.socketio.SocketIOInput, including its name ("socketio": the actions see the same
input channel) and its credentials.yml settings:

1. Sanic 21.12's websocket implementation fails on every received frame under Python 3.11
   ("Passing coroutines is forbidden, use tasks explicitly"): clients are told not to upgrade
   from HTTP long-polling, which works.
2. Rasa calls `sio.enter_room(...)` without `await`, but python-socketio 5's AsyncServer.enter_room
   is a coroutine, so with `session_persistence` the client never joined its session's room and
   never received a reply. The server gets a synchronous enter_room (the in-memory manager's own).
"""
from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from rasa.core.channels.channel import UserMessage
from rasa.core.channels.socketio import SocketIOInput
from sanic import Blueprint


class PollingSocketIOInput(SocketIOInput):
    def blueprint(self, on_new_message: Callable[[UserMessage], Awaitable[Any]]) -> Blueprint:
        blueprint = super().blueprint(on_new_message)
        sio = self.sio
        sio.eio.allow_upgrades = False
        sio.eio.transports = ["polling"]

        def enter_room(sid: str, room: str, namespace: str | None = None) -> None:
            sio.manager.basic_enter_room(sid, namespace or "/", room)

        sio.enter_room = enter_room
        return blueprint
