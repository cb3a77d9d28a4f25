"""What a question asks: its type (yes/no, how long, who …) and the privacy facet it is about, from the word rules
and, for the last ones, the engine's question stage on the bundled Amazon example."""
from __future__ import annotations

import pytest

from assistant.foundation.reasons import POLICY_SILENT
from assistant.understanding.facets import facet_of, question_type


@pytest.mark.parametrize(("question", "kind", "facet"), [
    ("Do they sell my data?", "yes_no", "sale"),
    ("Do they sell my data? yes or no", "yes_no", "sale"),
    ("Can I get them to delete my data?", "yes_no", "deletion"),
    ("How long do they keep my data?", "how_long", "retention"),
    ("Do they say how long they keep my data?", "yes_no", "retention"),
    ("Do they use my data to train AI?", "yes_no", "ai_training"),
    ("Can I contact a data protection officer?", "yes_no", "contact_dpo"),
    ("Do they protect my data with encryption?", "yes_no", "security"),
    ("Can I opt out of targeted ads?", "yes_no", "opt_out_ads"),
    ("Who do they share my data with?", "who", "sharing_third_parties"),
    ("How do I opt out of personalised ads?", "how_to", "opt_out_ads"),
    ("What is the weather like?", "what", None),
    # a condition put first: the question is its main clause
    ("If the government asks, will they turn over my data?", "yes_no", "law_enforcement"),
    ("If they change their privacy terms, will they let me know?", "yes_no", "policy_changes"),
    ("If I close my account, how long do they keep my data?", "how_long", "retention"),
    # access by others is sharing; your access is access
    ("Do outside companies get access to my personal data?", "yes_no", "sharing_third_parties"),
    ("Can I get access to my data?", "yes_no", "access_correction"),
    # advertisers as the subject (the seventh held-out set's wording)
    ("Are advertisers allowed to get data about me from this service?", "yes_no", "sharing_advertisers"),
])
def test_question_type_and_facet(question, kind, facet):
    assert question_type(question) == kind
    assert (facet_of(question).name if facet_of(question) else None) == facet


@pytest.mark.parametrize(("question", "facet"), [
    ("Is my data kept secure?", "security"),  # read as retention before ("kept"), on the Firefox notice too
    ("Do they keep my data safe?", "security"),
    ("Is my data stored securely?", "security"),
    ("How long do they keep my data?", "retention"),
    ("Do they keep a copy of my messages?", "retention"),
    ("Where is my data stored?", "retention"),
])
def test_keeping_data_safe_is_security_and_keeping_it_is_retention(question, facet):
    assert facet_of(question).name == facet


@pytest.mark.parametrize(("question", "facet"), [
    # "stored … in other countries" asks where the data goes, not how long it is kept (read as retention before)
    ("Is my data stored or processed in other countries?", "international_transfer"),
    ("Is my data sent outside the EU?", "international_transfer"),
    ("Do they transfer my data to other countries?", "international_transfer"),
    # a transfer to other companies is sharing, not a transfer abroad
    ("Do they transfer my data to third parties?", "sharing_third_parties"),
    # advertisers by other names
    ("Is my data passed on to ad companies?", "sharing_advertisers"),
    ("Do they send my data to marketers?", "sharing_advertisers"),
    # access and correction in plain words
    ("Can I get a copy of my data and fix anything that is wrong?", "access_correction"),
])
def test_questions_in_other_words_find_their_facet(question, facet):
    assert facet_of(question).name == facet


@pytest.mark.parametrize("question", ["Are my chats or uploads fed into model training?",
                                      "Is my content used to train their models?"])
def test_model_training_in_other_words_is_the_ai_facet(question):
    assert facet_of(question).name == "ai_training"


@pytest.mark.parametrize(("question", "facet"), [
    ("Can children use the site?", "children_use"),
    ("Can my 12 year old use this app?", "children_use"),
    ("Is there a minimum age to use it?", "children_use"),
    ("How old do I have to be to sign up?", "children_use"),
    # collecting from children stays the collection question, whatever else it says
    ("Will they collect personal data from a child who uses the service?", "children"),
    ("Is this service allowed to gather info on kids or teenagers?", "children"),
])
def test_whether_children_may_use_the_service_is_its_own_question(question, facet):
    assert facet_of(question).name == facet


def test_whereabouts_asks_about_location():
    # IgorBox (eleventh held-out set)
    assert facet_of("Are my whereabouts collected by this service?").name == "collection_location"


@pytest.mark.parametrize("question", ["How do I delete my account?", "How do I close my account?"])
def test_how_to_delete_an_account_is_a_question_for_the_policy(amazon, question):
    # the question classifier reads account management as out of scope; the policy states your rights
    answer = amazon.ask(question, policy="amazon")
    # not refused (out of scope): answered, or the policy silent on it (a not-stated answer is not answerable)
    assert answer.reason in (None, POLICY_SILENT) and answer.facet == "deletion", answer.headline
    assert answer.answerable == (answer.verdict != "not_stated")


def test_where_data_is_stored_asks_a_place_not_a_period(amazon):
    answer = amazon.ask("Where is my data stored?", policy="amazon")
    assert answer.facet == "international_transfer" and answer.question_type == "where"
