"""OPP-115 attribute values (Polisis-style): the corpus reader on the real annotation files, training on
a subset, and the shipped heads on real OPP-115 test sentences embedded by the real retriever."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from assistant.corpora.opp115_attributes import (
    ATTRIBUTES,
    canonical_value,
    load_attribute_split,
    policy_examples,
)
from assistant.corpora.practice_sentences import split_of
from assistant.models.attributes.model import AttributeClassifier
from assistant.models.attributes.train import train
from tests.support.cli import cli_env

# OPP-115 test-split sentences (PrivacyGLUE majority split; (policy, part of the sentence)) and the value a
# majority of annotators gave
RETENTION = {
    ("archives.gov", "for statistical analysis and technical improvements is maintained indefinitely."): "Indefinitely",
    ("reddit.com", "private messages for 90 days after they are made or sent."): "Stated Period",
    ("reddit.com", "For instance, we keep IP addresses for 90 days in order to investigate issues with our site"): "Stated Period",
    ("taylorswift.com", "we may retain your account information for a reasonable period of time"): "Limited",
}
STANCE = {
    ("barnesandnoble.com", "Barnes & Noble DOES NOT SELL OR RENT YOUR PERSONAL INFORMATION TO THIRD PARTIES."): "Does Not",
    ("mohegansun.com", "Mohegan Sun does not share or sell your personal information to anyone."): "Does Not",
    ("uptodate.com", "UpToDate does not sell or otherwise share subscribers' or website visitors'"): "Does Not",
    ("ticketmaster.com", "We will share information with third parties who perform services on our behalf."): "Does",
    ("freep.com", "We may collect location information (e.g., city and state and/or zip code) that you provide."): "Does",
}


def _sentence(policy: str, text: str):
    (found,) = [e for e in policy_examples(policy) if e.unit == "sentence" and text in e.text]
    return found


def test_reader_gives_the_annotators_values_of_real_sentences_and_segments():
    for (policy, text), value in RETENTION.items():
        example = _sentence(policy, text)
        assert example.applies("Retention Period")
        assert example.gold("Retention Period") == {value}
        assert split_of(example.text) == "test"
    for (policy, text), value in STANCE.items():
        example = _sentence(policy, text)
        assert value in example.gold("Does/Does Not")
    denial = _sentence("barnesandnoble.com", "DOES NOT SELL OR RENT")
    (segment,) = [e for e in policy_examples("barnesandnoble.com") if e.unit == "segment" and denial.text in e.text]
    assert segment.values["Does/Does Not"]["Does Not"] >= denial.values["Does/Does Not"]["Does Not"] > 0.5
    assert all(0 < share <= 1 for values in segment.values.values() for share in values.values())


def test_uninformative_values_are_dropped_and_spellings_merged():
    assert canonical_value("Unspecified") is None and canonical_value("not-selected") is None
    assert canonical_value("Other") is None and canonical_value(None) is None
    assert canonical_value("User Profile") == canonical_value("User profile") == "User profile"
    assert canonical_value("Stated Period") == "Stated Period"


def test_split_examples_belong_to_that_split_only():
    examples = load_attribute_split("validation", "segment", limit=25)
    assert len(examples) == 25
    for example in examples:
        assert split_of(example.text) == "validation"
        assert any(example.applies(attribute) for attribute in ATTRIBUTES)


def test_training_on_a_subset_writes_a_loadable_release(tmp_path, retriever):
    messages: list[str] = []
    trained = train(tmp_path, limit=120, log=messages.append, command="pytest subset")
    assert trained.heads, messages
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert manifest["command"] == "pytest subset" and manifest["data"]["limit"] == 120
    assert set(manifest["metrics"]["validation"]) == set(trained.heads)
    loaded = AttributeClassifier.load(tmp_path)
    assert {a: h.values for a, h in loaded.heads.items()} == {a: h.values for a, h in trained.heads.items()}
    texts = [_sentence(policy, text).text for policy, text in STANCE]
    vectors = retriever.encode(texts)
    for attribute, probabilities in loaded.probabilities(vectors, texts).items():
        expected = trained.heads[attribute].probabilities(vectors, trained.term_features(texts))
        assert probabilities.shape == (len(texts), len(loaded.heads[attribute].values))
        np.testing.assert_allclose(probabilities, expected, atol=2e-3)  # fp16 weights on disk


def test_no_release_is_a_clear_error(tmp_path):
    with pytest.raises(FileNotFoundError, match="assistant train attributes"):
        AttributeClassifier.load(tmp_path)


@pytest.fixture(scope="module")
def shipped():
    return AttributeClassifier.load()


@pytest.mark.parametrize("with_texts", [True, False])
def test_shipped_heads_read_retention_periods_and_denials(shipped, retriever, with_texts):
    for cases, attribute in ((RETENTION, "Retention Period"), (STANCE, "Does/Does Not")):
        texts = [_sentence(policy, text).text for policy, text in cases]
        predictions = shipped.predict(retriever.encode(texts), texts if with_texts else None, fallback=True)
        for text, gold, prediction in zip(texts, cases.values(), predictions, strict=True):
            ranked = prediction[attribute]
            assert ranked[0][0] == gold, (text, ranked)
            assert [p for _, p in ranked] == sorted((p for _, p in ranked), reverse=True)
            assert all(0.0 <= p <= 1.0 for _, p in ranked)


def test_a_denial_is_not_read_as_does(shipped, retriever):
    texts = [_sentence(policy, text).text for (policy, text), value in STANCE.items() if value == "Does Not"]
    for prediction in shipped.predict(retriever.encode(texts), texts):
        assert [value for value, _ in prediction["Does/Does Not"]] == ["Does Not"]


def test_with_the_practice_tagger_s_categories_attributes_keep_to_their_practices(shipped, retriever):
    from assistant.models.practices.model import PracticeClassifier

    retention = _sentence("taylorswift.com", "for a reasonable period of time").text
    denial = _sentence("mohegansun.com", "Mohegan Sun does not share or sell").text
    texts = [retention, denial]
    categories = PracticeClassifier.load().predict(texts)
    assert "Data Retention" in categories[0] and "Third Party Sharing/Collection" in categories[1], categories
    kept, everything = (shipped.predict(retriever.encode(texts), texts, categories=c) for c in (categories, None))
    assert kept[0]["Retention Period"][0][0] == "Limited"
    assert kept[1]["Does/Does Not"] == everything[1]["Does/Does Not"] and kept[1]["Does/Does Not"][0][0] == "Does Not"
    assert "Retention Period" in everything[1] and "Retention Period" not in kept[1]  # a denial has no retention period
    for attributes, tags in zip(kept, categories, strict=True):
        assert all(set(shipped.practices[a]) & set(tags) for a in attributes)
    with pytest.raises(ValueError, match="category sets"):
        shipped.predict(retriever.encode(texts), categories=categories[:1])


def test_cli_scores_the_heads_and_refuses_an_unknown_split(tmp_path):
    assistant = str(Path(sys.executable).with_name("assistant"))
    bad = subprocess.run([assistant, "eval", "attributes", "--split", "train"], capture_output=True, text=True,
                         env=cli_env(tmp_path / "home"), timeout=120, check=False)
    assert bad.returncode != 0 and bad.stderr.strip().splitlines() == [
        "error: Unknown split 'train'; choose one of: validation, test."]
    good = subprocess.run([assistant, "eval", "attributes", "--split", "validation", "--limit", "400"],
                          capture_output=True, text=True, env=cli_env(tmp_path / "home"), timeout=600, check=False)
    assert good.returncode == 0, good.stderr
    assert "OPP-115 attribute heads, validation split" in good.stdout
    for attribute in AttributeClassifier.load().attributes:
        assert attribute in good.stdout
