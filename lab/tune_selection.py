"""Tune the engine's evidence selection on the PrivacyQA dev file (never on a test split).

Scores every sentence of the policy once per question (`Assistant.rank_evidence` with no topic
score and every sentence a candidate: the fine-tuned retriever's calibrated relevance and the
practice match), then sweeps offline, ranking and selecting with the engine's own functions
(`assistant.answering.selection.rank_candidates` and `select`): the practice-match weight, the
evidence margin and the evidence cap. Prints the sentence-level F1 (Ravichander et al. 2019
metric) and answerability of the best parameters, and, to show how much of the gain is fitted to
the file, a leave-one-policy-out score: each policy's questions scored with the parameters that
are best on the other policies' questions. The chosen parameters ship in `weights/selection.json`.

    .venv/bin/python -m lab.tune_selection [--data FILE] [--top 25]
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

from assistant.answering.selection import (
    NO_MATCH_LOGIT,
    SelectionParameters,
    rank_candidates,
    select,
    topic_scores,
)
from assistant.corpora import corpus_dir
from assistant.corpora.privacyqa import LB_DEV_FILE, PrivacyQADataset, PrivacyQAQuestion, load_privacyqa
from assistant.engine import Assistant
from assistant.evaluation.metrics import binary_score, mean_score, question_score
from assistant.foundation.maths import sigmoid
from assistant.foundation.sentences import policy_from_sentences
from assistant.foundation.settings import Settings

MATCH_WEIGHTS = (0.0, 2.0, 4.0, 6.0, 8.0)
MARGINS = (3.0, 4.0, 5.0, 6.0, 8.0)
CAPS = (10, 15, 20, 30)


@dataclasses.dataclass(frozen=True)
class DevRow:
    """One dev question with every sentence of its policy scored once (in the file's order)."""

    question: PrivacyQAQuestion
    reason: str | None  # the question classifier's or the category rule's refusal
    relevance: np.ndarray  # calibrated relevance logits (NO_MATCH_LOGIT: cannot be evidence)
    match: np.ndarray  # practice match in [0, 1]


def predicted(row: DevRow, parameters: SelectionParameters) -> frozenset[int]:
    """The sentences (0-based) `Assistant.ask` quotes with these parameters, through the engine's
    own ranking and selection."""
    if row.reason is not None:
        return frozenset()
    topic = topic_scores(row.match, parameters.practice_match_weight)
    order = rank_candidates(row.relevance, topic, parameters.candidates)
    scores = row.relevance + topic
    selection = select([scores[i] for i in order], [float(sigmoid(row.relevance[i])) for i in order], parameters,
                       parameters.max_evidence)
    return frozenset() if selection.silent else frozenset(order[i] for i in selection.positions)


def sweep(rows: list[DevRow], shipped: SelectionParameters) -> list[tuple]:
    """(parameters, per-question F1 array, mean score, answerability) for every cell of the grid."""
    results = []
    for weight, margin, cap in itertools.product(MATCH_WEIGHTS, MARGINS, CAPS):
        parameters = dataclasses.replace(shipped, practice_match_weight=weight, evidence_margin=margin,
                                         max_evidence=cap)
        predictions = [predicted(row, parameters) for row in rows]
        per_question = [question_score(p, row.question.references) for p, row in zip(predictions, rows)]
        answerability = binary_score((bool(p), row.question.answerable) for p, row in zip(predictions, rows))
        results.append(((weight, margin, cap), np.array([s.f1 for s in per_question]), mean_score(per_question),
                        answerability))
    return results


def leave_one_policy_out(rows: list[DevRow], results: list[tuple], log=lambda _: None) -> float:
    """Mean F1 when each policy's questions are scored with the parameters that are best on the other
    policies' questions. `results` holds (parameters, per-question F1 array, ...) tuples."""
    policies = np.array([row.question.policy_id for row in rows])
    held_out = np.zeros(len(rows))
    for policy in sorted(set(policies)):
        others = policies != policy
        best = max(results, key=lambda r: r[1][others].mean())
        held_out[~others] = best[1][~others]
        log(f"held out {policy}: best elsewhere {best[0]}, F1 there {100 * best[1][~others].mean():.1f}")
    return float(held_out.mean())


def dev_rows(dataset: PrivacyQADataset, **models) -> list[DevRow]:
    """Every dev question with every sentence of its policy scored once by `Assistant.rank_evidence`
    (no topic score, every sentence a candidate). `models` go to the `Assistant`."""
    rows = []
    shipped = SelectionParameters.load()
    unweighted = dataclasses.replace(shipped, practice_match_weight=0.0, candidates=1_000_000)
    with tempfile.TemporaryDirectory() as home:
        assistant = Assistant(Settings(home=Path(home)), parameters=unweighted, **models)
        for name, sentences in dataset.policies.items():
            digest = hashlib.sha256("\n".join(sentences).encode()).hexdigest()
            assistant.store_policy(policy_from_sentences(sentences), name, "tune", digest)
        for question in dataset.questions:
            ranking = assistant.rank_evidence(question.question, policy=question.policy_id)
            n = len(dataset.policies[question.policy_id])
            relevance, match = np.full(n, NO_MATCH_LOGIT), np.zeros(n)
            for r in ranking.ranked:
                relevance[r.sentence.ordinal - 1] = _logit(r.relevance)
                match[r.sentence.ordinal - 1] = r.practice_match
            rows.append(DevRow(question, ranking.reason, relevance, match))
        assistant.store.close()
    return rows


def _logit(probability: float) -> float:
    probability = min(max(probability, 1e-12), 1 - 1e-12)
    return math.log(probability / (1 - probability))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", type=Path, default=None, help="PrivacyQA dev file (default: the bundled one)")
    parser.add_argument("--top", type=int, default=25, help="how many of the best cells to print")
    arguments = parser.parse_args()
    dataset = load_privacyqa(arguments.data or corpus_dir("privacyqa") / LB_DEV_FILE)
    shipped = SelectionParameters.load()
    rows = dev_rows(dataset)
    results = sweep(rows, shipped)
    table = Table(title=f"Best evidence selection parameters on {len(rows)} dev questions (%)")
    for column in ("match w.", "margin", "cap", "P", "R", "F1", "answerable F1", "accuracy"):
        table.add_column(column, justify="right")
    for cell, _, score, answerability in sorted(results, key=lambda r: -r[2].f1)[: arguments.top]:
        table.add_row(*(f"{v:g}" for v in cell), *(
            f"{100 * v:.1f}" for v in (score.precision, score.recall, score.f1, answerability.f1,
                                       answerability.accuracy)))
    Console().print(table)
    cell = (shipped.practice_match_weight, shipped.evidence_margin, shipped.max_evidence)
    [shipped_f1] = [100 * r[2].f1 for r in results if r[0] == cell]
    print(f"shipped cell {cell}: F1 {shipped_f1:.1f}")
    held_out = leave_one_policy_out(rows, results, log=print)
    print(f"leave-one-policy-out F1 {100 * held_out:.1f} (in-sample best {100 * max(r[2].f1 for r in results):.1f})")


if __name__ == "__main__":
    main()
