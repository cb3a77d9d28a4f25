"""PI-Extract: the corpus reader on the real files, scoring on hand-computed cases, spans with verbatim
offsets, a training smoke run, the shipped tagger on real sentences and ONNX against torch."""
from __future__ import annotations

import json

import numpy as np
import pytest

from assistant.corpora.piextract import LAYERS, PIExtractSentence, load, load_split, read_conll, tuning_split
from assistant.models.piextract.evaluate import evaluate, score
from assistant.models.piextract.model import (
    RELEASE_DIR,
    PIExtractTagger,
    PISpan,
    _spans,
    extract_personal_information,
    words,
)
from assistant.models.piextract.train import TrainConfig, train_release


def test_reader_merges_the_four_subtask_files_of_each_split():
    train, test = load_split("train"), load_split("test")
    assert (len(train), len(test)) == (3035, 1029)
    # B- tag counts of the shared README (train / test)
    expected = {"COLLECT": (1311, 409), "NOT_COLLECT": (56, 22), "SHARE": (552, 209), "NOT_SHARE": (72, 21)}
    for layer, counts in expected.items():
        got = tuple(sum(tag.startswith("B-") for s in split for tag in s.tags[layer]) for split in (train, test))
        assert got == counts, layer
    for sentence in train + test:
        assert all(len(sentence.tags[layer]) == len(sentence.tokens) for layer in LAYERS)
        assert all(tag == "O" or tag[2:] == layer for layer in LAYERS for tag in sentence.tags[layer])


def test_layers_overlap_so_each_has_its_own_tagger():
    both = sum(s.tags["COLLECT"][i] != "O" and s.tags["SHARE"][i] != "O"
               for s in load_split("train") for i in range(len(s.tokens)))
    assert both > 100


def test_tuning_split_is_a_fixed_90_10_cut_of_train():
    fit, dev = tuning_split()
    assert (len(fit), len(dev)) == (2732, 303)
    assert [s.tokens for s in load("dev")] == [s.tokens for s in dev]
    assert len(fit) + len(dev) == len(load_split("train"))


def test_reader_rejects_a_malformed_line(tmp_path):
    bad = tmp_path / "train.conll03"
    bad.write_text("-DOCSTART- -X- O O\n\nWe _ _ O\ncollect B-COLLECT\n")
    with pytest.raises(ValueError, match="line 4"):
        read_conll(bad)
    with pytest.raises(ValueError, match="unknown PI-Extract split"):
        load_split("validation")


def _sentence(tokens, **tags):
    return PIExtractSentence(tuple(tokens), {layer: tuple(tags.get(layer, ["O"] * len(tokens))) for layer in LAYERS})


def test_scores_match_hand_computed_values():
    gold = [_sentence("a b c d".split(), COLLECT=["B-COLLECT", "I-COLLECT", "O", "B-COLLECT"],
                      SHARE=["O", "O", "B-SHARE", "O"])]
    predicted = [{"COLLECT": ["B-COLLECT", "I-COLLECT", "O", "O"], "NOT_COLLECT": ["O"] * 4,
                  "SHARE": ["O", "O", "B-SHARE", "I-SHARE"], "NOT_SHARE": ["O", "B-NOT_SHARE", "O", "O"]}]
    result = score(gold, predicted)
    # COLLECT: 1 of 1 predicted right, 1 of 2 gold found; SHARE: the span is too long (exact spans only)
    assert result["COLLECT"] == {"precision": 100.0, "recall": 50.0, "f1": 66.7, "spans": 2}
    assert result["SHARE"]["f1"] == 0.0 and result["NOT_SHARE"]["precision"] == 0.0
    # overall: 1 right of 3 predicted and 3 gold
    assert result["overall"] == {"precision": 33.3, "recall": 33.3, "f1": 33.3, "spans": 3}
    assert result["macro_f1"] == round(66.7 / 4, 1)


def test_words_split_like_the_corpus():
    assert [w for w, _, _ in words("We don't share e-mail addresses of U.S. users with Amazon.com's partners.")] == [
        "We", "do", "n't", "share", "e", "-", "mail", "addresses", "of", "U.S.", "users", "with", "Amazon.com",
        "'s", "partners", "."]


def test_spans_map_back_to_verbatim_character_offsets():
    sentence = "We do not share your e-mail address, or phone number with Acme, Inc."
    tokens = words(sentence)
    names = [t for t, _, _ in tokens]
    tags = ["O"] * len(tokens)
    start, end = names.index("your"), names.index("address")
    tags[start : end + 1] = ["B-NOT_SHARE"] + ["I-NOT_SHARE"] * (end - start)
    phone = names.index("phone")
    tags[phone : phone + 2] = ["B-NOT_SHARE", "I-NOT_SHARE"]
    spans = _spans(sentence, tokens, tags, "NOT_SHARE")
    assert [s.text for s in spans] == ["your e-mail address", "phone number"]
    assert all(sentence[s.start : s.end] == s.text for s in spans)


def test_training_smoke_writes_a_loadable_release(tmp_path):
    directory = tmp_path / "piextract"
    metrics = train_release(TrainConfig(epochs=1, trainable_layers=1), log=lambda _: None, limit=24,
                            directory=directory, checkpoint_dir=tmp_path / "checkpoints")
    assert set(metrics["dev"]) >= {"micro_f1", "macro_f1", *LAYERS, "overall"}
    manifest = json.loads((directory / "manifest.json").read_text())
    assert manifest["command"] == "assistant train piextract" and manifest["data"]["fit_sentences"] == 24
    tagger = PIExtractTagger.load(directory)
    [tags] = tagger.tag_tokens([["We", "collect", "your", "name", "."]])
    assert set(tags) == set(LAYERS) and all(len(t) == 5 for t in tags.values())
    [spans] = tagger.tag(["We collect your name."])
    assert all(isinstance(s, PISpan) for s in spans)


@pytest.fixture(scope="module")
def shipped():
    return PIExtractTagger.load()


def _labelled(spans):
    return {(s.label, s.text) for s in spans}


def test_shipped_tagger_reads_real_policy_sentences(shipped):
    sentences = [
        "We do not share your email address with advertisers.",
        "We collect your name, email address and phone number when you register.",
        "We may share your location information with our advertising partners.",
        "We do not collect your social security number.",
    ]
    found = extract_personal_information(sentences, shipped)
    assert ("NOT_SHARE", "email address") in _labelled(found[0]) or ("NOT_SHARE", "your email address") in \
        _labelled(found[0])
    assert {"name", "email address", "phone number"} <= {s.text.removeprefix("your ") for s in found[1]
                                                         if s.label == "COLLECT"}
    assert any(s.label == "SHARE" and "location information" in s.text for s in found[2])
    assert any(s.label == "NOT_COLLECT" and "social security number" in s.text for s in found[3])
    for sentence, spans in zip(sentences, found):
        assert all(sentence[s.start : s.end] == s.text for s in spans)
    assert not any(s.label in ("SHARE", "COLLECT") for s in found[0])


def test_shipped_tagger_on_a_slice_of_test():
    result = evaluate("test", limit=200)
    manifest = json.loads((RELEASE_DIR / "manifest.json").read_text())
    assert manifest["command"] == "assistant train piextract"
    assert result["sentences"] == 200
    assert result["overall"]["f1"] >= 40


def test_onnx_tags_equal_torch_tags(shipped):
    from assistant.foundation.inference import OnnxForward
    from assistant.foundation.tokenization import encode_words
    from assistant.models.graphs import torch_forward
    from assistant.models.piextract.graph import PIEXTRACT
    from assistant.models.runtime import ensure_graph

    sentences = [s.tokens for s in load_split("test")[:64]]
    feeds = encode_words(sentences, 256).feeds(PIEXTRACT.inputs)
    (expected,) = torch_forward(PIEXTRACT, RELEASE_DIR)(feeds)
    (got,) = OnnxForward(ensure_graph("piextract", precision_="fp32"))(feeds)
    assert got.shape == expected.shape == (64, feeds["input_ids"].shape[1], 4, 3)
    np.testing.assert_allclose(got, expected, atol=2e-3, rtol=1e-3)
    assert (got.argmax(-1) == expected.argmax(-1)).mean() > 0.999
