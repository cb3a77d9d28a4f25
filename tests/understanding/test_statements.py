"""What a policy sentence says of a practice (understanding/statements.py and stance.py): whether it denies it,
allows it only if, or applies only to some; whether it states the practice at all; and the statement built from its
PolicyIE facts (hand-made facts, and the real model for the denials it misses)."""
from __future__ import annotations

import pytest

from assistant.foundation.types import Facts, Sentence, Slot
from assistant.understanding.facets import BY_NAME
from assistant.understanding.stance import denies, negations_read_otherwise
from assistant.understanding.statements import denied, informative, stance, statement, states_practice
from tests.support.facts import KEEP, OTHER, SELL, SHARE, TRACK, facts_of, slot

# Negations that deny nothing: the facts stay positive.
POSITIVE = (
    "Information about the page you visit (but not your search query) is sent to our partners.",
    "We can see which ads were shown, but not which users saw them.",
    "We may disclose your information to authorities where not strictly required by law.",
    "We share information that is not personally identifiable with our partners.",
    "We collect information, including but not limited to your name and email address.",
    "If you do not want us to use cookies, you can disable them.",
)


def test_a_plain_denial_stays_no_and_a_denied_clause_beside_an_unrelated_one_too():
    from assistant.foundation.types import Sentence
    from assistant.understanding.statements import stance

    def said(text: str, facet: str) -> str:
        return stance(Sentence(1, text, 0, len(text), ""), BY_NAME[facet])

    assert said("We do not sell your personal information.", "sale") == "no"
    assert said("We do not collect your precise location; we may infer your country from your IP address.",
                "collection_location") == "no"
    assert said("We will not share your information with advertisers unless you opt in.",
                "sharing_advertisers") == "conditional"
    assert said("We share your data with advertisers.", "sharing_advertisers") == "yes"


def test_data_received_from_third_parties_states_no_sharing():
    # Bolt.new (ninth held-out set): data received from third parties is data coming in, not shared
    assert not states_practice("StackBlitz may receive personally identifiable information about you from third "
                               "parties, including information about your transactions.", BY_NAME["sharing_third_parties"])


def test_a_list_of_contact_data_states_no_contact_but_contact_information_to_use_does():
    # Berget AI (tenth held-out set): a list of contact data is no contact; Zacks' "Contact Information: If you
    # experience …" is
    contact = BY_NAME["contact_dpo"]
    assert not states_practice("Contact Data: Email address, phone number, mailing address.", contact)
    assert states_practice("Contact Information: If you experience any privacy related difficulties on Zacks.com, "
                           "please use the following contact information.", contact)


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


def test_statement_of_a_denial_says_does_not(policyie):
    for text, verb in ((TRACK, "does not collect"), (SELL, "does not share")):
        (facts,) = policyie.facts([text])
        assert verb in statement(facts, text), (text, facts)


def test_statement_of_a_false_denial_stays_positive(policyie):
    for text, facts in zip(POSITIVE, policyie.facts(list(POSITIVE))):
        said = statement(facts, text)
        assert said is None or "does not" not in said, (text, said)


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


@pytest.mark.parametrize(("text", "expected"), [
    # done only on your choice or consent: only if
    ("If your administrator and you elect to enable smart name tags, we may analyze your facial geometry.", "conditional"),
    ("We may collect your voice data if you provide the requisite consent.", "conditional"),
    ("If you give us permission, we can collect your geolocation from your device.", "conditional"),
    # a case of the practice, or consent the law may require: no condition on it
    ("If you choose to purchase products, we may forward your information to payment processors.", "yes"),
    ("We may share your data with partners where allowed, and with your consent when required.", "yes"),
])
def test_a_practice_done_only_on_your_choice_is_only_if(text: str, expected: str) -> None:
    assert stance(Sentence(1, text, 0, len(text), ""), None) == expected
