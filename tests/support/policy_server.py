"""A local HTTP server on 127.0.0.1 (a thread of the test process) that serves policy pages and misbehaves
on request: redirect chains and loops, 404 and 500, a slow answer, huge bodies, wrong content types, and
headers or a body sent a few bytes at a time.
"""
from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

POLICY_HTML = """<!doctype html><html><head><title>Example Privacy Policy</title></head><body>
<h1>Example Privacy Policy</h1>
<h2>Information We Collect</h2>
<p>We collect your email address and your phone number when you sign up.</p>
<h2>Data Retention</h2>
<p>We keep your account data for two years after you close your account.</p>
</body></html>"""
CHUNK = b"x" * 65536
HUGE_CHUNKS = 800  # 50 MiB if nobody stops reading
TRICKLE_SECONDS = 0.3  # between the pieces of a trickled answer
TRICKLE_PIECES = 60  # 18 s of trickling if nobody stops reading


class PolicyServer(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.pages: dict[str, tuple[str, bytes]] = {"/policy": ("text/html; charset=utf-8", POLICY_HTML.encode())}
        self.huge_bytes_sent = 0
        self.requests: list[tuple[str, dict[str, str]]] = []  # (path, headers) of every request
        self.trickle_stopped = threading.Event()  # set when a client closes a trickled answer's connection

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"

    def url(self, path: str) -> str:
        return self.base + path


class _Handler(BaseHTTPRequestHandler):
    server: PolicyServer
    protocol_version = "HTTP/1.1"

    def log_message(self, *args: object) -> None:  # quiet
        pass

    def do_GET(self) -> None:
        self.server.requests.append((self.path, dict(self.headers)))
        path = self.path
        if path in self.server.pages:
            content_type, body = self.server.pages[path]
            self._send(200, content_type, body)
        elif path.startswith("/redirect/"):  # /redirect/N redirects N times, then to /policy
            hops = int(path.rsplit("/", 1)[1])
            self._redirect(f"/redirect/{hops - 1}" if hops > 1 else "/policy")
        elif path == "/loop":
            self._redirect("/loop")
        elif path == "/to-ftp":
            self._redirect("ftp://127.0.0.1/policy.txt")
        elif path == "/set-cookie":
            self.send_response(302)
            self.send_header("Location", "/show-cookie")
            self.send_header("Set-Cookie", "session=abc123; Path=/")
            self.send_header("Content-Length", "0")
            self.end_headers()
        elif path == "/show-cookie":
            cookie = self.headers.get("Cookie") or "none"
            agent = self.headers["User-Agent"]
            self._send(200, "text/plain", f"The cookie sent was {cookie}. The agent was {agent}.".encode())
        elif path == "/missing":
            self._send(404, "text/html", b"<p>Not here.</p>")
        elif path == "/broken":
            self._send(500, "text/html", b"<p>Oops.</p>")
        elif path == "/slow":
            time.sleep(3)
            self._send(200, "text/html", POLICY_HTML.encode())
        elif path == "/trickle-body":  # a few bytes every TRICKLE_SECONDS: no read ever waits long
            piece = b"We collect your email address. "
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length", str(len(piece) * TRICKLE_PIECES))
            self.end_headers()
            self._trickle(piece)
        elif path == "/trickle-headers":  # the status line, then one header line every TRICKLE_SECONDS
            self.wfile.write(b"HTTP/1.1 200 OK\r\n")
            self._trickle(b"X-Padding: slow\r\n")
        elif path == "/image":
            self._send(200, "image/png", b"\x89PNG\r\n\x1a\n" + b"\x00" * 64)
        elif path == "/huge-declared":  # says how big it is: refused before any of it is read
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(CHUNK) * HUGE_CHUNKS))
            self.end_headers()
            self._stream()
        elif path == "/huge-undeclared":  # no Content-Length: the body ends when the connection closes
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Connection", "close")
            self.end_headers()
            self._stream()
            self.close_connection = True
        else:
            self._send(404, "text/plain", b"unknown path")

    def _send(self, status: int, content_type: str, body: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _redirect(self, location: str) -> None:
        self.send_response(302)
        self.send_header("Location", location)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def _trickle(self, piece: bytes) -> None:
        try:
            for _ in range(TRICKLE_PIECES):
                self.wfile.write(piece)
                time.sleep(TRICKLE_SECONDS)
        except OSError:  # the client closed the connection
            self.server.trickle_stopped.set()
        self.close_connection = True

    def _stream(self) -> None:
        try:
            for _ in range(HUGE_CHUNKS):
                self.wfile.write(CHUNK)
                self.server.huge_bytes_sent += len(CHUNK)
        except OSError:  # the client stopped reading and closed the connection
            self.close_connection = True


@contextmanager
def policy_server() -> Iterator[PolicyServer]:
    server = PolicyServer()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
