"""Tune the engine's evidence selection on the PrivacyQA dev file (never on a test split).

Ranks every question's candidates once (`Assistant.rank_evidence`, with the scorer chosen by the
environment: ASSISTANT_RERANK_TOP=0 for the fine-tuned retriever's calibrated score, N for the
cross-encoder over the retriever's best N), then sweeps offline, as `Assistant.ask` applies them:
the category bonus, `evidence_threshold`, the evidence cap and `silence_threshold`. Prints the
sentence-level F1 (Ravichander et al. 2019 metric) and answerability of the best settings.

    .venv/bin/python scripts/tune_selection.py [--data FILE] [--top 25]
"""
from __future__ import annotations

import argparse
import dataclasses
import hashlib
import itertools
import math
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

BONUSES = (0.0, 1.0, 2.0, 3.0, 5.0, 8.0)
EVIDENCE_THRESHOLDS = (0.0001, 0.0003, 0.001, 0.003, 0.01, 0.03, 0.1, 0.2, 0.3, 0.5)
CAPS = (3, 5, 10, 15, 20, 30, 40)
SILENCE_THRESHOLDS = (0.0, 0.00005, 0.0001, 0.001, 0.01, 0.03, 0.05, 0.1, 0.2, 0.3)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", type=Path, default=corpus_dir("privacyqa") / "privacyqa_lb_dev.json")
    parser.add_argument("--top", type=int, default=25, help="how many of the best settings to print")
    arguments = parser.parse_args()
    dataset = load_privacyqa(arguments.data)
    rows = []
    with tempfile.TemporaryDirectory() as home:
        settings = dataclasses.replace(Settings.from_env(), home=Path(home))
        assistant = Assistant(settings)
        for name, sentences in dataset.policies.items():
            digest = hashlib.sha256("\n".join(sentences).encode()).hexdigest()
            assistant.store_policy(policy_from_sentences(sentences), name, "tune", digest)
        for question in dataset.questions:
            ranking = assistant.rank_evidence(question.question, policy=question.policy_id)
            ranked = [(r.sentence.ordinal - 1, _logit(r.relevance), r.on_topic) for r in ranking.ranked]
            rows.append((question, ranking.reason, ranked))
    results = []
    for bonus in BONUSES:
        scored = [
            (question, reason, sorted(((i, 1 / (1 + math.exp(-(z + bonus * on))), 1 / (1 + math.exp(-z)))
                                       for i, z, on in ranked), key=lambda r: -r[1]))
            for question, reason, ranked in rows
        ]
        for silence, threshold, cap in itertools.product(SILENCE_THRESHOLDS, EVIDENCE_THRESHOLDS, CAPS):
            predictions = []
            for _, reason, ranked in scored:
                refused = reason is not None or max((r[2] for r in ranked), default=0.0) < silence
                chosen = [] if refused else ranked[:1] + [r for r in ranked[1:cap] if r[1] >= threshold]
                predictions.append(frozenset(r[0] for r in chosen))
            score = mean_score(question_score(p, q.references) for p, (q, _, _) in zip(predictions, scored))
            answerability = binary_score((bool(p), q.answerable) for p, (q, _, _) in zip(predictions, scored))
            results.append((score.f1, bonus, silence, threshold, cap, score, answerability))
    table = Table(title=f"Best evidence selection settings on {len(rows)} dev questions (%)")
    for column in ("bonus", "silence", "evidence ≥", "cap", "P", "R", "F1", "answerable F1", "accuracy"):
        table.add_column(column, justify="right")
    for _, bonus, silence, threshold, cap, score, answerability in sorted(results, key=lambda r: -r[0])[
        : arguments.top
    ]:
        table.add_row(f"{bonus:g}", f"{silence:g}", f"{threshold:g}", str(cap), *(f"{100 * v:.1f}" for v in (
            score.precision, score.recall, score.f1, answerability.f1, answerability.accuracy)))
    Console().print(table)


def _logit(probability: float) -> float:
    probability = min(max(probability, 1e-12), 1 - 1e-12)
    return math.log(probability / (1 - probability))


if __name__ == "__main__":
    main()
