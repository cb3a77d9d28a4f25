"""`assistant eval alignment`: pairwise scores by hand, and the command as a user runs it on a small real slice of
OPP-115."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from assistant.evaluation.alignment import PolicySegment, cross_policy_pairs, pairwise_score, same_issue
from tests.support.cli import run_long


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
    result = run_long(Path("/nonexistent-home"), "eval", "alignment", "--limit", "60", "--json")
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
    assert run_long(Path("/nonexistent-home"), "eval", "alignment", "--split", "validation").returncode == 2
