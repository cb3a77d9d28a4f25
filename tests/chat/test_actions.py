"""The custom actions: formatting units, and the real action server called over HTTP (Rasa's action
protocol) with real ingested policies."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest
import yaml

from actions import formatting
from tests.support.chat_stack import CORPUS_DATE, MARKUP_POLICY, POLICIES, post_json, shared_stack
from tests.support.paths import ROOT

DOMAIN = yaml.safe_load((ROOT / "domain.yml").read_text())
REASONS = ("policy_silent", "incomprehensible", "out_of_scope", "beyond_policy", "vague")


@pytest.fixture(scope="session")
def stack(request, tmp_path_factory, embedder, retriever, policyie):
    return shared_stack(request, tmp_path_factory, embedder, retriever, policyie)


def run_action(stack, action: str, text: str, intent: str, *, slots: dict | None = None,
               entities: list | None = None, channel: str = "rest", sender: str = "tester") -> dict:
    """Call the action server the way the Rasa server does."""
    entities = entities or []
    parse = {"text": text, "intent": {"name": intent, "confidence": 0.99}, "entities": entities}
    tracker = {
        "sender_id": sender,
        "slots": {"policy": None, "last_answer": None, "pending_question": None, **(slots or {})},
        "latest_message": parse,
        "events": [{"event": "user", "text": text, "parse_data": parse, "input_channel": channel}],
        "paused": False, "followup_action": None, "active_loop": {}, "latest_action_name": "action_listen",
        "latest_input_channel": channel,
    }
    body = {"next_action": action, "sender_id": sender, "tracker": tracker, "domain": DOMAIN, "version": "3.6.21"}
    return post_json(f"{stack.actions_url}/webhook", body)


def texts(result: dict) -> str:
    return "\n".join(message.get("text") or "" for message in result["responses"])


def slots_set(result: dict) -> dict:
    return {event["name"]: event["value"] for event in result["events"] if event["event"] == "slot"}


def entity(value: str) -> list[dict]:
    return [{"entity": "policy_name", "value": value, "start": 0, "end": len(value)}]


# -- formatting (no server) ----------------------------------------------------------------------

def answer_dict(**overrides) -> dict:
    base = {
        "question": "Do they sell my data?", "policy": "amazon.com", "version": 1, "answerable": True,
        "reason": None, "answer": "We do not sell it.", "confidence": 0.9,
        "evidence": [
            {"sentence_id": 40, "section": "Sharing > Sale", "text": "We do not sell it.", "score": 0.9},
            {"sentence_id": 41, "section": "Sharing", "text": "We share it with carriers.", "score": 0.2},
        ],
    }
    return {**base, **overrides}


@pytest.mark.parametrize("reason", REASONS)
def test_every_engine_reason_is_put_in_plain_words(reason):
    from actions.formatting import Style, format_answer
    from assistant.foundation.reasons import explain_reason

    text = format_answer(answer_dict(answerable=False, reason=reason, answer=None), ["Cookies", "Sharing"], Style(False))
    assert explain_reason(reason) in text
    assert "_" not in text.replace("__", "")  # no code name (policy_silent, out_of_scope...) reaches the user
    assert "Cookies" in text and "Sharing" in text


def test_answer_format_short_answer_then_quoted_evidence_with_citation():
    from actions.formatting import Style, format_answer

    text = format_answer(answer_dict(answer="No."), [], Style(False))
    lines = text.splitlines()
    assert lines[0] == "Answer (amazon.com): No."
    assert "“We do not sell it.”" in lines[1]
    assert "§ Sharing › Sale, sentence 40" in lines[2]
    assert "all 2 passages" in text


def test_markdown_style_makes_policy_text_literal():
    from actions.formatting import Style

    style = Style(markdown=True)
    escaped = style.text('<script>alert("x")</script> **b** [l](javascript:x) ![i](http://h/p.png) & 1. #')
    for raw in "<>*[]()!&#`_\\":
        assert raw not in escaped.replace("&#", "")  # only numeric character references remain
    assert "&#60;script&#62;" in escaped
    assert Style(markdown=False).text("a\x1b[31mred\x00") == "a [31mred"  # no terminal control characters


def test_policy_names_tolerate_case_and_near_misses():
    from actions.policy_names import resolve

    names = ["amazon.com", "instagram.com", "steampowered.com"]
    for typed in ("amazon", "Amazon.com", "AMAZON.COM", "amazn", "the amazon policy", "www.amazon.com"):
        assert resolve(typed, names) == ["amazon.com"], typed
    assert resolve("steam", names) == ["steampowered.com"]
    assert resolve("instagrm", names) == ["instagram.com"]
    assert resolve("netflix", names) == []
    assert resolve("", names) == []


def test_a_policy_named_with_a_question_is_told_apart_from_a_choice():
    from actions.policy_names import mentioned, question_beyond_name

    for text, typed in (("has amazon been hacked?", "amazon"), ("does amazon sell my data?", "amazon")):
        assert question_beyond_name(text, typed), text
    for text, typed in (("switch to amazon please", "amazon"), ("how about instagram?", "instagram"),
                        ("what about the steam policy?", "steam"), ("use the markup-test policy", "markup-test")):
        assert not question_beyond_name(text, typed), text
    names = ["amazon.com", "instagram.com", "markup-test"]
    assert mentioned("compare amazon and instagram on sharing", names) == ["amazon.com", "instagram.com"]
    assert mentioned("compare Instagram.com with the markup-test policy", names) == ["instagram.com", "markup-test"]
    assert mentioned("compare them", names) == []


def test_follow_up_and_switch_notes():
    from actions.formatting import Style, format_followup, format_switched
    from assistant.understanding.followups import resolve_followup

    plain, web = Style(False), Style(True)
    followup = resolve_followup("Do they share my purchase history with third parties?", "and how long do they keep it?")
    assert format_followup(followup, plain) == "Taking “it” as your purchase history:"
    replaced = resolve_followup("Do they sell my data?", "what about advertisers?")
    assert format_followup(replaced, plain) == "Taking that as “Do they sell my data to advertisers?”:"
    assert "your data&#38;co" in format_followup(resolve_followup("Do they sell my data&co?", "is it kept?"), web)
    assert format_switched("amazon.com", plain) == "Now answering from amazon.com."


def test_comparison_diff_and_across_formats_quote_the_policies():
    from actions.formatting import Style, format_across, format_comparison, format_diff

    plain = Style(False)
    cell = {"policy": "a.com", "version": 1, "verdict": "no", "headline": "No", "sentence_id": 4, "quote": "We never sell."}
    other = {**cell, "policy": "b.com", "verdict": "yes", "sentence_id": 9, "quote": "We sell <your> data."}
    comparison = {"policies": [{"name": "a.com", "version": 1}, {"name": "b.com", "version": 2}],
                  "facets": [{"facet": "sale", "question": "Do they sell my personal information?", "differs": True,
                              "cells": [cell, other]}]}
    text = format_comparison(comparison, True, plain)
    assert text.splitlines()[:5] == ["a.com and b.com: Do they sell my personal information?",
                                     "a.com: No (sentence 4)", "  “We never sell.”", "b.com: Yes (sentence 9)",
                                     "  “We sell <your> data.”"]
    summary = format_comparison(comparison, False, plain)
    assert "differ on 1 of 1 questions" in summary and "a.com: No (sentence 4); b.com: Yes (sentence 9)" in summary
    assert "&#60;your&#62;" in format_comparison(comparison, True, Style(True))

    diff = {"policy": "a.com", "from_version": 1, "to_version": 2, "unchanged": 10,
            "counts": {"added": 1, "removed": 0, "reworded": 1, "material": 2, "editorial": 0},
            "facet_changes": [{"facet": "sale", "question": "Do they sell your personal information?",
                               "after": "yes", "after_sentence": 9, "before": "not_stated", "before_sentence": None,
                               "statement": "sale: now yes (sentence 9); before: not stated"}],
            "issues": [{"issue": "Third Party Sharing/Collection", "changes": [
                {"kind": "added", "issue": "Third Party Sharing/Collection", "material": True, "after": "We sell it.",
                 "after_id": 9, "before": None, "before_id": None},
                {"kind": "reworded", "issue": "Third Party Sharing/Collection", "material": True,
                 "before": "We share it.", "before_id": 3, "after": "We share it widely.", "after_id": 3}]}]}
    text = format_diff(diff, plain)
    assert text.startswith("a.com, version 1 → 2: 1 sentence added, 0 removed, 1 reworded (10 unchanged).")
    # issue 39: the question in plain words, not the facet's name; the topic in words, not OPP-115's category
    assert "“Do they sell your personal information?” now Yes (sentence 9); before: Not stated" in text
    assert "sale:" not in text and "Third Party" not in text and "Added (sharing with other companies):" in text
    assert "“We sell it.” — sentence 9" in text and "before: “We share it.”" in text

    across = {"question": "Do they sell my data?", "answers": [
        {"policy": "a.com", "verdict": "no", "answerable": True, "sentence_id": 4, "quote": "We never sell.",
         "reason": None},
        {"policy": "b.com", "verdict": None, "answerable": False, "sentence_id": None, "quote": None,
         "reason": "policy_silent"}]}
    text = format_across(across, plain)
    assert text.splitlines()[:3] == ["“Do they sell my data?” across 2 policies:", "a.com: No (sentence 4)",
                                     "  “We never sell.”"]
    assert text.splitlines()[3].startswith("b.com: No answer: ")


def test_topics_are_distinct_section_headings():
    from actions.formatting import topics_from_sections

    sections = ["Privacy", "Privacy > Information We Collect", "1. INFORMATION WE COLLECT", "Cookies"]
    assert topics_from_sections(sections) == ["Privacy", "Information We Collect", "Cookies"]


# -- the action server over HTTP -----------------------------------------------------------------

@pytest.mark.e2e
def test_the_server_serves_every_action_of_the_domain(stack):
    with urllib.request.urlopen(f"{stack.actions_url}/actions", timeout=30) as response:
        served = {item["name"] for item in json.load(response)}
    assert served == set(DOMAIN["actions"])


@pytest.mark.e2e
def test_answer_quotes_and_cites_the_chosen_policy(stack):
    result = run_action(stack, "action_answer_question", "Do they use cookies?", "ask_question",
                        slots={"policy": "amazon.com"})
    slots = slots_set(result)
    assert slots["policy"] == "amazon.com"
    answer = json.loads(slots["last_answer"])
    assert answer["answerable"] and answer["policy"] == "amazon.com"
    best = answer["evidence"][0]
    text = texts(result)
    assert f"“{best['text']}”" in text  # the stored sentence, verbatim
    assert f"sentence {best['sentence_id']}" in text and "§ " in text
    assert "cookie" in best["text"].lower()


def corpus_sentences(stack) -> set[str]:
    from assistant.corpus.tables import read_table

    return set(read_table(stack.corpus, "sentences", columns=["text"]).column("text").to_pylist())


def test_a_service_only_the_corpus_holds_is_answered_from_it_without_an_ingest(stack):
    result = run_action(stack, "action_answer_question", "Does Steam use cookies to track me?", "ask_question",
                        slots={"policy": "amazon.com"})
    text = texts(result)
    assert f"Steam's policy of {CORPUS_DATE} (from the corpus):" in text
    quotes = [line.strip().strip("“”") for line in text.splitlines() if line.strip().startswith("“")]
    assert quotes and set(quotes) <= corpus_sentences(stack)  # every quote verbatim from the corpus
    assert "policy" not in slots_set(result)  # the conversation's chosen policy stays amazon.com
    listed = texts(run_action(stack, "action_list_policies", "which policies do you have?", "list_policies"))
    assert "Steam" not in listed  # nothing was ingested into the store
    typed_alone = texts(run_action(stack, "action_choose_policy", "steam", "choose_policy", entities=entity("steam")))
    assert "Steam" in typed_alone and "Ask me a question about it" in typed_alone


def test_a_stored_policy_named_in_the_question_is_answered_from_the_store_not_the_corpus(stack):
    result = run_action(stack, "action_answer_question", "Does instagram.com sell my data?", "ask_question",
                        entities=entity("instagram.com"))
    assert "(from the corpus)" not in texts(result) and slots_set(result)["policy"] == "instagram.com"
    untagged = run_action(stack, "action_answer_question", "Does instagram.com sell my data?", "ask_question",
                          slots={"policy": "amazon.com"})  # named in the words only, no entity
    assert "(from the corpus)" not in texts(untagged)


def test_which_of_them_is_asked_across_the_corpus(stack):
    result = run_action(stack, "action_ask_across", "which of them sell my data?", "ask_across")
    stored, corpus = (message["text"] for message in result["responses"])  # the person's policies, then the corpus's
    assert "amazon.com: " in stored and "(from the corpus)" not in stored
    text = corpus
    assert "Steam's policy" in text and "Instagram's policy" in text and "amazon.com" not in text
    quotes = [line.strip().strip("“”") for line in text.splitlines() if line.strip().startswith("“")]
    assert quotes and set(quotes) <= corpus_sentences(stack)


def test_a_corpus_answer_across_many_services_counts_each_verdict_and_names_them():
    answers = [{"service": f"Service {i}", "date": None, "verdict": "no" if i < 7 else "yes", "headline": "",
                "quote": None, "sentence_id": None, "also": []} for i in range(10)]
    summary = [{"verdict": "yes", "policies": 3, "share": 0.3, "low": 0.11, "high": 0.6},
               {"verdict": "no", "policies": 7, "share": 0.7, "low": 0.4, "high": 0.89}]
    text = formatting.format_corpus({"question": "which sell <b>data</b>?", "facet": "sale", "summary": summary,
                                     "asked": "Do they sell my personal information?", "answers": answers,
                                     "passages": []}, formatting.Style(markdown=True))
    assert "across the corpus's 10 policies" in text and "&#60;b&#62;" in text  # the question is escaped
    assert "**Yes**: 3 (30%, 95 % interval 11%–60%): Service 7, Service 8, Service 9" in text
    assert "**No**: 7 (70%, 95 % interval 40%–89%): Service 0, " in text and "Service 6 and" not in text


@pytest.mark.e2e
def test_question_without_a_chosen_policy_asks_which_and_answers_after_the_choice(stack):
    result = run_action(stack, "action_answer_question", "Do they sell my data?", "ask_question")
    assert "Which policy" in texts(result)
    assert {b["title"] for b in result["responses"][0]["buttons"]} == {*POLICIES, MARKUP_POLICY}
    assert slots_set(result) == {"pending_question": "Do they sell my data?"}

    chosen = run_action(stack, "action_choose_policy", "amazn", "choose_policy", entities=entity("amazn"),
                        slots={"pending_question": "Do they sell my data?"})
    slots = slots_set(chosen)
    assert slots["policy"] == "amazon.com" and slots["pending_question"] is None
    assert json.loads(slots["last_answer"])["question"] == "Do they sell my data?"
    assert "now answering from amazon.com" in texts(chosen)
    assert len(chosen["responses"]) == 2  # the confirmation, then the answer


@pytest.mark.e2e
@pytest.mark.parametrize("typed", ["Amazon.com", "AMAZON", "the amazon one", "amazom"])
def test_choosing_a_policy_tolerates_case_and_near_misses(stack, typed):
    result = run_action(stack, "action_choose_policy", typed, "choose_policy")
    assert slots_set(result)["policy"] == "amazon.com"


@pytest.mark.e2e
def test_choosing_a_policy_that_does_not_exist_lists_the_loaded_ones(stack):
    result = run_action(stack, "action_choose_policy", "use netflix", "choose_policy", entities=entity("netflix"),
                        slots={"policy": "amazon.com"})
    text = texts(result)
    assert "don't have a policy called “netflix”" in text
    assert all(name in text for name in POLICIES)
    assert slots_set(result) == {}  # the conversation keeps its policy


@pytest.mark.e2e
def test_why_shows_every_evidence_passage_of_the_last_answer(stack):
    first = run_action(stack, "action_answer_question", "What information do they collect?", "ask_question",
                       slots={"policy": "amazon.com"})
    last = slots_set(first)["last_answer"]
    result = run_action(stack, "action_show_evidence", "why?", "why", slots={"policy": "amazon.com", "last_answer": last})
    text = texts(result)
    positions = []
    for item in json.loads(last)["evidence"]:
        assert item["text"] in text and f"sentence {item['sentence_id']}" in text
        positions.append(text.index(item["text"]))
    assert positions == sorted(positions)  # in the answer's order, its quote first
    assert "relevance" not in text  # issue 39: raw scores, in an order that contradicted them
    nothing = run_action(stack, "action_show_evidence", "why?", "why")
    assert "Ask me a question" in texts(nothing)


@pytest.mark.e2e
def test_unanswerable_question_gives_the_reason_and_the_policy_topics(stack):
    result = run_action(stack, "action_answer_question", "What is the boiling point of water at sea level?",
                        "ask_question", slots={"policy": "amazon.com"})
    from assistant.foundation.reasons import explain_reason

    text = texts(result)
    reason = json.loads(slots_set(result)["last_answer"])["reason"]
    assert reason in REASONS  # out_of_scope from the question classifier, or policy_silent
    assert explain_reason(reason) in text
    assert "What amazon.com does cover:" in text
    assert "What About Cookies?" in text  # a section heading of the stored policy


@pytest.mark.e2e
def test_summarize_shows_the_privacy_label_quoting_the_policy(stack):
    import re

    from assistant.store.database import Store

    result = run_action(stack, "action_summarize", "summarize", "summarize", slots={"policy": "instagram.com"})
    text = texts(result)
    assert "Privacy label of instagram.com" in text
    for section in ("Data collected:", "Shared with:", "Purposes:", "Retention periods:", "User choices:"):
        assert section in text
    store = Store(stack.home)
    policy = store.policy_text(store.get_version("instagram.com").id)
    examples = re.findall(r"“([^”]+)”", text)
    assert examples and all(example in policy for example in examples)


@pytest.mark.e2e
def test_web_channel_gets_policy_markup_as_literal_text(stack):
    result = run_action(stack, "action_answer_question", "Do they collect my email address?", "ask_question",
                        slots={"policy": MARKUP_POLICY}, channel="socketio")
    card = result["responses"][0]["custom"]  # the web page's answer card (actions/formatting.answer_card)
    assert card["type"] == "answer" and card["policy"] == MARKUP_POLICY and card["evidence"]
    assert "&#60;script&#62;" in card["text"] and "<script" not in card["text"]  # its Markdown text: escaped
    quoted = card["evidence"][0]["text"]  # its plain text: as stored (the page shows it with textContent)
    assert '<script>window.__injected = "script"</script>' in quoted
    assert card["evidence"][0]["citation"].endswith(f"sentence {card['evidence'][0]['sentence_id']}")
    plain = run_action(stack, "action_answer_question", "Do they collect my email address?", "ask_question",
                       slots={"policy": MARKUP_POLICY}, channel="cmdline")
    assert '<script>window.__injected = "script"</script>' in texts(plain)  # the terminal shows it as stored


@pytest.mark.e2e
@pytest.mark.parametrize("text, expected", [
    ("", "Your message was empty"),
    ("   ", "Your message was empty"),
    ("😀🔥👍", "I can only read words"),
    ("Do they sell my data? " * 230, "characters long"),
])
def test_bad_input_gets_a_helpful_reply_whatever_the_intent(stack, text, expected):
    for action, intent in (("action_answer_question", "ask_question"), ("action_goodbye", "goodbye"),
                           ("action_greet", "greet")):
        result = run_action(stack, action, text, intent, slots={"policy": "amazon.com"})
        assert expected in texts(result), (action, texts(result))


@pytest.mark.e2e
def test_concurrent_conversations_get_their_own_policy(stack):
    def ask(index: int) -> tuple[str, dict]:
        policy = POLICIES[index % 2]
        result = run_action(stack, "action_answer_question", "Do they share my information?", "ask_question",
                            slots={"policy": policy}, sender=f"user-{index}")
        return policy, json.loads(slots_set(result)["last_answer"])

    with ThreadPoolExecutor(6) as pool:
        for policy, answer in pool.map(ask, range(6)):
            assert answer["policy"] == policy


@pytest.mark.e2e
def test_models_load_once_per_action_server_process(stack):
    for question in ("Do they use cookies?", "Can I delete my account?", "Do they sell my data?"):
        run_action(stack, "action_answer_question", question, "ask_question", slots={"policy": "amazon.com"})
    log = stack.log("actions")
    assert log.count("Assistant engine loaded") == 1
    for model in ("embedder", "retriever", "reader"):  # each model of the answer path, once
        assert log.count(f"Loading model {model} ") == 1, model


def test_the_action_server_refuses_to_start_on_a_folder_that_is_not_a_corpus(tmp_path):
    """A mistyped ASSISTANT_CORPUS stops the start with one line, instead of an error on every question."""
    (tmp_path / "notes.txt").write_text("not a corpus", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "actions.server", "--port", "0", "--no-warm-up"], cwd=ROOT,
                          env={**os.environ, "ASSISTANT_CORPUS": str(tmp_path)}, capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 1
    assert done.stderr.strip().splitlines()[-1] == (
        f"ASSISTANT_CORPUS: {tmp_path}: no corpus tables here (run `assistant corpus ingest … --out {tmp_path}`).")
    assert (tmp_path / "notes.txt").read_text(encoding="utf-8") == "not a corpus"  # nothing written or removed
