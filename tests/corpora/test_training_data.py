"""Training data built from the corpora: PolicyQA train rebuilt from OPP-115, OPP-115 sentence labels and splits
(the retriever's pairs built from it: tests/models/test_retriever_pairs.py)."""
from __future__ import annotations

import pytest

from assistant.corpora.opp115 import segment_text
from assistant.corpora.policyqa import load_split, question_templates, rebuild_train


@pytest.fixture(scope="module")
def rebuilt():
    return rebuild_train()


def test_rebuilt_train_uses_only_the_75_other_policies(rebuilt):
    examples, counts = rebuilt
    held_out = {e.policy for split in ("dev", "test") for e in load_split(split)}
    assert counts.policies == 75
    assert len(held_out) == 40
    assert not {e.policy for e in examples} & held_out


def test_rebuilt_examples_follow_the_policyqa_procedure(rebuilt):
    examples, counts = rebuilt
    templates = question_templates()
    # One example per (segment, triple), as in the released files: about the paper's 17,056.
    assert 16_000 < counts.examples < 18_500
    assert counts.examples == len({(e.policy, e.context, e.type) for e in examples})
    for example in examples:
        practice, _, value = example.type.split("|||")
        assert practice != "Other" and value != "Unspecified"
        assert example.question in templates[example.type]
        for text, start in example.answers:
            assert example.context[start : start + len(text)] == text


def test_segment_text_reproduces_policyqa_contexts():
    from assistant.corpora.opp115 import opp115_policies

    example = load_split("dev")[0]
    raw = opp115_policies()[example.policy].read_text(encoding="utf-8").split("|||")
    assert example.context in {segment_text(segment) for segment in raw}


def test_sentence_labels_come_from_the_annotators_spans():
    """sci-news.com: all three annotators marked the first segment Introductory/Generic and one
    of them also marked its last sentence Policy Change; two of three marked the sentence about
    keeping correspondence Data Retention."""
    from assistant.corpora.opp115 import opp115_policies
    from assistant.corpora.practice_sentences import _policy_sentences

    path = opp115_policies()["sci-news.com"]
    sentences = _policy_sentences("sci-news.com", path)
    raw = " ".join(segment_text(s) for s in path.read_text(encoding="utf-8").split("|||"))
    assert all(s.text and s.text in raw for s in sentences)
    assert all(0.0 < share <= 1.0 for s in sentences for share in s.targets.values())
    first, _, third, _, retention = sentences[:5]
    assert first.targets == {"Introductory/Generic": 1.0}
    assert third.text.startswith("Please note that these terms are subject to change")
    assert third.targets["Policy Change"] == pytest.approx(1 / 3)
    assert retention.text == "- if you contact us, we may keep a record of that correspondence;"
    assert retention.targets["Data Retention"] == pytest.approx(2 / 3)


def test_a_sentence_belongs_to_the_one_split_holding_its_segment():
    from assistant.corpora.practice_segments import load_split
    from assistant.corpora.practice_sentences import split_of

    test_segment = load_split("test")[0].text
    train_segment = load_split("train")[0].text
    assert split_of(test_segment) == "test"
    assert split_of(train_segment) == "train"
    assert split_of("Cookies.") is None  # too short to place
    assert split_of("A sentence that no OPP-115 policy contains, written for this test.") is None
