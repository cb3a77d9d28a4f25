"""No chat endpoint lets one user read or write another user's conversation (issue 19, item 5).

Against the real Rasa server of tests/support/chat_stack.py: the REST channel wants the run's bearer token
and refuses other web pages; the socketio channel issues signed session ids itself, hears a
socket only as the session confirmed for it, and refuses other web pages.
"""
from __future__ import annotations

import json
import re
import subprocess
import time
import urllib.error
import urllib.request
import uuid

import pytest

from rasa_addons.session_ids import SessionIds
from tests.support.chat_stack import RASA_PYTHON, SocketClient, free_port, shared_stack
from tests.support.paths import ROOT

pytestmark = pytest.mark.e2e

EVIL = "http://evil.example"
SESSION_ID = re.compile(r"[0-9a-f]{32}\.[0-9a-f]{32}")
NOTHING_TO_EXPLAIN = "Ask me a question about a policy first"


def current_policy(listing: str) -> str:
    """The policy marked current in a "which policies are loaded?" reply (plain or Markdown)."""
    marked = [line for line in listing.splitlines() if "← " in line]
    assert len(marked) == 1, listing
    return re.sub(r"^[-*•\s]*", "", marked[0]).split(" (version")[0]


@pytest.fixture(scope="session")
def stack(request, tmp_path_factory, embedder, retriever, policyie):
    return shared_stack(request, tmp_path_factory, embedder, retriever, policyie)


@pytest.fixture
def clients(stack):
    """Socket.io clients of the stack, closed after the test."""
    opened: list[SocketClient] = []

    def open_client() -> SocketClient:
        opened.append(SocketClient(stack))
        return opened[-1]

    yield open_client
    for client in opened:
        client.close()


def http(url: str, *, data: bytes | None = None, headers: dict[str, str] | None = None) -> tuple[int, dict, bytes]:
    """Status, headers and body of a request, whatever the status."""
    request = urllib.request.Request(url, data, headers or {})
    try:
        with urllib.request.urlopen(request, timeout=120) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


def rest(stack, text: str, *, sender: str | None = None, token: str | None = None,
         content_type: str = "application/json", origin: str | None = None) -> tuple[int, bytes]:
    headers = {"Content-Type": content_type}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    if origin is not None:
        headers["Origin"] = origin
    body = json.dumps({"sender": sender or f"sec-{uuid.uuid4().hex[:8]}", "message": text}).encode()
    status, _, answer = http(stack.rest_url, data=body, headers=headers)
    return status, answer


# ---- REST channel --------------------------------------------------------------------------------

def test_rest_without_the_token_is_refused(stack):
    assert rest(stack, "which policies are loaded?")[0] == 401
    assert rest(stack, "which policies are loaded?", token="wrong-" + stack.rest_token)[0] == 401
    status, body = rest(stack, "which policies are loaded?", token=stack.rest_token)
    assert status == 200
    assert "amazon.com" in " ".join(m["text"] for m in json.loads(body))


def test_rest_refuses_a_cross_origin_text_plain_post(stack):
    """What a page on another site can send without a preflight: text/plain, no Authorization."""
    chat = f"victim-{uuid.uuid4().hex[:8]}"
    assert stack.say(chat, "amazon")
    status, body = rest(stack, "switch to instagram", sender=chat, content_type="text/plain", origin=EVIL)
    assert status == 403 and b"instagram" not in body
    # even with the token, a foreign page is refused
    assert rest(stack, "switch to instagram", sender=chat, token=stack.rest_token, origin=EVIL)[0] == 403
    listing = "\n".join(m["text"] for m in stack.say(chat, "which policies are loaded?"))
    assert current_policy(listing) == "amazon.com"  # the write never happened
    # the chat page's own origin is not refused (the token still decides)
    assert rest(stack, "hello", token=stack.rest_token, origin=stack.page_origin)[0] == 200


REST_SERVER = """
import sys
from sanic import Sanic
from rasa_addons.rest_token import TokenRestInput

async def on_new_message(message):
    raise AssertionError("a refused request reached the assistant")

channel = TokenRestInput.from_credentials({"token": "", "allowed_origins": sys.argv[2]})
app = Sanic("rest_without_token", configure_logging=False)
app.blueprint(channel.blueprint(on_new_message), url_prefix="/webhooks/rest")
app.run(host="127.0.0.1", port=int(sys.argv[1]), access_log=False)
"""


def test_rest_channel_without_a_token_refuses_everything(tmp_path):
    """credentials.yml with an empty token: every request is 403, with or without Authorization."""
    port = free_port()
    log = (tmp_path / "rest.log").open("w")
    server = subprocess.Popen([str(RASA_PYTHON), "-c", REST_SERVER, str(port), "http://127.0.0.1:8000"],
                              cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/webhooks/rest/webhook"
    body = json.dumps({"sender": "x", "message": "hello"}).encode()
    try:
        deadline = time.monotonic() + 180
        while True:
            try:
                status, _, _ = http(url, data=body, headers={"Content-Type": "application/json"})
                break
            except OSError:
                assert server.poll() is None and time.monotonic() < deadline, (tmp_path / "rest.log").read_text()
                time.sleep(0.5)
        assert status == 403
        for headers in ({"Authorization": "Bearer "}, {"Authorization": "Bearer None"},
                        {"Origin": "http://127.0.0.1:8000", "Authorization": "Bearer x"}):
            assert http(url, data=body, headers={"Content-Type": "application/json", **headers})[0] == 403
    finally:
        server.terminate()
        server.wait(timeout=30)
        log.close()


# ---- socketio channel ----------------------------------------------------------------------------

def test_only_ids_signed_under_the_secret_count_as_issued():
    ours, theirs = SessionIds.from_secret("our secret"), SessionIds.from_secret("their secret")
    issued = ours.issue()
    assert ours.is_issued(issued) and ours.confirm(issued) == issued
    assert not theirs.is_issued(issued) and theirs.confirm(issued) != issued
    assert SessionIds.from_secret("our secret").is_issued(issued)  # a restart with the same secret
    assert not SessionIds.from_secret(None).is_issued(issued)
    for forged in (issued.upper(), issued + "0", issued.replace(".", ""), f"{issued}.x", None, 42, ""):
        assert not ours.is_issued(forged)
    assert len({ours.issue() for _ in range(100)}) == 100


def test_socketio_refuses_other_web_pages(stack):
    handshake = f"{stack.rasa_url}/socket.io/?EIO=4&transport=polling"
    status, _, body = http(handshake, headers={"Origin": EVIL})
    assert status == 403 and b'"sid"' not in body
    status, headers, body = http(handshake, headers={"Origin": stack.page_origin})
    assert status == 200 and b'"sid"' in body
    assert headers.get_all("Access-Control-Allow-Origin") == [stack.page_origin]  # once, or browsers refuse it


def test_session_ids_are_issued_by_the_server(clients):
    client = clients()
    fresh = client.request_session(None)
    assert SESSION_ID.fullmatch(fresh)
    nonce, signature = fresh.split(".")
    for made_up in ("alice", "0" * 32, f"{nonce}.{'0' * 32}", f"{'0' * 32}.{signature}", uuid.uuid4().hex):
        issued = client.request_session(made_up)
        assert issued != made_up and issued != fresh and SESSION_ID.fullmatch(issued)


def test_a_claimed_session_id_neither_reads_nor_writes_that_conversation(stack, clients):
    alice = clients()
    alice_id = alice.request_session(None)
    assert "now answering from amazon.com" in alice.say("amazon")
    answer = alice.say("Do they use cookies?")
    assert "“" in answer and "amazon.com" in answer

    mallory = clients()
    mallory_id = mallory.request_session(None)
    assert mallory_id != alice_id
    why = mallory.say("why?", claim=alice_id)  # answered, but from mallory's own (empty) conversation
    assert NOTHING_TO_EXPLAIN in why and "cookies" not in why
    assert "now answering from instagram.com" in mallory.say("instagram", claim=alice_id)
    # REST, even with the token, cannot name a browser's session either
    rest_why = "\n".join(m["text"] for m in stack.say(alice_id, "why?"))
    assert NOTHING_TO_EXPLAIN in rest_why and "cookies" not in rest_why

    assert alice.received() == []  # nothing of mallory's turns reached alice
    own = alice.say("why?")
    assert "Do they use cookies?" in own and "“" in own
    assert current_policy(alice.say("which policies are loaded?")) == "amazon.com"  # still on amazon.com


def test_a_page_reload_keeps_its_conversation(clients):
    first = clients()
    session_id = first.request_session(None)
    first.say("amazon")
    first.say("Can I delete my account?")
    first.close()

    reloaded = clients()
    assert reloaded.request_session(session_id) == session_id
    why = reloaded.say("why?")
    assert "Can I delete my account?" in why and "“" in why
