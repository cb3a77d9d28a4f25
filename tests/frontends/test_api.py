"""`assistant serve` (issue 21, items 2 and 4): the real server (uvicorn in a thread of the test process) over an
engine with the session's preloaded models and a temporary store, and the real CLI talking to it."""
from __future__ import annotations

import json
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx2 as httpx
import pytest
import uvicorn

from assistant.frontends.connections import server_options
from tests.support.cli import cli_env
from tests.support.long_policy import long_policy
from tests.support.paths import AMAZON
from tests.support.policy_server import policy_server

ALLOWED = "http://localhost:3000"
MAX_BYTES = 64_000  # the server's ASSISTANT_MAX_BYTES: the Amazon example (19.5 KB) fits
QUESTION = "Do they sell my personal information?"


@dataclass
class Served:
    url: str
    home: Path
    app: object

    def count(self, route: str) -> int:
        return self.app.state.served[route]


@contextmanager
def running(app) -> Iterator[str]:
    """Serve `app` with uvicorn on a free 127.0.0.1 port, in a thread; yields its base URL."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", **server_options()))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 120
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(30)
        sock.close()


@pytest.fixture(scope="module")
def served(tmp_path_factory, embedder, retriever, policyie, reader) -> Iterator[Served]:
    """A running server over a fresh store, with the Amazon example ingested by uploading it."""
    from assistant.engine import Assistant
    from assistant.foundation.settings import Settings
    from assistant.frontends.api import create_app

    home = tmp_path_factory.mktemp("served") / "home"
    settings = Settings(home=home, max_bytes=MAX_BYTES, allow_private=True)  # the test pages are on 127.0.0.1
    engine = Assistant(settings, embedder=embedder, retriever=retriever, policyie=policyie, reader=reader)
    app = create_app(engine, allowed_origins=[ALLOWED])
    with running(app) as url:
        with AMAZON.open("rb") as policy:
            reply = httpx.post(f"{url}/ingest", files={"file": ("amazon.com.html", policy, "text/html")},
                               data={"name": "amazon"}, timeout=300)
        assert reply.status_code == 200, reply.text
        assert reply.json()["message"].startswith("Ingested amazon version 1: 19 sections, 105 sentences in ")
        yield Served(url, home, app)


def cli(home: Path, server: str, *args: str, columns: str = "200") -> subprocess.CompletedProcess:
    env = cli_env(home, ASSISTANT_SERVER=server)
    env["COLUMNS"] = columns
    return subprocess.run([sys.executable, "-m", "assistant.frontends.cli", *args], capture_output=True, text=True,
                          env=env, timeout=300, check=False)


def closed_port() -> str:
    """The address of a 127.0.0.1 port nobody listens on."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{sock.getsockname()[1]}"


def assert_error(reply: httpx.Response, status: int, *words: str) -> None:
    assert reply.status_code == status, (reply.status_code, reply.text)
    error = reply.json()["error"]
    assert set(reply.json()) == {"error"} and "\n" not in error and error.endswith("."), error
    for word in words:
        assert word in error, error


def test_health_names_the_store(served):
    reply = httpx.get(f"{served.url}/health")
    assert reply.json() == {"status": "ok", "home": str(served.home.resolve())}
    assert "access-control-allow-origin" not in reply.headers  # no CORS headers by default


def test_upload_ask_label_policies_as_the_cli_prints_them(served):
    [row] = httpx.get(f"{served.url}/policies").json()
    assert row["name"] == "amazon" and row["sentences"] == 105 and row["source"] == "upload:amazon.com.html"
    again = httpx.post(f"{served.url}/ingest", files={"file": ("amazon.com.html", AMAZON.read_bytes())},
                       data={"name": "AMAZON"}).json()
    assert again["unchanged"] and again["message"] == (
        "amazon (names match without regard to case): unchanged (identical to version 1); nothing to do.")

    answer = httpx.post(f"{served.url}/ask", json={"question": QUESTION, "top": 2}).json()
    assert answer["policy"] == "amazon" and answer["verdict"] == "no" and len(answer["evidence"]) <= 2
    assert answer["evidence"][0]["sentence_id"] == 29

    label = httpx.get(f"{served.url}/label", params={"policy": "amazon", "version": 1}).json()
    assert label["policy"] == "amazon" and len(label["glance"]) == 16 and label["sections"]


def test_ingest_a_url_and_delete_it(served):
    with policy_server() as pages:
        refused = httpx.post(f"{served.url}/ingest", data={"url": pages.url("/policy"), "name": "tiny"}, timeout=120)
        assert_error(refused, 400, "Not stored", "--force")
        stored = httpx.post(f"{served.url}/ingest", data={"url": pages.url("/policy"), "name": "tiny",
                                                          "force": "true"}, timeout=120)
        assert stored.status_code == 200, stored.text
        missing = httpx.post(f"{served.url}/ingest", data={"url": pages.url("/missing")}, timeout=120)
        assert_error(missing, 400, "404")
    assert stored.json()["name"] == "tiny" and stored.json()["version"] == 1
    assert [p["name"] for p in httpx.get(f"{served.url}/policies").json()] == ["amazon", "tiny"]
    answer = httpx.post(f"{served.url}/ask", json={"question": "How long do they keep my account data?",
                                                   "policy": "tiny"}).json()
    assert "two years" in answer["evidence"][0]["text"]
    assert_error(httpx.post(f"{served.url}/ask", json={"question": QUESTION}), 400, "Several policies")

    deleted = httpx.delete(f"{served.url}/policies/tiny")
    assert deleted.json() == {"name": "tiny", "removed": 1, "message": "Removed tiny (1 version)."}
    assert_error(httpx.delete(f"{served.url}/policies/tiny"), 404, "tiny")
    assert [p["name"] for p in httpx.get(f"{served.url}/policies").json()] == ["amazon"]


def test_a_path_on_the_server_is_never_read(served):
    before = httpx.get(f"{served.url}/policies").json()
    for source in (str(AMAZON), f"file://{AMAZON}", "../examples/policies/amazon.com.html", "ftp://127.0.0.1/x"):
        reply = httpx.post(f"{served.url}/ingest", data={"url": source, "name": "sneaky", "force": "true"})
        assert_error(reply, 400, "never reads its own files by path")
    # a file name with folders is only a name: its last part gives the kind, nothing is opened
    reply = httpx.post(f"{served.url}/ingest", files={"file": (str(AMAZON), b"")}, data={"name": "sneaky"})
    assert_error(reply, 400, "amazon.com.html", "empty")
    assert_error(httpx.post(f"{served.url}/ingest", data={"path": str(AMAZON)}), 400, "url field or a file")
    assert httpx.get(f"{served.url}/policies").json() == before


def test_foreign_origins_and_host_names_are_refused(served):
    evil = {"Origin": "https://evil.example"}
    for method, path in (("GET", "/policies"), ("POST", "/ask"), ("DELETE", "/policies/amazon"), ("GET", "/health")):
        reply = httpx.request(method, f"{served.url}{path}", headers=evil, json={"question": QUESTION})
        assert_error(reply, 403, "https://evil.example", "--allow-origin")
        assert "access-control-allow-origin" not in reply.headers
    assert_error(httpx.get(f"{served.url}/policies", headers={"Host": "attacker.example:8765"}), 403, "localhost")

    allowed = httpx.get(f"{served.url}/policies", headers={"Origin": ALLOWED})
    assert allowed.status_code == 200 and allowed.headers["access-control-allow-origin"] == ALLOWED
    preflight = httpx.options(f"{served.url}/ask", headers={"Origin": ALLOWED, "Access-Control-Request-Method": "POST",
                                                            "Access-Control-Request-Headers": "content-type"})
    assert preflight.status_code == 200 and preflight.headers["access-control-allow-origin"] == ALLOWED
    same_origin = httpx.get(f"{served.url}/policies", headers={"Origin": served.url})  # the /docs page
    assert same_origin.status_code == 200
    assert [p["name"] for p in httpx.get(f"{served.url}/policies").json()] == ["amazon"]  # nothing was deleted


def test_errors_are_one_line_json_with_4xx(served):
    url = served.url
    assert_error(httpx.post(f"{url}/ask", json={"question": "  "}), 400, "The question is empty")
    assert_error(httpx.post(f"{url}/ask", json={"question": "x" * 1001}), 400, "limit is 1000")
    assert_error(httpx.post(f"{url}/ask", json={"question": QUESTION, "policy": "nope"}), 404, "Unknown policy")
    assert_error(httpx.post(f"{url}/ask", json={"question": QUESTION, "policy": "amazon", "version": 9}), 404)
    lone_surrogate = json.dumps({"question": QUESTION, "policy": "\ud800"}).encode()  # JSON may carry one
    assert_error(httpx.post(f"{url}/ask", content=lone_surrogate, headers={"Content-Type": "application/json"}), 400,
                 "not valid UTF-8")
    assert_error(httpx.post(f"{url}/ask", json={"policy": "amazon"}), 422, "question")
    assert_error(httpx.post(f"{url}/ask", json={"question": QUESTION, "top": 50}), 422, "top")
    assert_error(httpx.post(f"{url}/ask", content=b"{not json", headers={"Content-Type": "application/json"}), 422)
    assert_error(httpx.get(f"{url}/label", params={"policy": "amazon", "version": "two"}), 422, "version")
    assert_error(httpx.get(f"{url}/nowhere"), 404, "No such endpoint")
    assert_error(httpx.put(f"{url}/ask"), 405, "PUT")


def test_uploads_are_limited_by_max_bytes(served):
    before = httpx.get(f"{served.url}/policies").json()
    over = b"<p>" + b"We collect your email address. " * 3000 + b"</p>"  # ~96 KB: over the limit, within the envelope
    assert_error(httpx.post(f"{served.url}/ingest", files={"file": ("big.html", over)}), 400, "64000-byte limit")
    huge = over * 4  # its Content-Length alone is refused
    assert_error(httpx.post(f"{served.url}/ingest", files={"file": ("huge.html", huge)}), 413, "64000-byte limit")

    def chunks() -> Iterator[bytes]:  # no Content-Length: refused as the body arrives
        yield b'--b\r\nContent-Disposition: form-data; name="file"; filename="huge.html"\r\n\r\n'
        for start in range(0, len(huge), 8192):
            yield huge[start:start + 8192]
        yield b"\r\n--b--\r\n"

    streamed = httpx.post(f"{served.url}/ingest", content=chunks(),
                          headers={"Content-Type": "multipart/form-data; boundary=b"})
    assert_error(streamed, 413, "64000-byte limit")
    assert httpx.get(f"{served.url}/policies").json() == before


def test_engine_calls_are_serialised(served):
    """Eight questions at once: the engine (its SQLite connection belongs to one thread) answers each in turn."""
    def ask(_: int) -> tuple[int, str]:
        reply = httpx.post(f"{served.url}/ask", json={"question": QUESTION, "policy": "amazon"}, timeout=120)
        return reply.status_code, reply.text

    with ThreadPoolExecutor(8) as pool:
        replies = list(pool.map(ask, range(8)))
    assert {status for status, _ in replies} == {200} and len({text for _, text in replies}) == 1


def test_the_cli_uses_the_server_and_prints_the_same(served):
    nobody = closed_port()  # the fallback: nothing listens there, so the CLI works in process
    for args, route in ((("ask", QUESTION, "--policy", "amazon", "--json"), "POST /ask"),
                        (("ask", QUESTION, "--top", "2"), "POST /ask"),
                        (("label", "--policy", "amazon", "--json"), "GET /label"),
                        (("policies",), "GET /policies"),
                        (("ask", "", "--policy", "amazon"), "POST /ask"),  # refused before the server is asked
                        (("ask", QUESTION, "--policy", "nope"), "POST /ask")):  # refused by the server
        count = served.count(route)
        via_server = cli(served.home, served.url, *args)
        expected = 0 if args[:2] == ("ask", "") else 1
        assert served.count(route) == count + expected, args
        in_process = cli(served.home, nobody, *args)
        assert served.count(route) == count + expected, args
        assert (via_server.returncode, via_server.stdout, via_server.stderr) == (
            in_process.returncode, in_process.stdout, in_process.stderr), args
    assert via_server.stdout == "" and via_server.stderr.startswith("error: Unknown policy 'nope'")


def test_with_the_server_the_cli_loads_no_model(served):
    script = ("import sys\nfrom assistant.frontends.cli import app\n"
              f"app(['ask', {QUESTION!r}, '--policy', 'amazon'], standalone_mode=False)\n"
              "print('torch' in sys.modules)\n")
    count = served.count("POST /ask")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True,
                            env=cli_env(served.home, ASSISTANT_SERVER=served.url))
    assert served.count("POST /ask") == count + 1
    assert "not sell" in result.stdout and result.stdout.splitlines()[-1] == "False"


def test_the_cli_ignores_a_server_of_another_store_or_when_off(served, tmp_path):
    count = served.count("GET /policies")
    other = cli(tmp_path / "other", served.url, "policies")
    assert other.returncode == 0 and "No policies stored yet" in other.stdout
    off = cli(served.home, "off", "policies", "--json")
    assert [p["name"] for p in json.loads(off.stdout)] == ["amazon"]
    assert served.count("GET /policies") == count
    bad = cli(served.home, "ftp://127.0.0.1:1", "policies")
    assert bad.returncode == 2 and bad.stderr.startswith("error: ASSISTANT_SERVER=") and bad.stderr.count("\n") == 1


def test_openapi_documents_every_endpoint(served):
    spec = httpx.get(f"{served.url}/openapi.json").json()
    assert {"/health", "/policies", "/policies/{name}", "/ingest", "/ask", "/label"} <= set(spec["paths"])
    assert httpx.get(f"{served.url}/docs").status_code == 200


def test_serve_refuses_a_port_in_use_and_a_bad_origin(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1])
        result = cli(tmp_path / "home", "off", "serve", "--port", port)
        assert result.returncode == 2 and "Cannot listen on 127.0.0.1:" in result.stderr, result.stderr
    result = cli(tmp_path / "home", "off", "serve", "--allow-origin", "evil.example/page")
    assert result.returncode == 2 and "not a web origin" in result.stderr, result.stderr


def test_answers_and_labels_survive_their_json_form(amazon):
    """The CLI renders what the server sent: the objects rebuilt from JSON equal the engine's."""
    from assistant.answering.label import PrivacyLabel
    from assistant.foundation.types import Answer

    answer = amazon.ask("How long do they keep my data?", policy="amazon")
    assert Answer.from_dict(json.loads(json.dumps(answer.to_dict()))) == answer
    label = amazon.label("amazon")
    assert PrivacyLabel.from_dict(json.loads(json.dumps(label.to_dict()))) == label


def test_questions_are_answered_while_a_policy_is_ingested(served, tmp_path):
    """An ingest sent without waiting runs as a job beside the questions: each question is answered while the
    job is still running (before, every request waited behind the ingest)."""
    policy = long_policy(tmp_path, 6_000)  # a few hundred sentences: seconds of tagging
    reply = httpx.post(f"{served.url}/ingest", files={"file": ("long.md", policy.read_bytes(), "text/markdown")},
                       data={"name": "long", "wait": "false"}, timeout=30)
    assert reply.status_code == 202, reply.text
    job = reply.json()
    assert job["status"] in ("queued", "running") and len(job["job"]) >= 20
    answered_while_running = 0
    while True:
        asked = httpx.post(f"{served.url}/ask", json={"question": QUESTION, "policy": "amazon"}, timeout=120)
        assert asked.status_code == 200, asked.text
        state = httpx.get(f"{served.url}/jobs/{job['job']}").json()
        if state["status"] != "running":
            break
        answered_while_running += 1
        assert state["stage"] and state["done"] <= state["total"]
    assert answered_while_running >= 2
    assert state["status"] == "done", state
    assert state["result"]["name"] == "long" and state["result"]["message"].startswith("Ingested long version 1")
    assert "long" in {row["name"] for row in httpx.get(f"{served.url}/policies").json()}
    assert httpx.delete(f"{served.url}/policies/long").json()["removed"] == 1


def test_a_failed_job_says_why_and_unknown_jobs_are_404(served):
    reply = httpx.post(f"{served.url}/ingest", files={"file": ("empty.md", b"", "text/markdown")},
                       data={"wait": "false"})
    assert reply.status_code == 202
    job_id = reply.json()["job"]
    for _ in range(600):
        state = httpx.get(f"{served.url}/jobs/{job_id}").json()
        if state["status"] in ("done", "failed"):
            break
        time.sleep(0.05)
    assert state["status"] == "failed" and "empty" in state["error"] and "\n" not in state["error"]
    assert_error(httpx.get(f"{served.url}/jobs/not-a-job"), 404, "No ingest job")


def test_a_name_with_a_slash_can_be_deleted(served):
    with AMAZON.open("rb") as policy:
        added = httpx.post(f"{served.url}/ingest", files={"file": ("a.html", policy, "text/html")},
                           data={"name": "team/amazon"}, timeout=300)
    assert added.status_code == 200, added.text
    removed = httpx.delete(f"{served.url}/policies/team%2Famazon")
    assert removed.status_code == 200, removed.text
    assert removed.json()["removed"] == 1
    assert "team/amazon" not in {row["name"] for row in httpx.get(f"{served.url}/policies").json()}


def test_slow_clients_are_cut_off(served, monkeypatch):
    """Headers sent a line at a time, and a body that trickles, end in a closed connection or a 408."""
    from assistant.frontends import connections

    monkeypatch.setattr(connections, "HEADER_SECONDS", 1.0)
    monkeypatch.setattr(connections, "BODY_SECONDS", 1.0)
    host, port = served.url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as slow:
        slow.sendall(b"GET /health HTTP/1.1\r\n")
        started = time.monotonic()
        closed = False
        while time.monotonic() - started < 8:
            try:
                slow.sendall(b"X-Slow: 1\r\n")
                if slow.recv(1024, socket.MSG_DONTWAIT) == b"":
                    closed = True
                    break
            except BlockingIOError:
                pass
            except OSError:
                closed = True
                break
            time.sleep(0.2)
    assert closed, "a client sending headers for 8 s was kept"
    with socket.create_connection((host, int(port)), timeout=10) as slow:
        slow.sendall(b"POST /ask HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 100\r\n\r\n{")
        reply = slow.recv(4096)
    assert reply.startswith(b"HTTP/1.1 408"), reply[:100]
