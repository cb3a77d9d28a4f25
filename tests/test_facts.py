"""Statements and the privacy label built from PolicyIE facts (hand-made facts, and the real model
for the denials it misses), and the word rules that read denials."""
from __future__ import annotations

import pytest

from assistant.answering.label import build_label
from assistant.foundation.types import Facts, Sentence, Slot
from assistant.understanding.stance import denies, negations_read_otherwise
from assistant.understanding.statements import denied, informative, statement


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
    said = statement(facts_of(SHARE), SHARE)
    assert said == ("“We” does not share contact details (“email address”) with “advertisers” for advertising "
                    "and marketing — condition: “unless you opt in”.")
    assert statement(facts_of(OTHER), OTHER) is None


def test_uninformative_slots_are_not_shown():
    assert not informative(Slot("x", "your", 0, 4)) and not informative(Slot("x", ", and", 0, 5))
    assert informative(Slot("x", "e-mail", 0, 6))
    assert statement(facts_of(KEEP), KEEP) == (
        "“We” keeps online activity (“order history”) for “five years”.")


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


# The sentences: the statement and the label must keep the negation.
TRACK = "We don't track your precise location."
SELL = "We do not sell your personal information to data brokers."
# Negations that deny nothing: the facts stay positive.
POSITIVE = (
    "Information about the page you visit (but not your search query) is sent to our partners.",
    "We can see which ads were shown, but not which users saw them.",
    "We may disclose your information to authorities where not strictly required by law.",
    "We share information that is not personally identifiable with our partners.",
    "We collect information, including but not limited to your name and email address.",
    "If you do not want us to use cookies, you can disable them.",
)


def test_statement_of_a_denial_says_does_not(policyie):
    for text, verb in ((TRACK, "does not collect"), (SELL, "does not share")):
        (facts,) = policyie.facts([text])
        assert verb in statement(facts, text), (text, facts)


def test_statement_of_a_false_denial_stays_positive(policyie):
    for text, facts in zip(POSITIVE, policyie.facts(list(POSITIVE))):
        said = statement(facts, text)
        assert said is None or "does not" not in said, (text, said)


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


@pytest.mark.parametrize("text", [
    TRACK, SELL,
    "We will never sell your data.",
    "We neither sell nor rent your personal information.",
    "We no longer collect your location.",
    "We will not share your information without your consent.",
    "Your contact information will not be passed to any other organization.",
    "We do not knowingly collect personal information from children under 13.",
    "No personal information is collected through these cookies.",
    "Third parties are prohibited from using your data for their own marketing.",
    "In no event will we sell or rent your personal information.",
    # commas do not count towards the distance from the negation to its verb (read on Fireworks AI's policy)
    ("Our Services are not directed to, and we do not intend to, or knowingly, collect or solicit personal data "
     "from children under the age of 13."),
    # nor do quotation marks around a verb in the state-law sense (read on Copy.ai's policy)
    ("We don’t “sell” Personal Data or “share” Personal Data for cross-contextual behavioral advertising (as those "
     "terms are defined under applicable local law)."),
])
def test_denies(text):
    assert denies(text)


@pytest.mark.parametrize("text", [
    *POSITIVE,
    "We collect your name, email address and phone number.",
    "We do not only collect your name but also your email address.",
    "Whether or not you register, we collect your IP address.",
    "Our site does not respond to Do Not Track signals.",
    "You may not use our service to collect data about other users.",
    "If you choose not to provide your email, we will not be able to reply.",
    "You have the option not to receive these communications.",
    "You can ask us not to share your information with partners.",
    "We share your information with partners without asking you first.",
    "We cannot guarantee that third parties will not disclose your information.",
    "If you feel you haven’t received a timely response from us, you may contact your supervisory authority.",
])
def test_does_not_deny(text):
    assert not denies(text)


def test_a_tagged_negation_the_rules_read_as_a_limit_or_the_users_is_no_denial():
    # read on Fireworks AI's policy: PolicyIE's polarity slot on "may not be able to" made this a "No" to access
    limit = "We may not be able to modify or delete your information in all circumstances."
    theirs = "If you feel you haven’t received a timely response from us, you may contact your supervisory authority."
    for text in (limit, theirs):
        tagged = Facts("data-collection-usage", (slot(text, "polarity.negation", "not" if "not" in text else "n’t"),))
        assert negations_read_otherwise(text) and not denied(tagged, text)
    plain = "We do not sell your personal information."
    assert not negations_read_otherwise(plain) and denied(Facts("data-sharing-disclosure", (
        slot(plain, "polarity.negation", "not"),)), plain)
    missed = "Your data is never part of what partners get."  # a negation the word rules do not read: the slot counts
    assert not denies(missed) and denied(Facts("data-sharing-disclosure", (slot(missed, "polarity.negation", "never"),)),
                                         missed)


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
    assert not rows["Data collected", "information (no type named)"].negated
    assert not rows["Purposes", "providing the service"].negated
    assert rows["Purposes", "other purposes"].only_negated
