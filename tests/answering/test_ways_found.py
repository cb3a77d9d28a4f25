"""How-to and contact answers find the ways a policy gives: a route for rights requests in general serves each
right it does not single out another from (after the right's own ways), a named page is a way, and a postal
address printed one line per sentence is quoted and named whole. On a small policy of our own (none from an
answers set)."""
from __future__ import annotations

import pytest

from tests.support.small_policies import ingested

POLICY = """# Juniper privacy notice

## Your rights

You have the right to request deletion of your personal data.
You have the right to access the personal data we hold about you.
To submit a correction request, please use our Correction Request Form.
To exercise any of these rights, please e-mail rights@juniper.example or call 1-800-JUNIPER.

## Closing your account

If you want to delete your Juniper account, you can:

Open the app and choose Delete account.

Ask our support team to delete it for you.

## Marketing

You can unsubscribe from our newsletter in your account settings.

## Contact us

If you have questions about this notice, you can write to our Data Protection Officer at:

Juniper Labs Ltd., Attn: Data Protection Officer  
12 Harbour Street  
Bristol BS1 4QA
"""


@pytest.fixture
def juniper(assistant, tmp_path):
    return ingested(assistant, tmp_path, "juniper", POLICY)


def test_a_general_rights_route_is_a_way_for_each_right(juniper):
    answer = juniper.ask("How do I get my data deleted?", policy="juniper")
    assert "rights@juniper.example" in answer.headline and "1-800-JUNIPER" in answer.headline, answer.headline
    assert "Correction Request Form" not in answer.headline  # another right's own route
    assert any(e.text.startswith("To exercise any of these rights") for e in answer.evidence)


def test_an_address_printed_line_by_line_is_named_whole(juniper):
    answer = juniper.ask("What is the postal address of your data protection officer?", policy="juniper")
    assert "Attn: Data Protection Officer, 12 Harbour Street, Bristol BS1 4QA" in answer.headline, answer.headline
    quoted = [e.text for e in answer.evidence]
    assert "12 Harbour Street" in quoted and "Bristol BS1 4QA" in quoted


def test_steps_a_sentence_introduces_follow_it(juniper):
    answer = juniper.ask("How can I delete my Juniper account?", policy="juniper")
    assert "“Open the app and choose Delete account.”" in answer.headline, answer.headline
    assert [e.text for e in answer.evidence][:2] == ["Open the app and choose Delete account.",
                                                    "Ask our support team to delete it for you."]
