"""The chat widget in a real browser: Playwright driving Debian's headless Chromium (/usr/bin/chromium)
against the page, the Rasa socketio channel and the action server (tests/chat_stack.py).
Screenshots go to test-artifacts/."""
from __future__ import annotations

import os
import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from chat_stack import EXAMPLES, MARKUP_POLICY, ROOT, shared_stack
from policy_server import policy_server

pytestmark = pytest.mark.e2e

CHROMIUM = Path(os.environ.get("CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
ARTIFACTS = ROOT / "test-artifacts"
TIMEOUT_MS = 90_000


@pytest.fixture(scope="session")
def stack(request, tmp_path_factory, embedder, retriever, policyie):
    return shared_stack(request, tmp_path_factory, embedder, retriever, policyie)


@pytest.fixture(scope="session")
def browser():
    if not CHROMIUM.exists():
        message = f"{CHROMIUM} is missing: `make chromium` installs Debian's chromium"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        yield browser
        browser.close()


@pytest.fixture
def page(browser, stack):
    """A fresh browser context on the chat page; every request must stay on loopback."""
    context = browser.new_context(viewport={"width": 900, "height": 1000})
    page = context.new_page()
    outside: list[str] = []
    page.on("request", lambda r: None if urlsplit(r.url).hostname in ("127.0.0.1", "localhost") or
            r.url.startswith("data:") else outside.append(r.url))
    page.errors = []  # type: ignore[attr-defined]
    page.on("pageerror", lambda error: page.errors.append(str(error)))  # type: ignore[attr-defined]
    page.goto(stack.page_url)
    page.outside_requests = outside  # type: ignore[attr-defined]
    yield page
    context.close()


def bot_messages(page) -> list[str]:
    return page.locator(".rw-response .rw-message-text").all_inner_texts()


def wait_for_greeting(page) -> None:
    """The widget sends /greet when it connects; wait for the greeting's last paragraph."""
    page.wait_for_function(
        """() => [...document.querySelectorAll('.rw-response .rw-message-text')]
                 .some(m => m.innerText.includes('or say “help”'))""",
        timeout=TIMEOUT_MS,
    )


def send(page, text: str, expect: str) -> str:
    """Type a message, wait for a bot message containing `expect`; the bot's new messages so far.

    (Rasa's socketio channel sends each paragraph of a reply as a message of its own.)"""
    before = len(bot_messages(page))
    field = page.locator(".rw-new-message")
    field.fill(text)
    field.press("Enter")
    page.wait_for_function(
        """([before, expect]) => {
            const messages = [...document.querySelectorAll('.rw-response .rw-message-text')];
            return messages.slice(before).some(m => m.innerText.includes(expect));
        }""",
        arg=[before, expect], timeout=TIMEOUT_MS,
    )
    return "\n".join(bot_messages(page)[before:])


def test_choose_a_policy_ask_and_see_a_quoted_answer(page, stack):
    wait_for_greeting(page)
    assert "privacy policies" in bot_messages(page)[0]
    send(page, "amazon", "now answering from amazon.com")
    answer = send(page, "Do they use cookies?", "§")
    assert "amazon.com says" in answer or "Answer (amazon.com)" in answer
    assert "“" in answer and "cookies" in answer.lower() and "sentence" in answer
    assert page.locator(".rw-response blockquote").count() >= 1  # the quote renders as a quote
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "webchat-answer.png"), full_page=True)
    assert page.outside_requests == []  # type: ignore[attr-defined]
    assert page.errors == []  # type: ignore[attr-defined]


def confirmed_session(page, action) -> str:
    """The session id the server confirms to the widget (which logs it) while `action` runs."""
    with page.expect_console_message(lambda m: m.text.startswith("session_confirm:"), timeout=TIMEOUT_MS) as message:
        action()
    return message.value.text.rsplit("session_id:", 1)[1].strip()


def test_a_reload_keeps_the_conversation_under_the_server_issued_id(browser, stack):
    """The widget asks for no id on a fresh tab, gets a signed one, and gets it back after a reload."""
    context = browser.new_context()
    try:
        page = context.new_page()
        session_id = confirmed_session(page, lambda: page.goto(stack.page_url))
        assert re.fullmatch(r"[0-9a-f]{32}\.[0-9a-f]{32}", session_id)
        wait_for_greeting(page)
        send(page, "amazon", "now answering from amazon.com")
        send(page, "Can I delete my account?", "§")
        assert confirmed_session(page, page.reload) == session_id
        why = send(page, "why?", "passage")
        assert "Can I delete my account?" in why and "“" in why
    finally:
        context.close()


def test_script_in_a_policy_sentence_shows_as_text(page, stack):
    wait_for_greeting(page)
    send(page, MARKUP_POLICY, f"now answering from {MARKUP_POLICY}")
    first = send(page, "Do they collect my email address?", "§")
    assert '<script>window.__injected = "script"</script>' in first
    send(page, "Do they collect my postal address?", "§")
    send(page, "Do they use cookies?", "§")
    send(page, "Who do they share my purchase history with?", "§")
    shown = "\n".join(bot_messages(page))
    assert """<img src="x" onerror="window.__injected = 'img'">""" in shown
    assert "<b>to remember</b>" in shown
    assert "**payment**" in shown and "[our page](javascript:window.__injected='link')" in shown

    conversation = page.locator(".rw-messages-container")
    assert conversation.locator("script, img, b, a[href^='javascript'], a[href*='__injected']").count() == 0
    assert page.evaluate("window.__injected") is None
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "webchat-escaping.png"), full_page=True)
    assert page.outside_requests == []  # type: ignore[attr-defined]


def test_add_a_policy_by_url_on_the_page_then_ask_about_it(page, stack):
    """The "Add a policy" form, driven by keyboard: the web server fetches the page from a local server,
    the status says what was added, the chat switches to it, and answers quote it."""
    wait_for_greeting(page)
    try:
        with policy_server() as pages:
            pages.pages["/steam/privacy"] = ("text/html; charset=utf-8",
                                             (EXAMPLES / "steampowered.com.html").read_bytes())
            before = len(bot_messages(page))
            page.focus("#add-url")
            page.keyboard.type(pages.url("/steam/privacy"))
            page.keyboard.press("Tab")  # the file picker
            page.keyboard.press("Tab")
            page.keyboard.type("steam")
            page.keyboard.press("Tab")
            assert page.evaluate("document.activeElement.id") == "add-button"
            page.keyboard.press("Enter")
            page.wait_for_function("() => document.querySelector('#add-status').textContent.startsWith('Adding…')",
                                   timeout=TIMEOUT_MS)
            page.wait_for_function("() => document.querySelector('#add-status').textContent.startsWith('Added')",
                                   timeout=TIMEOUT_MS)
        status = page.locator("#add-status").inner_text()
        assert re.fullmatch(r"Added steam \(\d+ sentences\)\.", status), status
        assert page.locator("#add-status").get_attribute("aria-live") == "polite"
        page.wait_for_function(
            """([before]) => [...document.querySelectorAll('.rw-response .rw-message-text')]
                             .slice(before).some(m => m.innerText.includes('now answering from steam'))""",
            arg=[before], timeout=TIMEOUT_MS,
        )
        answer = send(page, "Do they use cookies?", "§")
        assert "steam says" in answer or "Answer (steam)" in answer
        assert "“" in answer and "cookie" in answer.lower()
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "webchat-add-policy.png"), full_page=True)
        assert page.outside_requests == []  # type: ignore[attr-defined]
        assert page.errors == []  # type: ignore[attr-defined]
    finally:
        remove_policy(stack.home, "steam")  # the stack is shared: its other tests list the policies


def remove_policy(home: Path, name: str) -> None:
    from assistant.store.database import Store

    store = Store(home)
    try:
        if name in store.policy_names():
            store.remove(name)
    finally:
        store.close()
