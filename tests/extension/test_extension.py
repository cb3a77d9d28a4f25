"""The browser extension (extension/, issue 39, item 5) end to end: Playwright drives Debian's Chromium
(/usr/bin/chromium, headless) with the unpacked extension loaded, against a real `assistant serve` (a subprocess
over a temporary store, allowing the extension's origin only) and a small test site on 127.0.0.1 whose home page's
footer links its privacy policy (the bundled Amazon example). The popup, opened as a page for the site's tab,
finds and loads the policy, shows its label, answers a question with a citation that opens the policy at the
quoted sentence, and warns when the policy changed since it was last seen; axe-core finds no serious or critical
violation on the popup and the options page, at desktop and phone size. Screenshots go to test-artifacts/."""
from __future__ import annotations

import base64
import hashlib
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import httpx2 as httpx
import pytest

from tests.extension.serving import running
from tests.support.chat_stack import free_port
from tests.support.cli import cli_env
from tests.support.paths import AMAZON, ROOT
from tests.support.policy_server import PolicyServer, policy_server

EXTENSION = ROOT / "extension"
CHROMIUM = Path(os.environ.get("CHROMIUM", "/usr/bin/chromium"))
AXE = ROOT / "web" / "node_modules" / "axe-core" / "axe.min.js"
ARTIFACTS = ROOT / "test-artifacts"
TIMEOUT_MS = 300_000  # an ingest on a busy 2-core machine
POLICY_PATH = "/legal/privacy-notice"
HOME_PAGE = f"""<!doctype html><html lang="en"><head><title>Acme Outdoor Shop</title></head><body>
<header><a href="/">Acme Outdoor Shop</a> <a href="/blog/privacy-tips">Five privacy tips for hikers</a></header>
<main><h1>Tents, boots and maps</h1><p>Everything for your next trip, shipped in two days.</p></main>
<footer><a href="/about">About us</a> <a href="/privacy-choices">Your Privacy Choices</a>
<a href="/terms">Terms of Use</a> <a href="{POLICY_PATH}">Privacy Policy</a></footer>
</body></html>"""
QUESTION = "Do they sell my personal information?"
# A changed policy: the example with a new practice, then with a new retention period.
SOLD = "<p>We may sell your personal information, including your purchase history, to data brokers.</p>"
KEPT = "<p>We keep your purchase history for ten years after your last order.</p>"


def extension_id(manifest: Path) -> str:
    """Chromium's id of an unpacked extension whose manifest pins a key: the key's SHA-256, its first 32 hex
    digits written with the letters a-p."""
    key = base64.b64decode(json.loads(manifest.read_text(encoding="utf-8"))["key"])
    return "".join(chr(ord("a") + int(digit, 16)) for digit in hashlib.sha256(key).hexdigest()[:32])


EXTENSION_ID = extension_id(EXTENSION / "manifest.json")
ORIGIN = f"chrome-extension://{EXTENSION_ID}"


def policy_page(*extra: str) -> bytes:
    body = AMAZON.read_text(encoding="utf-8")
    return ("<!doctype html><html lang=\"en\"><head><title>Amazon.com Privacy Notice</title></head><body>"
            + body + "".join(extra) + "</body></html>").encode()


@dataclass
class Server:
    url: str
    home: Path
    log: Path


@pytest.fixture(scope="module")
def site() -> Iterator[PolicyServer]:
    with policy_server() as pages:
        pages.pages["/"] = ("text/html; charset=utf-8", HOME_PAGE.encode())
        pages.pages[POLICY_PATH] = ("text/html; charset=utf-8", policy_page())
        yield pages


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[Server]:
    """A real `assistant serve` on a free 127.0.0.1 port over a fresh store, allowing the extension's origin (and
    private addresses: the test site is on 127.0.0.1)."""
    folder = tmp_path_factory.mktemp("serve")
    port = free_port()
    log = folder / "serve.log"
    env = cli_env(folder / "home", ASSISTANT_SERVER="off")
    with log.open("w") as out:
        process = subprocess.Popen([sys.executable, "-m", "assistant.frontends.cli", "serve", "--port", str(port),
                                    "--allow-private", "--extension-origin", ORIGIN],
                                   stdout=out, stderr=subprocess.STDOUT, env=env, cwd=ROOT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 300
    try:
        while True:
            assert process.poll() is None, log.read_text()
            assert time.monotonic() < deadline, "assistant serve did not start:\n" + log.read_text()
            try:
                if httpx.get(f"{url}/health", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            time.sleep(0.5)
        yield Server(url, folder / "home", log)
    finally:
        process.terminate()
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            process.kill()


@pytest.fixture(scope="module")
def browser(tmp_path_factory, request):
    """Chromium with the unpacked extension (and no other) in a fresh profile."""
    missing = [str(p) for p in (CHROMIUM, AXE) if not p.exists()]
    if missing:
        message = f"missing {', '.join(missing)}: `make chromium web-deps` installs them"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    playwright = request.getfixturevalue("playwright_driver")  # one driver per process, shared with the chat's
    context = playwright.chromium.launch_persistent_context(
        str(tmp_path_factory.mktemp("profile")), executable_path=str(CHROMIUM), headless=True,
        ignore_default_args=["--disable-extensions"], viewport={"width": 1280, "height": 900},
        args=["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
              "--disable-background-networking", "--disable-component-update", "--disable-sync",
              f"--disable-extensions-except={EXTENSION}", f"--load-extension={EXTENSION}"])
    context.outside = []  # type: ignore[attr-defined]  # requests that left this machine
    context.on("request", lambda r: None if urlsplit(r.url).scheme in ("chrome-extension", "data", "about")
               or urlsplit(r.url).hostname in ("127.0.0.1", "localhost") else context.outside.append(r.url))
    yield context
    context.close()


def extension_page(browser, path: str):
    page = browser.new_page()
    page.errors = []  # type: ignore[attr-defined]
    page.on("pageerror", lambda error: page.errors.append(str(error)))  # type: ignore[attr-defined]
    page.goto(f"{ORIGIN}/{path}")
    return page


@pytest.fixture(scope="module")
def configured(browser, server) -> None:
    """The options page pointed at the test's server: a bad address refused, the right one saved."""
    options = extension_page(browser, "options.html")
    assert options.input_value("#server") == "http://127.0.0.1:8765"  # the default: `assistant serve`'s port
    assert options.inner_text("#command") == f"assistant serve --extension-origin {ORIGIN}"
    options.fill("#server", "https://example.com")
    options.click("text=Save")
    assert "must run on this computer" in options.inner_text("#saved")
    assert options.get_attribute("#server", "aria-invalid") == "true"
    options.fill("#server", server.url + "/")
    options.press("#server", "Enter")
    options.wait_for_function("() => document.querySelector('#saved').textContent.startsWith('Saved')")
    assert options.input_value("#server") == server.url
    assert run_axe(options) == []
    screenshot(options, "extension-options.png")
    options.set_viewport_size({"width": 390, "height": 844})
    assert run_axe(options) == [] and fits(options)
    assert options.errors == []  # type: ignore[attr-defined]
    options.close()


@pytest.fixture(scope="module")
def site_tab(browser, site) -> int:
    """The test site open in a tab; its tab id (what the popup reads its site from)."""
    page = browser.new_page()
    page.goto(site.url("/"))
    helper = extension_page(browser, "options.html")
    tab = helper.evaluate("async (site) => (await chrome.tabs.query({})).find(t => t.url === site)?.id",
                          site.url("/"))
    helper.close()
    assert isinstance(tab, int), tab
    return tab


def open_popup(browser, tab: int):
    popup = extension_page(browser, f"popup.html?tab={tab}")
    popup.wait_for_function("() => !document.querySelector('#load').disabled", timeout=30_000)
    return popup


def press_load(popup) -> None:
    popup.click("#load")
    popup.wait_for_function("() => document.querySelector('#status').textContent.startsWith('Loaded') || "
                            "document.querySelector('#status').className === 'error'", timeout=TIMEOUT_MS)
    assert popup.get_attribute("#status", "class") != "error", popup.inner_text("#status")
    assert popup.is_visible("#policy")


def label_frame(popup):
    popup.wait_for_function("() => document.querySelector('#label').src.includes('/label?')")
    src = popup.get_attribute("#label", "src")
    for _ in range(200):
        frame = next((f for f in popup.frames if f.url == src), None)
        if frame is not None:
            frame.wait_for_load_state()
            return frame
        popup.wait_for_timeout(100)
    raise AssertionError(f"the label frame {src} did not load")


def run_axe(page) -> list[dict]:
    """axe-core (web/node_modules) in the page and in each frame (the label), through the DevTools protocol so the
    extension's CSP stays as it is: the serious and critical violations."""
    source = AXE.read_text(encoding="utf-8")
    for frame in page.frames[1:]:
        frame.wait_for_load_state()
        frame.evaluate(source)
    page.evaluate(source)
    result = page.evaluate("() => axe.run(document, {resultTypes: ['violations']})")
    return [{"id": v["id"], "impact": v["impact"], "nodes": [n["target"] for n in v["nodes"]][:5]}
            for v in result["violations"] if v["impact"] in ("serious", "critical")]


def fits(page) -> bool:
    return page.evaluate("() => document.documentElement.scrollWidth <= innerWidth")


def screenshot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / name), full_page=True)


def stored(server: Server) -> list[dict]:
    return httpx.get(f"{server.url}/policies").json()


# -- the tests ---------------------------------------------------------------------------------------------------

def test_the_button_loads_the_sites_policy_shows_its_label_and_answers(browser, server, configured, site, site_tab):
    popup = open_popup(browser, site_tab)
    assert popup.inner_text("#site") == urlsplit(site.base).netloc
    assert not popup.is_visible("#policy")  # nothing seen of this site yet
    press_load(popup)

    [row] = stored(server)  # the policy the footer links, not the home page or the choices page
    assert row["source"] == site.url(POLICY_PATH) and row["version"] == 1 and row["sentences"] == 105
    assert popup.inner_text("#policy-name") == row["name"] and popup.inner_text("#policy-version") == "version 1"
    assert popup.get_attribute("#source-link", "href") == site.url(POLICY_PATH)
    found = popup.inner_text("#found")
    assert found.startswith(f"How it was found: {site.url('/')} is not a privacy policy;"), found
    assert "footer" in found and "Privacy Policy" in found
    assert [path for path, _ in site.requests].count("/privacy-choices") == 0  # the choices page was not taken

    label = label_frame(popup)
    assert label.locator("h1").inner_text() == f"Privacy label: {row['name']}"
    assert label.locator("details").count() >= 10  # the lines at a glance
    assert label.locator("a[target=_blank]").count() > 0  # framed: its links open a new tab
    framed = httpx.get(popup.get_attribute("#label", "src"))
    assert f"frame-ancestors {ORIGIN}" in framed.headers["content-security-policy"]  # this extension only
    assert "frame-ancestors 'none'" in httpx.get(f"{server.url}/policy", params={"name": row["name"]}
                                                 ).headers["content-security-policy"]

    popup.fill("#question", QUESTION)
    popup.press("#question", "Enter")
    popup.wait_for_selector("#answer .headline", timeout=TIMEOUT_MS)
    headline = popup.inner_text("#answer .headline")
    assert headline.startswith("No") and "does not sell" in headline, headline
    quote = popup.inner_text("#answer blockquote").strip("“”")
    link = popup.locator("#answer a.cite")
    assert link.get_attribute("href") == (f"{server.url}/policy?name={row['name']}&version=1#s-29")
    assert run_axe(popup) == []
    screenshot(popup, "extension-popup.png")

    with popup.expect_popup() as opened:
        link.click()
    policy = opened.value
    policy.wait_for_load_state()
    target = policy.locator(":target")
    assert target.get_attribute("id") == "s-29"
    shown = target.evaluate("n => [...n.childNodes].filter(c => c.nodeType === 3).map(c => c.data).join('')")
    assert " ".join(shown.split()) == " ".join(quote.split())  # the quoted sentence, at the cited place
    policy.close()

    popup.set_viewport_size({"width": 390, "height": 844})
    assert fits(popup) and run_axe(popup) == []
    screenshot(popup, "extension-phone.png")
    assert popup.errors == [] and browser.outside == []  # type: ignore[attr-defined]
    popup.close()


def test_the_popup_warns_when_the_policy_changed_since_it_was_last_seen(browser, server, configured, site,
                                                                       site_tab):
    popup = open_popup(browser, site_tab)
    press_load(popup)  # seen: the site's current version (stored by the test above, or now)
    seen = stored(server)[0]
    assert popup.inner_text("#policy-version") == f"version {seen['version']}"
    assert not popup.is_visible("#changed")
    popup.close()
    popup = open_popup(browser, site_tab)  # opened again, nothing changed: shown at once, no warning
    popup.wait_for_selector("#policy", state="visible")
    assert popup.inner_text("#policy-name") == seen["name"] and not popup.is_visible("#changed")
    popup.close()

    # The site changes its policy, and the assistant stores the new version (another client, no origin).
    site.pages[POLICY_PATH] = ("text/html; charset=utf-8", policy_page(SOLD))
    reply = httpx.post(f"{server.url}/ingest", data={"url": site.url(POLICY_PATH)}, timeout=TIMEOUT_MS / 1000)
    assert reply.status_code == 200 and reply.json()["name"] == seen["name"], reply.text
    newer = reply.json()["version"]
    assert newer == seen["version"] + 1

    popup = open_popup(browser, site_tab)
    popup.wait_for_selector("#changed", state="visible")
    popup.wait_for_function("() => document.querySelectorAll('#changed-summary li').length > 0")
    assert popup.inner_text("#changed").startswith("The policy changed since you last looked")
    assert popup.inner_text("#changed-versions") == f"(version {seen['version']} → {newer})."
    summary = popup.inner_text("#changed-summary")
    assert "Sentences: 1 added; 1 of them is about what they do with your data." in summary, summary
    assert "Added: “We may sell your personal information, including your purchase history, to data brokers.”" \
        in summary, summary
    diff = httpx.get(f"{server.url}/diff", params={"policy": seen["name"]}).json()
    assert diff["from_version"] == seen["version"] and diff["to_version"] == newer and diff["counts"]["added"] == 1
    assert popup.inner_text("#policy-version") == f"version {newer}"
    assert run_axe(popup) == []
    screenshot(popup, "extension-changed.png")
    popup.close()
    popup = open_popup(browser, site_tab)  # seen now: no warning the next time
    popup.wait_for_selector("#policy", state="visible")
    assert not popup.is_visible("#changed")

    # Changed again on the site: the button finds the newer version itself and warns.
    site.pages[POLICY_PATH] = ("text/html; charset=utf-8", policy_page(SOLD, KEPT))
    press_load(popup)
    assert popup.inner_text("#policy-version") == f"version {newer + 1}"
    popup.wait_for_selector("#changed", state="visible")
    assert popup.inner_text("#changed-versions") == f"(version {newer} → {newer + 1})."
    popup.wait_for_function("() => document.querySelectorAll('#changed-summary li').length > 0")
    assert "Added: “We keep your purchase history for ten years after your last order.”" in popup.inner_text(
        "#changed-summary")
    assert popup.errors == [] and browser.outside == []  # type: ignore[attr-defined]


def test_a_server_that_refuses_the_extension_or_is_not_running_says_how_to_start_it(browser, site_tab, tmp_path):
    """A server started without --extension-origin, then a closed port: the popup says what to run, with the
    extension's own origin, and the server does nothing for it."""
    from assistant.engine import Assistant
    from assistant.foundation.settings import Settings
    from assistant.frontends.api import create_app

    refusing = create_app(Assistant(Settings(home=tmp_path / "home")), load_models=False)
    options = extension_page(browser, "options.html")
    saved = options.input_value("#server")

    def save(address: str) -> None:
        options.fill("#server", address)
        options.click("text=Save")
        options.wait_for_function("(a) => document.querySelector('#saved').textContent === "
                                  "`Saved: the extension now uses ${a}.`", arg=address)

    def use(address: str) -> str:
        save(address)
        popup = open_popup(browser, site_tab)
        popup.click("#load")
        popup.wait_for_function("() => document.querySelector('#status').className === 'error'")
        said = popup.inner_text("#status")
        popup.close()
        return said

    try:
        with running(refusing) as url:
            said = use(url)
            assert said == (f"Requests from {ORIGIN} are refused: start the server with --extension-origin "
                            f"{ORIGIN} to allow them."), said  # the server's own error, read by the popup
            assert refusing.state.served["POST /ingest"] == 0  # refused before any work
        closed = f"http://127.0.0.1:{free_port()}"
        assert use(closed) == (f"The assistant does not answer at {closed}. Start it with: "
                               f"assistant serve --extension-origin {ORIGIN}")
    finally:
        save(saved)
        options.close()
