"""ONNX Runtime inference: the same numbers as torch, a cache keyed by the release, and an `ask` from a fresh
process that never imports the training stack."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from assistant.foundation.errors import AssistantError
from assistant.foundation.inference import OnnxForward, backend
from assistant.foundation.tokenization import encode_pairs, encode_texts, encode_words
from assistant.models.registry import GRAPHS
from assistant.models.runtime import SharedPass, ensure_graph, graph_path, load_forward
from tests.support.cli import cli_env

SENTENCES = [
    "We do not sell your personal information.",
    ("We share your email address, device identifiers and purchase history with advertising partners, "
     "analytics providers and companies that help us deliver our services, as described below."),
    "Cookies.",
]


def _batch(name: str):
    if name == "reader":
        return encode_pairs(["Do they sell my data?"] * 3, SENTENCES, 256)
    if name == "policyie":
        return encode_words([s.split() for s in SENTENCES], 256)
    return encode_texts(SENTENCES, 256)


@pytest.mark.parametrize("name", list(GRAPHS))
def test_onnx_graph_gives_the_torch_numbers(name):
    from assistant.models.graphs import torch_forward

    batch = _batch(name).feeds(GRAPHS[name].inputs)
    expected = torch_forward(GRAPHS[name], GRAPHS[name].release)(batch)
    got = OnnxForward(ensure_graph(name, precision_="fp32"))(batch)
    assert [o.shape for o in got] == [e.shape for e in expected]
    for e, g in zip(expected, got):
        np.testing.assert_allclose(g, e, atol=2e-3, rtol=1e-3)


@pytest.mark.parametrize("release", [False, True], ids=["embedder", "retriever"])
def test_onnx_vectors_match_the_sentence_transformers_ones_in_stored_indexes(release):
    """Indexes ingested before ONNX were embedded by sentence-transformers: ONNX vectors must stay comparable."""
    from assistant.foundation.encoder import load_base_model
    from assistant.foundation.releases import load_release
    from assistant.models.retriever.model import RELEASE_DIR, Embedder

    reference = load_base_model("cpu")
    if release:
        state, _ = load_release(RELEASE_DIR)
        reference[0].auto_model.load_state_dict(state, strict=False)
    texts = SENTENCES * 30  # several batches, padded by length
    expected = reference.encode(texts, normalize_embeddings=True, convert_to_numpy=True)
    got = Embedder(release=RELEASE_DIR if release else None).encode(texts)
    cosines = (expected * got).sum(axis=1)
    assert cosines.min() > 0.999
    assert np.allclose(np.linalg.norm(got, axis=1), 1.0, atol=1e-5)


def test_the_question_graph_gives_the_embedder_and_the_retriever_vectors_in_one_pass():
    feeds = encode_texts(["Do they sell my data?", *SENTENCES], 256).feeds(GRAPHS["question"].inputs)
    embedding, retrieval = OnnxForward(ensure_graph("question"))(feeds)
    np.testing.assert_allclose(embedding, OnnxForward(ensure_graph("embedder"))(feeds)[0], atol=1e-5)
    np.testing.assert_allclose(retrieval, OnnxForward(ensure_graph("retriever"))(feeds)[0], atol=1e-5)
    assert (embedding * retrieval).sum(axis=1).max() < 0.99  # two models: the retriever's top layers differ


class CountedForward(OnnxForward):
    runs = 0

    def __call__(self, feeds):
        CountedForward.runs += 1
        return super().__call__(feeds)


def test_a_shared_pass_runs_once_for_both_models_on_the_same_text_and_again_on_another():
    shared = SharedPass(CountedForward(ensure_graph("question")))
    serves = GRAPHS["question"].serves
    embedder, retriever = shared.output(serves.index("embedder")), shared.output(serves.index("retriever"))
    question = encode_texts(["Do they sell my data?"], 256).feeds(GRAPHS["question"].inputs)
    [asked_embedding], [asked_retrieval] = embedder(question), retriever(dict(question))
    assert CountedForward.runs == 1
    other = encode_texts(["How long do they keep my data?"], 256).feeds(GRAPHS["question"].inputs)
    [other_retrieval] = retriever(other)
    assert CountedForward.runs == 2
    np.testing.assert_allclose(other_retrieval, OnnxForward(ensure_graph("retriever"))(other)[0], atol=1e-5)
    np.testing.assert_allclose(asked_retrieval, OnnxForward(ensure_graph("retriever"))(question)[0], atol=1e-5)
    np.testing.assert_allclose(asked_embedding, OnnxForward(ensure_graph("embedder"))(question)[0], atol=1e-5)


def test_a_changed_release_gets_its_own_graph_exported_on_first_use(tmp_path, monkeypatch):
    from assistant.models.retriever.model import RELEASE_DIR

    monkeypatch.setenv("ASSISTANT_ONNX_CACHE", str(tmp_path / "cache"))
    copy = tmp_path / "retriever"
    shutil.copytree(RELEASE_DIR, copy)
    shipped = graph_path("retriever", copy, "fp32")
    assert shipped.parent.parent == tmp_path / "cache" and not shipped.exists()
    forward = load_forward("retriever", copy)  # exports into the cache
    assert shipped.exists() and shipped.parent.joinpath("model.onnx").exists()
    [vectors] = forward(encode_texts(SENTENCES, 256).feeds(GRAPHS["retriever"].inputs))
    assert vectors.shape == (3, 384)
    (copy / "config.json").write_text((copy / "config.json").read_text().replace("700", "701"))
    retrained = graph_path("retriever", copy, "fp32")
    assert retrained != shipped and not retrained.exists()


def test_a_fresh_cache_exports_the_questions_two_graphs_on_the_preload_threads(tmp_path, monkeypatch):
    # the first `ask` on a fresh machine exports the question graph and the reader at once, on two threads
    from assistant.models import runtime

    monkeypatch.setenv("ASSISTANT_ONNX_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(runtime._Preload, "started", None)
    runtime.preload(("question", "reader"))
    runtime.wait_for_preload()
    embedder, reader = load_forward("embedder"), load_forward("reader")
    assert graph_path("question", GRAPHS["question"].release, "fp32").exists()
    [vectors] = embedder(encode_texts(SENTENCES, 256).feeds(GRAPHS["embedder"].inputs))
    start, _ = reader(_batch("reader").feeds(GRAPHS["reader"].inputs))
    assert vectors.shape == (3, 384) and start.shape[0] == 3


def test_an_unknown_backend_is_one_clear_error(monkeypatch):
    monkeypatch.setenv("ASSISTANT_BACKEND", "tensorflow")
    with pytest.raises(AssistantError, match="ASSISTANT_BACKEND='tensorflow' is not one of onnx"):
        backend()


def test_every_registered_graph_names_a_torch_builder_and_registered_models():
    from assistant.models.graph_spec import resolve

    for name, spec in GRAPHS.items():
        assert spec.name == name and spec.precision in ("fp32", "int8")
        assert spec.builder.startswith("assistant.models.") and callable(resolve(spec.builder))
        assert all(served in GRAPHS for served in spec.serves) and len(spec.serves) in (0, len(spec.outputs))
    with pytest.raises(ValueError, match="no model named 'nothing'"):
        load_forward("nothing")


def _counting_builder(bert, directory):
    """A registered graph that is no model: each row's number of tokens (for the registry test)."""
    import torch

    class Count(torch.nn.Module):
        def forward(self, input_ids, attention_mask):
            return attention_mask.sum(1, keepdim=True).float() + 0 * input_ids[:, :1].float()

    return Count()


def test_a_graph_registered_in_the_registry_alone_exports_and_runs_on_both_backends(tmp_path, monkeypatch):
    from assistant.models.graph_spec import TEXT, GraphSpec

    spec = GraphSpec("counting", TEXT, ("count",), release=None, precision="fp32",
                     builder=f"{__name__}:_counting_builder")
    monkeypatch.setitem(GRAPHS, spec.name, spec)
    monkeypatch.setenv("ASSISTANT_ONNX_CACHE", str(tmp_path / "cache"))
    feeds = encode_texts(SENTENCES, 256).feeds(spec.inputs)
    [onnx] = load_forward("counting")(feeds)
    assert graph_path("counting", None, "fp32").exists()
    monkeypatch.setenv("ASSISTANT_BACKEND", "torch")
    [torch_counts] = load_forward("counting")(feeds)
    np.testing.assert_array_equal(onnx, torch_counts)
    np.testing.assert_array_equal(onnx[:, 0], feeds["attention_mask"].sum(1))


ONNX_SIDE = """
import sys
import assistant.models.registry, assistant.models.runtime
import assistant.models.piextract.model, assistant.models.policyie.model, assistant.models.practices.model
import assistant.models.reader.model, assistant.models.retriever.model
heavy = ("torch", "transformers", "sentence_transformers", "assistant.models.graphs")
print(sorted(m for m in heavy if m in sys.modules))
"""


def test_the_registry_and_the_inference_modules_import_no_torch():
    done = subprocess.run([sys.executable, "-c", ONNX_SIDE], check=True, capture_output=True, text=True, timeout=120)
    assert done.stdout.strip() == "[]"


PROBE = """
import sys
from assistant.frontends.launch import run
from assistant.models import runtime
sys.argv = ["assistant", "ask", "Do they sell my data?", "--policy", "amazon", "--json"]
one_question, code = run()
assert one_question and not code, code
heavy = sorted(m for m in ("torch", "transformers", "sentence_transformers") if m in sys.modules)
preload = runtime._Preload.started
print("PRELOADED:", sorted(preload.ready) if preload else None, "LEFT:", sorted(preload.results) if preload else None)
print("HEAVY:", ",".join(heavy) or "none")
"""


def test_a_fresh_process_answers_without_importing_torch_or_transformers(amazon_home):
    env = cli_env(amazon_home, ASSISTANT_SERVER="off")
    env.pop("ASSISTANT_BACKEND", None)
    done = subprocess.run([sys.executable, "-c", PROBE], check=False, capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    assert '"evidence"' in done.stdout and '"policy": "amazon"' in done.stdout
    assert done.stdout.strip().endswith("HEAVY: none")
    # the launcher built the question's two sessions on its thread, and the engine took each of its three models
    assert "PRELOADED: ['question', 'reader'] LEFT: []" in done.stdout


def test_export_command_lists_every_model(tmp_path):
    env = cli_env(tmp_path / "home")
    done = subprocess.run([sys.executable, "-m", "assistant.frontends.cli", "export"], check=False,
                          capture_output=True, text=True, env=env, timeout=900)
    assert done.returncode == 0, done.stderr
    for name in GRAPHS:
        assert any(line.startswith(f"{name}: ") and Path(line.split(": ", 1)[1].split(" (")[0]).exists()
                   for line in done.stdout.splitlines())
