"""`assistant search`, `compare --topic` and `assistant eval alignment` as a user runs them: the real CLI in a
subprocess over a store of the bundled examples, and the alignment evaluation on a small real slice of OPP-115."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from assistant.evaluation.alignment import PolicySegment, cross_policy_pairs, pairwise_score, same_issue
from assistant.store.database import Store
from tests.conftest import EXAMPLES
from tests.test_compare import _assistant, run


@pytest.fixture(scope="module")
def two_policies(tmp_path_factory, embedder, retriever, policyie) -> Path:
    home = tmp_path_factory.mktemp("search") / "home"
    assistant = _assistant(home, embedder, retriever, policyie)
    for name in ("amazon", "instagram"):
        assistant.ingest(next(EXAMPLES.glob(f"{name}.*.html")), name=name)
    return home


def stored_sentences(home: Path) -> dict[tuple[str, int], str]:
    store = Store(home)
    try:
        return {(v.name, s.ordinal): s.text for v in store.latest_versions() for s in store.sentences(v.id)}
    finally:
        store.close()


def test_search_finds_the_best_sentences_across_policies_verbatim(two_policies):
    result = run(two_policies, "search", "How long do you keep my data?", "--top", "8", "--json")
    assert result.returncode == 0, result.stderr
    found = json.loads(result.stdout)
    stored = stored_sentences(two_policies)
    assert (found["scope"], found["index"], found["searched"]) == ("all", "flat", len(stored))
    matches = found["matches"]
    assert len(matches) == 8
    assert all(m["text"] == stored[(m["policy"], m["sentence_id"])] for m in matches)  # verbatim, right place
    assert [m["score"] for m in matches] == sorted((m["score"] for m in matches), reverse=True)
    assert {m["policy"] for m in matches} == {"amazon", "instagram"}
    assert matches[0]["policy"] == "instagram" and "How long we keep" in matches[0]["text"]
    assert all(m["section"] and m["version"] == 1 for m in matches)


def test_search_in_one_policy_and_the_table(two_policies):
    result = run(two_policies, "search", "Do you sell my information?", "--policy", "amazon", "--top", "3", "--json")
    assert result.returncode == 0, result.stderr
    matches = json.loads(result.stdout)["matches"]
    assert len(matches) == 3 and {m["policy"] for m in matches} == {"amazon"}
    table = run(two_policies, "search", "security of my password", "--top", "2")
    assert table.returncode == 0, table.stderr
    assert "in all policies" in table.stdout and "sentence" in table.stdout and "flat index" in table.stdout


@pytest.mark.parametrize("args, words", [
    (["search", "cookies", "--all", "--policy", "amazon"], "either --all or --policy"),
    (["search", "   "], "search text is empty"),
    (["search", "cookies", "--policy", "nobody"], "Unknown policy 'nobody'"),
    (["search", "cookies", "--top", "0"], "--top"),
])
def test_bad_search_input_is_one_line_and_exit_2(two_policies, args, words):
    result = run(two_policies, *args)
    assert result.returncode == 2 and words in result.stderr and "Traceback" not in result.stderr


def test_search_follows_a_removal(two_policies, tmp_path, embedder, retriever, policyie):
    home = tmp_path / "home"
    assistant = _assistant(home, embedder, retriever, policyie)
    for name in ("amazon", "instagram"):
        assistant.ingest(next(EXAMPLES.glob(f"{name}.*.html")), name=name)
    first = json.loads(run(home, "search", "account deletion", "--top", "40", "--json").stdout)
    assert {m["policy"] for m in first["matches"]} == {"amazon", "instagram"}
    assert run(home, "remove", "instagram").returncode == 0
    after = json.loads(run(home, "search", "account deletion", "--top", "40", "--json").stdout)
    assert {m["policy"] for m in after["matches"]} == {"amazon"} and after["searched"] == len(stored_sentences(home))
    store = Store(home)
    owned = {v.index_file for v in store.latest_versions()} | {r[0] for r in store.db.execute(
        "SELECT name FROM cross_indexes")}
    assert {p.name for p in store.index_dir.iterdir()} == owned  # the stale cross index was deleted


def test_compare_topic_lines_up_each_policys_sentences_on_the_issue(two_policies):
    result = run(two_policies, "compare", "amazon", "instagram", "--topic", "Data Security", "--json")
    assert result.returncode == 0, result.stderr
    aligned = json.loads(result.stdout)
    assert (aligned["issue"], aligned["kind"]) == ("Data Security", "category")
    assert [p["policy"] for p in aligned["policies"]] == ["amazon", "instagram"]
    store = Store(two_policies)
    for passages in aligned["policies"]:
        version = store.get_version(passages["policy"])
        tagged = [s.ordinal for s in store.sentences(version.id) if "Data Security" in s.categories]
        assert [s["sentence_id"] for s in passages["sentences"]] == tagged and tagged
    facet = run(two_policies, "compare", "amazon", "instagram", "--topic", "how long do they keep my data")
    assert facet.returncode == 0 and "retention (facet)" in facet.stdout
    assert "not stated" in facet.stdout  # the Amazon example says nothing about how long it keeps data
    unknown = run(two_policies, "compare", "amazon", "instagram", "--topic", "the weather")
    assert unknown.returncode == 2 and "No issue matches" in unknown.stderr


def test_pairwise_scores_count_only_pairs_of_different_policies():
    segments = [PolicySegment("a", frozenset({"p1"}), frozenset({"Data Retention"})),
                PolicySegment("b", frozenset({"p2"}), frozenset({"Data Retention", "Data Security"})),
                PolicySegment("c", frozenset({"p2"}), frozenset({"Data Security"})),
                PolicySegment("d", frozenset({"p1", "p3"}), frozenset({"Policy Change"}))]
    pairs = cross_policy_pairs(segments)
    assert {(i, j) for i, j in zip(*np.nonzero(pairs), strict=True)} == {(0, 1), (0, 2), (1, 3), (2, 3)}
    gold = same_issue([s.categories for s in segments])  # (0, 1): share Data Retention; the rest do not
    predicted = same_issue([{0}, {0}, {0}, {1}])  # a clustering: (0, 1) and (0, 2) together
    score = pairwise_score("x", predicted, gold, pairs)
    assert (score.precision, score.recall, score.f1) == (50.0, 100.0, 66.7)


def test_eval_alignment_on_a_small_real_slice():
    result = run(Path("/nonexistent-home"), "eval", "alignment", "--limit", "60", "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["segments"] == 60 and report["tuned_on"] == {"split": "validation", "segments": 60}
    assert 0 < report["same_issue_pairs"] < report["cross_policy_pairs"]
    methods = {m["method"].split(" (")[0].split(":")[0]: m for m in report["methods"]}
    assert set(methods) == {"every pair the same issue", "TF-IDF + k-means", "retriever embeddings + k-means",
                            "practice tagger"}
    assert methods["every pair the same issue"]["recall"] == 100.0
    assert all(0 <= m[key] <= 100 for m in report["methods"] for key in ("precision", "recall", "f1"))
    assert methods["practice tagger"]["f1"] > methods["TF-IDF + k-means"]["f1"]
    assert run(Path("/nonexistent-home"), "eval", "alignment", "--split", "validation").returncode == 2
