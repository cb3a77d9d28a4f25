"""Tests for assistant.foundation.text: what stored text may hold, and how output shows what it must not print raw."""
from __future__ import annotations

import json

import pytest

from assistant.foundation.sentences import build_policy
from assistant.foundation.text import (
    BIDI_CONTROLS,
    escape_controls,
    escape_json_controls,
    has_controls,
    without_controls,
)
from assistant.foundation.types import Block, Document

BIDI = ["\u061c", "\u200e", "\u200f", "\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068",
        "\u2069"]


def test_the_bidirectional_formatting_characters_are_unicodes_twelve() -> None:
    import unicodedata

    assert sorted(BIDI_CONTROLS) == BIDI
    assert all(unicodedata.category(ch) == "Cf" and unicodedata.bidirectional(ch) in
               {"AL", "L", "R", "LRE", "RLE", "PDF", "LRO", "RLO", "LRI", "RLI", "FSI", "PDI"} for ch in BIDI)


@pytest.mark.parametrize("character", BIDI)
def test_escape_controls_shows_each_bidirectional_character_as_a_visible_escape(character: str) -> None:
    """Issue 42: U+202E and its kind were printed raw and reordered what the terminal showed after them."""
    shown = escape_controls(f"evil{character}txt.exe")
    assert shown == f"evil\\u{ord(character):04x}txt.exe"
    assert BIDI_CONTROLS.isdisjoint(shown)


def test_escape_controls_keeps_its_style_for_controls_and_leaves_other_text_alone() -> None:
    assert escape_controls("a\x1b[2J b\x9b c\x7f\td\n") == "a\\x1b[2J b\\x9b c\\x7f\td\n"
    text = "Wir löschen “Ihre” Daten — 個人情報 حذف البيانات שמירה \u200d\ufeff"  # ZWJ and BOM are not bidi controls
    assert escape_controls(text) == text


def test_escape_json_controls_escapes_bidi_and_c1_and_decodes_to_the_same_strings() -> None:
    data = {"name\u202e": "quote \u2067x\u2069 \x85 \x1b \u200f end", "plain": "é — “ok”"}
    serialised = escape_json_controls(json.dumps(data, ensure_ascii=False))
    assert BIDI_CONTROLS.isdisjoint(serialised) and not has_controls(serialised)
    assert "\\u202e" in serialised and "\\u0085" in serialised and "é — “ok”" in serialised
    assert json.loads(serialised) == data


def test_stored_text_keeps_bidirectional_characters_verbatim() -> None:
    """The escaping is for display only: ingest stores them as they are (right-to-left text needs the marks)."""
    sentence = "We do not sell your data \u202eto anyone\u202c. \u05d0\u200f\u05d1 are kept."
    assert without_controls(sentence) == sentence and not has_controls(sentence)
    policy = build_policy(Document(title="Acme\u2067", blocks=[Block(sentence, ())]))
    assert policy.title == "Acme\u2067" and policy.text == sentence
    assert "".join(s.text for s in policy.sentences).replace(" ", "") == sentence.replace(" ", "")
    assert all(policy.text[s.start:s.end] == s.text for s in policy.sentences)
