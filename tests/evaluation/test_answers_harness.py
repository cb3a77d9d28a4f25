"""The answers harness (`assistant eval answers`): scoring verdicts and first quotes on real policies, and its
file's errors in one line."""
from __future__ import annotations

import json

import pytest

from assistant.foundation.errors import AssistantError
from tests.support.paths import EXAMPLES


def test_answers_harness_scores_verdicts_on_real_policies(tmp_path, embedder, retriever, policyie, reader):
    from assistant.evaluation.answers import run_answers
    from assistant.foundation.sentences import build_policy
    from assistant.ingest.parsing import load_document

    sentences = [s.text for s in build_policy(load_document(EXAMPLES / "amazon.com.html", 10**7)).sentences]
    selling = next(s for s in sentences if "not in the business of selling" in s)
    cookies = next(s for s in sentences if s.startswith('For example, like many Web sites, we use "cookies,"'))
    data = tmp_path / "answers.jsonl"
    rows = [
        {"policy_file": "amazon.com.html", "question": "Do they sell my personal information?", "verdict": "no",
         "evidence": [40], "evidence_text": [selling]},
        {"policy_file": "amazon.com.html", "question": "Do they use my data to train AI or machine-learning models?",
         "verdict": "not_stated"},
        {"policy_file": "amazon.com.html", "question": "Do they use cookies or similar technologies to track me?",
         "verdict": "conditional", "evidence": [24], "evidence_text": [cookies]},
        {"policy_file": "amazon.com.html", "question": "Do they knowingly collect information from children?",
         "verdict": "no", "ambiguous": True},
    ]
    data.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    report = run_answers(data, EXAMPLES, embedder=embedder, retriever=retriever, policyie=policyie, reader=reader)
    out = report.to_json()
    assert out["items"] == 3 and out["skipped_ambiguous"] == 1
    assert {"accuracy", "items", "by_verdict", "baselines", "first_quote_supports", "not_stated"} <= set(out)
    assert out["accuracy"] == 100.0  # a gold "conditional" accepts "yes"
    assert out["first_quote_supports"] == 100.0
    assert out["baselines"]["always_yes"]["accuracy"] == pytest.approx(33.3)


def test_answers_file_errors_are_one_line(tmp_path):
    from assistant.evaluation.answers import load_items

    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"policy_file": "a.html", "question": "q?", "verdict": "maybe"}\n')
    with pytest.raises(AssistantError, match=r"bad.jsonl:1: verdict 'maybe'"):
        load_items(bad)
    bad.write_text("not json\n")
    with pytest.raises(AssistantError, match=r"bad.jsonl:1: not an answers item"):
        load_items(bad)
    with pytest.raises(AssistantError, match="no such file"):
        load_items(tmp_path / "missing.jsonl")
