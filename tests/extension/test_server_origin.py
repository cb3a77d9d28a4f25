"""`assistant serve --extension-origin` (issue 39, item 5): the browser extension's origin, and only it, gets past
the server's origin guard and a CORS grant; every other origin (another extension's, a web page's) stays refused
with no CORS header. The real server (uvicorn in a thread) over an empty store; no model is loaded."""
from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator

import httpx2 as httpx
import pytest

from assistant.foundation.errors import AssistantError
from assistant.frontends.api import check_extension_origin, create_app
from tests.extension.serving import running
from tests.support.cli import cli_env

OURS = "chrome-extension://" + "abcdefghijklmnop" * 2
OTHER = "chrome-extension://" + "ponmlkjihgfedcba" * 2
FIREFOX = "moz-extension://0b6f7a3c-1d2e-4f5a-8b9c-0d1e2f3a4b5c"
ACAO = "access-control-allow-origin"


@pytest.fixture(scope="module")
def url(tmp_path_factory) -> Iterator[str]:
    from assistant.engine import Assistant
    from assistant.foundation.settings import Settings

    engine = Assistant(Settings(home=tmp_path_factory.mktemp("origin") / "home"))
    with running(create_app(engine, load_models=False, extension_origins=[OURS])) as base:
        yield base


def preflight(url: str, origin: str, path: str = "/ask") -> httpx.Response:
    return httpx.options(url + path, headers={"Origin": origin, "Access-Control-Request-Method": "POST",
                                              "Access-Control-Request-Headers": "content-type"})


def test_the_extension_origin_is_granted(url):
    reply = httpx.get(f"{url}/policies", headers={"Origin": OURS})
    assert reply.status_code == 200 and reply.json() == []
    assert reply.headers[ACAO] == OURS
    allowed = preflight(url, OURS)
    assert allowed.status_code == 200 and allowed.headers[ACAO] == OURS
    assert "POST" in allowed.headers["access-control-allow-methods"]
    posted = httpx.post(f"{url}/ask", json={"question": "Do they sell my data?"}, headers={"Origin": OURS})
    assert posted.headers[ACAO] == OURS and posted.status_code != 403  # past the guard (no policy is stored)
    assert "refused" not in posted.json()["error"]


@pytest.mark.parametrize("origin", [OTHER, FIREFOX, "http://evil.example", "null", OURS.upper()])
def test_every_other_origin_is_refused_without_a_cors_grant(url, origin):
    for reply in (httpx.get(f"{url}/policies", headers={"Origin": origin}), preflight(url, origin),
                  httpx.post(f"{url}/ingest", data={"url": "https://example.com/"}, headers={"Origin": origin})):
        assert reply.status_code == 403, (origin, reply.status_code, reply.text)
        assert ACAO not in reply.headers and "access-control-allow-credentials" not in reply.headers
        assert "refused" in reply.json()["error"]
    if origin.startswith("chrome-extension://"):
        assert "--extension-origin" in httpx.get(f"{url}/policies", headers={"Origin": origin}).json()["error"]


def test_without_the_option_no_extension_is_granted(tmp_path):
    from assistant.engine import Assistant
    from assistant.foundation.settings import Settings

    with running(create_app(Assistant(Settings(home=tmp_path / "home")), load_models=False)) as base:
        reply = httpx.get(f"{base}/policies", headers={"Origin": OURS})
        assert reply.status_code == 403 and ACAO not in reply.headers
        assert httpx.get(f"{base}/policies").status_code == 200  # no Origin: not a web page, as before


def test_the_diff_endpoint_refuses_what_is_not_stored(url):
    reply = httpx.get(f"{url}/diff", params={"policy": "nothing"}, headers={"Origin": OURS})
    assert reply.status_code == 404 and reply.headers[ACAO] == OURS, reply.text
    assert httpx.get(f"{url}/diff", params={"policy": "x", "from": "0"}).status_code == 422


def test_extension_origins_are_checked():
    assert check_extension_origin(" Chrome-Extension://" + "abcdefghijklmnop" * 2 + "/ ") == OURS
    assert check_extension_origin(FIREFOX) == FIREFOX
    for bad in ("chrome-extension://abc", "chrome-extension://" + "q" * 32, "http://localhost:3000",
                OURS + "/popup.html", "moz-extension://not-a-uuid", ""):
        with pytest.raises(AssistantError, match="is not an extension's origin"):
            check_extension_origin(bad)


@pytest.mark.parametrize("how", ["option", "environment"])
def test_serve_refuses_a_bad_extension_origin_before_loading(tmp_path, how):
    args = ["serve", "--port", "1"] + (["--extension-origin", "https://example.com"] if how == "option" else [])
    env = cli_env(tmp_path / "home")
    if how == "environment":
        env["ASSISTANT_EXTENSION_ORIGIN"] = f"{OURS} chrome-extension://nope"
    done = subprocess.run([sys.executable, "-m", "assistant.frontends.cli", *args], capture_output=True, text=True,
                          env=env, timeout=120, check=False)
    assert done.returncode == 2, done.stdout + done.stderr
    bad = "https://example.com" if how == "option" else "chrome-extension://nope"
    assert f"error: --extension-origin '{bad}' is not an extension's origin" in done.stdout + done.stderr
