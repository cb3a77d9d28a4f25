"""How-to and contact answers find the ways a policy gives: a route for rights requests in general serves each
right it does not single out another from (after the right's own ways), a named page is a way, a postal address
printed one line per sentence is quoted and named whole, a sentence sending you to "the address below" is answered
by it, and an address naming the officer is the officer's way. On a small policy of our own and on two real contact
sections (Valve's Steam policy, in no answers set; Samsung's, from blind2 long after its score)."""
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


# The contact section of Valve's current Steam policy (Open Terms Archive, contrib-versions d6fb386), as printed: the
# officer is named in one sentence, and the address comes further down, after a label ending in ":" for another one.
STEAM_CONTACT = """# Privacy Policy

## 8. Contact Info

You can contact Valve's data protection officer at the address below.

While we review any request sent by mail, please be aware that to combat fraud, harassment and identity theft, the
only way to access, rectify or delete your data is through logging in with your Steam User Account at
[http://help.steampowered.com](http://help.steampowered.com/).

Valve Corporation  
Att. Data Protection officer  
P.O. Box 1688  
Bellevue, WA 98009  

EU representative for data protection questions:

RIVACY GmbH  
Mexikoring 33  
22297 Hamburg, Germany
"""


def test_a_sentence_sending_you_to_the_address_below_is_answered_by_that_address(assistant, tmp_path):
    steam = ingested(assistant, tmp_path, "steam", STEAM_CONTACT)
    answer = steam.ask("How do I contact Valve's data protection officer?", policy="steam")
    assert answer.headline.startswith("The steam policy gives its data protection officer"), answer.headline
    assert "P.O. Box 1688, Bellevue, WA 98009" in answer.headline
    assert "RIVACY" not in answer.headline  # the next address is another one's: its label ends the block


# Samsung's contact section (blind2's copy, scored long ago): a way of its own in the supporting sentence, and the
# officer's address after it (lines of one paragraph), its last line a whole address of nine words.
SAMSUNG_CONTACT = """# Privacy

## Contact us

Samsung Electronics has offices across Europe, so we can ensure that your request or query will be handled by the
data protection team based in your region.

The easiest way to contact us is through our Privacy Support Page at https://www.samsung.com/request-desk.

European Data Protection Officer  
Samsung Electronics (UK) Limited  
Samsung House, 2000 Hillswood Drive, Chertsey, Surrey KT16 0RS

You can lodge a complaint with the relevant supervisory authority if you believe that our processing of your
personal information is unlawful.
"""


def test_an_address_that_names_the_officer_is_the_officer_s_way(assistant, tmp_path):
    samsung = ingested(assistant, tmp_path, "samsung", SAMSUNG_CONTACT)
    answer = samsung.ask("How do I contact Samsung's data protection officer?", policy="samsung")
    assert answer.headline.startswith("The samsung policy gives its data protection officer: by post: European Data "
                                      "Protection Officer, Samsung Electronics (UK) Limited, Samsung House"), answer.headline
