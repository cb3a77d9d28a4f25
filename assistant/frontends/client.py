"""The command line's side of `assistant serve`: ask the running server, when it serves the same store.

`ASSISTANT_SERVER` says where (default http://127.0.0.1:8765; `off` never asks). A server that is not
running costs one refused connection (at most `CONNECT_TIMEOUT`), and the command then works in process.
Standard library only (http.client, imported on the first request): trying the server must cost
milliseconds and import nothing heavy.
"""
from __future__ import annotations

import json
import os
import socket
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from assistant.foundation.errors import AssistantError

DEFAULT_SERVER = "http://127.0.0.1:8765"
CONNECT_TIMEOUT = 0.2  # seconds to reach the server before working in process
HEALTH_TIMEOUT = 2.0  # seconds for /health, which the server answers without waiting for the engine
REPLY_TIMEOUT = 300.0  # seconds for an answer: the engine answers one request at a time (an ingest may be queued)


class ServerUnavailable(Exception):
    """The server could not be reached, or broke off: the command works in process instead."""


@dataclass(frozen=True)
class Server:
    host: str
    port: int

    def listening(self) -> bool:
        """Whether something accepts connections there: a refused connection costs a fraction of a
        millisecond, and no HTTP client is imported when nothing listens."""
        try:
            with socket.create_connection((self.host, self.port), timeout=CONNECT_TIMEOUT):
                return True
        except OSError:
            return False

    def request(self, method: str, path: str, body: dict[str, Any] | None = None,
                timeout: float = REPLY_TIMEOUT) -> tuple[int, Any]:
        """(status, decoded JSON body) of one request; `ServerUnavailable` when there is no usable reply."""
        import http.client  # ~10 ms (email parsing): only when a server may be there, not with ASSISTANT_SERVER=off

        connection = http.client.HTTPConnection(self.host, self.port, timeout=CONNECT_TIMEOUT)
        try:
            connection.connect()
            connection.sock.settimeout(timeout)
            payload = json.dumps(body).encode() if body is not None else None
            headers = {"Content-Type": "application/json"} if payload is not None else {}
            connection.request(method, path, body=payload, headers=headers)
            response = connection.getresponse()
            return response.status, json.loads(response.read())
        except (OSError, http.client.HTTPException, ValueError) as error:
            raise ServerUnavailable(str(error)) from None
        finally:
            connection.close()


def configured_server() -> Server | None:
    """The server `ASSISTANT_SERVER` names (default: 127.0.0.1:8765), or None when it is `off`."""
    raw = os.environ.get("ASSISTANT_SERVER", "").strip() or DEFAULT_SERVER
    if raw.lower() == "off":
        return None
    try:
        parts = urlsplit(raw)
        port = parts.port or 80
    except ValueError:
        parts, port = None, 0
    if parts is None or parts.scheme != "http" or not parts.hostname or parts.path not in ("", "/"):
        raise AssistantError(f"ASSISTANT_SERVER={raw!r} is not a server address such as {DEFAULT_SERVER} (or off).")
    return Server(parts.hostname, port)


def call_server(home: Path, method: str, path: str, body: dict[str, Any] | None = None) -> Any | None:
    """The server's JSON reply to one request, or None when no server of the store at `home` answers (the
    caller then works in process). A refusal (4xx with an error) is raised as the engine would raise it."""
    server = configured_server()
    if server is None or not server.listening():
        return None
    try:
        status, health = server.request("GET", "/health", timeout=HEALTH_TIMEOUT)
        if status != 200 or not isinstance(health, dict) or not _same_store(health.get("home"), home):
            return None
        status, reply = server.request(method, path, body)
    except ServerUnavailable:
        return None
    if status == 200:
        return reply
    if 400 <= status < 500 and isinstance(reply, dict) and isinstance(reply.get("error"), str):
        raise AssistantError(reply["error"])
    return None  # a server fault: the command works in process


def _same_store(served: Any, home: Path) -> bool:
    return isinstance(served, str) and Path(served).resolve() == home.expanduser().resolve()
