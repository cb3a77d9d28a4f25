"""Statements and the privacy label built from PolicyIE facts (hand-made facts, no model)."""
from __future__ import annotations

from assistant.answering.label import build_label, informative, statement
from assistant.foundation.types import Facts, Sentence, Slot


def slot(sentence: str, label: str, text: str) -> Slot:
    start = sentence.index(text)
    return Slot(label, text, start, start + len(text))


SHARE = "We do not share your email address with advertisers for marketing unless you opt in."
KEEP = "We keep your order history for five years."
OTHER = "Welcome to our site."


def facts_of(text: str) -> Facts:
    if text == SHARE:
        return Facts("data-sharing-disclosure", (
            slot(text, "data-sharer.first-party-entity", "We"),
            slot(text, "polarity.negation", "not"),
            slot(text, "data-shared.data-contact", "email address"),
            slot(text, "data-receiver.third-party-entity", "advertisers"),
            slot(text, "purpose-argument.advertising-marketing", "marketing"),
            slot(text, "condition-argument.condition", "unless you opt in"),
        ))
    if text == KEEP:
        return Facts("data-storage-retention-deletion", (
            slot(text, "data-holder.first-party-entity", "We"),
            slot(text, "data-retained.data-user-online-activities-profiles", "order history"),
            slot(text, "retention-period.retention-period", "five years"),
            slot(text, "data-retained.data-general", "your"),  # uninformative: never shown
        ))
    return Facts("Other")


def test_statement_quotes_slots_and_turns_negation_into_does_not():
    said = statement(facts_of(SHARE))
    assert said == ("“We” does not share contact data (“email address”) with “advertisers” for advertising "
                    "marketing — condition: “unless you opt in”.")
    assert statement(facts_of(OTHER)) is None


def test_uninformative_slots_are_not_shown():
    assert not informative(Slot("x", "your", 0, 4)) and not informative(Slot("x", ", and", 0, 5))
    assert informative(Slot("x", "e-mail", 0, 6))
    assert statement(facts_of(KEEP)) == (
        "“We” keeps user online activities profiles data (“order history”) for “five years”.")


def test_label_cells_link_to_their_sentences():
    sentences = [
        Sentence(i, text, 0, len(text), "", categories=("User Choice/Control",) if i == 1 else (),
                 facts=facts_of(text))
        for i, text in enumerate((SHARE, KEEP, OTHER), start=1)
    ]
    label = build_label("example", 2, sentences).to_dict()
    sections = {s["title"]: s["rows"] for s in label["sections"]}
    assert sections["Data shared"] == [
        {"item": "contact", "examples": ["email address"], "sentences": [1], "negated": True}]
    assert sections["Shared with"][0]["item"] == "advertisers"
    assert sections["Retention periods"] == [
        {"item": "five years", "examples": ["five years"], "sentences": [2], "negated": False}]
    assert [r["item"] for r in sections["Data retained"]] == ["user online activities profiles"]
    assert sections["Data collected"] == [] and sections["Security measures"] == []
    assert sections["User choices"][0]["sentences"] == [1]
    assert label["sentences_read"] == 3
