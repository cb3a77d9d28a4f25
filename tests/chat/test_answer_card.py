"""The web page's answer card (actions/formatting.answer_card): what the page draws from an answer."""
from __future__ import annotations

from actions.formatting import Style, answer_card, chosen_card, format_answer
from assistant.foundation.reasons import explain_reason

HOSTILE = 'We sell <b>nothing</b> **ever** \x07[x](javascript:alert(1)).'


def answer(**changes) -> dict:
    base = {
        "question": "Do they sell my data?", "policy": "acme", "version": 2, "answerable": True, "reason": None,
        "answer": HOSTILE, "confidence": 0.9, "verdict": "no",
        "headline": "No — acme says it does not sell your personal information (sentence 7).",
        "span": {"sentence_id": 7, "start": 3, "end": 7, "text": "sell"},
        "evidence": [
            {"sentence_id": 7, "section": "Sharing > Sale", "text": HOSTILE, "score": 0.8, "page": None},
            {"sentence_id": 9, "section": "", "text": "We never rent data.", "score": 0.5, "page": 3},
        ],
        "facts": [], "facet": "sale", "question_type": "yes_no",
    }
    return base | changes


def test_a_yes_no_answer_is_the_engines_headline_the_quote_and_more_evidence():
    data = answer()
    card = answer_card(data, [], format_answer(data, [], Style(markdown=True)))
    assert card["type"] == "answer" and card["policy"] == "acme" and card["version"] == 2
    assert card["headline"] == data["headline"] and card["verdict"] == "no" and card["related"] is False
    first, second = card["evidence"]
    assert first["text"] == "We sell <b>nothing</b> **ever** [x](javascript:alert(1))."  # plain: control char out
    assert first["citation"] == "§ Sharing › Sale, sentence 7" and first["sentence_id"] == 7
    assert second["citation"] == "§ (top of policy), sentence 9, p. 3" and second["page"] == 3
    assert card["span"] is None  # the shown text lost a character: the offsets would not fit it
    assert "&#60;b&#62;" in card["text"] and "<b>" not in card["text"]  # the Markdown text stays escaped
    clean = answer(evidence=[{"sentence_id": 7, "section": "Sale", "text": "We sell nothing.", "score": 0.8}])
    assert answer_card(clean, [], "")["span"] == {"sentence_id": 7, "start": 3, "end": 7}


def test_an_unanswerable_question_says_why_with_the_topics_and_marks_the_passages_related():
    data = answer(answerable=False, reason="policy_silent", verdict=None, headline=None)
    card = answer_card(data, ["Sharing", "<i>Cookies</i>"], "")
    assert card["headline"] == f"I can't answer that from acme. {explain_reason('policy_silent')}"
    assert card["related"] is True and card["topics"] == ["Sharing", "<i>Cookies</i>"]
    not_stated = answer_card(answer(verdict="not_stated"), [], "")
    assert not_stated["headline"] == "I can't answer that from acme: it does not say."
    assert not_stated["related"] is True and not_stated["topics"] == []


def test_an_answer_without_a_verdict_shows_the_short_answer_or_what_the_policy_says():
    short = answer_card(answer(verdict=None, headline=None), [], "")
    assert short["headline"] == "Answer (acme): sell"
    whole = answer(verdict=None, headline=None, span=None, answer="We never rent data.",
                   evidence=[{"sentence_id": 9, "section": "", "text": "We never rent data.", "score": 0.5}])
    assert answer_card(whole, [], "")["headline"] == "acme says:"


def test_choosing_a_policy_tells_the_page_which():
    assert chosen_card({"name": "acme", "version": 2, "sentences": 40}, "OK") == {
        "type": "policy", "policy": "acme", "version": 2, "sentences": 40, "text": "OK"}
