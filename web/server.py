"""Serve the chat page: index.html, its client (chat.js over socket.io-client from node_modules), a
config script, the stored policies (`GET /policies`, the picker; `GET /policy?name=&version=`, the
policy text a citation opens; `GET /label?name=&version=`, the privacy label the page's panel frames;
`GET /compare-labels?policies=a,b[,c]`, labels side by side), and add policies to the store the chat
answers from (`POST /policies/preview`: the name it would be stored under, nothing stored; `POST /policies`:
store it; docs/chat.md).

    python web/server.py [--host 127.0.0.1] [--port 8000] [--rasa-url http://127.0.0.1:5005] [--origin URL ...]

Serves exactly these files (nothing else under web/ is reachable) with a Content-Security-Policy
that allows scripts from this page only and connections to this server and the Rasa server only,
so the page loads nothing from any other host. Run with the engine's environment: adding a policy
runs the engine (`web/policy_adder.py`) over `ASSISTANT_HOME`, which `web/policy_pages.py` reads.
"""
from __future__ import annotations

import argparse
import ipaddress
import json
import os
import sys
import traceback
from collections.abc import Callable
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from policy_adder import (
    FORM_OVERHEAD_BYTES,
    MAX_JSON_BYTES,
    PolicyAdder,
    RequestError,
    parse_form,
    parse_json,
    too_large_message,
)
from policy_pages import PageError, PolicyReader, error_page, parse_compare_query, parse_policy_query

from assistant.foundation.errors import AssistantError
from assistant.foundation.settings import MAX_QUESTION_CHARS, Settings

WEB = Path(__file__).resolve().parent
FILES = {
    "/": (WEB / "index.html", "text/html; charset=utf-8"),
    "/index.html": (WEB / "index.html", "text/html; charset=utf-8"),
    "/chat.js": (WEB / "chat.js", "text/javascript; charset=utf-8"),
    "/socket.io.js": (WEB / "node_modules" / "socket.io-client" / "dist" / "socket.io.min.js",
                      "text/javascript; charset=utf-8"),
}
# Seconds the page waits for a reply before saying that none came back (the first question after the
# action server starts may wait for its models: about 10 s).
REPLY_TIMEOUT_S = float(os.environ.get("CHAT_REPLY_TIMEOUT", "30"))


def make_handler(rasa_url: str, adder: PolicyAdder, origins: frozenset[str],
                 reader: PolicyReader | None = None) -> type[BaseHTTPRequestHandler]:
    """The request handler: the page's files, `POST /policies` (only from `origins`, the page's
    own), `GET /policies/progress`, `GET /policies`, `GET /policy`, `GET /label` and `GET /compare-labels`."""
    reader = reader or PolicyReader(adder.settings)
    parts = urlsplit(rasa_url)
    ws_url = ("wss" if parts.scheme == "https" else "ws") + f"://{parts.netloc}"
    origin = f"{parts.scheme}://{parts.netloc}"
    csp = (
        "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
        f"font-src 'self' data:; connect-src 'self' {origin} {ws_url}; frame-src 'self'; base-uri 'none'; "
        "form-action 'none'; "
        "frame-ancestors 'none'"
    )
    framed_csp = csp.replace("frame-ancestors 'none'", "frame-ancestors 'self'")
    config = ("window.CHAT_CONFIG = " + json.dumps({"socketUrl": origin, "maxUploadBytes": adder.max_bytes,
                                                    "replyTimeoutMs": int(REPLY_TIMEOUT_S * 1000),
                                                    "maxQuestionChars": MAX_QUESTION_CHARS})
              + ";\n").encode()

    class Handler(BaseHTTPRequestHandler):
        server_version = "privacy-assistant-web"
        timeout = 60  # seconds a client may take to send a request (an upload's body included)

        def do_GET(self) -> None:
            url = urlsplit(self.path)
            path = url.path
            if path == "/config.js":
                self._send(config, "text/javascript; charset=utf-8")
            elif path == "/policies/progress":
                self._send_json(HTTPStatus.OK, adder.progress())
            elif path == "/policies":
                self._send_json(HTTPStatus.OK, {"policies": reader.policies()})
            elif path == "/policy":
                self._send_page(lambda: reader.page(parse_policy_query(parse_qs(url.query))))
            elif path == "/label":  # the label panel frames it: the only page this page may frame
                self._send_page(lambda: reader.label(parse_policy_query(parse_qs(url.query))), framed_csp)
            elif path == "/compare-labels":
                self._send_page(lambda: reader.compare(parse_compare_query(parse_qs(url.query))))
            elif path in FILES:
                file, content_type = FILES[path]
                try:
                    self._send(file.read_bytes(), content_type)
                except FileNotFoundError:
                    self.send_error(HTTPStatus.SERVICE_UNAVAILABLE,
                                    "socket.io-client is not installed: run npm ci in web/")
            else:
                self.send_error(HTTPStatus.NOT_FOUND)

        def do_POST(self) -> None:
            path = urlsplit(self.path).path
            if path not in ("/policies", "/policies/preview"):
                self.close_connection = True
                self.send_error(HTTPStatus.NOT_FOUND)
                return
            try:
                self._send_json(HTTPStatus.OK, self._add_policy(preview=path == "/policies/preview"))
            except RequestError as exc:
                self.close_connection = True  # the body may be unread
                self._send_json(exc.status, {"error": str(exc)})
            except Exception:  # noqa: BLE001 (the page gets one line; the traceback goes to the log)
                self.log_error("adding a policy failed:\n%s", traceback.format_exc())
                self.close_connection = True
                self._send_json(HTTPStatus.INTERNAL_SERVER_ERROR,
                                {"error": "Adding the policy failed unexpectedly: see the chat page server's log."})

        def _add_policy(self, preview: bool = False) -> dict:
            """Check where the request comes from, what it is and how large, before reading it; then store the
            policy, or with `preview` only say the name it would be stored under."""
            if self.headers.get("Origin") not in origins:
                raise RequestError(HTTPStatus.FORBIDDEN, "Policies can be added only from the chat page itself.")
            content_type = self.headers.get_content_type()
            if content_type not in ("application/json", "multipart/form-data"):
                raise RequestError(HTTPStatus.UNSUPPORTED_MEDIA_TYPE,
                                   "Send the policy's address as application/json or its file as multipart/form-data.")
            length = self._content_length()
            if content_type == "application/json" and length > MAX_JSON_BYTES:
                raise RequestError(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, "The request is too large for an address.")
            if content_type == "multipart/form-data" and length > adder.max_bytes + FORM_OVERHEAD_BYTES:
                raise RequestError(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, too_large_message(adder.max_bytes))
            adder.reserve()
            try:
                body = self.rfile.read(length)
                if len(body) < length:
                    raise RequestError(HTTPStatus.BAD_REQUEST, "The request ended before its declared length.")
                if content_type == "application/json":
                    request = parse_json(body)
                else:
                    request = parse_form(self.headers["Content-Type"], body, adder.max_bytes, not preview)
                return adder.preview(request) if preview else adder.add(request)
            finally:
                adder.release()

        def _content_length(self) -> int:
            raw = self.headers.get("Content-Length")
            if raw is None or not raw.strip().isdigit():
                raise RequestError(HTTPStatus.LENGTH_REQUIRED, "The request must say its length (Content-Length).")
            return int(raw)

        def _send_page(self, make: Callable[[], bytes], policy: str | None = None) -> None:
            """An HTML page from the store, or its error page."""
            try:
                self._send(make(), "text/html; charset=utf-8", csp_header=policy)
            except PageError as exc:
                self._send(error_page(exc.status, str(exc)), "text/html; charset=utf-8", exc.status, policy)

        def _send_json(self, status: HTTPStatus, data: dict) -> None:
            self._send(json.dumps(data).encode(), "application/json", status)

        def _send(self, body: bytes, content_type: str, status: HTTPStatus = HTTPStatus.OK,
                  csp_header: str | None = None) -> None:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Content-Security-Policy", csp_header or csp)
            self.send_header("X-Content-Type-Options", "nosniff")
            self.send_header("Referrer-Policy", "no-referrer")
            self.send_header("Cache-Control", "no-store")
            if self.close_connection:
                self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:
            if os.environ.get("WEB_ACCESS_LOG"):
                super().log_message(format, *args)

    return Handler


def page_origins(host: str, port: int) -> frozenset[str]:
    """The page's own origins: http://HOST:PORT, and for a loopback host its other loopback names."""
    names = {host}
    try:
        loopback = ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = host == "localhost"
    if loopback:
        names |= {"127.0.0.1", "localhost", "::1"}
    return frozenset(f"http://[{n}]:{port}" if ":" in n else f"http://{n}:{port}" for n in names)


def main() -> None:
    parser = argparse.ArgumentParser(description="Serve the privacy assistant's chat page.")
    parser.add_argument("--host", default=os.environ.get("CHAT_HOST", "127.0.0.1"))
    parser.add_argument("--port", type=int, default=int(os.environ.get("WEB_PORT", "8000")))
    parser.add_argument("--rasa-url", default=None, help="The Rasa server (default http://HOST:RASA_PORT).")
    parser.add_argument("--origin", action="append", default=None,
                        help="An origin the page is opened from, allowed to add policies (repeatable; "
                             "default http://HOST:PORT and, on loopback, its other loopback names).")
    args = parser.parse_args()
    rasa_url = args.rasa_url or f"http://{args.host}:{os.environ.get('RASA_PORT', '5005')}"
    try:
        settings = Settings.from_env()
    except AssistantError as exc:
        sys.exit(f"error: {exc}")
    origins = frozenset(o.rstrip("/") for o in args.origin) if args.origin else page_origins(args.host, args.port)
    server = ThreadingHTTPServer((args.host, args.port), make_handler(rasa_url, PolicyAdder(settings), origins))
    server.daemon_threads = True
    print(f"Chat page on http://{args.host}:{args.port}/ (Rasa server {rasa_url}, store {settings.home})", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
