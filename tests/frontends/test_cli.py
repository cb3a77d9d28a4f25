"""The `assistant` command as a user runs it: real processes, a real store on disk."""
from __future__ import annotations

import json
import shutil
import socket
import subprocess
import time
from pathlib import Path

import httpx2 as httpx
import pytest

from tests.support.cli import ASSISTANT, cli_env, run
from tests.support.paths import AMAZON, EXAMPLES
from tests.support.policy_server import policy_server
from tests.support.store import store_snapshot

PRIVATE = "is on this machine or a private network; allow it with --allow-private (or ASSISTANT_ALLOW_PRIVATE=1)."


@pytest.fixture(scope="module")
def cli_home(tmp_path_factory) -> Path:
    """A store filled through the CLI itself."""
    home = tmp_path_factory.mktemp("cli") / "home"
    result = run(home, "ingest", str(AMAZON), "--name", "amazon")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("Ingested amazon version 1:")
    assert "sentences in" in result.stdout
    return home


def test_reingest_says_unchanged(cli_home):
    result = run(cli_home, "ingest", str(AMAZON), "--name", "amazon")
    assert result.returncode == 0
    assert "unchanged" in result.stdout


def test_policies_table(cli_home):
    result = run(cli_home, "policies")
    assert result.returncode == 0
    assert "amazon" in result.stdout and "Stored policies" in result.stdout


def test_ask_json_has_stable_keys(cli_home):
    result = run(cli_home, "ask", "Does Amazon use cookies?", "--policy", "amazon", "--json", "--top", "2")
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout)
    assert list(answer) == [
        "question", "policy", "version", "answerable", "reason", "answer", "confidence", "evidence", "facts", "span",
        "verdict", "headline", "facet", "question_type"]
    assert answer["answerable"] is True
    assert 1 <= len(answer["evidence"]) <= 2
    assert set(answer["evidence"][0]) == {"sentence_id", "section", "text", "score", "page"}
    assert answer["evidence"][0]["page"] is None  # an HTML policy has no pages
    # facts: one entry per evidence sentence, slots verbatim inside that sentence
    evidence = {e["sentence_id"]: e["text"] for e in answer["evidence"]}
    assert [f["sentence_id"] for f in answer["facts"]] == list(evidence)
    for facts in answer["facts"]:
        assert set(facts) == {"sentence_id", "intent", "slots"}
        for slot in facts["slots"]:
            assert set(slot) == {"slot", "text", "start", "end"}
            assert evidence[facts["sentence_id"]][slot["start"] : slot["end"]] == slot["text"]
    span = answer["span"]  # the reader's short answer inside the best sentence
    assert set(span) == {"sentence_id", "start", "end", "text"} and span["sentence_id"] == answer["evidence"][0]["sentence_id"]
    assert evidence[span["sentence_id"]][span["start"] : span["end"]] == span["text"]


def test_label_json_cells_link_to_stored_sentences(cli_home):
    result = run(cli_home, "label", "--json")
    assert result.returncode == 0, result.stderr
    label = json.loads(result.stdout)
    assert label["policy"] == "amazon" and label["version"] == 1
    titles = [s["title"] for s in label["sections"]]
    assert titles == ["Data collected", "Data shared", "Shared with", "Purposes", "Data retained",
                      "Retention periods", "Security measures", "User choices"]
    from assistant.foundation.settings import Settings
    from assistant.store.database import Store

    store = Store(Settings(home=cli_home).home)
    sentences = {s.ordinal: s.text for s in store.sentences(store.get_version("amazon").id)}
    collected = label["sections"][0]["rows"]
    assert collected, "the Amazon policy states what it collects"
    for section in label["sections"]:
        for row in section["rows"]:
            assert row["sentences"] and all(n in sentences for n in row["sentences"])
            for example in row["examples"]:
                assert any(example in sentences[n] for n in row["sentences"])


def test_label_terminal_table(cli_home):
    result = run(cli_home, "label", "--policy", "amazon")
    assert result.returncode == 0, result.stderr
    assert "Privacy label" in result.stdout and "Data collected" in result.stdout


def test_label_of_unknown_policy_is_a_one_line_error(cli_home):
    result = run(cli_home, "label", "--policy", "nope")
    assert result.returncode == 2
    assert result.stderr.strip().count("\n") == 0 and "Unknown policy 'nope'" in result.stderr


def test_ask_terminal_shows_answer_then_cited_evidence(cli_home):
    result = run(cli_home, "ask", "Does Amazon use cookies?")  # the only stored policy is chosen
    assert result.returncode == 0, result.stderr
    assert "Answer" in result.stdout and "Evidence" in result.stdout
    assert result.stdout.index("Answer") < result.stdout.index("Evidence")
    assert "§ " in result.stdout and ", sentence " in result.stdout


def one_line_error(result: subprocess.CompletedProcess) -> str:
    assert result.returncode != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")
    assert "Traceback" not in result.stderr
    return lines[0]


def make_bad_inputs(tmp: Path) -> dict[str, tuple[list[str], str]]:
    (tmp / "empty.html").write_text("")
    (tmp / "blank.txt").write_text("  \n\n ")
    (tmp / "binary.html").write_bytes(bytes(range(256)) * 40)
    (tmp / "invisible.html").write_text(
        "<html><head><script>alert(1)</script><style>p{}</style></head><body> </body></html>"
    )
    (tmp / "big.txt").write_text("We collect data. " * 100)
    (tmp / "a_directory").mkdir()
    return {
        "missing": (["ingest", str(tmp / "nope.html")], "not"),
        "directory": (["ingest", str(tmp / "a_directory")], "directory"),
        "empty": (["ingest", str(tmp / "empty.html")], "empty"),
        "blank": (["ingest", str(tmp / "blank.txt")], "empty"),
        "binary": (["ingest", str(tmp / "binary.html")], "binary"),
        "invisible": (["ingest", str(tmp / "invisible.html")], "visible text"),
        "too big": (["ingest", str(tmp / "big.txt"), "--max-size", "1000"], "limit"),
        "unknown policy": (["ask", "Do they use cookies?", "--policy", "nosuch"], "Unknown policy"),
        "empty question": (["ask", "  ", "--policy", "amazon"], "empty"),
        "long question": (["ask", "why " * 300, "--policy", "amazon"], "limit"),
        "remove unknown": (["remove", "nosuch"], "Unknown policy"),
    }


def test_bad_input_one_line_error_and_store_unchanged(cli_home, tmp_path):
    before = store_snapshot(cli_home)
    for case, (args, expected) in make_bad_inputs(tmp_path).items():
        message = one_line_error(run(cli_home, *args))
        assert expected.lower() in message.lower(), (case, message)
        assert store_snapshot(cli_home) == before, case


def test_size_limit_from_environment(cli_home, tmp_path):
    big = tmp_path / "big.txt"
    big.write_text("We collect data. " * 100)
    message = one_line_error(run(cli_home, "ingest", str(big), ASSISTANT_MAX_BYTES="500"))
    assert "limit" in message.lower()


def test_remove_via_cli(tmp_path):
    home = tmp_path / "home"
    shutil.copytree(EXAMPLES, tmp_path / "p")
    assert run(home, "ingest", str(tmp_path / "p" / "steampowered.com.html"), "--name", "steam").returncode == 0
    result = run(home, "remove", "steam")
    assert result.returncode == 0 and "Removed steam (1 version)" in result.stdout
    assert "No policies stored yet" in run(home, "policies").stdout


def test_ingest_fetches_from_this_machine_only_with_allow_private(tmp_path):
    home = tmp_path / "home"
    with policy_server() as pages:
        missing = pages.url("/missing")  # a 404: the fetch got through when the error names it
        refused = run(home, "ingest", missing, ASSISTANT_ALLOW_PRIVATE="0")
        assert refused.returncode == 2
        assert refused.stderr.strip() == f"error: Cannot fetch {missing}: its address 127.0.0.1 {PRIVATE}"
        assert pages.requests == []
        for allowed in (run(home, "ingest", missing, "--allow-private", ASSISTANT_ALLOW_PRIVATE="0"),
                        run(home, "ingest", missing, ASSISTANT_ALLOW_PRIVATE="1")):
            assert allowed.returncode == 2
            assert allowed.stderr.strip() == f"error: Cannot fetch {missing}: the server answered HTTP 404 Not Found."
        bad = run(home, "ingest", missing, ASSISTANT_ALLOW_PRIVATE="yes")
        assert bad.returncode == 2
        assert bad.stderr.strip() == "error: ASSISTANT_ALLOW_PRIVATE='yes' must be 1 (on) or 0 (off)."
        assert len(pages.requests) == 2


def test_serve_fetches_from_this_machine_only_with_allow_private(tmp_path):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = cli_env(tmp_path / "home", ASSISTANT_SERVER="off", ASSISTANT_ALLOW_PRIVATE="0")
    server = subprocess.Popen([ASSISTANT, "serve", "--port", str(port), "--allow-private"], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                httpx.get(f"{base}/health", timeout=2)
                break
            except httpx.TransportError:
                assert server.poll() is None and time.monotonic() < deadline, "assistant serve did not start"
                time.sleep(0.1)
        with policy_server() as pages:
            reply = httpx.post(f"{base}/ingest", data={"url": pages.url("/missing")}, timeout=60)
            assert reply.status_code == 400
            assert reply.json() == {"error": f"Cannot fetch {pages.url('/missing')}: the server answered HTTP 404 "
                                             "Not Found."}
    finally:
        server.terminate()
        server.wait(30)
