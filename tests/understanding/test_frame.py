"""A question's frame and whether a statement speaks of it: questions and sentences of each class, none taken
from an answers set."""
from __future__ import annotations

import pytest

from assistant.understanding.frame import Frame, frame_of, grounded, speaks_of_action, states_objects


@pytest.mark.parametrize(("question", "action", "objects"), [
    ("Do you collect biometric information?", "collect", ("biometric",)),
    ("Is my precise GPS location tracked?", "collect", ("precise_location",)),
    ("Would you ever sell my contacts to data brokers?", "sell", ("contacts", "data_brokers")),
    ("Can your staff read my private messages?", "share", ("messages", "employees")),
    ("Does my employer see my health claims?", "share", ("health", "employers")),
    ("Are my files encrypted?", "protect", ("encryption", "user_content")),
    ("Do you keep my search history?", "keep", ("browsing_history",)),
    ("Do you sell my personal information?", "sell", ()),
])
def test_a_question_is_read_into_its_action_and_the_concepts_it_names(question, action, objects) -> None:
    frame = frame_of(question)
    assert frame.action == action
    assert set(frame.objects) == set(objects)
    assert frame.specific is bool(objects)


@pytest.mark.parametrize(("question", "sentence", "expected"), [
    # a broader statement does not answer a narrower question
    ("Do you collect biometric information?",
     "We collect information you provide when you register, such as your name and date of birth.", False),
    ("Do you collect my precise location?", "We infer your approximate location from your IP address.", False),
    ("Do you read my contacts?", "We collect contact information such as your e-mail address.", False),
    # a narrower or equal statement does
    ("Do you collect biometric information?", "If you enable Face Unlock, we store a scan of your face geometry.", True),
    ("Do you collect my precise location?", "With your permission, the app reads your device's GPS position.", True),
    ("Do you share my purchase history with insurers?",
     "We may share your purchase history with insurance companies that offer you coverage.", True),
    # every named concept must be stated: the recipient alone does not answer
    ("Do you share my purchase history with insurers?", "We share information with insurance companies.", False),
    # the action: a statement about another action that does not imply the asked one
    ("Do you sell my contacts?", "We upload your address book to find your friends.", False),
    ("Do you collect my contacts?", "We never sell your address book.", True),  # names it; a "no" is checked apart
])
def test_a_statement_answers_only_when_it_names_what_is_asked(question, sentence, expected) -> None:
    assert grounded(frame_of(question), sentence) is expected


def test_a_denial_must_deny_the_asked_action_itself() -> None:
    frame = frame_of("Do you collect my contacts?")
    assert not speaks_of_action(frame, "We never sell your address book.", exactly=True)
    assert speaks_of_action(frame, "We do not collect your address book.", exactly=True)


def test_a_list_item_is_read_under_its_heading() -> None:
    frame = frame_of("Do you sell my browsing history?")
    assert not speaks_of_action(frame, "Browsing history.", "Information we collect")
    assert speaks_of_action(frame, "Browsing history.", "Categories of personal information we sell")
    assert speaks_of_action(frame_of("Do you collect my browsing history?"), "Browsing history.", "")


def test_a_question_naming_nothing_specific_constrains_nothing() -> None:
    assert states_objects(Frame("sell"), "Anything at all.")
