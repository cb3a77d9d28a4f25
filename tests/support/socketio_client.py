"""A socket.io client of the chat for the tests, run with .venv-rasa's python (python-socketio is there).

    .venv-rasa/bin/python tests/support/socketio_client.py http://127.0.0.1:5005

Connects over long-polling like the web widget, then reads one JSON command a line from stdin and
writes one JSON result a line to stdout (tests/support/chat_stack.py's SocketClient drives it):

    {"op": "session", "id": ID or null}     session_request → {"session_id": the confirmed id}
    {"op": "say", "text": T, "claim": ID}   user_uttered (claiming session ID if given, else the
                                            confirmed one) → {"messages": the bot's texts (a card's `text`)}, once a
                                            reply has come and nothing more for QUIET_S seconds
    {"op": "drain"}                         → {"messages": what came unasked since the last command}
    {"op": "close"}                         disconnects and exits
"""
from __future__ import annotations

import json
import os
import queue
import sys
import threading
import time

import socketio

QUIET_S = 2.0
REPLY_TIMEOUT_S = 120.0


def shown_text(message: dict) -> str:
    """A bot message's text: its `text`, a custom payload's (the web page's cards carry one), else the JSON."""
    custom = message.get("custom")
    return message.get("text") or (custom.get("text") if isinstance(custom, dict) else None) or json.dumps(message)


def main() -> None:
    url = sys.argv[1]
    messages: queue.Queue[str] = queue.Queue()
    confirmed: queue.Queue[str] = queue.Queue()
    client = socketio.Client(reconnection=False)
    client.on("bot_uttered", lambda data: messages.put(shown_text(data or {})))
    client.on("session_confirm", lambda data: confirmed.put(data.get("session_id") if isinstance(data, dict) else data))
    client.connect(url, transports=["polling"], socketio_path="/socket.io", wait_timeout=30)
    session_id = None

    def collect(wait_for_one: bool) -> list[str]:
        got: list[str] = []
        deadline = time.monotonic() + REPLY_TIMEOUT_S
        while time.monotonic() < deadline:
            try:
                got.append(messages.get(timeout=QUIET_S))
            except queue.Empty:
                if got or not wait_for_one:
                    break
        return got

    for line in sys.stdin:
        command = json.loads(line)
        op = command["op"]
        if op == "session":
            client.emit("session_request", {"session_id": command.get("id")})
            session_id = confirmed.get(timeout=30)
            result: dict = {"session_id": session_id}
        elif op == "say":
            client.emit("user_uttered", {"message": command["text"], "session_id": command.get("claim") or session_id})
            result = {"messages": collect(wait_for_one=True)}
        elif op == "drain":
            result = {"messages": collect(wait_for_one=False)}
        elif op == "close":
            break
        else:
            result = {"error": f"unknown op {op!r}"}
        print(json.dumps(result), flush=True)
    # disconnect() sends the close packet at once, then waits for the open long-poll to end (up to the server's
    # ping interval, 25 s): the packet is what the server needs, so wait a moment only, then leave
    closing = threading.Thread(target=client.disconnect, daemon=True)
    closing.start()
    closing.join(timeout=3)
    os._exit(0)


if __name__ == "__main__":
    main()
