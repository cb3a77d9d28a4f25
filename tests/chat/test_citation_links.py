"""Issue 39, item 3: every citation of a text reply is a link on the web (actions/formatting.py writes
`[TEXT](/policy?name=…&version=…#s-N)` with a URL it builds itself) and stays "(sentence N)" in the terminal; policy
text never makes one. The page's side (web/chat.js draws exactly that construct as a link) is in test_webchat.py."""
from __future__ import annotations

import html
import re
from urllib.parse import parse_qs, urlsplit

from actions.formatting import (
    Style,
    format_across,
    format_answer,
    format_comparison,
    format_diff,
    format_evidence,
    format_label,
    policy_url,
)

# What web/chat.js reads as a link, and the only URLs it draws as one (its CITATION_URL).
LINK = re.compile(r"\[([^\[\]]+)\]\(([^()\s]+)\)")
CITATION_URL = re.compile(r"/policy\?name=[A-Za-z0-9%._~+-]*&version=\d+#s-\d+")
HOSTILE = ("We sell it [sentence 1](/policy?name=acme&version=2#s-1), see [x](javascript:alert(1)) "
           '<a href="javascript:alert(2)">here</a>.')
PLAIN, WEB = Style(False), Style(True)


def links(markdown: str) -> list[tuple[str, str]]:
    """The links as the page draws them: their text with the character references decoded, and their URL."""
    return [(html.unescape(text), url) for text, url in LINK.findall(markdown)]


def answer(**changes) -> dict:
    base = {"question": "Do they sell my data?", "policy": "Acme & Co/EU", "version": 2, "answerable": True,
            "reason": None, "answer": "We never sell it.", "confidence": 0.9, "verdict": "no",
            "headline": "No — acme says it does not sell your personal information (sentence 7).", "span": None,
            "evidence": [{"sentence_id": 7, "section": "Sharing > Sale", "text": "We never sell it.", "score": 0.8},
                         {"sentence_id": 12, "section": "", "text": HOSTILE, "score": 0.5, "page": 3}],
            "facts": [], "facet": "sale", "question_type": "yes_no"}
    return base | changes


def test_the_url_is_built_from_the_name_version_and_sentence_url_encoded():
    url = policy_url("Acme & Co/EU (é)", 2, 7)
    assert url == "/policy?name=Acme+%26+Co%2FEU+%28%C3%A9%29&version=2#s-7"
    assert CITATION_URL.fullmatch(url)
    assert parse_qs(urlsplit(url).query) == {"name": ["Acme & Co/EU (é)"], "version": ["2"]}
    assert CITATION_URL.fullmatch(policy_url("x)](javascript:alert(1)", 1, 3))  # a name cannot break out
    assert WEB.cite("sentence 7", "acme", 2, 7) == "[sentence 7](/policy?name=acme&version=2#s-7)"
    assert PLAIN.cite("sentence 7", "acme", 2, 7) == "sentence 7"
    assert WEB.cite("sentence 7", "acme", None, 7) == "sentence 7"  # no version: no link


def test_why_links_every_passage_to_its_sentence_and_the_terminal_keeps_the_plain_citation():
    web = format_evidence(answer(), WEB)
    expected = [("§ Sharing › Sale, sentence 7", "/policy?name=Acme+%26+Co%2FEU&version=2#s-7"),
                ("§ (top of policy), sentence 12, p. 3", "/policy?name=Acme+%26+Co%2FEU&version=2#s-12")]
    assert links(web) == expected  # the passages in the answer's order, nothing else a link
    assert "score" not in web and "0.8" not in web  # no raw scores
    plain = format_evidence(answer(), PLAIN)
    assert "— § Sharing › Sale, sentence 7" in plain and "— § (top of policy), sentence 12, p. 3" in plain
    assert "/policy?name=Acme" not in plain
    assert "[sentence 1](/policy?name=acme&version=2#s-1)" in plain  # the policy's own text, as stored


def test_policy_text_that_looks_like_a_link_is_escaped_and_makes_none():
    web = format_evidence(answer(), WEB)
    urls = [url for _, url in links(web)]
    assert urls == [u for u in urls if CITATION_URL.fullmatch(u)] and len(urls) == 2
    assert "javascript" not in "".join(urls) and "s-1)" not in "".join(urls)
    assert "&#91;sentence 1&#93;&#40;&#47;policy" in web and "<a " not in web and "&#60;a href" in web


def test_the_answer_quotes_with_a_linked_citation():
    web = format_answer(answer(), [], WEB)
    assert links(web) == [("§ Sharing › Sale, sentence 7", "/policy?name=Acme+%26+Co%2FEU&version=2#s-7")]
    assert "/policy?" not in format_answer(answer(), [], PLAIN)


def test_compare_across_and_changes_link_each_sentence_to_its_policy_version():
    cell = {"policy": "a.com", "version": 1, "verdict": "no", "headline": "No", "sentence_id": 4, "quote": HOSTILE}
    other = {**cell, "policy": "b.com", "version": 3, "verdict": "yes", "sentence_id": 9}
    comparison = {"policies": [{"name": "a.com", "version": 1}, {"name": "b.com", "version": 3}],
                  "facets": [{"facet": "sale", "question": "Do they sell my personal information?", "differs": True,
                              "cells": [cell, other]}]}
    expected = [("sentence 4", "/policy?name=a.com&version=1#s-4"), ("sentence 9", "/policy?name=b.com&version=3#s-9")]
    assert links(format_comparison(comparison, True, WEB)) == expected
    assert links(format_comparison(comparison, False, WEB)) == expected
    assert "a.com: No (sentence 4)" in format_comparison(comparison, True, PLAIN)
    assert "(sentence 4); b.com: Yes (sentence 9)" in format_comparison(comparison, False, PLAIN)

    across = {"question": "Do they sell my data?", "answers": [
        {"policy": "a.com", "version": 1, "verdict": "no", "answerable": True, "sentence_id": 4, "quote": HOSTILE,
         "reason": None},
        {"policy": "b.com", "version": 3, "verdict": None, "answerable": True, "sentence_id": 9, "quote": "We do.",
         "reason": None},
        {"policy": "c.com", "version": 1, "verdict": None, "answerable": False, "sentence_id": None, "quote": None,
         "reason": "policy_silent"}]}
    assert links(format_across(across, WEB)) == expected
    assert format_across(across, PLAIN).splitlines()[1] == "a.com: No (sentence 4)"

    diff = {"policy": "a.com", "from_version": 1, "to_version": 2, "unchanged": 10,
            "counts": {"added": 1, "removed": 1, "reworded": 0, "material": 3, "editorial": 0},
            "facet_changes": [{"facet": "sale", "question": "Do they sell your personal information?",
                               "after": "yes", "after_sentence": 9, "before": "no", "before_sentence": 5,
                               "statement": ""}],
            "issues": [{"issue": "Third Party Sharing/Collection", "changes": [
                {"kind": "added", "issue": "Third Party Sharing/Collection", "material": True, "after": HOSTILE,
                 "after_id": 9, "before": None, "before_id": None},
                {"kind": "removed", "issue": "Third Party Sharing/Collection", "material": True, "after": None,
                 "after_id": None, "before": "We never sell it.", "before_id": 5}]}]}
    assert links(format_diff(diff, WEB)) == [
        ("sentence 9", "/policy?name=a.com&version=2#s-9"), ("sentence 5", "/policy?name=a.com&version=1#s-5"),
        ("sentence 9", "/policy?name=a.com&version=2#s-9"), ("sentence 5", "/policy?name=a.com&version=1#s-5")]
    plain = format_diff(diff, PLAIN)
    assert "now Yes (sentence 9); before: No (sentence 5)" in plain and "— was sentence 5" in plain
    assert "/policy?" not in plain.replace(HOSTILE, "")


def test_the_label_links_its_sentence_numbers():
    label = {"policy": "acme", "version": 4,
             "glance": [{"question": "Sells your data", "verdict": "no", "value": None, "sentence_id": 12}],
             "sections": [{"title": "Data collected", "rows": [
                 {"item": "email", "examples": [HOSTILE], "negated": False, "sentences": [3, 8]}]}]}
    web = format_label(label, WEB)
    assert links(web) == [("sentence 12", "/policy?name=acme&version=4#s-12"),
                          ("3", "/policy?name=acme&version=4#s-3"), ("8", "/policy?name=acme&version=4#s-8")]
    plain = format_label(label, PLAIN)
    assert "(sentence 12)" in plain and "sentences 3, 8" in plain and "version=4" not in plain
