"""Tune the engine's evidence selection on the PrivacyQA dev file (never on a test split).

Ranks every question's candidates once (`Assistant.rank_evidence`), then sweeps
`evidence_threshold`, the evidence cap and `silence_threshold` offline, applying them as
`Assistant.ask` does, and prints the sentence-level F1 (Ravichander et al. 2019 metric,
`assistant.evaluation.metrics`) and answerability for each setting. Environment settings (e.g. ASSISTANT_CATEGORY_BONUS) apply.

    .venv/bin/python scripts/tune_selection.py [--data FILE]
"""
from __future__ import annotations

import argparse
import dataclasses
import hashlib
import tempfile
from pathlib import Path

from rich.console import Console
from rich.table import Table

from assistant.config import Settings
from assistant.corpora import corpus_dir
from assistant.engine import Assistant
from assistant.evaluation.metrics import binary_score, mean_score, question_score
from assistant.evaluation.privacyqa import load_privacyqa
from assistant.sentences import policy_from_sentences

EVIDENCE_THRESHOLDS = (0.0001, 0.0003, 0.001, 0.01)
CAPS = (5, 10, 15, 20, 30)
SILENCE_THRESHOLDS = (0.0, 0.00002, 0.00005, 0.0001, 0.0002)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", type=Path, default=corpus_dir("privacyqa") / "privacyqa_lb_dev.json")
    dataset = load_privacyqa(parser.parse_args().data)
    rows = []
    with tempfile.TemporaryDirectory() as home:
        settings = dataclasses.replace(Settings.from_env(), home=Path(home))
        assistant = Assistant(settings)
        for name, sentences in dataset.policies.items():
            digest = hashlib.sha256("\n".join(sentences).encode()).hexdigest()
            assistant.store_policy(policy_from_sentences(sentences), name, "tune", digest)
        for question in dataset.questions:
            ranking = assistant.rank_evidence(question.question, policy=question.policy_id)
            ranked = [(r.sentence.ordinal - 1, r.score, r.relevance) for r in ranking.ranked]
            rows.append((question, ranking.reason, ranked))
    table = Table(title=f"Evidence selection on {len(rows)} dev questions (F1 and answerability F1, %)")
    for column in ("silence", "evidence ≥", "cap", "P", "R", "F1", "answerable F1", "accuracy"):
        table.add_column(column, justify="right")
    for silence in SILENCE_THRESHOLDS:
        for threshold in EVIDENCE_THRESHOLDS:
            for cap in CAPS:
                predictions = []
                for question, reason, ranked in rows:
                    refused = reason is not None or max((r[2] for r in ranked), default=0.0) < silence
                    chosen = [] if refused else ranked[:1] + [r for r in ranked[1:cap] if r[1] >= threshold]
                    predictions.append(frozenset(r[0] for r in chosen))
                score = mean_score(question_score(p, q.references) for p, (q, _, _) in zip(predictions, rows))
                answerability = binary_score((bool(p), q.answerable) for p, (q, _, _) in zip(predictions, rows))
                table.add_row(f"{silence:g}", f"{threshold:g}", str(cap), *(f"{100 * v:.1f}" for v in (
                    score.precision, score.recall, score.f1, answerability.f1, answerability.accuracy)))
    Console().print(table)


if __name__ == "__main__":
    main()
