"""Whole conversations through the Rasa server's REST channel: the trained model, the real action
server and real ingested policies (tests/support/chat_stack.py)."""
from __future__ import annotations

import re
import threading
import uuid

import pytest

from tests.support.chat_stack import MARKUP_POLICY, POLICIES, shared_stack

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="session")
def stack(request, tmp_path_factory, embedder, retriever, policyie):
    return shared_stack(request, tmp_path_factory, embedder, retriever, policyie)


@pytest.fixture(scope="session")
def sentences(stack):
    """Every stored sentence of each test policy, to check that quotes are verbatim."""
    from assistant.store.database import Store

    store = Store(stack.home)
    try:
        return {name: [s.text for s in store.sentences(store.get_version(name).id)] for name in (*POLICIES, MARKUP_POLICY)}
    finally:
        store.close()


class Conversation:
    def __init__(self, stack, sender: str | None = None) -> None:
        self.stack = stack
        self.sender = sender or f"test-{uuid.uuid4().hex[:8]}"

    def say(self, text: str) -> str:
        messages = self.stack.say(self.sender, text)
        assert messages, f"no reply to {text!r}"  # never a silent turn
        reply = "\n".join(m.get("text") or "" for m in messages)
        assert reply.strip(), f"an empty reply to {text!r}"
        return reply


def quoted(reply: str) -> list[str]:
    """The policy sentences quoted in a reply: the lines “...”, possibly numbered."""
    lines = [re.sub(r"^\d+\.\s*", "", line.strip()) for line in reply.splitlines()]
    return [line[1:-1] for line in lines if line.startswith("“") and line.endswith("”")]


def test_a_whole_conversation(stack, sentences):
    chat = Conversation(stack)
    greeting = chat.say("hello")
    assert "privacy policies" in greeting and "amazon.com" in greeting

    help_text = chat.say("what can you do?")
    assert "why?" in help_text and "Do they share my personal information" in help_text

    which = chat.say("Do they sell my personal information?")
    assert "Which policy" in which

    answer = chat.say("amazon")
    assert "now answering from amazon.com" in answer
    assert any(q in sentences["amazon.com"] for q in quoted(answer)), answer
    assert "§ " in answer and "sentence " in answer

    follow_up = chat.say("and how long do they keep it?")  # stays on amazon.com and on the subject
    assert follow_up.startswith("Taking “it” as your personal information:"), follow_up
    assert "amazon.com" in follow_up
    assert all(q in sentences["amazon.com"] for q in quoted(follow_up)), follow_up

    why = chat.say("show me where it says that")
    assert "How long do they keep my personal information?" in why
    assert all(q in sentences["amazon.com"] for q in quoted(why))

    summary = chat.say("summarize")
    assert "Privacy label of amazon.com" in summary and "Data collected:" in summary
    assert all(any(q in s for s in sentences["amazon.com"]) for q in quoted(summary)), summary

    collect = chat.say("what do they collect?")
    assert "amazon.com" in collect
    assert all(q in sentences["amazon.com"] for q in quoted(collect)), collect

    listing = chat.say("which policies are loaded?")
    assert "amazon.com (version 1" in listing and "← current" in listing

    switched = chat.say("switch to Instagram.com")
    assert "now answering from instagram.com" in switched

    silent = chat.say("Will my order arrive by Friday?")
    assert "I can't answer that from instagram.com" in silent and "does cover" in silent

    assert "only help with privacy policies" in chat.say("tell me a joke")
    assert "welcome" in chat.say("thank you!").lower()
    assert "Goodbye" in chat.say("bye")


def test_policy_name_in_the_question_switches_policy(stack, sentences):
    chat = Conversation(stack)
    chat.say("instagram")
    reply = chat.say("Does amazon use cookies?")
    assert any(q in sentences["amazon.com"] for q in quoted(reply)), reply


def test_a_message_that_is_just_a_policy_name_chooses_it(stack):
    chat = Conversation(stack)
    for typed, name in (("Markup-Test", MARKUP_POLICY), ("INSTAGRAM.COM", "instagram.com"), ("amazon", "amazon.com")):
        assert f"now answering from {name}" in chat.say(typed)


def test_two_users_at_once_never_see_each_other(stack, sentences):
    alice, bob = Conversation(stack, "alice"), Conversation(stack, "bob")
    replies: dict[str, list[str]] = {"alice": [], "bob": []}
    errors: list[BaseException] = []

    def talk(chat: Conversation, policy: str, questions: list[str]) -> None:
        try:
            replies[chat.sender].append(chat.say(policy))
            for question in questions:
                replies[chat.sender].append(chat.say(question))
            replies[chat.sender].append(chat.say("why?"))
        except BaseException as error:  # noqa: BLE001 (re-raised below)
            errors.append(error)

    threads = [
        threading.Thread(target=talk, args=(alice, "amazon.com", ["Do they use cookies?", "Can I delete my data?"])),
        threading.Thread(target=talk, args=(bob, "instagram", ["Who can see my photos?", "Do they share my data?"])),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
    assert not errors, errors
    for sender, policy, other, own_question, other_question in (
        ("alice", "amazon.com", "instagram.com", "Can I delete my data?", "Do they share my data?"),
        ("bob", "instagram.com", "amazon.com", "Do they share my data?", "Can I delete my data?"),
    ):
        answers = replies[sender][1:3]
        for reply in answers:
            assert any(q in sentences[policy] for q in quoted(reply)), (sender, reply)
            assert other not in reply
        why = replies[sender][3]
        assert own_question in why and other_question not in why


@pytest.mark.parametrize(("text", "expected"), [
    ("", "Your message was empty"),
    ("    ", "Your message was empty"),
    ("Do they keep my data forever? " * 170, "Your message is 5,099 characters long"),
    ("x" * 5000, "Your message is 5,000 characters long"),
    ("Welche Daten speichern sie über mich?", "I can only read English questions, sorry. This looks like German."),
    ("¿Venden mis datos personales?", "I can only read English questions, sorry. This looks like Spanish."),
    ("Est-ce qu'ils vendent mes données personnelles ?", "This looks like French."),
    ("这个网站收集我的哪些数据？", "I can only read English questions, sorry. This looks like Chinese."),
    ("😀😀😀", "I can only read words"),
    ("🍪?", "I can only read words"),
    ("switch to netflix", "don't have a policy called"),
    ("<script>alert(1)</script>", ""),
])
def test_bad_input_gets_a_helpful_reply(stack, text, expected):
    chat = Conversation(stack)
    chat.say("amazon")
    reply = chat.say(text)  # asserts a non-empty reply
    assert "went wrong" not in reply
    assert len(reply) > 30
    assert expected in reply, reply
    assert "Hi!" not in reply  # never the greeting


def test_a_follow_up_keeps_the_topic_of_the_previous_question(stack, sentences):
    chat = Conversation(stack)
    chat.say("amazon")
    first = chat.say("Do they share my purchase history with third parties?")
    assert all(q in sentences["amazon.com"] for q in quoted(first)), first
    follow_up = chat.say("and how long do they keep it?")
    assert follow_up.startswith("Taking “it” as your purchase history:"), follow_up
    assert all(q in sentences["amazon.com"] for q in quoted(follow_up)), follow_up
    assert "How long do they keep my purchase history?" in chat.say("why?")
    other = chat.say("what about my email address?")
    assert other.startswith("Taking that as “How long do they keep my email address?”"), other
    assert "Taking" not in chat.say("Do they use cookies?")  # a question of its own is asked as it is


def test_a_message_that_names_a_policy_and_asks_does_both(stack, sentences):
    chat = Conversation(stack)
    chat.say("instagram")
    reply = chat.say("has amazon been hacked?")
    assert reply.startswith("Now answering from amazon.com."), reply
    assert "amazon.com" in reply and ("says" in reply or "can't answer" in reply or "Answer" in reply), reply
    assert all(q in sentences["amazon.com"] for q in quoted(reply)), reply
    why = chat.say("why?")
    assert "has amazon been hacked?" in why and "amazon.com" in why
    follow = chat.say("Do they sell my personal information?")  # the conversation stays on amazon.com
    assert "amazon.com" in follow and "instagram.com" not in follow


def test_compare_two_policies_on_a_topic(stack, sentences):
    chat = Conversation(stack)
    reply = chat.say("compare amazon and instagram on sharing")
    assert "amazon.com and instagram.com: Do they share my personal information with other companies?" in reply, reply
    assert re.search(r"^amazon\.com: (Yes|No|Only under conditions|Not stated)", reply, re.MULTILINE), reply
    assert re.search(r"^instagram\.com: (Yes|No|Only under conditions|Not stated)", reply, re.MULTILINE), reply
    quotes = quoted(reply)
    assert quotes and all(q in sentences["amazon.com"] or q in sentences["instagram.com"] for q in quotes), reply
    everything = chat.say("compare amazon with instagram")
    assert "amazon.com and instagram.com" in everything and "questions" in everything, everything


def test_what_changed_with_one_version_and_with_two(stack, embedder, retriever, policyie, tmp_path):
    from assistant.engine import Assistant
    from assistant.foundation.settings import Settings
    from tests.support.chat_stack import MARKUP_POLICY_TEXT

    chat = Conversation(stack)
    one = chat.say("what changed in amazon's policy?")
    assert "I can't show what changed in amazon.com" in one and "only version 1" in one, one

    name = "changing-test"
    assistant = Assistant(Settings(home=stack.home), embedder=embedder, retriever=retriever, policyie=policyie)
    try:
        for version, extra in enumerate(("", "\nSale\n\nWe sell your email address to data brokers for marketing.\n")):
            source = tmp_path / f"{name}-{version}.txt"
            source.write_text(MARKUP_POLICY_TEXT + extra, encoding="utf-8")
            assistant.ingest(source, name=name, force=True)
        reply = chat.say(f"what changed in the {name} policy?")
        assert re.search(rf"{name}, version 1 → 2: \d+ sentences? added, 0 removed, 0 reworded", reply), reply
        assert "“We sell your email address to data brokers for marketing.”" in reply, reply
    finally:
        assistant.remove(name)
        assistant.store.close()


def test_which_policies_asks_every_stored_policy(stack, sentences):
    chat = Conversation(stack)
    reply = chat.say("which policies sell my data?")
    assert reply.startswith("“Do they sell my data?” across 3 policies:"), reply
    for name in sentences:
        assert re.search(rf"^{re.escape(name)}: ", reply, re.MULTILINE), (name, reply)
    assert all(any(q in policy for policy in sentences.values()) for q in quoted(reply)), reply


def test_a_service_of_the_served_corpus_is_answered_by_name_without_an_ingest(stack):
    chat = Conversation(stack)
    reply = chat.say("does steam use cookies?")
    assert "Steam's policy of" in reply and "(from the corpus)" in reply, reply
    assert "Steam" not in chat.say("which policies are loaded?")
