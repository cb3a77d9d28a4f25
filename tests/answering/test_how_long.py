"""How long: a question naming a kind of data gets the period the policy states for it first, wherever the
retriever ranks it, and the general rule after it; a question about data in general gets the general rule first.
On a small policy of our own (none from an answers set)."""
from __future__ import annotations

import pytest

from tests.support.small_policies import ingested

POLICY = """# Finch privacy notice

## How long we keep data

We keep your personal data for as long as your account is open and as necessary to provide the services.
Backups are overwritten within 35 days.

## Messaging

You can send messages to other members.
If a message cannot be delivered, we keep your messages in encrypted form on our servers for up to 30 days.
"""


@pytest.fixture
def finch(assistant, tmp_path):
    return ingested(assistant, tmp_path, "finch", POLICY)


def test_the_period_for_the_asked_data_comes_first(finch):
    answer = finch.ask("How long do you keep my messages?", policy="finch")
    assert answer.headline.startswith("For your messages, the finch policy states: “30 days”"), answer.headline
    assert "Its general rule: “We keep your personal data for as long as" in answer.headline
    assert answer.evidence[0].text.startswith("If a message cannot be delivered")


def test_data_in_general_gets_the_general_rule_first(finch):
    answer = finch.ask("How long do you keep my data?", policy="finch")
    assert answer.headline.startswith("The finch policy says: “We keep your personal data"), answer.headline
