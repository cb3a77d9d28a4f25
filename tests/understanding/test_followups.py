"""The chat's understanding of a message in its conversation (pure functions, no model): follow-ups that
refer back, questions about several policies, messages not in English."""
from __future__ import annotations

import pytest

from assistant.understanding.across_question import question_for_each_policy
from assistant.understanding.followups import REFERENCE, REPLACEMENT, resolve_followup, subject_of

PURCHASES = "Do they share my purchase history with third parties?"


@pytest.mark.parametrize(("previous", "message", "question", "referent", "subject"), [
    # issue 19's own example, and the same subject carried through other follow-ups
    (PURCHASES, "and how long do they keep it?", "How long do they keep my purchase history?", "it",
     "my purchase history"),
    (PURCHASES, "and can I delete it?", "Can I delete my purchase history?", "it", "my purchase history"),
    (PURCHASES, "is that optional?", "Is sharing my purchase history optional?", "that",
     "sharing my purchase history"),
    (PURCHASES, "can I opt out of that?", "Can I opt out of sharing my purchase history?", "that",
     "sharing my purchase history"),
    ("Do they track my location?", "can I stop that?", "Can I stop tracking my location?", "that",
     "tracking my location"),
    ("how long do they keep my data?", "is it encrypted?", "Is my data encrypted?", "it", "my data"),
    ("Do they collect my location?", "and who gets it?", "Who gets my location?", "it", "my location"),
    ("Do they use cookies?", "can I turn them off?", "Can I turn cookies off?", "them", "cookies"),
    ("Do they collect my contacts?", "and do they share them?", "Do they share my contacts?", "them", "my contacts"),
    ("Do they collect my name and email address?", "do they sell those?", "Do they sell my name and email address?",
     "those", "my name and email address"),
    ("Do they sell my personal information?", "it's kept for how long?", "My personal information is kept for how long?",
     "it's", "my personal information"),
    # issue 39: what holds data is not data — sharing "it" after "my account" shares the account's data
    ("How can I delete my account?", "and do they share it with advertisers?",
     "Do they share my account data with advertisers?", "it", "my account data"),
    ("Can I cancel my subscription?", "do they keep it after I cancel?",
     "Do they keep my subscription data after I cancel?", "it", "my subscription data"),
    ("How do I close my account?", "can I reopen it?", "Can I reopen my account?", "it", "my account"),
])
def test_a_message_that_refers_back_carries_the_previous_subject(previous, message, question, referent, subject):
    followup = resolve_followup(previous, message)
    assert (followup.question, followup.referent, followup.subject, followup.kind) == (question, referent, subject,
                                                                                       REFERENCE)
    assert followup.carried and followup.message == message


@pytest.mark.parametrize(("previous", "message", "question"), [
    (PURCHASES, "what about my location?", "Do they share my location with third parties?"),
    (PURCHASES, "and cookies?", "Do they share cookies with third parties?"),
    (PURCHASES, "what about advertisers?", "Do they share my purchase history with advertisers?"),
    ("Do they share my data with law enforcement?", "what about the government?",
     "Do they share my data with the government?"),
    ("Do they sell my data?", "what about advertisers?", "Do they sell my data to advertisers?"),
    ("do they use my photos to train AI?", "and my messages?", "Do they use my messages to train AI?"),
])
def test_what_about_puts_the_new_thing_in_the_previous_question(previous, message, question):
    followup = resolve_followup(previous, message)
    assert (followup.question, followup.kind) == (question, REPLACEMENT)


@pytest.mark.parametrize(("previous", "message"), [
    (None, "and how long do they keep it?"),  # nothing to refer back to
    (PURCHASES, "do they sell my email address?"),  # names its own subject
    (PURCHASES, "is it safe to give them my credit card?"),  # "it" and "them" with a subject of its own
    (PURCHASES, "what about kids under 13?"),  # a new topic, not a new thing to put in the question
    ("Do they use cookies?", "can I contact them?"),  # "them": the company
    ("Do they sell my data?", "and what happens to my data after that?"),
    ("what rights do I have under the CCPA?", "and how long do they keep it?"),  # the previous one names nothing
    ("Do they sell my data?", ""),
])
def test_a_message_that_does_not_refer_back_is_asked_as_it_is(previous, message):
    followup = resolve_followup(previous, message)
    assert followup.question == " ".join(message.split()) and not followup.carried


def test_follow_ups_chain_through_the_understood_question():
    first = resolve_followup(PURCHASES, "and how long do they keep it?")
    second = resolve_followup(first.question, "can I delete it?")
    assert second.question == "Can I delete my purchase history?"


@pytest.mark.parametrize(("question", "subject"), [
    (PURCHASES, "my purchase history"),
    ("do they use cookies?", "cookies"),
    ("what cookies do they use?", "cookies"),
    ("is my data safe?", "my data"),
    ("Do they use web beacons or tracking pixels?", "web beacons"),
    ("what rights do I have under the CCPA?", None),
    ("has amazon been hacked?", None),
])
def test_the_subject_of_a_question(question, subject):
    assert subject_of(question) == subject


@pytest.mark.parametrize(("text", "question"), [
    ("which policies sell my data?", "Do they sell my data?"),
    ("Which companies share my location with advertisers?", "Do they share my location with advertisers?"),
    ("which policy sells my data?", "Do they sell my data?"),
    ("which ones use cookies?", "Do they use cookies?"),
    ("do any of the policies sell my data?", "Do they sell my data?"),
    ("which policies do not sell my data?", "Do they not sell my data?"),
    ("which policies are GDPR compliant?", "Are they GDPR compliant?"),
    ("which policies have a data protection officer?", "Do they have a data protection officer?"),
    ("across all policies, do they sell my data?", "Do they sell my data?"),
    ("do they sell my data?", None),
    ("which policies do you have?", None),
    ("what policies are available?", None),
    ("which policy am I looking at?", None),
])
def test_a_question_about_several_policies_is_asked_of_each(text, question):
    assert question_for_each_policy(text) == question


@pytest.mark.parametrize(("text", "language"), [
    ("这个网站收集我的哪些数据？", "Chinese"),
    ("彼らは私のデータを売りますか？", "Japanese"),
    ("Продают ли они мои данные?", "Russian"),
    ("Est-ce qu'ils vendent mes données personnelles ?", "French"),
    ("Welche Daten speichern sie über mich?", "German"),
    ("¿Venden mis datos personales?", "Spanish"),
    ("has amazon been hacked?", None),
    ("Do they share data with Müller GmbH?", None),
    ("hola", None),  # too short to tell; answered as its intent
    ("amazn", None),
    ("😀😀😀", None),
])
def test_messages_not_in_english_are_recognised(text, language):
    from assistant.understanding.language import foreign_language

    assert foreign_language(text) == language


def test_no_training_example_of_the_chat_is_taken_for_another_language():
    import re

    import yaml

    from assistant.understanding.language import foreign_language
    from tests.support.paths import ROOT

    nlu = yaml.safe_load((ROOT / "data" / "nlu.yml").read_text())["nlu"]
    examples = [re.sub(r"\[([^\]]+)\]\([^)]+\)", r"\1", line.strip()[2:])
                for block in nlu for line in block["examples"].splitlines() if line.strip()]
    assert len(examples) > 500
    assert [text for text in examples if foreign_language(text)] == []
