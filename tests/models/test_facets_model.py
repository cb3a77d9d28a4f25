"""The question-facet classifier: its labelled data, the shipped release on real question embeddings, the
question stage that uses it, training into a folder, and `assistant eval facets` as a user runs it."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from assistant.evaluation.sets import find_set
from assistant.models.facets.model import NONE, FacetClassifier
from assistant.models.facets.train import WORDING_SETS, load_labelled, written_questions
from assistant.understanding.facets import GLANCE_QUESTIONS, facet_of, facet_rules
from tests.support.cli import cli_env

LABELS = facet_rules().labels

# Wordings no rule word covers (the third held-out set's, before the model), and questions about no facet.
BEYOND_RULES = {
    "Can I get my account and data wiped?": "deletion",
    "Does my info go to advertising networks?": "sharing_advertisers",
    "Can I view and correct the information they have on me?": "access_correction",
}
NO_FACET = ("What information do they collect?", "What do they use my data for?")


def _wordings() -> dict[str, Path]:
    return {name: find_set(name).answers for name in WORDING_SETS}


@pytest.fixture(scope="module")
def classifier() -> FacetClassifier:
    return FacetClassifier.load()


def test_labelled_data_is_well_formed_and_the_splits_are_disjoint():
    train, test = load_labelled("train"), load_labelled("test")
    assert len(train) == 1168 and len(test) == 391
    assert {q.facet for q in train + test} <= set(LABELS)
    assert len({q.question.lower() for q in train}) == len(train)
    # the fourth held-out set's wordings are never trained on
    heldout4 = {json.loads(line)["question"] for line in find_set("heldout4").answers.read_text().splitlines()}
    assert not heldout4 & {q.question for q in written_questions(facet_rules(), _wordings())}
    assert "heldout4" not in WORDING_SETS


def test_the_model_names_facets_the_rules_miss(classifier, embedder):
    for question, facet in BEYOND_RULES.items():
        assert facet_of(question) is None
        assert classifier.decide(embedder.encode([question])[0], None) == facet, question


def test_general_questions_keep_no_facet_and_the_glance_questions_keep_theirs(classifier, embedder):
    for question in NO_FACET:
        assert classifier.decide(embedder.encode([question])[0], None) is None, question
    vectors = embedder.encode(list(GLANCE_QUESTIONS.values()))
    for (facet, question), vector in zip(GLANCE_QUESTIONS.items(), vectors, strict=True):
        assert classifier.decide(vector, facet_of(question).name) == facet, question


def test_below_the_threshold_the_rules_decide(embedder):
    flat = FacetClassifier(LABELS, np.zeros((len(LABELS), 384)), np.zeros(len(LABELS)), threshold=0.5,
                           none_threshold=0.5)
    vector = embedder.encode(["Do they sell my data?"])[0]
    assert flat.decide(vector, "sale") == "sale"  # every class at 1/17: not confident
    assert flat.decide(vector, None) is None


def test_the_question_stage_reads_the_facet_from_the_model(amazon):
    understanding = amazon.answer_pipeline.understanding
    assert understanding.run("Can I get my account and data wiped?").facet == "deletion"
    assert understanding.run("Do they sell my personal information?").facet == "sale"


def test_training_writes_a_release_with_its_manifest(tmp_path):
    from assistant.models.facets.train import train

    manifest = json.loads(train(facet_rules(), _wordings(), tmp_path / "facets", log=lambda _: None).read_text())
    assert manifest["command"] == "assistant train facets"
    selection = manifest["metrics"]["selection"]
    cross = selection["privacyqa_train_5_fold"]
    assert cross["model_then_rules"]["macro_f1"] > cross["rules"]["macro_f1"]
    for scores in selection["wordings_left_out_accuracy"].values():
        assert scores["model_then_rules"] >= scores["rules"]
    retrained = FacetClassifier.load(tmp_path / "facets")
    assert retrained.labels == LABELS and NONE in retrained.labels


def test_eval_facets_command_reports_the_three_systems():
    assistant = str(Path(sys.executable).parent / "assistant")
    result = subprocess.run([assistant, "eval", "facets", "--json"], capture_output=True, text=True,
                            env=cli_env(Path("/nonexistent-home")), timeout=300, check=False)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["questions"] == 391
    systems = report["systems"]
    assert systems["model_then_rules"]["macro_f1"] > systems["rules"]["macro_f1"]
    assert systems["model_then_rules"]["accuracy"] > systems["rules"]["accuracy"]
