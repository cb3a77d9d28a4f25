"""PolicyIE: the paper's measures on hand-computed cases, offsets of slots, training smoke, shipped model."""
from __future__ import annotations

import json

import pytest

from assistant.corpora.policyie import PolicyIEExample
from assistant.models.policyie.evaluate import evaluate, score
from assistant.models.policyie.model import RELEASE_DIR, PolicyIETagger, TaggedSentence, _slots, words
from assistant.models.policyie.train import TrainConfig, train_release


def test_scores_match_hand_computed_values():
    gold = [
        PolicyIEExample(("a", "b", "c", "d"), "data-sharing-disclosure",
                        ("B-x", "I-x", "O", "B-y"), ("B-p", "O", "O", "O")),
        PolicyIEExample(("e", "f"), "Other", ("O", "O"), ("O", "O")),
    ]
    predicted = [
        TaggedSentence("data-sharing-disclosure", ["B-x", "I-x", "O", "O"], ["B-p", "O", "O", "O"]),
        TaggedSentence("data-collection-usage", ["O", "O"], ["O", "O"]),
    ]
    result = score(gold, predicted)
    assert result["intent_f1"] == 50.0
    # type-I: gold {x[0:2], y[3]}, predicted {x[0:2]} → P 1, R 0.5, F1 2/3
    assert result["type_i_f1"] == 66.7
    assert result["type_ii_f1"] == 100.0
    # exact match needs the intent too: sentence 1 misses y; sentence 2 has the wrong intent
    assert result["type_i_em"] == 0.0
    assert result["type_ii_em"] == 50.0


def test_slots_map_back_to_verbatim_character_spans():
    sentence = "We share your e-mail address with Acme, Inc. for ads."
    tokens = words(sentence)
    assert [t for t, _, _ in tokens] == ["We", "share", "your", "e-mail", "address", "with", "Acme", ",", "Inc",
                                         ".", "for", "ads", "."]
    tags = ["O", "O", "O", "B-data-shared.data-contact", "I-data-shared.data-contact", "O",
            "B-data-receiver.third-party-entity", "I-data-receiver.third-party-entity",
            "I-data-receiver.third-party-entity", "I-data-receiver.third-party-entity", "O", "O", "O"]
    slots = _slots(sentence, tokens, tags)
    assert [(s.slot, s.text) for s in slots] == [
        ("data-shared.data-contact", "e-mail address"), ("data-receiver.third-party-entity", "Acme, Inc.")]
    assert all(sentence[s.start : s.end] == s.text for s in slots)


@pytest.mark.parametrize("crf", [False, True])
def test_training_smoke_writes_a_loadable_release(tmp_path, crf):
    directory = tmp_path / "policyie"
    metrics = train_release(TrainConfig(epochs=1, trainable_layers=1, crf=crf), log=lambda _: None, limit=24,
                            directory=directory, checkpoint_dir=tmp_path / "checkpoints")
    assert set(metrics["valid"]) >= {"intent_f1", "type_i_f1", "type_ii_f1", "type_i_em", "type_ii_em"}
    manifest = json.loads((directory / "manifest.json").read_text())
    assert manifest["command"] == "assistant train policyie" and manifest["data"]["train_sentences"] == 24
    tagger = PolicyIETagger.load(directory)
    assert tagger.has_crf == crf == json.loads((directory / "config.json").read_text())["crf"]
    [tagged] = tagger.tag([["We", "collect", "your", "name", "."]])
    assert len(tagged.type_i) == len(tagged.type_ii) == 5


@pytest.fixture(scope="module")
def shipped():
    return PolicyIETagger.load()


def test_shipped_model_on_a_slice_of_test(shipped):
    result = evaluate("test", limit=150)
    manifest = json.loads((RELEASE_DIR / "manifest.json").read_text())
    assert manifest["command"] == "assistant train policyie"
    assert result["sentences"] == 150
    assert result["intent_f1"] >= 75
    assert result["type_i_f1"] >= 35


def test_shipped_model_reads_a_sharing_sentence(shipped):
    sentence = "We may share your email address and phone number with our advertising partners."
    [facts] = shipped.facts([sentence])
    assert facts.intent == "data-sharing-disclosure"
    labels = {s.slot.split(".")[0] for s in facts.slots}
    assert {"data-shared", "data-receiver"} <= labels
    assert all(sentence[s.start : s.end] == s.text for s in facts.slots)
