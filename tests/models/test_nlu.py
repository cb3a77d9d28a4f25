"""The shipped classifiers with the real embedder: practice categories, answerability, manifests."""
from __future__ import annotations

import json
import sqlite3

import numpy as np
import pytest

from assistant.models.practices.model import RELEASE_DIR as CATEGORIES_DIR
from assistant.models.practices.model import PracticeClassifier
from assistant.models.questions.model import QuestionClassifier

COMMANDS = {"practice_categories": "categories", "question_classifier": "questions", "retriever": "retriever",
            "policyie": "policyie", "reader": "reader", "piextract": "piextract"}


@pytest.fixture(scope="module")
def practices():
    return PracticeClassifier.load()


@pytest.fixture(scope="module")
def questions():
    return QuestionClassifier.load()


@pytest.mark.parametrize(
    ("sentence", "category"),
    [
        ("We may share your personal information with advertising partners and other third parties.",
         "Third Party Sharing/Collection"),
        ("We retain your account information for as long as your account is active and for 30 days after.",
         "Data Retention"),
        ("We use SSL encryption and firewalls to protect your information from unauthorized access.",
         "Data Security"),
        ("You can opt out of receiving marketing emails by clicking unsubscribe.", "User Choice/Control"),
    ],
)
def test_practice_categories_of_clear_sentences(practices, sentence, category):
    [predicted] = practices.predict([sentence])
    assert category in predicted


@pytest.mark.parametrize(
    ("question", "category"),
    [
        ("How long do you keep my data?", "Data Retention"),
        ("Do they share my data with advertisers?", "Third Party Sharing/Collection"),
        ("Can I delete my account?", "User Access, Edit and Deletion"),
    ],
)
def test_question_categories(embedder, questions, question, category):
    analysis = questions.analyse(embedder.encode([question])[0])
    assert analysis.label == "answerable"
    assert analysis.categories.get(category, 0) >= 0.9


def test_ingest_tags_every_sentence_with_categories(amazon):
    sentences = amazon.store.sentences(amazon.store.get_version("amazon").id)
    sharing = [s for s in sentences if s.section == "Does Amazon.com Share the Information It Receives?"]
    assert sum("Third Party Sharing/Collection" in s.categories for s in sharing) >= len(sharing) // 3
    assert all(set(s.categories) <= set(PracticeClassifier.load().labels) for s in sentences)


def test_policy_without_any_sentence_of_the_asked_category_is_silent(assistant, tmp_path):
    policy = tmp_path / "tiny.html"
    policy.write_text(
        "<h1>Tiny Co privacy</h1><p>We collect your email address when you sign up.</p>"
        "<p>We share your email address with our payment processor.</p>"
    )
    assistant.ingest(policy, name="tiny", force=True)  # a two-sentence fixture
    sentences = assistant.store.sentences(assistant.store.get_version("tiny").id)
    assert not any(s.practice_scores["Data Retention"] >= assistant.parameters.coverage_threshold for s in sentences)
    answer = assistant.ask("How long do you keep my data?", policy="tiny")
    assert (answer.answerable, answer.reason, answer.evidence) == (False, "policy_silent", [])
    assert assistant.ask("Do you share my email address?", policy="tiny").answerable


def test_a_strong_match_answers_even_where_the_tagger_missed_its_practice(assistant, tmp_path):
    import dataclasses

    policy = tmp_path / "acme.html"
    policy.write_text("<h1>Acme privacy</h1><p>Purchase history: kept for seven years.</p>")
    assistant.ingest(policy, name="acme", force=True)  # a one-sentence fixture
    sentences = assistant.store.sentences(assistant.store.get_version("acme").id)
    # the premise: the tagger misses this terse paraphrase (it finds "We keep ... for seven years."),
    # so the policy does not cover retention
    assert not any("Data Retention" in s.categories for s in sentences)
    assert max(s.practice_scores["Data Retention"] for s in sentences) < assistant.parameters.coverage_threshold
    question = "How long do you keep my purchase history?"
    answer = assistant.ask(question, policy="acme")
    assert answer.answerable and "seven years" in answer.answer
    assistant.answer_pipeline.parameters = dataclasses.replace(assistant.parameters, category_override=1.01)
    assert assistant.ask(question, policy="acme").reason == "policy_silent"


def test_stores_written_before_categories_are_migrated(tmp_path):
    from assistant.store.database import Store

    with sqlite3.connect(tmp_path / "assistant.sqlite3") as db:
        db.execute("CREATE TABLE sentences (version_id INTEGER NOT NULL, ordinal INTEGER NOT NULL, "
                   "section TEXT NOT NULL, start INTEGER NOT NULL, end INTEGER NOT NULL, text TEXT NOT NULL, "
                   "PRIMARY KEY (version_id, ordinal))")
        db.execute("INSERT INTO sentences VALUES (1, 1, '', 0, 3, 'Hi.')")
    store = Store(tmp_path)
    [sentence] = store.sentences(1)
    assert (sentence.text, sentence.categories) == ("Hi.", ())


SHIPPED = sorted(p.parent for p in (CATEGORIES_DIR.parent).glob("*/model.safetensors"))


def test_every_shipped_model_is_there():
    assert {d.name for d in SHIPPED} == {"practice_categories", "question_classifier", "retriever", "policyie",
                                         "reader", "piextract"}


@pytest.mark.parametrize("directory", SHIPPED, ids=[d.name for d in SHIPPED])
def test_shipped_weights_have_a_manifest(directory):
    manifest = json.loads((directory / "manifest.json").read_text())
    assert {"base", "data", "command", "date", "metrics"} <= set(manifest)
    assert manifest["command"] == f"assistant train {COMMANDS[directory.name]}"


def test_shipped_weights_fit_the_budget():
    # five fine-tuned six-layer releases in fp16 (about 21 MB each, the retriever's top half 11 MB) and the heads
    assert sum(f.stat().st_size for d in SHIPPED for f in d.iterdir()) <= 100_000_000


def test_categories_training_smoke_writes_a_loadable_release(tmp_path):
    from assistant.models.practices.train import TrainConfig, train_release

    directory = tmp_path / "categories"
    stages = (TrainConfig(epochs=1, trainable_layers=1), TrainConfig(epochs=1, trainable_layers=1, sentences=True))
    metrics = train_release(stages, log=lambda _: None, limit=24, directory=directory,
                            checkpoint_dir=tmp_path / "checkpoints")
    assert set(metrics["validation"]) == {"macro_f1", "micro_f1"} and metrics["best_epoch"] == 1
    assert len(metrics["stages"]) == 2 and (tmp_path / "checkpoints" / "stage1-release" / "model.safetensors").exists()
    manifest = json.loads((directory / "manifest.json").read_text())
    assert manifest["command"] == "assistant train categories" and manifest["data"]["train_segments"] == 24
    assert manifest["data"]["train_sentences"] == 24
    config = json.loads((directory / "config.json").read_text())
    assert [stage["sentences"] for stage in config["train"]] == [False, True]
    assert "lexical" in manifest["data"] and config["lexical_weight"] == 0.5
    classifier = PracticeClassifier.load(directory)
    assert len(classifier.labels) == 12 and len(classifier.thresholds) == 12
    assert classifier.lexical is not None and classifier.lexical_weight == 0.5
    [predicted] = classifier.predict(["We share your data with advertisers."])
    assert set(predicted) <= set(classifier.labels)


def test_sentence_level_scores_of_the_shipped_tagger():
    from assistant.models.practices.evaluate import evaluate

    result = evaluate("validation", limit=40, sentences=True)
    assert result["split"] == "validation" and result["sentences"] == 40
    # a tagger ranking at random would get about the categories' base rate as AP: 12% on these sentences
    assert result["macro_average_precision"] >= 50 and result["macro_f1"] >= 40


def test_lexical_half_round_trips_through_its_file(tmp_path):
    from assistant.models.practices.lexical import LexicalCategoryModel

    texts = ["We retain your data for two years.", "We keep logs for 30 days.", "We share data with partners.",
             "Partners receive your data.", "We retain logs for a year.", "We share your email with partners."]
    targets = np.array([[1, 0], [1, 0], [0, 1], [0, 1], [1, 0], [0, 1]])
    model = LexicalCategoryModel.fit(texts, targets, min_df=1, c=32.0)
    model.save(tmp_path)
    loaded = LexicalCategoryModel.load(tmp_path)
    probe = ["How long do you retain logs?", "Who do you share data with?", "unrelated words"]
    assert np.allclose(loaded.probabilities(probe), model.probabilities(probe), atol=1e-3)
    retain, share, _ = loaded.probabilities(probe)
    assert retain[0] > retain[1] and share[1] > share[0]


def test_shipped_tagger_mixes_encoder_and_lexical_halves(practices):
    text = ["We retain server logs for 90 days and then delete them."]
    j = practices.labels.index("Data Retention")
    encoder, lexical = practices.encoder_probabilities(text)[0, j], practices.lexical.probabilities(text)[0, j]
    assert practices.lexical_weight == 0.5 and lexical > 0.5
    assert practices.probabilities(text)[0, j] == pytest.approx(0.5 * encoder + 0.5 * lexical, abs=1e-6)


def test_refitting_the_lexical_half_reproduces_the_shipped_one(tmp_path):
    import shutil

    from assistant.models.practices.train import fit_lexical

    directory = tmp_path / "practice_categories"
    shutil.copytree(CATEGORIES_DIR, directory)
    (directory / "lexical.npz").unlink()
    result = fit_lexical(directory, log=lambda _: None)
    assert (directory / "lexical.npz").read_bytes() == (CATEGORIES_DIR / "lexical.npz").read_bytes()
    shipped = json.loads((CATEGORIES_DIR / "config.json").read_text())
    assert json.loads((directory / "config.json").read_text())["thresholds"] == shipped["thresholds"]
    assert result["validation"] == json.loads((CATEGORIES_DIR / "manifest.json").read_text())["metrics"]["validation"]
