"""The policy's own name in a question is who is asked, not a recipient: "Does LinkedIn import my contacts?" asked
of LinkedIn's policy names no social network; "Does Instagram share my data with Facebook?" of Instagram's does.

`tests/fixtures/own_name_questions.tsv`: 79 questions written by a helper who had not seen the rule (policy, question,
whether it names one of the companies `lang/concepts.toml` lists as recipients, other than the policy's own)."""
from __future__ import annotations

import csv

from assistant.understanding.concepts import RECIPIENT, vocabulary
from assistant.understanding.frame import frame_of, without_own_name
from tests.support.paths import ROOT

ROWS = list(csv.DictReader((ROOT / "tests/fixtures/own_name_questions.tsv").open(encoding="utf-8"), delimiter="\t"))
WORDS = vocabulary()
COMPANIES = {name for name, concept in WORDS.concepts.items()
             if concept.kind == RECIPIENT and any(term[:1].isupper() for term in concept.terms)}


def names_company(question: str, policy: str) -> bool:
    return bool(COMPANIES & set(frame_of(question, WORDS, policy).objects))


def test_the_companies_are_the_named_recipients_of_the_concepts():
    assert {"social_networks", "google", "credit_bureaus"} <= COMPANIES


def test_a_company_named_as_a_recipient_of_another_policy_stays_one():
    named = [row for row in ROWS if row["recipient_named"] == "yes"]
    assert len(named) >= 20
    assert [row["question"] for row in named if not names_company(row["question"], row["policy"])] == []


def test_the_policy_s_own_name_is_no_recipient():
    own = [row for row in ROWS if row["recipient_named"] == "no"]
    wrong = [row["question"] for row in own if names_company(row["question"], row["policy"])]
    # without the policy, 33 of these 55 named a recipient; the one left is "meta data" (metadata), not a name
    assert len(own) >= 50 and len(wrong) <= 1, wrong
    assert sum(names_company(row["question"], "") for row in own) >= 30  # the case is real: the rule does the work


def test_the_name_is_put_as_it_in_one_word_or_two_and_never_a_short_or_lower_case_part():
    assert without_own_name("Will Booking.com give my data to the police?", "booking.com") == (
        "Will it give my data to the police?")
    assert without_own_name("Does Hugging Face sell my data?", "huggingface") == "Does it sell my data?"
    assert without_own_name("does linkedin's app track me", "linkedin") == "does its app track me"
    assert without_own_name("Does Proton read my mail?", "protonmail") == "Does it read my mail?"
    assert without_own_name("Are my linked accounts shared?", "linkedin") == "Are my linked accounts shared?"
    assert without_own_name("Do they share my book reviews?", "booking.com") == "Do they share my book reviews?"
    assert without_own_name("Is it in the EU?", "eu") == "Is it in the EU?"  # a name under 4 characters: untouched


def test_a_product_named_after_the_company_stays_the_policy_s_own_name():
    # blind5, scored once: "… train Apple Intelligence models?" had its "Apple" put as "it", and "Intelligence" was
    # then a name every answer had to quote (the policy's opt-out form's)
    frame = frame_of("Does Apple use my data to train Apple Intelligence models?", WORDS, "apple")
    assert frame.names == () and frame.action == "use"
    assert "google" not in frame_of("Does Google Maps share my location with advertisers?", WORDS, "google").objects
