"""The policy graph: each sentence's statement as a tuple, on sentences of our own."""
from __future__ import annotations

from assistant.foundation.types import Sentence
from assistant.understanding.graph import DOES, DOES_NOT, policy_graph, statement


def sentence(ordinal: int, text: str, section: str = "") -> Sentence:
    return Sentence(ordinal, text, 0, len(text), section)


def test_a_statement_names_its_action_data_recipients_purposes_polarity_condition_and_scope() -> None:
    shared = statement(sentence(1, "We share your purchase history with insurance companies for underwriting."))
    assert shared is not None
    assert "share" in shared.actions and shared.data == ("purchase_history",)
    assert shared.recipients == ("insurers",) and "underwriting" in shared.purposes
    assert (shared.polarity, shared.condition, shared.scope) == (DOES, "", "")
    denied = statement(sentence(2, "California residents: we do not sell your personal information."))
    assert denied is not None and denied.polarity == DOES_NOT and "sell" in denied.actions
    assert denied.scope == "California residents"
    consent = statement(sentence(3, "We collect your precise location only if you choose to allow it."))
    assert consent is not None and consent.data == ("precise_location",) and consent.condition == "with your consent"


def test_a_list_item_is_a_statement_under_its_heading_and_prose_without_data_is_none() -> None:
    item = statement(sentence(4, "Browsing history.", "Information we collect"))
    assert item is not None and item.actions == ("collect",) and item.data == ("browsing_history",)
    assert statement(sentence(5, "Browsing history.", "")) is None  # no action anywhere
    assert statement(sentence(6, "This notice was last updated in May.")) is None
    graph = policy_graph([sentence(7, "Our offices are in Dublin."), sentence(8, "We log your IP address.")])
    assert [s.sentence_id for s in graph] == [8]
