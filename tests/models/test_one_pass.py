"""The one-pass ingest graph reads each sentence once and gives what the retriever, the practice tagger and PolicyIE
each give on their own."""
from __future__ import annotations

import json

import numpy as np
import pytest

from assistant.foundation.releases import WEIGHTS_DIR, release_files
from assistant.foundation.sentences import build_policy
from assistant.ingest.parsing import load_document
from assistant.models.one_pass.graph import RELEASE_DIR
from tests.support.paths import AMAZON, EXAMPLES


@pytest.fixture(scope="module")
def texts() -> list[str]:
    """Real sentences of two policies, short and long, plus one far past the 256 word pieces the models read."""
    sentences = [s.text for path in (AMAZON, EXAMPLES / "instagram.com.html")
                 for s in build_policy(load_document(path, 10 * 1024 * 1024)).sentences]
    return sentences[::3] + ["We may share your e-mail address, device ID and location with partners " * 30]


def test_one_pass_gives_the_retrievers_vectors_the_practice_taggers_scores_and_policyies_facts(
        texts, one_pass, retriever, policyie):
    """In fp32 the graph is each model's own function; shipped, only its two task branches are int8."""
    from assistant.foundation.inference import OnnxForward
    from assistant.models.one_pass.model import OnePassReader
    from assistant.models.practices.model import PracticeClassifier
    from assistant.models.runtime import ensure_graph

    fp32 = OnePassReader(OnnxForward(ensure_graph("one_pass", precision_="fp32")), one_pass.practices,
                         one_pass.policyie).read(texts)
    alone = PracticeClassifier.load().probabilities(texts)
    np.testing.assert_allclose(fp32.vectors, retriever.encode(texts), atol=2e-4)
    np.testing.assert_allclose(fp32.practice_probabilities, alone, atol=2e-4)
    assert fp32.facts == policyie.facts(texts)
    shipped = one_pass.read(texts)
    np.testing.assert_allclose(shipped.vectors, retriever.encode(texts), atol=2e-4)  # the trunk stays fp32
    assert np.abs(shipped.practice_probabilities - alone).max() < 0.05  # 0.018 measured
    # a sentence whose facts differ at all (one slot boundary): 10 % measured; the F1s move by at most 0.2 points
    assert np.mean([a == b for a, b in zip(shipped.facts, fp32.facts, strict=True)]) > 0.8


def test_batches_report_every_sentence_once_and_rows_keep_their_order(texts, one_pass):
    reported: list[int] = []
    readings = one_pass.read(texts[:70], on_batch=reported.append)
    assert sum(reported) == 70 and len(reported) == 3
    single = one_pass.read([texts[5]])
    np.testing.assert_allclose(readings.vectors[5], single.vectors[0], atol=2e-4)
    assert readings.facts[5] == single.facts[0]


def test_an_ingest_stores_the_one_pass_reading(amazon, one_pass):
    version = amazon.store.get_version("amazon")
    stored = amazon.store.sentences(version.id)
    readings = one_pass.read([s.text for s in stored])
    assert [s.facts for s in stored] == readings.facts
    decided = one_pass.practices.decide(readings.practice_probabilities)
    assert [list(s.categories) for s in stored] == decided
    index = amazon.store.load_index(version)
    np.testing.assert_allclose(index.vectors(), readings.vectors, atol=2e-4)


def test_the_graph_is_made_from_its_parts_files_so_a_new_part_exports_it_anew():
    files = release_files(RELEASE_DIR)
    for part in ("retriever", "practice_categories", "policyie"):
        assert WEIGHTS_DIR / part / "model.safetensors" in files
    assert RELEASE_DIR / "config.json" in files


def test_a_task_release_not_trained_on_the_retrievers_layers_is_refused(tmp_path):
    from assistant.models.one_pass.network import first_trained_layer

    (tmp_path / "config.json").write_text(json.dumps({"trainable": ["encoder.layer.5."]}))
    with pytest.raises(ValueError, match="not trained on the retriever's layers"):
        first_trained_layer(tmp_path)
    (tmp_path / "config.json").write_text(json.dumps({"trunk": "retriever", "trainable": ["encoder.layer.4.",
                                                                                          "encoder.layer.5."]}))
    assert first_trained_layer(tmp_path) == 4
