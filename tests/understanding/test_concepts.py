"""The concept vocabulary (`lang/concepts.toml`): every concept finds its example sentences and not its
counter-examples, and the broader / narrower rule holds both ways."""
from __future__ import annotations

import pytest

from assistant.understanding.concepts import KINDS, load, vocabulary

WORDS = vocabulary()
EXAMPLES = [(c.name, text, True) for c in WORDS.concepts.values() for text in c.match] + [
    (c.name, text, False) for c in WORDS.concepts.values() for text in c.no_match]


@pytest.mark.parametrize(("name", "text", "expected"), EXAMPLES, ids=[f"{n}:{t[:30]}" for n, t, _ in EXAMPLES])
def test_every_concept_matches_its_examples(name: str, text: str, expected: bool) -> None:
    assert WORDS.states(text, name) is expected


def test_every_concept_has_examples_both_ways_and_a_known_kind() -> None:
    for concept in WORDS.concepts.values():
        assert concept.kind in KINDS
        assert concept.match and concept.no_match, concept.name


def test_a_narrower_statement_answers_the_broader_question_never_the_reverse() -> None:
    assert WORDS.states("You can unlock the app with your fingerprint.", "biometric")
    assert not WORDS.states("We collect biometric identifiers.", "fingerprint")
    assert WORDS.states("We collect precise location from GPS.", "location")
    assert not WORDS.states("We collect your device's location.", "precise_location")


def test_a_phrase_named_in_not_is_not_the_concept() -> None:
    assert not WORDS.states("Contact us with questions.", "contacts")
    assert not WORDS.states("We may send you marketing messages.", "messages")
    assert WORDS.states("We may send you marketing messages and read your messages.", "messages")


def test_the_most_specific_concept_is_named() -> None:
    assert WORDS.named_in("Do you collect my precise location?", ("data",)) == ["precise_location"]


def test_a_file_naming_an_unknown_narrower_concept_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown concepts: nowhere"):
        load('[a]\nkind = "data"\nterms = ["a"]\nnarrower = ["nowhere"]\n')
    with pytest.raises(ValueError, match="has no kind"):
        load('[a]\nkind = "thing"\nterms = ["a"]\n')
