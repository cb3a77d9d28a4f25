"""The real chat stack for the end-to-end tests, started once per test session.

`scripts/serve.sh start` runs the action server (engine env), the Rasa server (Rasa env, the model
trained by `make rasa-train`) and the chat page as subprocesses on free loopback ports, over a
fresh store holding two example policies and a policy whose sentences contain HTML and Markdown.
tests/chat/'s test_actions.py, test_chat_e2e.py, test_chat_security.py and test_webchat.py share it; it stops
when the session ends. REST calls carry the run's bearer token (CHAT_RUN_DIR/rest-token);
SocketClient talks to the socketio channel like the web widget.
"""
from __future__ import annotations

import html
import json
import os
import socket
import subprocess
import tempfile
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.support.paths import EXAMPLES, ROOT

SERVE = ROOT / "scripts" / "serve.sh"
RASA = ROOT / ".venv-rasa" / "bin" / "rasa"
RASA_PYTHON = ROOT / ".venv-rasa" / "bin" / "python"
SOCKETIO_CLIENT = Path(__file__).resolve().with_name("socketio_client.py")
MODEL = ROOT / "models" / "privacy-assistant.tar.gz"
WEB_CLIENT = ROOT / "web" / "node_modules" / "socket.io-client" / "dist" / "socket.io.min.js"
REPLY_TIMEOUT_S = 15  # the page's wait for a reply before it says none came back (test_webchat.py)
POLICIES = ("amazon.com", "instagram.com")
# The corpus the chat also answers from (ASSISTANT_CORPUS): a service the store lacks, and one it has under another name.
CORPUS_POLICIES = {"Steam": "steampowered.com", "Instagram": "instagram.com"}
CORPUS_DATE = "2026-01-15"
MARKUP_POLICY = "markup-test"

# Sentences a browser would execute or render as markup if the chat injected policy text as HTML.
MARKUP_POLICY_TEXT = """\
Markup Test Privacy Policy

Information We Collect

We collect your email address <script>window.__injected = "script"</script> when you register an account.

We collect your postal address <img src="x" onerror="window.__injected = 'img'"> when you order a product.

Sharing

We share your purchase history with **payment** partners as described at [our page](javascript:window.__injected='link').

Cookies

We use cookies & web beacons <b>to remember</b> your settings ![pixel](http://127.0.0.2:9/pixel.png) for a year.
"""


@dataclass
class ChatStack:
    home: Path
    run_dir: Path
    actions_port: int
    rasa_port: int
    web_port: int
    corpus: Path

    @property
    def actions_url(self) -> str:
        return f"http://127.0.0.1:{self.actions_port}"

    @property
    def rest_url(self) -> str:
        return f"http://127.0.0.1:{self.rasa_port}/webhooks/rest/webhook"

    @property
    def page_url(self) -> str:
        return f"http://127.0.0.1:{self.web_port}/"

    @property
    def page_origin(self) -> str:
        return f"http://127.0.0.1:{self.web_port}"

    @property
    def rasa_url(self) -> str:
        return f"http://127.0.0.1:{self.rasa_port}"

    @property
    def rest_token(self) -> str:
        """The REST channel's bearer token, which scripts/serve.sh wrote to the run directory."""
        return (self.run_dir / "rest-token").read_text().strip()

    def env(self) -> dict[str, str]:
        return dict(
            os.environ, CHAT_HOST="127.0.0.1", ACTIONS_PORT=str(self.actions_port), RASA_PORT=str(self.rasa_port),
            WEB_PORT=str(self.web_port), ASSISTANT_HOME=str(self.home), CHAT_RUN_DIR=str(self.run_dir),
            ASSISTANT_CORPUS=str(self.corpus),
            CHAT_REPLY_TIMEOUT=str(REPLY_TIMEOUT_S),
            ASSISTANT_ALLOW_PRIVATE="1",  # the page adds policies from tests' servers on 127.0.0.1
        )

    def say(self, sender: str, text: str, timeout: float = 120) -> list[dict]:
        """One user message through the REST channel (with the token); the bot's messages."""
        return post_json(self.rest_url, {"sender": sender, "message": text}, timeout,
                         headers={"Authorization": f"Bearer {self.rest_token}"})

    def log(self, service: str) -> str:
        return (self.run_dir / f"{service}.log").read_text(errors="replace")


def post_json(url: str, payload: dict, timeout: float = 120, headers: dict[str, str] | None = None) -> object:
    request = urllib.request.Request(url, json.dumps(payload).encode(),
                                     {"Content-Type": "application/json", **(headers or {})})
    with urllib.request.urlopen(request, timeout=timeout) as response:
        return json.load(response)


class SocketClient:
    """One socket.io client of the chat (tests/support/socketio_client.py in .venv-rasa), driven command by command.

    Bot texts come back roughly as the widget shows them: Markdown's emphasis markers dropped and
    character references unescaped (the web style writes policy and user text's punctuation as
    references, so every remaining `*` is markup)."""

    def __init__(self, stack: ChatStack) -> None:
        self.log = tempfile.TemporaryFile(mode="w+")  # noqa: SIM115 (closed by close())
        self.process = subprocess.Popen(
            [str(RASA_PYTHON), str(SOCKETIO_CLIENT), stack.rasa_url], cwd=ROOT, text=True,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.log,
        )
        self.session_id: str | None = None

    def request_session(self, session_id: str | None = None) -> str:
        """session_request (asking for `session_id`); the id the server confirmed."""
        self.session_id = self._call(op="session", id=session_id)["session_id"]
        return self.session_id

    def say(self, text: str, claim: str | None = None) -> str:
        """A user message, claiming session `claim` if given; the bot's reply, paragraphs joined."""
        return "\n".join(shown(m) for m in self._call(op="say", text=text, claim=claim)["messages"])

    def received(self) -> list[str]:
        """What the server sent this client unasked (waits a moment for stragglers)."""
        return [shown(m) for m in self._call(op="drain")["messages"]]

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.stdin.write(json.dumps({"op": "close"}) + "\n")
            self.process.stdin.close()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
        self.log.close()

    def _call(self, **command: object) -> dict:
        self.process.stdin.write(json.dumps(command) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            self.log.seek(0)
            raise RuntimeError(f"the socket.io client ended:\n{self.log.read()[-3000:]}")
        return json.loads(line)


def shown(markdown: str) -> str:
    return html.unescape(markdown.replace("*", ""))


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def require_chat_setup() -> None:
    """Skip (fail under CI) when the chat front end is not set up: `make chat-test-setup` does it."""
    missing = [str(p.relative_to(ROOT)) for p in (RASA, MODEL, WEB_CLIENT) if not p.exists()]
    try:
        import rasa_sdk  # noqa: F401
    except ImportError:
        missing.append("rasa-sdk in .venv")
    if missing:
        message = f"chat front end not set up (run `make chat-test-setup`): missing {', '.join(missing)}"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)


def ingest_test_policies(home: Path, embedder, retriever, policyie, tmp_dir: Path) -> None:
    from assistant.engine import Assistant
    from assistant.foundation.settings import Settings

    assistant = Assistant(Settings(home=home), embedder=embedder, retriever=retriever, policyie=policyie)
    for name in POLICIES:
        assistant.ingest(EXAMPLES / f"{name}.html", name=name)
    markup = tmp_dir / f"{MARKUP_POLICY}.txt"
    markup.write_text(MARKUP_POLICY_TEXT, encoding="utf-8")
    assistant.ingest(markup, name=MARKUP_POLICY, force=True)  # a short fixture
    assistant.store.close()


def build_test_corpus(out: Path, embedder, retriever, policyie, scratch: Path) -> None:
    """A corpus as `assistant corpus ingest` writes it, made by its own worker code in this process (the Ray path is
    tests/corpus's)."""
    from assistant.corpus.sources import document
    from assistant.corpus.worker import process, write_batch
    from assistant.engine import Assistant
    from assistant.foundation.settings import Settings

    engine = Assistant(Settings(home=scratch), embedder=embedder, retriever=retriever, policyie=policyie)
    documents = [document(str(EXAMPLES / f"{file}.html"), service, CORPUS_DATE)
                 for service, file in CORPUS_POLICIES.items()]
    write_batch(out, documents, [process(engine, d) for d in documents])
    engine.store.close()


_stack: ChatStack | None = None


def shared_stack(request: pytest.FixtureRequest, tmp_path_factory, embedder, retriever, policyie) -> ChatStack:
    """The session's chat stack, started on first use, stopped when the session ends."""
    global _stack
    if _stack is not None:
        return _stack
    require_chat_setup()
    base = tmp_path_factory.mktemp("chat")
    ingest_test_policies(base / "home", embedder, retriever, policyie, base)
    build_test_corpus(base / "corpus", embedder, retriever, policyie, base / "corpus-scratch")
    stack = ChatStack(base / "home", base / "run", free_port(), free_port(), free_port(), base / "corpus")
    started = subprocess.run(
        [str(SERVE), "start"], env=stack.env(), cwd=ROOT, capture_output=True, text=True, timeout=420, check=False
    )
    if started.returncode != 0:
        subprocess.run([str(SERVE), "stop"], env=stack.env(), cwd=ROOT, capture_output=True, timeout=60, check=False)
        pytest.fail(f"scripts/serve.sh start failed:\n{started.stdout}\n{started.stderr}")

    def stop() -> None:
        global _stack
        subprocess.run([str(SERVE), "stop"], env=stack.env(), cwd=ROOT, capture_output=True, timeout=60, check=False)
        _stack = None

    request.addfinalizer(stop)  # `request` is a session-scoped fixture's: runs when the session ends
    _stack = stack
    return stack
