"""Fetching a policy URL from a real HTTP server on 127.0.0.1: what is accepted, and every way it fails.
The server is on this machine, so every fetch of it allows private addresses, but the tests of refusing them."""
from __future__ import annotations

import re
import socket
import time
from pathlib import Path

import pytest

from assistant.foundation.errors import FetchError
from assistant.ingest.fetch import (
    USER_AGENT,
    FetchLimits,
    _GuardedNetwork,
    _refusal_reason,
    _RefusedAddress,
    fetch,
    is_public_address,
    looks_like_url,
)
from assistant.ingest.parsing import parse_bytes
from tests.support.pdf_fixtures import one_column_policy
from tests.support.policy_server import CHUNK, HUGE_CHUNKS, PolicyServer, policy_server
from tests.support.store import store_snapshot

LIMITS = FetchLimits(max_bytes=1024 * 1024, connect_timeout=2, total_timeout=1, allow_private=True)
PRIVATE = "is on this machine or a private network; allow it with --allow-private (or ASSISTANT_ALLOW_PRIVATE=1)"


@pytest.fixture(scope="module")
def server():
    with policy_server() as running:
        yield running


def test_a_policy_page_is_fetched_with_its_kind_and_urls(server: PolicyServer):
    page = fetch(server.url("/policy"), LIMITS)
    assert page.kind == "html" and page.content_type == "text/html"
    assert page.url == page.requested_url == server.url("/policy")
    assert b"two years" in page.content
    assert page.fetched_at.endswith("+00:00")
    document = parse_bytes(page.content, page.kind, page.url)
    assert document.title == "Example Privacy Policy"
    assert [b.text for b in document.blocks if b.is_heading] == [
        "Example Privacy Policy", "Information We Collect", "Data Retention"]


def test_redirects_are_followed_up_to_five(server: PolicyServer):
    page = fetch(server.url("/redirect/5"), LIMITS)
    assert page.requested_url == server.url("/redirect/5")
    assert page.url == server.url("/policy")
    with pytest.raises(FetchError, match=r"^Cannot fetch http://127\.0\.0\.1:\d+/redirect/6: it redirects more than "
                                         r"5 times\.$"):
        fetch(server.url("/redirect/6"), LIMITS)
    with pytest.raises(FetchError, match="redirects more than 5 times"):
        fetch(server.url("/loop"), LIMITS)


def test_no_cookie_is_kept_or_sent_and_the_agent_is_named(server: PolicyServer):
    page = fetch(server.url("/set-cookie"), LIMITS)
    assert page.content.decode() == f"The cookie sent was none. The agent was {USER_AGENT}."
    assert page.kind == "text"


@pytest.mark.parametrize(("path", "status"), [("/missing", "HTTP 404 Not Found"),
                                              ("/broken", "HTTP 500 Internal Server Error")])
def test_http_errors_name_the_status(server: PolicyServer, path: str, status: str):
    with pytest.raises(FetchError, match=rf"^Cannot fetch {server.url(path)}: the server answered {status}\.$"):
        fetch(server.url(path), LIMITS)


def test_a_slow_server_times_out(server: PolicyServer):
    started = time.monotonic()
    with pytest.raises(FetchError, match=r"the server did not answer in time \(time-out: 1 s"):
        fetch(server.url("/slow"), FetchLimits(max_bytes=1024 * 1024, connect_timeout=1, total_timeout=0.5,
                                                       allow_private=True))
    assert time.monotonic() - started < 2.5  # the server answers after 3 s


@pytest.mark.parametrize("path", ["/trickle-body", "/trickle-headers"])
def test_a_server_sending_a_few_bytes_at_a_time_is_cut_off_at_the_deadline(server: PolicyServer, path: str):
    # a piece every 0.3 s for 18 s: no read waits long, only the one deadline of the whole fetch stops it
    server.trickle_stopped.clear()
    started = time.monotonic()
    timed_out = r"the server did not answer in time \(time-out: 2 s to connect, 2 s in all; raise it with --timeout\)"
    with pytest.raises(FetchError, match=rf"^Cannot fetch {re.escape(server.url(path))}: {timed_out}\.$"):
        fetch(server.url(path), FetchLimits(max_bytes=1024 * 1024, connect_timeout=2, total_timeout=2,
                                            allow_private=True))
    assert 1.9 < time.monotonic() - started < 3.5
    assert server.trickle_stopped.wait(3)  # the connection was closed, not left open


@pytest.mark.parametrize("path", ["/huge-declared", "/huge-undeclared"])
def test_a_body_over_the_cap_is_refused_and_not_read_to_the_end(server: PolicyServer, path: str):
    server.huge_bytes_sent = 0
    with pytest.raises(FetchError, match=r"the page is larger than the 1048576-byte limit \(raise it with --max-size"):
        fetch(server.url(path), FetchLimits(max_bytes=1024 * 1024, total_timeout=10, allow_private=True))
    time.sleep(0.2)  # the server notices the closed connection
    assert server.huge_bytes_sent < len(CHUNK) * HUGE_CHUNKS / 4


def test_a_content_type_that_is_not_a_policy_is_refused(server: PolicyServer):
    with pytest.raises(FetchError, match=r"its content type is image/png, not a policy page \(HTML, PDF, plain text "
                                         r"or Markdown\)\.$"):
        fetch(server.url("/image"), LIMITS)


def test_a_pdf_is_accepted_by_type_or_by_its_bytes_when_sent_as_octet_stream(server: PolicyServer, tmp_path: Path):
    pdf = one_column_policy(tmp_path / "policy.pdf").read_bytes()
    server.pages["/policy.pdf"] = ("application/pdf", pdf)
    server.pages["/download"] = ("application/octet-stream", pdf)
    server.pages["/blob"] = ("application/octet-stream", b"\x00\x01 not a pdf")
    assert fetch(server.url("/policy.pdf"), LIMITS).kind == "pdf"
    assert fetch(server.url("/download"), LIMITS).kind == "pdf"
    with pytest.raises(FetchError, match="its content type is application/octet-stream and the body is not a PDF"):
        fetch(server.url("/blob"), LIMITS)


def test_connection_refused_on_a_closed_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(FetchError, match=rf"^Cannot fetch http://127\.0\.0\.1:{port}/: the connection was refused "):
        fetch(f"http://127.0.0.1:{port}/", LIMITS)


@pytest.mark.parametrize("url", ["ftp://127.0.0.1/policy.txt", "file:///etc/passwd", "javascript://alert(1)"])
def test_only_http_and_https_are_fetched(url: str):
    scheme = url.split(":", 1)[0]
    with pytest.raises(FetchError, match=rf"only http and https URLs can be fetched, not {scheme}\.$"):
        fetch(url, LIMITS)


@pytest.mark.parametrize(("url", "reason"), [("http:///privacy", "it has no host name"),
                                           ("http://127.0.0.1:99999/", "it is not a valid URL (Port out of range"),
                                           ("http://[::1/", "it is not a valid URL (Invalid IPv6 URL)")])
def test_malformed_urls_are_refused_before_connecting(url: str, reason: str):
    with pytest.raises(FetchError) as caught:
        fetch(url, LIMITS)
    assert str(caught.value).startswith(f"Cannot fetch {url}: {reason}")


def test_an_address_on_this_machine_is_refused_unless_allowed(server: PolicyServer):
    url, sent = server.url("/policy"), len(server.requests)
    refused = FetchLimits(max_bytes=1024 * 1024)
    with pytest.raises(FetchError) as caught:
        fetch(url, refused)
    assert str(caught.value) == f"Cannot fetch {url}: its address 127.0.0.1 {PRIVATE}."
    by_name = url.replace("127.0.0.1", "localhost")  # checked once resolved
    with pytest.raises(FetchError, match=rf"^Cannot fetch {re.escape(by_name)}: its address (127\.0\.0\.1|::1) is on"):
        fetch(by_name, refused)
    with pytest.raises(FetchError, match=r"its address ::1 is on this machine"):
        fetch("http://[::1]:9/policy", refused)
    assert len(server.requests) == sent  # refused before connecting
    assert fetch(url, FetchLimits(max_bytes=1024 * 1024, allow_private=True)).kind == "html"


@pytest.mark.parametrize("address", [
    "127.0.0.1", "127.8.9.10", "::1", "10.1.2.3", "172.16.5.4", "192.168.1.1", "fc00::1", "fd12:3456::1",
    "169.254.169.254", "fe80::1", "fe80::1%eth0", "0.0.0.0", "::", "100.64.0.1", "224.0.0.1", "ff02::1",
    "255.255.255.255", "2001:db8::1", "fec0::1", "::ffff:127.0.0.1", "::ffff:10.0.0.1", "2002:7f00:1::1",
    "64:ff9b::a9fe:a9fe", "::127.0.0.1"])
def test_loopback_private_link_local_and_other_non_public_addresses(address: str):
    assert not is_public_address(address)


@pytest.mark.parametrize("address", ["93.184.215.14", "8.8.8.8", "2606:4700:4700::1111", "::ffff:8.8.8.8",
                                     "64:ff9b::808:808"])
def test_public_addresses(address: str):
    assert is_public_address(address)


def test_every_connection_is_checked_so_a_redirect_to_a_private_address_is_refused(server: PolicyServer):
    # each new connection, the first one's or a redirect's, is made by the guarded network: it resolves the
    # name itself, checks every address, and connects to an address it checked (no second DNS answer)
    port = server.server_address[1]
    guarded = _GuardedNetwork(time.monotonic() + 5, allow_private=False)
    with pytest.raises(_RefusedAddress) as caught:
        guarded.connect_tcp("localhost", port)
    assert (caught.value.host, caught.value.address) in {("localhost", "127.0.0.1"), ("localhost", "::1")}
    allowed = _GuardedNetwork(time.monotonic() + 5, allow_private=True)
    assert set(allowed.addresses("localhost", port)) <= {"127.0.0.1", "::1"}
    stream = allowed.connect_tcp("localhost", port)
    try:
        assert stream.get_extra_info("server_addr")[0] in allowed.addresses("localhost", port)
    finally:
        stream.close()
    # how the refusal reads for the page asked for, and for a page it redirects to
    assert _refusal_reason("http://127.0.0.1:8000/p", _RefusedAddress("127.0.0.1", "127.0.0.1")) == (
        f"its address 127.0.0.1 {PRIVATE}")
    assert _refusal_reason("https://www.example.com/privacy", _RefusedAddress("intranet.local", "10.0.0.7")) == (
        f"it redirects to intranet.local, whose address 10.0.0.7 {PRIVATE}")


def test_a_redirect_to_another_scheme_is_refused(server: PolicyServer):
    with pytest.raises(FetchError, match="it redirects to a URL that is not http or https"):
        fetch(server.url("/to-ftp"), LIMITS)


def test_urls_are_told_from_paths():
    assert looks_like_url("https://www.example.com/privacy") and looks_like_url("ftp://x")
    assert not looks_like_url("policy.html") and not looks_like_url("/tmp/a://b")


def test_cli_reports_a_failed_fetch_in_one_line_and_stores_nothing(server: PolicyServer, tmp_path: Path):
    from assistant.store.database import Store
    from tests.support.cli import run  # the `assistant` command in its own process

    home = tmp_path / "home"
    Store(home).close()
    before = store_snapshot(home)
    result = run(home, "ingest", server.url("/missing"), ASSISTANT_ALLOW_PRIVATE="1")
    assert result.returncode == 2
    # one line (a blank line before it is the progress bar's, cleared)
    missing = server.url("/missing")
    assert result.stderr.strip() == f"error: Cannot fetch {missing}: the server answered HTTP 404 Not Found."
    result = run(home, "ingest", server.url("/image"), "--name", "img", "--allow-private")
    assert result.returncode == 2 and "its content type is image/png" in result.stderr
    assert "\n" not in result.stderr.strip()
    assert store_snapshot(home) == before


def test_the_engine_fetches_from_this_machine_only_when_its_settings_allow_it(server: PolicyServer, tmp_path: Path):
    from assistant.engine import Assistant
    from assistant.foundation.settings import Settings

    url = server.url("/missing")  # a 404: the fetch got through when the error names it
    with pytest.raises(FetchError, match=rf"its address 127\.0\.0\.1 {re.escape(PRIVATE)}\.$"):
        Assistant(Settings(home=tmp_path / "home")).ingest(url)
    with pytest.raises(FetchError, match=r"the server answered HTTP 404 Not Found\.$"):
        Assistant(Settings(home=tmp_path / "home", allow_private=True)).ingest(url)


@pytest.fixture
def assistant(home, embedder, retriever, policyie, reader):
    """The engine of the tests' `assistant`, allowed to fetch from this machine."""
    from assistant.engine import Assistant
    from assistant.foundation.settings import Settings

    return Assistant(Settings(home=home, allow_private=True), embedder=embedder, retriever=retriever,
                     policyie=policyie, reader=reader)


def test_a_url_is_ingested_once_and_again_only_when_its_text_changes(server: PolicyServer, assistant):
    from tests.support.policy_server import POLICY_HTML

    server.pages["/policy"] = ("text/html; charset=utf-8", POLICY_HTML.encode())
    first = assistant.ingest(server.url("/redirect/2"), force=True)  # a 34-word fixture: screening would refuse it
    version = first.version
    assert not first.unchanged and (version.name, version.version) == ("Example", 1)  # its title's organisation
    assert version.source_path == server.url("/policy")  # the final URL
    assert version.requested_url == server.url("/redirect/2")
    assert version.fetched_at is not None and version.fetched_at.endswith("+00:00")
    assert assistant.version("Example") == version
    # the same bytes, then the same text under other markup (a page's tokens change on every request)
    assert assistant.ingest(server.url("/redirect/2")).unchanged
    server.pages["/policy"] = ("text/html", POLICY_HTML.replace("<body>", "<body><!-- nonce 81f3 -->").encode())
    assert assistant.ingest(server.url("/redirect/2")).unchanged
    server.pages["/policy"] = ("text/html", POLICY_HTML.replace("two years", "five years").encode())
    second = assistant.ingest(server.url("/policy"), force=True)  # fetched from this URL before: the same name
    assert not second.unchanged and second.version.version == 2
    assert second.version.requested_url == second.version.source_path == server.url("/policy")
    assert "five years" in assistant.ask("How long do you keep my data?", policy="Example").answer
    assert "two years" in assistant.ask("How long do you keep my data?", policy="Example", version=1).answer
