"""The PolicyQA span reader: SQuAD 1.1 scoring, training smoke, the shipped model, spans in answers."""
from __future__ import annotations

import json

import pytest

from assistant.corpora.policyqa import QAExample
from assistant.models.reader.evaluate import exact_match, f1_score, normalize_answer, squad_scores
from assistant.models.reader.model import RELEASE_DIR, SpanReader
from assistant.models.reader.train import TrainConfig, train_release


def test_squad_normalisation_and_scores_by_hand():
    assert normalize_answer("The  Cookies, and a Pixel!") == "cookies and pixel"
    assert exact_match("the cookies", "Cookies.") == 1.0
    # prediction "email address and name" vs truth "your email address": common {email, address}
    # P = 2/4, R = 2/3, F1 = 2 * (1/2 * 2/3) / (1/2 + 2/3) = 4/7
    assert f1_score("email address and name", "your email address") == pytest.approx(4 / 7)
    examples = [
        QAExample("1", "p", "q", "ctx", (("your email address", 0), ("email address", 5)), "t"),
        QAExample("2", "p", "q", "ctx", (("30 days", 0),), "t"),
    ]
    # example 1: best over its answers is "email address" (EM 1, F1 1); example 2: nothing in common
    assert squad_scores(examples, ["Email address", "one year"]) == {"questions": 2, "em": 50.0, "f1": 50.0}


def test_training_smoke_writes_a_loadable_release(tmp_path):
    directory = tmp_path / "reader"
    metrics = train_release(TrainConfig(trainable_layers=1, checkpoint_every=2), log=lambda _: None, limit=32,
                            directory=directory, checkpoint_dir=tmp_path / "checkpoints", dev_limit=8)
    assert set(metrics["policyqa_dev"]) == {"questions", "em", "f1"}
    manifest = json.loads((directory / "manifest.json").read_text())
    assert manifest["command"] == "assistant train reader" and manifest["data"]["examples"] == 32
    assert SpanReader.load(directory).read(["Who?"], ["We share it with partners."])[0].start >= -1


@pytest.fixture(scope="module")
def shipped():
    return SpanReader.load()


def test_shipped_reader_on_a_slice_of_dev(shipped):
    from assistant.models.reader.evaluate import evaluate

    manifest = json.loads((RELEASE_DIR / "manifest.json").read_text())
    assert manifest["command"] == "assistant train reader"
    result = evaluate("dev", limit=200)
    assert result["questions"] == 200
    assert result["f1"] >= 50  # 57.2 with the shipped reader


def test_reader_spans_stay_inside_the_window(shipped):
    context = ("We collect your name when you register. We keep your order history for five years. "
               "You may delete your account at any time.")
    window = (context.index("We keep"), context.index(" You may"))
    # (asked "How long do you keep my order history?", the shipped reader marks "order history":
    # PolicyQA's questions are shared across attributes of a practice; docs/results.md)
    [span] = shipped.read(["How long is my data retained?"], [context], [window])
    assert span.found
    assert window[0] <= span.start < span.end <= window[1]
    assert context[span.start : span.end] == span.text
    assert "five years" in span.text


def test_a_question_longer_than_the_window_is_clipped_not_a_crash(shipped):
    # 1,000 characters of one-letter words is ~500 word pieces: more than the 256-token window,
    # which made the tokenizer refuse to truncate the context only.
    question = "How long " + "a " * 495 + "?"
    context = "We keep your order history for five years."
    [span] = shipped.read([question], [context])
    assert context[span.start : span.end] == span.text


def test_answer_span_is_inside_the_best_evidence_sentence(amazon):
    answer = amazon.ask("What information do you collect about me?", policy="amazon")
    assert answer.answerable and answer.span is not None
    assert answer.span.sentence_id == answer.evidence[0].sentence_id
    sentence = answer.evidence[0].text
    assert sentence[answer.span.start : answer.span.end] == answer.span.text and answer.span.text


def test_training_resumes_from_its_checkpoint(tmp_path):
    from assistant.models.reader.train import train

    config = TrainConfig(trainable_layers=1, epochs=1, restart_epochs=1, checkpoint_every=1)
    first: list[str] = []
    train(config, checkpoint_dir=tmp_path, log=first.append, limit=32)
    assert first[-1].startswith("step 4/4")  # 2 batches: one epoch, then one in the restart cycle
    again: list[str] = []
    train(config, checkpoint_dir=tmp_path, log=again.append, limit=32)
    assert again == ["resumed at step 4"]  # nothing left to train
    other: list[str] = []
    train(TrainConfig(trainable_layers=1, epochs=1, checkpoint_every=1, seed=14), checkpoint_dir=tmp_path,
          log=other.append, limit=32)
    assert not any(line.startswith("resumed") for line in other)  # other settings start afresh
