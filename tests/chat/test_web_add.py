"""Adding a policy from the chat page: `POST /policies` of a real web/server.py process on 127.0.0.1
over a temporary store (no Rasa), with a local HTTP server serving the example policies.

The server runs with its own TMPDIR (an upload must leave nothing there: the engine reads its bytes)
and a 200 kB limit on policy files."""
from __future__ import annotations

import http.client
import json
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path

import pytest

from tests.support.documents import TERMS
from tests.support.paths import EXAMPLES, ROOT
from tests.support.policy_server import policy_server
from tests.support.store import store_snapshot

MAX_BYTES = 200_000


class WebServer:
    def __init__(self, base: Path) -> None:
        self.home = base / "home"
        self.tmp = base / "tmp"
        self.tmp.mkdir(parents=True)
        self.port = _free_port()
        self.origin = f"http://127.0.0.1:{self.port}"
        self.log = (base / "web.log").open("w")
        env = dict(os.environ, ASSISTANT_HOME=str(self.home), TMPDIR=str(self.tmp), PYTHONPATH=str(ROOT),
                   ASSISTANT_MAX_BYTES=str(MAX_BYTES), RASA_PORT="1",
                   ASSISTANT_ALLOW_PRIVATE="1")  # the policies it adds are served on 127.0.0.1
        self.process = subprocess.Popen([sys.executable, str(ROOT / "web" / "server.py"), "--port", str(self.port)],
                                        env=env, cwd=ROOT, stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(self.origin + "/config.js", timeout=2).close()
                return
            except OSError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"web/server.py did not start: {(base / 'web.log').read_text()}") from None
                time.sleep(0.2)

    def post(self, body: bytes, content_type: str, origin: str | None = "", timeout: float = 300,
             path: str = "/policies") -> tuple[int, dict]:
        """POST /policies (from the page's own origin unless `origin` says otherwise); status and JSON."""
        headers = {"Content-Type": content_type}
        if origin is not None:
            headers["Origin"] = origin or self.origin
        request = urllib.request.Request(self.origin + path, body, headers, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                return response.status, json.load(response)
        except urllib.error.HTTPError as error:
            with error:
                return error.code, json.load(error)

    def post_json(self, data: dict, **kwargs) -> tuple[int, dict]:
        return self.post(json.dumps(data).encode(), "application/json", **kwargs)

    def upload(self, filename: str, content: bytes, name: str | None = None, **kwargs) -> tuple[int, dict]:
        fields = [("file", filename, content)] + ([("name", None, name.encode())] if name is not None else [])
        return self.post(*multipart(fields), **kwargs)

    def progress(self) -> dict:
        with urllib.request.urlopen(self.origin + "/policies/progress", timeout=10) as response:
            return json.load(response)

    def uploads_left(self) -> list[Path]:
        """Upload files or folders in the server's TMPDIR (torch keeps its own cache there)."""
        return list(self.tmp.glob("*upload*"))

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=30)
        self.log.close()


def multipart(fields: list[tuple[str, str | None, bytes]]) -> tuple[bytes, str]:
    """A multipart/form-data body as a browser sends it: (field, filename or None, content)."""
    boundary = uuid.uuid4().hex
    body = b""
    for field, filename, content in fields:
        disposition = f'form-data; name="{field}"' + (f'; filename="{filename}"' if filename is not None else "")
        body += f"--{boundary}\r\nContent-Disposition: {disposition}\r\n".encode()
        if filename is not None:
            body += b"Content-Type: application/octet-stream\r\n"
        body += b"\r\n" + content + b"\r\n"
    return body + f"--{boundary}--\r\n".encode(), f"multipart/form-data; boundary={boundary}"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    server = WebServer(tmp_path_factory.mktemp("webadd"))
    yield server
    server.stop()


def stored(home: Path) -> dict[str, tuple[int, str]]:
    """Each stored policy's latest version: name → (sentences, source)."""
    from assistant.store.database import Store

    store = Store(home)
    try:
        return {s.latest.name: (s.latest.n_sentences, s.latest.source_path) for s in store.list_policies()}
    finally:
        store.close()


def test_a_policy_url_is_added_while_the_page_sees_its_progress_and_a_second_add_waits(server):
    assert server.progress() == {"running": False}
    with policy_server() as pages:
        pages.pages["/amazon/privacy"] = ("text/html; charset=utf-8", (EXAMPLES / "amazon.com.html").read_bytes())
        url = pages.url("/amazon/privacy")
        reply: dict = {}
        adding = threading.Thread(target=lambda: reply.update(result=server.post_json({"url": url, "name": "amazon"})))
        adding.start()
        seen = []
        while adding.is_alive() and not seen:
            progress = server.progress()
            if progress["running"]:
                seen.append(progress)
            time.sleep(0.05)
        busy = server.post_json({"url": url, "name": "other"})
        adding.join(timeout=300)
        assert reply["result"][0] == 200, reply
        added = reply["result"][1]
        assert added["name"] == "amazon" and added["version"] == 1 and added["unchanged"] is False
        assert added["sentences"] > 50
        assert seen and seen[0]["stage"] in ("fetching", "embedding", "tagging practices", "reading facts")
        assert busy == (409, {"error": "Another policy is being added: try again when it is done."})
        assert server.progress() == {"running": False}
        assert stored(server.home) == {"amazon": (added["sentences"], url)}

        again = server.post_json({"url": url, "name": "amazon"})  # the same page: nothing new is stored
        assert again == (200, {**added, "unchanged": True, "warning": None})


def test_an_uploaded_file_is_added_under_its_own_name_and_never_written_to_disk(server):
    content = (EXAMPLES / "steampowered.com.html").read_bytes()
    status, added = server.upload("../../../steampowered.com.html", content)  # a path-like file name
    assert status == 200, added
    assert added["name"] == "steampowered.com" and added["sentences"] > 30 and added["unchanged"] is False
    assert stored(server.home)["steampowered.com"] == (added["sentences"], "upload:steampowered.com.html")
    assert server.uploads_left() == []
    # not where the file name points (three folders up from a temporary folder: beside this test's
    # own folder), nor anywhere in this test's folder; other tests' folders hold their own copies
    places = [*server.tmp.parent.rglob("*"), *server.tmp.parent.parent.glob("*")]
    assert [p for p in places if p.name in ("steampowered.com.html", "upload.html")] == []


def test_a_document_that_is_not_a_policy_is_refused_with_the_reason_and_nothing_is_stored(server):
    before = store_snapshot(server.home)
    status, reply = server.upload("terms.txt", TERMS.encode(), name="../../terms")
    assert (status, reply) == (422, {
        "error": "Not stored: terms.txt: this looks like terms of service, not a privacy policy."})
    assert str(server.tmp) not in reply["error"] and "\n" not in reply["error"]
    assert store_snapshot(server.home) == before
    assert server.uploads_left() == []


def test_too_large_uploads_are_refused_by_their_declared_length_before_reading(server):
    before = store_snapshot(server.home)
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    connection.putrequest("POST", "/policies")
    connection.putheader("Origin", server.origin)
    connection.putheader("Content-Type", "multipart/form-data; boundary=x")
    connection.putheader("Content-Length", str(50 * 1024 * 1024))
    connection.endheaders()  # no body is sent: the answer must come without it
    response = connection.getresponse()
    assert response.status == 413
    assert json.load(response) == {"error": f"The file is larger than the {MAX_BYTES:,}-byte limit for a policy."}
    connection.close()

    status, reply = server.upload("big.html", b"<p>" + b"x" * MAX_BYTES + b"</p>")  # within the form's slack
    assert (status, reply) == (413, {"error": f"The file is larger than the {MAX_BYTES:,}-byte limit for a policy."})
    assert store_snapshot(server.home) == before
    assert server.uploads_left() == []


def test_other_origins_other_content_types_and_server_paths_are_refused(server):
    before = store_snapshot(server.home)
    policy = {"url": "http://127.0.0.1:9/policy"}
    assert server.post_json(policy, origin="http://evil.example") == (
        403, {"error": "Policies can be added only from the chat page itself."})
    assert server.post_json(policy, origin=None)[0] == 403  # no Origin: not from the page
    assert server.post_json(policy, origin=f"http://127.0.0.1:{server.port + 1}")[0] == 403
    assert server.post(json.dumps(policy).encode(), "text/plain")[0] == 415  # what a cross-site form can send
    for path in ("/etc/passwd", "file:///etc/passwd", str(EXAMPLES / "amazon.com.html"), "ftp://127.0.0.1/p"):
        assert server.post_json({"url": path}) == (
            400, {"error": "The address must be a site (duolingo.com) or a web address starting with http:// or "
                           "https://."})
    assert server.post(b"{not json", "application/json") == (400, {"error": "The request is not valid JSON."})
    assert server.upload("policy.exe", b"MZ")[1] == {"error": "Only .html, .htm, .md, .txt and .pdf files can be added."}
    assert server.post(*multipart([("name", None, b"x")])) == (
        400, {"error": "The form has no file: choose a policy file to upload."})
    status, reply = server.post_json({"url": "http://127.0.0.1:9/policy"})  # nothing listens on port 9
    assert status == 422 and "connection was refused" in reply["error"]
    assert store_snapshot(server.home) == before


# -- reading the store: the picker's list and the policy page a citation opens ---------------------

def get(url: str) -> tuple[int, str, str]:
    """GET: status, content type and body."""
    try:
        with urllib.request.urlopen(url, timeout=60) as response:
            return response.status, response.headers["Content-Type"], response.read().decode()
    except urllib.error.HTTPError as error:
        with error:
            return error.code, error.headers["Content-Type"], error.read().decode()


def test_the_policy_page_shows_the_cited_version_escaped_with_linkable_sentences(server, tmp_path, embedder,
                                                                                  retriever, policyie):
    from html.parser import HTMLParser

    from assistant.engine import Assistant
    from assistant.foundation.settings import Settings
    from tests.support.chat_stack import MARKUP_POLICY_TEXT

    engine = Assistant(Settings(home=server.home), embedder=embedder, retriever=retriever, policyie=policyie)
    first, second = tmp_path / "markup.txt", tmp_path / "markup2.txt"
    first.write_text(MARKUP_POLICY_TEXT, encoding="utf-8")
    second.write_text(MARKUP_POLICY_TEXT + "\nChanges\n\nWe tell you by email when this policy changes.\n",
                      encoding="utf-8")
    engine.ingest(first, name="markup", force=True)
    engine.ingest(second, name="markup", force=True)
    sentences = {v: engine.store.sentences(engine.version("markup", v).id) for v in (1, 2)}
    engine.store.close()

    status, kind, body = get(server.origin + "/policies")
    assert status == 200 and kind == "application/json"
    listed = {p["name"]: p for p in json.loads(body)["policies"]}
    assert listed["markup"] == {"name": "markup", "version": 2, "sentences": len(sentences[2])}

    class Sentences(HTMLParser):
        """Each span#s-N's own text, and every element the page has."""

        def __init__(self) -> None:
            super().__init__()
            self.text: dict[str, str] = {}
            self.tags: set[str] = set()
            self.current: str | None = None
            self.depth = 0

        def handle_starttag(self, tag, attrs):
            self.tags.add(tag)
            attrs = dict(attrs)
            if self.current:
                self.depth += 1
            elif (attrs.get("id") or "").startswith("s-"):
                self.current, self.depth = attrs["id"], 0
                self.text[self.current] = ""

        def handle_endtag(self, tag):
            if self.current and self.depth == 0:
                self.current = None
            elif self.current:
                self.depth -= 1

        def handle_data(self, data):
            if self.current and self.depth == 0:
                self.text[self.current] += data

    for version in (1, 2):
        status, kind, body = get(server.origin + f"/policy?name=MARKUP&version={version}")  # names match any case
        assert status == 200 and kind == "text/html; charset=utf-8"
        page = Sentences()
        page.feed(body)
        assert page.text == {f"s-{s.ordinal}": s.text for s in sentences[version]}  # verbatim, the version cited
        assert not page.tags & {"script", "img", "b"} and 'href="javascript' not in body
        assert "&lt;script&gt;" in body and "<script" not in body
        assert str(tmp_path) not in body and "from the file markup" in body  # issue 39: no path on the server
    assert "We tell you by email" not in get(server.origin + "/policy?name=markup&version=1")[2]
    assert "We tell you by email" in get(server.origin + "/policy?name=markup")[2]  # no version: the latest

    for query, expected in (("name=markup&version=3", 404), ("name=nosuch", 404), ("name=markup&version=0", 400),
                            ("name=markup&version=x", 400), ("version=1", 400), ("name=", 400)):
        status, kind, body = get(server.origin + "/policy?" + query)
        assert status == expected, (query, status)
        assert kind == "text/html; charset=utf-8" and "<script" not in body
    status, _, body = get(server.origin + "/policy?name=%3Cscript%3Ealert(1)%3C%2Fscript%3E")
    assert status == 404 and "<script" not in body and "&lt;script&gt;" in body  # the name is escaped too


# -- the name shown before storing (issue 39, item 1) -----------------------------------------------------------

PREVIEW = "/policies/preview"


def titled(title: str, example: str) -> bytes:
    """An example policy served as a page with `title`."""
    return f"<title>{title}</title>".encode() + (EXAMPLES / example).read_bytes()


def test_the_preview_says_the_name_before_anything_is_stored_and_never_reuses_another_documents_name(server):
    with policy_server() as pages:
        pages.pages["/one/privacy"] = ("text/html; charset=utf-8", titled("Privacy Policy | Acme", "amazon.com.html"))
        pages.pages["/two/privacy"] = ("text/html; charset=utf-8",
                                       titled("Privacy Policy | Acme", "steampowered.com.html"))
        one, two = pages.url("/one/privacy"), pages.url("/two/privacy")
        stored(server.home)  # the store's tables exist (this test may run first)
        before = store_snapshot(server.home)
        status, preview = server.post_json({"url": one}, path=PREVIEW)
        assert (status, preview) == (200, {"name": "Acme", "note": "named after the page's title", "existing": None,
                                           "unchanged": False, "url": one, "found": None})
        assert store_snapshot(server.home) == before  # nothing stored by a preview
        assert server.progress() == {"running": False}

        status, added = server.post_json({"url": one, "name": preview["name"]})  # "Add": the confirmed name
        assert status == 200 and added["name"] == "Acme" and added["version"] == 1

        again = server.post_json({"url": one}, path=PREVIEW)  # the same page: its name, the version it holds
        assert again == (200, {"name": "Acme", "note": '"Acme" already holds this page (the same address)',
                               "existing": 1, "unchanged": True, "url": one, "found": None})
        after = store_snapshot(server.home)
        status, other = server.post_json({"url": two}, path=PREVIEW)  # another document with the same title
        assert status == 200 and other["name"] == "Acme (2)" and other["existing"] is None, other
        assert other["note"] == 'named after the page\'s title: "Acme" already holds another document'
        assert store_snapshot(server.home) == after

        # an upload: named after its file, and "acme" (the same name, whatever its case) holds another document
        status, upload = server.upload("acme.html", titled("Privacy Policy | Acme", "steampowered.com.html"),
                                       path=PREVIEW)
        assert (status, upload["name"], upload["existing"]) == (200, "acme (2)", None), upload
        assert upload["note"] == 'named after the file: "acme" already holds another document'
        status, same = server.upload("acme.html", titled("Privacy Policy | Acme", "amazon.com.html"), path=PREVIEW)
        assert (status, same["name"], same["existing"], same["unchanged"]) == (200, "Acme", 1, True), same
        assert store_snapshot(server.home) == after
        assert server.uploads_left() == []


def test_the_preview_refuses_what_adding_refuses_with_the_same_messages(server):
    before = store_snapshot(server.home)
    terms = server.upload("terms.txt", TERMS.encode(), path=PREVIEW)
    assert terms == (422, {"error": "Not stored: terms.txt: this looks like terms of service, not a privacy policy."})
    assert server.post_json({"url": "http://127.0.0.1:9/policy"}, origin="http://evil.example", path=PREVIEW) == (
        403, {"error": "Policies can be added only from the chat page itself."})
    assert server.post_json({"url": "file:///etc/passwd"}, path=PREVIEW)[0] == 400
    assert server.post(json.dumps({"url": "x"}).encode(), "text/plain", path=PREVIEW)[0] == 415
    status, reply = server.upload("big.html", b"<p>" + b"x" * MAX_BYTES + b"</p>", path=PREVIEW)
    assert (status, reply) == (413, {"error": f"The file is larger than the {MAX_BYTES:,}-byte limit for a policy."})
    status, reply = server.post_json({"url": "http://127.0.0.1:9/policy"}, path=PREVIEW)
    assert status == 422 and "connection was refused" in reply["error"]
    assert store_snapshot(server.home) == before
