"""Serve the chat page: index.html, the rasa-webchat bundle from node_modules and a config script.

    python web/server.py [--host 127.0.0.1] [--port 8000] [--rasa-url http://127.0.0.1:5005]

Standard library only. Serves exactly four paths (nothing else under web/ is reachable) with a
Content-Security-Policy that allows scripts from this page only and connections to the Rasa server
only, so the page loads nothing from any other host (the widget bundle's @import of a web font is
removed as it is served).
"""
from __future__ import annotations

import argparse
import json
import os
import re
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

# The widget's stylesheets @import a web font from a CDN: removed, so the page asks no other host
# for anything (the widget falls back to the system sans-serif font).
REMOTE_IMPORT = re.compile(rb"@import url\((?:https?:)?//[^)]*\);?")

WEB = Path(__file__).resolve().parent
FILES = {
    "/": (WEB / "index.html", "text/html; charset=utf-8"),
    "/index.html": (WEB / "index.html", "text/html; charset=utf-8"),
    "/chat.js": (WEB / "chat.js", "text/javascript; charset=utf-8"),
    "/webchat.js": (WEB / "node_modules" / "rasa-webchat" / "lib" / "index.js", "text/javascript; charset=utf-8"),
}


def make_handler(rasa_url: str) -> type[BaseHTTPRequestHandler]:
    parts = urlsplit(rasa_url)
    ws_url = ("wss" if parts.scheme == "https" else "ws") + f"://{parts.netloc}"
    origin = f"{parts.scheme}://{parts.netloc}"
    csp = (
        "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
        f"font-src 'self' data:; connect-src 'self' {origin} {ws_url}; base-uri 'none'; form-action 'none'; "
        "frame-ancestors 'none'"
    )
    config = ("window.CHAT_CONFIG = " + json.dumps({"socketUrl": origin}) + ";\n").encode()

    class Handler(BaseHTTPRequestHandler):
        server_version = "privacy-assistant-web"

        def do_GET(self) -> None:
            path = urlsplit(self.path).path
            if path == "/config.js":
                self._send(config, "text/javascript; charset=utf-8")
            elif path in FILES:
                file, content_type = FILES[path]
                try:
                    body = file.read_bytes()
                    if path == "/webchat.js":
                        body = REMOTE_IMPORT.sub(b"", body)
                    self._send(body, content_type)
                except FileNotFoundError:
                    self.send_error(HTTPStatus.SERVICE_UNAVAILABLE, "rasa-webchat is not installed: run npm ci in web/")
            else:
                self.send_error(HTTPStatus.NOT_FOUND)

        def _send(self, body: bytes, content_type: str) -> None:
            self.send_response(HTTPStatus.OK)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Content-Security-Policy", csp)
            self.send_header("X-Content-Type-Options", "nosniff")
            self.send_header("Referrer-Policy", "no-referrer")
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:
            if os.environ.get("WEB_ACCESS_LOG"):
                super().log_message(format, *args)

    return Handler


def main() -> None:
    parser = argparse.ArgumentParser(description="Serve the privacy assistant's chat page.")
    parser.add_argument("--host", default=os.environ.get("CHAT_HOST", "127.0.0.1"))
    parser.add_argument("--port", type=int, default=int(os.environ.get("WEB_PORT", "8000")))
    parser.add_argument("--rasa-url", default=None, help="The Rasa server (default http://HOST:RASA_PORT).")
    args = parser.parse_args()
    rasa_url = args.rasa_url or f"http://{args.host}:{os.environ.get('RASA_PORT', '5005')}"
    server = ThreadingHTTPServer((args.host, args.port), make_handler(rasa_url))
    print(f"Chat page on http://{args.host}:{args.port}/ (Rasa server {rasa_url})", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
