"""A yes/no question's claim about the company, as a headline says it (`understanding/claim.py`, words in
`lang/claims.toml`), on the examples below and on 139 questions helpers wrote for other tests (who had not seen it)."""
from __future__ import annotations

import csv
import re

from assistant.understanding.claim import claim_of, third_person
from tests.support.paths import ROOT


def _questions() -> list[tuple[str, str]]:
    own = csv.DictReader((ROOT / "tests/fixtures/own_name_questions.tsv").open(encoding="utf-8"), delimiter="\t")
    practice = csv.DictReader((ROOT / "tests/fixtures/practice_questions.tsv").open(encoding="utf-8"), delimiter="\t")
    return [(row["question"], row["policy"]) for row in own] + [(row["question"], "") for row in practice]


def test_the_claim_continues_it_in_the_headline_s_words():
    said = claim_of("Do they record customer support calls?")
    assert (said.does, said.does_not) == ("records customer support calls", "does not record customer support calls")
    said = claim_of("will they send my name and address to another exchange when I withdraw crypto?")
    assert said.does == "will send your name and address to another exchange when you withdraw crypto"
    assert said.does_not.startswith("will not send your name")
    assert claim_of("Do you share my data with your partners?").does == "shares your data with its partners"
    assert claim_of("Does Hugging Face sell my data?", "huggingface").does == "sells your data"
    assert claim_of("does twitter use my tweets to train their AI", "twitter").does == "uses your tweets to train its AI"
    assert claim_of("Does the app access my camera?").does == "accesses your camera"


def test_a_question_of_another_shape_or_subject_is_left_to_the_generic_headline():
    for question in ("Can employees read my messages?", "Is my data encrypted?", "Do they ever sell my data?",
                     "Have they been hacked?", "Does Facebook get my data?", "What do they collect?"):
        assert claim_of(question, "acme") is None, question


def test_third_person_spelling():
    assert [third_person(v) for v in ("record", "watch", "copy", "have", "go", "pass", "play")] == [
        "records", "watches", "copies", "has", "goes", "passes", "plays"]


def test_questions_written_by_others_are_said_without_the_asker_s_words():
    questions = _questions()
    claims = [(q, claim_of(q, policy)) for q, policy in questions]
    said = [(q, c) for q, c in claims if c is not None]
    assert len(questions) >= 130 and len(said) >= 60, len(said)
    for question, claim in said:
        assert not re.search(r"\b(?:my|me|I|mine)\b", claim.does), (question, claim)
        assert claim.does[:1].islower() and re.match(r"(?:does|will|would|can|could|may|might|should) not ",
                                                     claim.does_not), (question, claim)
