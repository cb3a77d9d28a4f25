"""The privacy label: each facet at a glance with its sentence, and the cells built from PolicyIE facts (hand-made
facts, and the real model), each linked to its sentences and keeping a denial a denial."""
from __future__ import annotations

from assistant.answering.label import build_label
from assistant.foundation.types import Facts, Sentence
from assistant.understanding.statements import statement
from tests.support.facts import KEEP, OTHER, SELL, SHARE, facts_of, slot


def test_the_label_shows_each_facet_at_a_glance_with_its_sentence(amazon):
    from assistant.understanding.facets import GLANCE_QUESTIONS

    label = amazon.label("amazon")
    rows = {row.facet: row for row in label.glance}
    assert list(rows) == list(GLANCE_QUESTIONS)
    assert rows["sale"].verdict == "no" and "not in the business of selling" in rows["sale"].quote
    assert (rows["deletion"].verdict, rows["deletion"].sentence_id, rows["deletion"].quote) == ("not_stated", None, None)
    assert rows["cookies_tracking"].verdict == "yes"
    stored = {s.ordinal: s.text for s in amazon.store.sentences(amazon.version("amazon").id)}
    for row in label.glance:  # every quote is the stored sentence it cites
        assert row.quote is None or stored[row.sentence_id] == row.quote
    assert label.to_dict()["glance"][0]["facet"] == "sale"


def test_label_cells_link_to_their_sentences():
    sentences = [
        Sentence(i, text, 0, len(text), "", categories=("User Choice/Control",) if i == 1 else (),
                 facts=facts_of(text))
        for i, text in enumerate((SHARE, KEEP, OTHER), start=1)
    ]
    label = build_label("example", 2, sentences).to_dict()
    sections = {s["title"]: s["rows"] for s in label["sections"]}
    assert sections["Data shared"] == [
        {"item": "contact details", "examples": ["email address"], "sentences": [1], "negated": True,
         "negated_sentences": [1]}]
    assert sections["Shared with"][0]["item"] == "advertisers"
    assert sections["Retention periods"] == [
        {"item": "five years", "examples": ["five years"], "sentences": [2], "negated": False,
         "negated_sentences": []}]
    assert [r["item"] for r in sections["Data retained"]] == ["online activity"]
    assert sections["Data collected"] == [] and sections["Security measures"] == []
    assert sections["User choices"][0]["sentences"] == [1]
    assert label["sentences_read"] == 3


def test_label_never_lists_a_denied_receiver_as_plain_sharing(policyie):
    texts = [SELL, "We share your email address with advertisers."]
    sentences = [Sentence(i, t, 0, len(t), "", facts=f)
                 for i, (t, f) in enumerate(zip(texts, policyie.facts(texts)), start=1)]
    label = build_label("example", 1, sentences)
    rows = [row for section in label.sections for row in section.rows]
    from_denial = [row for row in rows if 1 in row.sentences]
    assert from_denial, "the model read no slot of the denial"
    assert all(row.negated and 1 in row.negated_sentences for row in from_denial)
    assert all(row.only_negated for row in rows if row.sentences == [1])
    assert not any(row.negated for row in rows if row.sentences == [2])
    for row in label.to_dict()["sections"][0]["rows"]:
        assert {"item", "examples", "sentences", "negated"} <= set(row)  # the JSON keys stay


def test_label_marks_a_denial_the_model_missed():
    text = "We don't sell your email address to data brokers."
    facts = Facts("data-sharing-disclosure", (  # no polarity slot: the model missed the negation
        slot(text, "data-sharer.first-party-entity", "We"),
        slot(text, "data-shared.data-contact", "email address"),
        slot(text, "data-receiver.third-party-entity", "data brokers"),
    ))
    assert statement(facts, text) == "“We” does not share contact details (“email address”) with “data brokers”."
    label = build_label("example", 1, [Sentence(1, text, 0, len(text), "", facts=facts)])
    (brokers,) = next(s.rows for s in label.sections if s.title == "Shared with")
    assert brokers.item == "data brokers" and brokers.negated and brokers.only_negated


def test_a_denial_of_other_purposes_denies_those_purposes_only():
    # Amazon: "… but may not use it for other purposes" read as "does not collect personal information", and the
    # label's data row said "also stated as not done"
    text = "They have access to personal information needed to perform their functions, but may not use it for other purposes."
    facts = Facts("data-collection-usage", (
        slot(text, "data-collected.data-general", "personal information"),
        slot(text, "purpose-argument.basic-service-feature", "perform their functions"),
        slot(text, "polarity.negation", "not"),
        slot(text, "purpose-argument.other", "other purposes"),
    ))
    assert statement(facts, text) == ("The policy collects “personal information” for providing the service but not for "
                                      "other purposes.")
    label = build_label("example", 1, [Sentence(1, text, 0, len(text), "", facts=facts)])
    rows = {(s.title, cell.item): cell for s in label.sections for cell in s.rows}
    assert not rows["Data collected", "personal information in general"].negated
    assert not rows["Purposes", "providing the service"].negated
    assert rows["Purposes", "other purposes"].only_negated
