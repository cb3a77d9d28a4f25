"""The ways a policy gives (`lang/channels.toml`): each kind finds its example sentences and not its
counter-examples; a sentence's channels come out verbatim, each once."""
from __future__ import annotations

import pytest

from assistant.understanding.channels import channels_in, kinds

EXAMPLES = [(k.name, text, True) for k in kinds() for text in k.match] + [
    (k.name, text, False) for k in kinds() for text in k.no_match]


@pytest.mark.parametrize(("name", "text", "expected"), EXAMPLES, ids=[f"{n}:{t[:30]}" for n, t, _ in EXAMPLES])
def test_every_channel_kind_matches_its_examples(name: str, text: str, expected: bool) -> None:
    assert any(c.kind == name for c in channels_in(text)) is expected


def test_a_sentence_gives_each_channel_verbatim_once() -> None:
    sentence = ("To delete your data, e-mail privacy@acme.example or visit https://acme.example/privacy/delete; "
                "you can also write to privacy@acme.example.")
    found = channels_in(sentence)
    assert [(c.kind, c.text) for c in found] == [("email", "privacy@acme.example"),
                                                 ("link", "https://acme.example/privacy/delete")]
    assert all(c.text in sentence for c in found)
