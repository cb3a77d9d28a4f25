"""The chat page in a real browser: Playwright driving Debian's headless Chromium (/usr/bin/chromium)
against the page (web/), the Rasa socketio channel and the action server (tests/support/chat_stack.py):
a whole conversation with answer cards, citations that open the policy, adding a policy, the
escaping of policy text, error states, and an axe-core accessibility check (web/node_modules).
Screenshots go to test-artifacts/."""
from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.support.chat_stack import MARKUP_POLICY, REPLY_TIMEOUT_S, free_port, shared_stack
from tests.support.paths import EXAMPLES, ROOT
from tests.support.policy_server import policy_server

pytestmark = pytest.mark.e2e

CHROMIUM = Path(os.environ.get("CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
ARTIFACTS = ROOT / "test-artifacts"
TIMEOUT_MS = 90_000
AXE = ROOT / "web" / "node_modules" / "axe-core" / "axe.min.js"


@pytest.fixture(scope="session")
def stack(request, tmp_path_factory, embedder, retriever, policyie):
    return shared_stack(request, tmp_path_factory, embedder, retriever, policyie)


@pytest.fixture(scope="session")
def browser(request):
    if not CHROMIUM.exists():
        message = f"{CHROMIUM} is missing: `make chromium` installs Debian's chromium"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    driver = request.getfixturevalue("playwright_driver")  # after the check: no driver where there is no Chromium
    browser = driver.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
    yield browser
    browser.close()


def open_page(browser, url: str, viewport: dict | None = None):
    """A fresh browser context on `url`; its requests off loopback and its script errors are recorded."""
    context = browser.new_context(viewport=viewport or {"width": 900, "height": 1000})
    page = context.new_page()
    outside: list[str] = []
    page.on("request", lambda r: None if urlsplit(r.url).hostname in ("127.0.0.1", "localhost") or
            r.url.startswith("data:") else outside.append(r.url))
    page.errors = []  # type: ignore[attr-defined]
    page.on("pageerror", lambda error: page.errors.append(str(error)))  # type: ignore[attr-defined]
    page.outside_requests = outside  # type: ignore[attr-defined]
    page.goto(url)
    return context, page


@pytest.fixture
def page(browser, stack):
    """A fresh browser context on the chat page; every request must stay on loopback."""
    context, page = open_page(browser, stack.page_url)
    yield page
    context.close()


# -- reading the page ----------------------------------------------------------------------------

def bot_texts(page) -> list[str]:
    """The bot's bubbles (one per turn), as shown; hidden evidence included."""
    return page.eval_on_selector_all("#log .msg.bot", "nodes => nodes.map(n => n.textContent)")


def wait_for_greeting(page) -> None:
    """The page sends /greet once its session is confirmed; wait for the greeting's last paragraph."""
    page.wait_for_function("() => [...document.querySelectorAll('#log .msg.bot')]"
                           ".some(m => m.textContent.includes('or say “help”'))", timeout=TIMEOUT_MS)


def wait_for_bot(page, before: int, expect: str) -> str:
    """Wait until a bot bubble after the first `before` contains `expect`; the new bubbles' text."""
    page.wait_for_function(
        """([before, expect]) => [...document.querySelectorAll('#log .msg.bot')].slice(before)
                                 .some(m => m.textContent.includes(expect))""",
        arg=[before, expect], timeout=TIMEOUT_MS,
    )
    return "\n".join(bot_texts(page)[before:])


def send(page, text: str, expect: str) -> str:
    """Type a message and press Enter; the bot's reply once it contains `expect`."""
    before = len(bot_texts(page))
    page.fill("#message", text)
    page.press("#message", "Enter")
    return wait_for_bot(page, before, expect)


def ask(page, question: str) -> dict:
    """Ask a question; the new answer card's headline, first quote, citation link and card count."""
    before = page.locator("#log .card").count()
    page.fill("#message", question)
    page.press("#message", "Enter")
    page.wait_for_function("(n) => document.querySelectorAll('#log .card').length > n", arg=before,
                           timeout=TIMEOUT_MS)
    card = page.locator("#log .card").nth(before)
    quote = card.locator("blockquote.quote").first
    link = card.locator(".cite a").first
    return {"card": card, "headline": card.locator(".headline").inner_text(),
            "quote": quote.inner_text().strip("“”") if quote.count() else None,
            "href": link.get_attribute("href") if link.count() else None}


def run_axe(page) -> list[dict]:
    """axe-core (web/node_modules, pinned in package.json) run in the page: its serious and critical
    violations. Evaluated through the DevTools protocol, so the page's CSP is not loosened for it. Every
    frame (the label panel) gets its own copy first: axe reads a frame through the copy inside it."""
    source = AXE.read_text(encoding="utf-8")
    for frame in page.frames[1:]:
        frame.wait_for_load_state()
        frame.evaluate(source)
    page.evaluate(source)
    result = page.evaluate("() => axe.run(document, {resultTypes: ['violations']})")
    return [{"id": v["id"], "impact": v["impact"], "nodes": [n["target"] for n in v["nodes"]][:5]}
            for v in result["violations"] if v["impact"] in ("serious", "critical")]


def screenshot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / name), full_page=True)


def active_policy(page) -> str:
    return page.locator("#active-name").inner_text()


# -- the tests -------------------------------------------------------------------------------------

def test_a_whole_conversation_on_the_page(browser, page, stack):
    """Pick a policy, ask, follow up, expand the evidence, open a citation at its highlighted sentence,
    add a policy by URL with the keyboard, summarize it; axe finds no serious or critical problem, on
    a desktop and on a phone-sized screen."""
    wait_for_greeting(page)
    assert active_policy(page) == "no policy chosen yet"
    options = page.eval_on_selector_all("#policy-picker option", "os => os.map(o => o.value)")
    assert set(options) == {"", "amazon.com", "instagram.com", MARKUP_POLICY}
    assert run_axe(page) == []

    before = len(bot_texts(page))
    page.select_option("#policy-picker", "amazon.com")
    wait_for_bot(page, before, "now answering from amazon.com")
    assert active_policy(page) == "amazon.com"

    first = ask(page, "Do they share my personal information with other companies?")
    assert first["headline"] and first["quote"] and first["href"]
    assert re.fullmatch(r"/policy\?name=amazon\.com&version=1#s-\d+", first["href"]), first["href"]
    assert first["card"].locator(".cite a").first.inner_text().startswith("§ ")
    follow_up = ask(page, "and how long do they keep it?")  # the conversation stays on amazon.com
    assert follow_up["card"].get_attribute("aria-label") == "Answer from amazon.com"
    assert active_policy(page) == "amazon.com"

    more = first["card"].locator("button.more")
    evidence = first["card"].locator("ol.evidence")
    assert more.get_attribute("aria-expanded") == "false" and not evidence.is_visible()
    more.focus()
    page.keyboard.press("Enter")  # a real button: the keyboard opens it
    assert more.get_attribute("aria-expanded") == "true" and evidence.is_visible()
    assert evidence.locator("li").count() >= 1
    assert evidence.locator(".cite a").count() == evidence.locator("li").count()
    screenshot(page, "webchat-answer.png")

    with page.expect_popup() as popup_info:
        first["card"].locator(".cite a").first.click()
    policy_page = popup_info.value
    policy_page.wait_for_load_state()
    sentence_id = first["href"].rsplit("#s-", 1)[1]
    target = policy_page.locator(":target")
    assert target.get_attribute("id") == f"s-{sentence_id}"
    shown = target.evaluate("n => [...n.childNodes].filter(c => c.nodeType === 3).map(c => c.data).join('')")
    assert " ".join(shown.split()) == " ".join(first["quote"].split())  # the quoted sentence, as stored
    assert target.evaluate("n => getComputedStyle(n).backgroundColor") == "rgb(255, 240, 179)"  # highlighted
    assert policy_page.evaluate("() => { const r = document.querySelector(':target').getBoundingClientRect(); "
                                "return r.top >= 0 && r.bottom <= innerHeight; }")  # scrolled into view
    assert run_axe(policy_page) == []
    ARTIFACTS.mkdir(exist_ok=True)
    policy_page.screenshot(path=str(ARTIFACTS / "webchat-citation.png"))
    policy_page.set_viewport_size({"width": 390, "height": 844})  # a phone: issue 39 measured 419–458 px
    assert policy_page.evaluate("() => document.documentElement.scrollWidth") <= 390
    assert run_axe(policy_page) == []
    policy_page.screenshot(path=str(ARTIFACTS / "webchat-citation-phone.png"))
    policy_page.close()

    try:
        with policy_server() as pages:
            pages.pages["/steam/privacy"] = ("text/html; charset=utf-8",
                                             (EXAMPLES / "steampowered.com.html").read_bytes())
            before = len(bot_texts(page))
            page.focus("#add-policy summary")
            page.keyboard.press("Enter")  # opens "Add a policy"
            page.keyboard.press("Tab")
            assert page.evaluate("document.activeElement.id") == "add-url"
            page.keyboard.type(pages.url("/steam/privacy"))
            page.keyboard.press("Tab")  # the file picker
            page.keyboard.press("Tab")
            assert page.evaluate("document.activeElement.id") == "add-button"
            page.keyboard.press("Enter")  # "Continue": the name it will be added as, in a field that has the focus
            page.wait_for_function("() => document.activeElement.id === 'add-name'", timeout=TIMEOUT_MS)
            assert page.input_value("#add-name")  # the name it proposes (ingest.naming), replaced by the person's
            page.keyboard.press("Control+A")
            page.keyboard.type("steam")
            page.keyboard.press("Tab")
            assert page.evaluate("document.activeElement.id") == "add-confirm-button"
            page.keyboard.press("Enter")
            page.wait_for_function("() => document.querySelector('#add-status').textContent.startsWith('Adding…')",
                                   timeout=TIMEOUT_MS)
            page.wait_for_function("() => document.querySelector('#add-status').textContent.startsWith('Added')",
                                   timeout=TIMEOUT_MS)
        status = page.eval_on_selector("#add-status", "n => n.textContent")  # kept in the closed add box
        assert re.fullmatch(r"Added steam \(\d+ sentences\)\.", status), status
        assert page.locator("#add-status").get_attribute("aria-live") == "polite"
        assert page.eval_on_selector("#add-policy", "d => d.open") is False  # issue 39: it stayed open
        assert page.locator("#log .notice").last.inner_text() == status  # what was added, in the conversation
        wait_for_bot(page, before, "now answering from steam")
        page.wait_for_function("() => document.querySelector('#active-name').textContent === 'steam'",
                               timeout=TIMEOUT_MS)
        assert page.eval_on_selector("#policy-picker", "p => p.value") == "steam"
        cookies = ask(page, "Do they use cookies?")
        assert cookies["card"].get_attribute("aria-label") == "Answer from steam"
        assert "cookie" in (cookies["quote"] or "").lower()
        screenshot(page, "webchat-add-policy.png")

        before = len(bot_texts(page))
        page.get_by_role("button", name="Summarize the policy").click()
        # Rasa's socket.io channel sends a reply in parts split at blank lines: wait for the label's last part
        label = wait_for_bot(page, before, "ask me about any item")
        assert "Privacy label of steam" in label and "Data collected:" in label
        assert page.evaluate("""() => {  // a reply taller than the box is shown from its start
            const log = document.querySelector('#log'), box = log.getBoundingClientRect();
            const top = [...log.querySelectorAll('.msg.bot')].pop().getBoundingClientRect().top;
            return top >= box.top - 1 && top < box.bottom; }""")

        assert run_axe(page) == []
        page.focus("#message")
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.id") == "send"
        assert page.evaluate("getComputedStyle(document.activeElement).outlineStyle") != "none"  # a focus ring
        assert page.locator("#log [tabindex='-1'], #log div[role='button']").count() == 0
        assert page.outside_requests == []  # type: ignore[attr-defined]
        assert page.errors == []  # type: ignore[attr-defined]

        page.set_viewport_size({"width": 390, "height": 844})  # a phone
        assert page.evaluate("document.documentElement.scrollWidth") <= 390  # nothing wider than the screen
        for control in ("#send", "#message", "#policy-picker", "#active-name", "#new-chat"):
            assert page.locator(control).is_visible(), control
        assert run_axe(page) == []
        page.screenshot(path=str(ARTIFACTS / "webchat-phone.png"))
    finally:
        remove_policy(stack.home, "steam")  # the stack is shared: its other tests list the policies


def test_a_reload_keeps_the_conversation_under_the_server_issued_id(page, stack):
    """The page asks for no id in a fresh tab, gets a signed one, and gets it back after a reload;
    "New chat" starts a conversation under a new id."""
    wait_for_greeting(page)
    session_id = page.evaluate("sessionStorage.getItem('privacy-assistant.session')")
    assert re.fullmatch(r"[0-9a-f]{32}\.[0-9a-f]{32}", session_id)
    send(page, "amazon", "now answering from amazon.com")
    answer = ask(page, "Can I delete my account?")
    shown = page.eval_on_selector("#log", "n => n.innerText")
    page.reload()
    page.wait_for_function("() => document.body.dataset.session === 'continued'", timeout=TIMEOUT_MS)
    assert page.evaluate("sessionStorage.getItem('privacy-assistant.session')") == session_id
    assert active_policy(page) == "amazon.com"
    # issue 39: a reload wiped the conversation on screen; it is drawn again, as it was (cards included)
    assert page.eval_on_selector("#log", "n => n.innerText") == shown
    assert page.locator("#log .card .headline").last.inner_text() == answer["headline"]
    why = send(page, "why?", "passage")
    assert "Can I delete my account?" in why and "“" in why
    # The reply comes whole, as one message: before, each paragraph was a message of its own, and those still on
    # their way when the next question was sent were drawn (and kept) after it.
    kept = page.evaluate("JSON.parse(sessionStorage.getItem('privacy-assistant.transcript')).pop()")
    assert kept["kind"] == "bot" and "passage" in kept["message"]["text"], kept
    assert kept["message"]["text"].count("\n\n> ") >= 2, kept  # the passages, each a quote paragraph

    # Sent, then the page reloads before any answer can come. Sent only once the page is connected: a page whose
    # polling connection dropped for a moment (a loaded machine) says "Not sent" and keeps nothing to wait for.
    page.wait_for_function("() => document.body.dataset.connection === 'ready'", timeout=TIMEOUT_MS)
    page.fill("#message", "Do they sell my data?")
    page.evaluate("() => { document.getElementById('ask-form').requestSubmit(); location.reload(); }")
    page.wait_for_function("() => document.body.dataset.session === 'continued'", timeout=TIMEOUT_MS)
    # The answer reaches the new page if the assistant sends it after the page rejoined the conversation; if it was
    # sent to the unloading page, it is lost and the page says so. Either way the question is followed by one of them.
    unanswered = "The answer to your last message did not arrive before the page was reloaded: please send it again."
    page.wait_for_function(
        "(text) => { const last = [...document.querySelectorAll('#log .msg')].pop();"
        " return last && (last.querySelector('.card') !== null || last.innerText === text); }",
        arg=unanswered, timeout=TIMEOUT_MS)
    texts = page.locator("#log .msg").all_inner_texts()
    assert texts[-2] == "Do they sell my data?", texts[-3:]
    assert texts[-1] == unanswered or texts[-1].startswith("No — amazon.com"), texts[-3:]
    assert "Waiting for the answer to your last message…" not in texts

    page.get_by_role("button", name="New chat").click()
    wait_for_greeting(page)
    assert page.locator("#log .msg.user").count() == 0  # the new conversation starts empty, and stays so on reload
    assert page.evaluate("sessionStorage.getItem('privacy-assistant.session')") != session_id
    assert active_policy(page) == "no policy chosen yet"
    assert "Ask me a question about a policy first" in send(page, "why?", "first")


def test_script_in_a_policy_sentence_shows_as_text(page, stack):
    wait_for_greeting(page)
    send(page, MARKUP_POLICY, f"now answering from {MARKUP_POLICY}")
    first = ask(page, "Do they collect my email address?")
    assert '<script>window.__injected = "script"</script>' in page.locator("#log").text_content()
    for question in ("Do they collect my postal address?", "Do they use cookies?",
                     "Who do they share my purchase history with?"):
        ask(page, question)
    send(page, "why?", "§")  # the Markdown text reply of the same passages
    shown = page.locator("#log").text_content()
    assert """<img src="x" onerror="window.__injected = 'img'">""" in shown
    assert "<b>to remember</b>" in shown
    assert "**payment**" in shown and "[our page](javascript:window.__injected='link')" in shown
    log = page.locator("#log")
    assert log.locator("script, img, b, a[href^='javascript'], a[href*='__injected']").count() == 0
    assert page.evaluate("window.__injected") is None
    screenshot(page, "webchat-escaping.png")

    with page.expect_popup() as popup_info:
        first["card"].locator(".cite a").first.click()
    policy_page = popup_info.value
    policy_page.wait_for_load_state()
    text = policy_page.locator("main").text_content()
    assert '<script>window.__injected = "script"</script>' in text and "<b>to remember</b>" in text
    assert policy_page.locator("main script, main img, main b, main a[href^='javascript']").count() == 0
    assert policy_page.evaluate("window.__injected") is None
    assert page.outside_requests == []  # type: ignore[attr-defined]


def test_the_page_says_when_the_assistant_is_not_reachable(browser, tmp_path):
    """A chat page whose Rasa server is not running: it says so, keeps retrying, and sends nothing."""
    port, closed = free_port(), free_port()
    env = dict(os.environ, ASSISTANT_HOME=str(tmp_path / "home"), PYTHONPATH=str(ROOT))
    with (tmp_path / "web.log").open("w") as log:
        server = subprocess.Popen([sys.executable, str(ROOT / "web" / "server.py"), "--port", str(port),
                                   "--rasa-url", f"http://127.0.0.1:{closed}"], env=env, cwd=ROOT, stdout=log,
                                  stderr=subprocess.STDOUT)
    try:
        wait_until_up(f"http://127.0.0.1:{port}/config.js", server)
        context, page = open_page(browser, f"http://127.0.0.1:{port}/")
        try:
            page.wait_for_function("() => document.querySelector('#banner').textContent"
                                   " === 'The assistant is not reachable, retrying…'", timeout=TIMEOUT_MS)
            assert page.locator("#banner").get_attribute("role") == "alert"
            page.fill("#message", "Do they sell my data?")
            page.press("#message", "Enter")
            assert "Not sent: the assistant is not reachable" in page.locator("#log").text_content()
            assert page.input_value("#message") == "Do they sell my data?"  # kept for a retry
            screenshot(page, "webchat-unreachable.png")
            assert page.errors == []  # type: ignore[attr-defined]
        finally:
            context.close()
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_the_page_says_when_no_answer_comes_back(page, stack):
    """The action server stops answering (its processes suspended): after the page's time-out a
    notice says that no answer came back; the late answer still shows once it resumes."""
    wait_for_greeting(page)
    send(page, "amazon", "now answering from amazon.com")
    actions = int((stack.run_dir / "actions.pid").read_text())
    os.killpg(actions, signal.SIGSTOP)
    try:
        started = time.monotonic()
        page.fill("#message", "Do they sell my data?")
        page.press("#message", "Enter")
        page.wait_for_function("() => document.querySelector('#log').textContent.includes('No answer came back')",
                               timeout=TIMEOUT_MS)
        waited = time.monotonic() - started
        assert REPLY_TIMEOUT_S - 1 <= waited < REPLY_TIMEOUT_S + 20, waited
        assert f"No answer came back within {REPLY_TIMEOUT_S} seconds" in page.locator("#log").text_content()
        screenshot(page, "webchat-no-answer.png")
    finally:
        os.killpg(actions, signal.SIGCONT)
    page.wait_for_function("() => document.querySelectorAll('#log .card').length > 0", timeout=TIMEOUT_MS)


def wait_until_up(url: str, process: subprocess.Popen, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while True:
        try:
            urllib.request.urlopen(url, timeout=2).close()
            return
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"{url} did not come up") from None
            time.sleep(0.2)


def remove_policy(home: Path, name: str) -> None:
    from assistant.store.database import Store

    store = Store(home)
    try:
        if name in store.policy_names():
            store.remove(name)
    finally:
        store.close()


def test_a_question_over_the_limit_is_kept_and_the_page_says_by_how_much(page, stack):
    """Issue 39: the box took 2,000 characters while the assistant reads 1,000, and the refused text was cleared."""
    wait_for_greeting(page)
    before = len(bot_texts(page))
    question = "Do they sell my data " + "and " * 300 + "?"
    page.fill("#message", question)
    note = page.locator("#length-note")
    assert note.is_visible() and "the assistant reads at most 1000" in note.inner_text()
    page.click("#send")
    assert page.input_value("#message") == question  # kept, not sent
    page.wait_for_timeout(500)  # a reply, had anything been sent, would have started by now
    assert len(bot_texts(page)) == before and page.locator("#log .msg.user").count() == 0
    page.fill("#message", "Do they sell my data?")
    assert not note.is_visible()


def test_arrow_keys_move_through_the_policies_and_enter_chooses_one(page, stack):
    """Issue 39: every arrow key press in the picker switched the policy, each with a bot reply."""
    wait_for_greeting(page)
    page.wait_for_function("() => document.querySelector('#policy-picker').options.length > 2", timeout=TIMEOUT_MS)
    page.focus("#policy-picker")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    page.wait_for_timeout(500)  # a switch, had one been sent, would show its "Use …" line by now
    assert page.locator("#log .msg.user").count() == 0
    chosen = page.eval_on_selector("#policy-picker", "p => p.value")
    before = len(bot_texts(page))
    page.keyboard.press("Enter")
    wait_for_bot(page, before, f"now answering from {chosen}")
    assert page.locator("#log .msg.user").all_inner_texts() == [f"Use {chosen}"]


# -- the privacy label (issue 39, item 2) ------------------------------------------------------------

PHONE = {"width": 390, "height": 844}


def label_frame(page, policy: str):
    """The label panel's frame once it shows `policy`'s label."""
    page.wait_for_function(
        """(name) => { const f = document.querySelector('#label-frame'); const d = f && f.contentDocument;
                       return d && d.readyState === 'complete' && d.querySelector('h1')
                              && d.querySelector('h1').textContent === 'Privacy label: ' + name; }""",
        arg=policy, timeout=TIMEOUT_MS)
    return next(f for f in page.frames if f.url.endswith("/label?name=" + policy))


def axe_in_frame(frame) -> list[dict]:
    """axe-core run inside a frame's own document (besides the page's run, which reaches into it)."""
    frame.evaluate(AXE.read_text(encoding="utf-8"))
    result = frame.evaluate("() => axe.run(document, {resultTypes: ['violations']})")
    return [{"id": v["id"], "impact": v["impact"], "nodes": [n["target"] for n in v["nodes"]][:5]}
            for v in result["violations"] if v["impact"] in ("serious", "critical")]


def overflow(page_or_frame) -> int:
    """How far the document is wider than its viewport (0: nothing needs a horizontal scroll)."""
    return page_or_frame.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")


def get(url: str) -> tuple[int, dict, str]:
    try:
        with urllib.request.urlopen(url, timeout=120) as response:
            return response.status, dict(response.headers), response.read().decode()
    except urllib.error.HTTPError as error:
        with error:
            return error.code, dict(error.headers), error.read().decode()


def test_the_label_panel_shows_the_chosen_policy_beside_the_chat_and_opens_it_at_a_sentence(browser, stack):
    """Choose a policy: its label appears beside the chat (below it on a phone), a line opens its quote and the
    policy at that sentence, it follows a change of policy; axe finds nothing serious at either size."""
    context, page = open_page(browser, stack.page_url, {"width": 1280, "height": 900})
    try:
        wait_for_greeting(page)
        assert page.locator("#label-panel").is_hidden()  # no policy chosen: no panel
        before = len(bot_texts(page))
        page.select_option("#policy-picker", "amazon.com")
        wait_for_bot(page, before, "now answering from amazon.com")
        frame = label_frame(page, "amazon.com")
        assert page.locator("#label-panel").is_visible()
        assert page.locator("#label-title").inner_text() == "Privacy label of amazon.com"
        log, panel = page.locator("#log").bounding_box(), page.locator("#label-frame").bounding_box()
        assert panel["x"] >= log["x"] + log["width"] and panel["y"] < log["y"] + log["height"]  # beside it
        rows = frame.locator("li.row")
        assert rows.count() == 16
        assert frame.locator("section.group h2").first.inner_text() == "Selling and sharing"
        words = set(frame.locator("li.row .chip").all_inner_texts())
        assert words <= {"Yes", "No", "Only if", "Only for some", "Not stated"} and {"Yes", "Not stated"} <= words

        row = frame.locator("li.row:has(details)").first
        quote = row.locator(".said blockquote")
        assert not quote.is_visible()
        row.locator("summary").focus()
        page.keyboard.press("Enter")  # a real disclosure: the keyboard opens it
        assert quote.is_visible()
        shown_quote = quote.inner_text().strip().strip("“”")
        link = row.locator(".said a")
        href = link.get_attribute("href")
        assert re.fullmatch(r"/policy\?name=amazon\.com&version=1#s-\d+", href), href
        with context.expect_page() as opened:
            link.click()
        policy_page = opened.value
        policy_page.wait_for_load_state()
        target = policy_page.locator(":target")
        assert target.get_attribute("id") == "s-" + href.rsplit("#s-", 1)[1]
        shown = target.evaluate("n => [...n.childNodes].filter(c => c.nodeType === 3).map(c => c.data).join('')")
        assert " ".join(shown.split()) == " ".join(shown_quote.split())  # the quoted sentence, as stored
        policy_page.close()

        assert run_axe(page) == [] and axe_in_frame(frame) == []
        assert overflow(page) <= 0 and overflow(frame) <= 0
        screenshot(page, "label-desktop.png")

        before = len(bot_texts(page))
        page.select_option("#policy-picker", "instagram.com")
        wait_for_bot(page, before, "now answering from instagram.com")
        frame = label_frame(page, "instagram.com")  # the panel follows the chosen policy
        assert page.locator("#label-open").get_attribute("href") == "/label?name=instagram.com"

        page.set_viewport_size(PHONE)
        log, panel = page.locator("#log").bounding_box(), page.locator("#label-frame").bounding_box()
        assert panel["y"] >= log["y"] + log["height"]  # below the chat on a phone
        assert overflow(page) <= 0 and overflow(frame) <= 0
        assert run_axe(page) == [] and axe_in_frame(frame) == []
        page.locator("#label-panel").scroll_into_view_if_needed()
        screenshot(page, "label-phone.png")
        assert page.outside_requests == []  # type: ignore[attr-defined]
        assert page.errors == []  # type: ignore[attr-defined]
    finally:
        context.close()


def test_the_label_page_prints_fits_a_phone_and_shows_policy_markup_as_text(browser, stack):
    """The label on its own page (the panel's "open it on its own page"): a policy's markup is text, it
    prints its lines with their sentence numbers, and at 390 px nothing is wider than the screen."""
    status, headers, _ = get(stack.page_url + "label?name=" + MARKUP_POLICY)
    assert status == 200 and "frame-ancestors 'self'" in headers["Content-Security-Policy"]  # the panel frames it
    assert get(stack.page_url + "label?name=nope")[0] == 404
    assert get(stack.page_url + "label")[0] == 400
    context, page = open_page(browser, stack.page_url + "label?name=" + MARKUP_POLICY)
    try:
        text = page.locator("main").text_content()
        assert "<b>to remember</b>" in text  # the cookies sentence's markup, shown as text
        assert page.locator("main script, main img, main b, main a[href^='javascript']").count() == 0
        assert page.evaluate("window.__injected") is None
        assert run_axe(page) == []
        ref = page.locator("li.row .ref").first
        assert not ref.is_visible()
        page.emulate_media(media="print")
        assert ref.is_visible() and re.fullmatch(r"\(sentence \d+\)", ref.inner_text())  # printed with its number
        page.emulate_media(media="screen")
        page.set_viewport_size(PHONE)
        assert overflow(page) <= 0
        assert run_axe(page) == []
        assert page.outside_requests == []  # type: ignore[attr-defined]
    finally:
        context.close()


def test_compare_labels_sets_two_or_three_policies_side_by_side(browser, stack):
    """`/compare-labels?policies=a,b,c`: a column per policy, rows aligned by question; stacked on a phone."""
    names = ["amazon.com", "instagram.com", MARKUP_POLICY]
    assert get(stack.page_url + "compare-labels?policies=amazon.com")[0] == 400
    assert get(stack.page_url + "compare-labels?policies=amazon.com,nope")[0] == 404
    context, page = open_page(browser, stack.page_url + "compare-labels?policies=" + ",".join(names),
                              {"width": 1280, "height": 900})
    try:
        table = page.locator("table.cmp").first
        assert table.locator("thead th").all_inner_texts() == ["Question", *names]
        assert page.locator("table.cmp tbody tr").count() == 16
        first = table.locator("tbody tr").first
        cells = [first.locator("td").nth(i).bounding_box() for i in range(len(names))]
        assert len({round(cell["y"]) for cell in cells}) == 1  # one row across the columns
        assert page.locator("table.cmp .differs").count() >= 1
        assert run_axe(page) == []
        screenshot(page, "compare-labels.png")
        page.set_viewport_size(PHONE)
        cells = [first.locator("td").nth(i).bounding_box() for i in range(len(names))]
        assert cells[0]["y"] < cells[1]["y"] < cells[2]["y"]  # stacked on a phone, each named
        assert first.locator(".cell-policy").first.is_visible()
        assert overflow(page) <= 0
        assert run_axe(page) == []
        screenshot(page, "compare-labels-phone.png")
    finally:
        context.close()


# -- every citation a link; the name shown before a policy is stored (issue 39, items 3 and 1) ------------------

CITATION_HREF = r"/policy\?name=([A-Za-z0-9%._~+-]*)&version=(\d+)#s-(\d+)"


def last_bubble(page):
    return page.locator("#log .msg.bot").last


def wait_for_links(page, before: int, count: int) -> None:
    """Until the bot's bubbles after the first `before` hold `count` links (a reply comes in several messages)."""
    page.wait_for_function(
        """([before, count]) => [...document.querySelectorAll('#log .msg.bot')].slice(before)
                                .reduce((n, m) => n + m.querySelectorAll('a').length, 0) >= count""",
        arg=[before, count], timeout=TIMEOUT_MS)


def open_citation(page, link) -> tuple[str, str]:
    """Click a citation link of a text reply: the new tab's targeted sentence id and its own text."""
    assert link.get_attribute("target") == "_blank" and link.get_attribute("rel") == "noopener"
    assert link.get_attribute("aria-label").endswith("; opens the policy at this sentence)")
    with page.expect_popup() as popup_info:
        link.click()
    policy_page = popup_info.value
    policy_page.wait_for_load_state()
    target = policy_page.locator(":target")
    target_id = target.get_attribute("id")
    text = target.evaluate("n => [...n.childNodes].filter(c => c.nodeType === 3).map(c => c.data).join('')")
    assert target.evaluate("n => getComputedStyle(n).backgroundColor") == "rgb(255, 240, 179)"  # highlighted
    policy_page.close()
    return target_id, " ".join(text.split())


def test_why_compare_and_which_policies_replies_link_each_citation_to_its_sentence(browser, stack):
    context, page = open_page(browser, stack.page_url, {"width": 1280, "height": 900})
    try:
        wait_for_greeting(page)
        send(page, "amazon", "now answering from amazon.com")
        answer = ask(page, "Do they share my personal information with other companies?")
        passages = answer["card"].locator("blockquote.quote").count()
        assert passages >= 2

        before = len(bot_texts(page))
        page.fill("#message", "why?")
        page.press("#message", "Enter")
        wait_for_links(page, before, passages)
        why = last_bubble(page)
        links = why.locator("a")
        assert links.count() == passages  # each passage's citation, and nothing else
        hrefs = [links.nth(i).get_attribute("href") for i in range(passages)]
        assert all(re.fullmatch(r"/policy\?name=amazon\.com&version=1#s-\d+", h) for h in hrefs), hrefs
        assert hrefs[0] == answer["href"]  # in the answer's order: its quote first
        assert links.first.inner_text().startswith("§ ") and "score" not in why.inner_text()
        quotes = why.locator("blockquote p:first-child").all_inner_texts()
        target, text = open_citation(page, links.nth(1))
        assert target == "s-" + hrefs[1].rsplit("#s-", 1)[1]
        assert text == " ".join(quotes[1].split(" ", 1)[1].strip("“”").split())  # "2. “…”": the quoted sentence
        assert run_axe(page) == []

        before = len(bot_texts(page))
        page.fill("#message", "compare amazon.com and instagram.com on selling data")
        page.press("#message", "Enter")
        wait_for_bot(page, before, "instagram.com: ")
        wait_for_links(page, before, 1)
        compare = page.locator("#log .msg.bot").nth(before)
        hrefs = [a.get_attribute("href") for a in compare.locator("a").all()]
        assert hrefs and all(re.fullmatch(CITATION_HREF, h) for h in hrefs), hrefs
        assert {re.fullmatch(CITATION_HREF, h).group(1) for h in hrefs} <= {"amazon.com", "instagram.com"}
        link = compare.locator("a").first
        assert re.fullmatch(r"sentence \d+", link.inner_text())
        target, _ = open_citation(page, link)
        assert target == "s-" + hrefs[0].rsplit("#s-", 1)[1]

        before = len(bot_texts(page))
        page.fill("#message", "which policies sell my data?")
        page.press("#message", "Enter")
        across = wait_for_bot(page, before, "across")
        page.wait_for_function(  # every stored policy's row
            "([before, names]) => { const t = [...document.querySelectorAll('#log .msg.bot')].slice(before)"
            ".map(m => m.textContent).join(' '); return names.every(n => t.includes(n + ': ')); }",
            arg=[before, ["amazon.com", "instagram.com", MARKUP_POLICY]], timeout=TIMEOUT_MS)
        bubble = page.locator("#log .msg.bot").nth(before)
        rows = bubble.locator("a").all()
        assert rows, across
        for row in rows:
            match = re.fullmatch(CITATION_HREF, row.get_attribute("href"))
            assert match and match.group(1) in ("amazon.com", "instagram.com", "markup-test"), row.get_attribute("href")
        target, _ = open_citation(page, rows[0])
        assert target == "s-" + rows[0].get_attribute("href").rsplit("#s-", 1)[1]
        screenshot(page, "webchat-citation-links.png")
        assert page.outside_requests == [] and page.errors == []  # type: ignore[attr-defined]
    finally:
        context.close()


LINKS_POLICY = "links-test"
LINKS_POLICY_TEXT = """\
Links Test Privacy Policy

Sharing

We share your email address with advertisers as described at [x](javascript:alert(1)) on our site.

We share your location with partners listed at <a href="javascript:alert(2)">our partners page</a> and nobody else.

We sell your purchase history to data brokers as set out in [sentence 1](/policy?name=links-test&version=1#s-1) here.
"""


def test_link_syntax_in_a_policy_sentence_shows_as_text_and_makes_no_link(browser, stack, tmp_path, embedder,
                                                                          retriever, policyie):
    from assistant.engine import Assistant
    from assistant.foundation.settings import Settings

    source = tmp_path / f"{LINKS_POLICY}.txt"
    source.write_text(LINKS_POLICY_TEXT, encoding="utf-8")
    engine = Assistant(Settings(home=stack.home), embedder=embedder, retriever=retriever, policyie=policyie)
    engine.ingest(source, name=LINKS_POLICY, force=True)
    engine.store.close()
    context, page = open_page(browser, stack.page_url)
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    try:
        wait_for_greeting(page)
        send(page, LINKS_POLICY, f"now answering from {LINKS_POLICY}")
        answer = ask(page, "Do they share my data?")
        passages = answer["card"].locator("blockquote.quote").count()
        assert passages == 3  # every sentence of the policy
        before = len(bot_texts(page))
        page.fill("#message", "why?")
        page.press("#message", "Enter")
        wait_for_links(page, before, passages)
        why = last_bubble(page)
        shown = why.text_content()
        for literal in ("[x](javascript:alert(1))", '<a href="javascript:alert(2)">our partners page</a>',
                        "[sentence 1](/policy?name=links-test&version=1#s-1)"):
            assert literal in shown, literal
        links = why.locator("a")
        assert links.count() == passages  # only the three citations
        for link in links.all():
            assert link.inner_text().startswith("§ "), link.inner_text()  # never the policy's own link text
            assert re.fullmatch(r"/policy\?name=links-test&version=1#s-\d+", link.get_attribute("href"))
        assert page.locator("#log a[href^='javascript'], #log a[href*='alert']").count() == 0

        # The renderer itself: a reply's link construct is a link only for the chat page's own /policy?…#s-N URL
        # (a reply from the stored transcript, drawn again on reload through the same renderer).
        forged = ("Links: [x](javascript:alert(1)) [ok](/policy?name=links-test&version=1#s-2) "
                  "[far](https://evil.example/policy?name=a&version=1#s-1) [more](/policy?name=a&version=1#s-1&x=1) "
                  "[host](//evil.example/policy?name=a&version=1#s-1)")
        page.evaluate("""(text) => { const key = 'privacy-assistant.transcript';
            const entries = JSON.parse(sessionStorage.getItem(key) || '[]');
            entries.push({kind: 'bot', message: {text: text}});
            sessionStorage.setItem(key, JSON.stringify(entries)); }""", forged)
        page.reload()
        bubble = page.locator("#log .msg.bot p", has_text="Links: ").last  # its paragraph
        bubble.wait_for(timeout=TIMEOUT_MS)
        assert [a.get_attribute("href") for a in bubble.locator("a").all()] == [
            "/policy?name=links-test&version=1#s-2"]
        assert bubble.text_content() == forged.replace("[ok](/policy?name=links-test&version=1#s-2)", "ok")
        page.wait_for_timeout(300)
        assert dialogs == [] and page.errors == []  # type: ignore[attr-defined]
    finally:
        context.close()
        remove_policy(stack.home, LINKS_POLICY)


def stored_names(home: Path) -> set[str]:
    from assistant.store.database import Store

    store = Store(home)
    try:
        return set(store.policy_names())
    finally:
        store.close()


def picker_names(page) -> list[str]:
    return page.eval_on_selector_all("#policy-picker option", "os => os.map(o => o.value)")


def test_adding_shows_the_name_before_storing_and_a_taken_name_gets_a_distinct_one(browser, stack):
    titled = b"<title>Privacy Policy | Acme</title>"
    context, page = open_page(browser, stack.page_url, {"width": 1280, "height": 900})
    try:
        with policy_server() as pages:
            pages.pages["/acme/privacy"] = ("text/html; charset=utf-8",
                                            titled + (EXAMPLES / "steampowered.com.html").read_bytes())
            pages.pages["/acme/games"] = ("text/html; charset=utf-8",
                                          titled + (EXAMPLES / "instagram.com.html").read_bytes())
            wait_for_greeting(page)
            names_before, listed_before = stored_names(stack.home), picker_names(page)
            page.click("#add-policy summary")
            page.fill("#add-url", pages.url("/acme/privacy"))
            page.click("#add-button")  # "Continue"
            page.wait_for_function("() => !document.querySelector('#add-confirm').hidden", timeout=TIMEOUT_MS)
            assert page.input_value("#add-name") == "Acme"  # the organisation the title names
            note = page.locator("#add-name-note").inner_text()
            assert note == "Named after the page's title. It will be a new policy.", note
            assert page.locator("#add-status").inner_text().startswith("Nothing is stored yet")
            assert stored_names(stack.home) == names_before and picker_names(page) == listed_before  # not stored
            page.click("#add-cancel")
            assert page.locator("#add-confirm").is_hidden() and stored_names(stack.home) == names_before

            page.click("#add-button")
            page.wait_for_function("() => !document.querySelector('#add-confirm').hidden", timeout=TIMEOUT_MS)
            before = len(bot_texts(page))
            page.click("#add-confirm-button")  # "Add" under the proposed name
            wait_for_bot(page, before, "now answering from Acme")
            assert "Acme" in stored_names(stack.home) and "Acme" in picker_names(page)

            page.click("#add-policy summary")
            page.fill("#add-url", pages.url("/acme/games"))  # another document whose title names Acme too
            page.click("#add-button")
            page.wait_for_function("() => !document.querySelector('#add-confirm').hidden", timeout=TIMEOUT_MS)
            assert page.input_value("#add-name") == "Acme (2)"  # never a silent version 2 of the other one
            note = page.locator("#add-name-note").inner_text()
            assert note == ("Named after the page's title: \"Acme\" already holds another document. "
                            "It will be a new policy."), note
            listed = picker_names(page)
            assert run_axe(page) == []
            screenshot(page, "webchat-add-name.png")
            page.set_viewport_size(PHONE)
            assert overflow(page) <= 0 and page.locator("#add-name").is_visible()
            assert run_axe(page) == []
            screenshot(page, "webchat-add-name-phone.png")
            page.set_viewport_size({"width": 1280, "height": 900})

            page.fill("#add-name", "acme")  # a name that holds a policy: the note says what adding would do
            assert page.locator("#add-name-note").inner_text().startswith(
                "“Acme” already holds a policy: adding stores this document as its next version.")
            page.fill("#add-name", "Acme Games")  # the person's own name
            assert page.locator("#add-name-note").inner_text() == "It will be a new policy named “Acme Games”."
            assert stored_names(stack.home) == names_before | {"Acme"} and picker_names(page) == listed
            before = len(bot_texts(page))
            page.press("#add-name", "Enter")
            wait_for_bot(page, before, "now answering from Acme Games")
            assert page.locator("#add-status").text_content().startswith("Added Acme Games (")
            assert stored_names(stack.home) == names_before | {"Acme", "Acme Games"}  # no "Acme (2)"
            assert page.outside_requests == [] and page.errors == []  # type: ignore[attr-defined]
    finally:
        context.close()
        for name in ("Acme", "Acme Games"):
            remove_policy(stack.home, name)
