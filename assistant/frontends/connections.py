"""How long `assistant serve` lets a connection take: slow or idle clients cannot hold the server.

uvicorn closes a connection idle after a response (`timeout_keep_alive`), but waits for ever for a request's
headers: 300 connections sending one header line a second were all kept open. `TimelyH11Protocol` gives each
request's headers `HEADER_SECONDS` from the moment the connection opens (or the previous response ends);
a request body has `BODY_SECONDS` in all (`api.RequestGuard`). Loopback clients send both in milliseconds.
"""
from __future__ import annotations

import asyncio
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

HEADER_SECONDS = 10.0
BODY_SECONDS = 60.0
KEEP_ALIVE_SECONDS = 5.0
MAX_CONNECTIONS = 100  # beyond this many open connections uvicorn answers 503


class TimelyH11Protocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol, closing a connection whose request headers are not complete in time."""

    _header_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._start_header_timer()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._start_header_timer()  # the next request on this connection gets its own time

    def connection_lost(self, exc: Exception | None) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
        super().connection_lost(exc)

    def _start_header_timer(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
        self._header_timer = self.loop.call_later(HEADER_SECONDS, self._close_if_no_request)

    def _close_if_no_request(self) -> None:
        """Close the connection unless a request arrived since the timer started (its headers complete)."""
        in_progress = self.cycle is not None and not self.cycle.response_complete
        if in_progress or self.transport.is_closing():
            return
        try:
            self.conn.send(h11.ConnectionClosed())
        except h11.LocalProtocolError:
            pass  # h11 had already ended the connection's state
        self.transport.close()


def server_options() -> dict[str, Any]:
    """uvicorn's settings for `assistant serve` (and the tests' servers): the timely protocol and its limits."""
    return {"http": TimelyH11Protocol, "timeout_keep_alive": KEEP_ALIVE_SECONDS, "limit_concurrency": MAX_CONNECTIONS}
