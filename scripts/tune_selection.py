"""Tune the engine's evidence selection on the PrivacyQA dev file (never on a test split).

Scores every sentence of the policy once per question (`Assistant.rank_evidence` with no bonus and
no context share: the fine-tuned retriever's calibrated relevance and the category agreement),
then sweeps offline, scoring with the engine's own `selection_logits` and selecting as
`Assistant.ask` does: the category bonus, the context weight, `evidence_threshold`, the evidence
cap and `silence_threshold`. Prints the sentence-level F1 (Ravichander et al. 2019 metric) and
answerability of the best settings.

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

import numpy as np
from rich.console import Console
from rich.table import Table

from assistant.config import Settings
from assistant.corpora import corpus_dir
from assistant.engine import Assistant
from assistant.evaluation.metrics import binary_score, mean_score, question_score
from assistant.evaluation.privacyqa import load_privacyqa
from assistant.selection import NO_MATCH_LOGIT, selection_logits
from assistant.sentences import policy_from_sentences

BONUSES = (0.0, 1.0, 2.0, 3.0)
CONTEXT_WEIGHTS = (0.0, 0.3, 0.5, 0.7, 1.0)
EVIDENCE_THRESHOLDS = (0.0001, 0.001, 0.01, 0.03, 0.1)
CAPS = (5, 10, 15, 20, 30)
SILENCE_THRESHOLDS = (0.0, 0.01, 0.03, 0.05, 0.1, 0.2)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", type=Path, default=corpus_dir("privacyqa") / "privacyqa_lb_dev.json")
    parser.add_argument("--top", type=int, default=25, help="how many of the best settings to print")
    arguments = parser.parse_args()
    dataset = load_privacyqa(arguments.data)
    rows = dev_rows(dataset)
    results = []
    for bonus, weight in itertools.product(BONUSES, CONTEXT_WEIGHTS):
        scored = [(question, reason, relevance, on_topic,
                   np.argsort(-selection_logits(relevance, on_topic, bonus, weight)),
                   _sigmoid(selection_logits(relevance, on_topic, bonus, weight)))
                  for question, reason, relevance, on_topic in rows]
        for silence, threshold, cap in itertools.product(SILENCE_THRESHOLDS, EVIDENCE_THRESHOLDS, CAPS):
            predictions = []
            for _, reason, relevance, on_topic, order, probability in scored:
                if reason is not None or _sigmoid(relevance.max()) < silence:
                    predictions.append(frozenset())
                    continue
                order = [int(i) for i in order if relevance[i] > NO_MATCH_LOGIT]
                if not order:
                    predictions.append(frozenset())
                    continue
                first = max(order, key=lambda i: relevance[i] + bonus * on_topic[i])  # as rank_evidence
                order = [first] + [i for i in order if i != first]
                predictions.append(frozenset(order[:1] + [i for i in order[1:cap] if probability[i] >= threshold]))
            score = mean_score(question_score(p, q.references) for p, (q, *_) in zip(predictions, scored))
            answerability = binary_score((bool(p), q.answerable) for p, (q, *_) in zip(predictions, scored))
            results.append((score.f1, bonus, weight, silence, threshold, cap, score, answerability))
    table = Table(title=f"Best evidence selection settings on {len(rows)} dev questions (%)")
    for column in ("bonus", "context", "silence", "evidence ≥", "cap", "P", "R", "F1", "answerable F1", "accuracy"):
        table.add_column(column, justify="right")
    for _, bonus, weight, silence, threshold, cap, score, answerability in sorted(results, key=lambda r: -r[0])[
        : arguments.top
    ]:
        table.add_row(f"{bonus:g}", f"{weight:g}", f"{silence:g}", f"{threshold:g}", str(cap), *(
            f"{100 * v:.1f}" for v in (score.precision, score.recall, score.f1, answerability.f1,
                                       answerability.accuracy)))
    Console().print(table)


def dev_rows(dataset) -> list[tuple]:
    """(question, refusal reason, relevance logits, on-topic flags) per question: every sentence scored
    once by `Assistant.rank_evidence` with no bonus and no context share."""
    rows = []
    with tempfile.TemporaryDirectory() as home:
        settings = dataclasses.replace(Settings.from_env(), home=Path(home), category_bonus=0.0, context_weight=0.0,
                                       candidates=1_000_000)
        assistant = Assistant(settings)
        for name, sentences in dataset.policies.items():
            digest = hashlib.sha256("\n".join(sentences).encode()).hexdigest()
            assistant.store_policy(policy_from_sentences(sentences), name, "tune", digest)
        for question in dataset.questions:
            ranking = assistant.rank_evidence(question.question, policy=question.policy_id)
            n = len(dataset.policies[question.policy_id])
            relevance, on_topic = np.full(n, NO_MATCH_LOGIT), np.zeros(n)
            for r in ranking.ranked:
                relevance[r.sentence.ordinal - 1] = _logit(r.relevance)
                on_topic[r.sentence.ordinal - 1] = r.on_topic
            rows.append((question, ranking.reason, relevance, on_topic))
    return rows


def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


def _logit(probability: float) -> float:
    probability = min(max(probability, 1e-12), 1 - 1e-12)
    return math.log(probability / (1 - probability))


if __name__ == "__main__":
    main()
