"""Tune the engine's evidence selection on the PrivacyQA dev file (never on a test split).

Scores every sentence of the policy once per question (`Assistant.rank_evidence` with no topic
score and no context share: the fine-tuned retriever's calibrated relevance, the category agreement
and the practice match), then sweeps offline, scoring with the engine's own `assistant.selection`
and selecting as `Assistant.ask` does: the practice-match weight, the category bonus, the context
weight (only for a file that keeps the policies' sentence order: the reconstructed dev file does
not, so there it stays 0 and is chosen by `scripts/tune_context.py` on PolicyQA dev instead), the
evidence margin, the evidence cap and `silence_threshold`. Prints the sentence-level F1
(Ravichander et al. 2019 metric) and answerability of the best settings, and, to show how much of
the gain is fitted to the file, a leave-one-policy-out score: each policy's questions scored with
the settings that are best on the other policies' questions.

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
from assistant.selection import NO_MATCH_LOGIT, selection_logits, topic_scores, within_margin
from assistant.sentences import policy_from_sentences

MATCH_WEIGHTS = (0.0, 2.0, 4.0, 6.0, 8.0)
BONUSES = (0.0, 1.0)
CONTEXT_WEIGHTS = (0.0, 0.3, 0.5, 0.7)
MARGINS = (3.0, 4.0, 5.0, 6.0, 8.0)
CAPS = (10, 15, 20, 30)
SILENCE_THRESHOLDS = (0.05,)  # tuned before (best in every row, docs/results.md); a wider grid only overfits


@dataclasses.dataclass(frozen=True)
class DevRow:
    """One dev question with every sentence of its policy scored once (in the file's order)."""

    question: object  # assistant.evaluation.privacyqa question: .question, .policy_id, .references
    reason: str | None  # the question classifier's or the category rule's refusal
    relevance: np.ndarray  # calibrated relevance logits (NO_MATCH_LOGIT: cannot be evidence)
    on_topic: np.ndarray  # 1.0 where tagged with one of the question's confident categories
    match: np.ndarray  # practice match in [0, 1]


def select(row: DevRow, topic: np.ndarray, context_weight: float, margin: float, cap: int,
           silence: float) -> frozenset[int]:
    """The sentences (0-based) `Assistant.ask` would quote with these settings: the answer (best
    relevance + topic), then the others by selection logit within `margin` of the answer's."""
    if row.reason is not None or _sigmoid(row.relevance.max()) < silence:
        return frozenset()
    scores = selection_logits(row.relevance, topic, context_weight)
    order = [int(i) for i in np.argsort(-scores, kind="stable") if row.relevance[i] > NO_MATCH_LOGIT]
    if not order:
        return frozenset()
    first = max(order, key=lambda i: row.relevance[i] + topic[i])
    order = [first] + [i for i in order if i != first]
    return frozenset(order[i] for i in within_margin([scores[i] for i in order], margin, cap))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", type=Path, default=corpus_dir("privacyqa") / "privacyqa_lb_dev.json")
    parser.add_argument("--top", type=int, default=25, help="how many of the best settings to print")
    arguments = parser.parse_args()
    dataset = load_privacyqa(arguments.data)
    rows = dev_rows(dataset)
    results = []  # (settings, per-question F1, score, answerability)
    for match_weight, bonus in itertools.product(MATCH_WEIGHTS, BONUSES):
        topics = [topic_scores(row.on_topic, row.match, bonus, match_weight) for row in rows]
        context_weights = CONTEXT_WEIGHTS if dataset.ordered else (0.0,)  # no order, no neighbours
        for weight, margin, cap, silence in itertools.product(context_weights, MARGINS, CAPS, SILENCE_THRESHOLDS):
            predictions = [select(row, topic, weight, margin, cap, silence) for row, topic in zip(rows, topics)]
            per_question = [question_score(p, row.question.references) for p, row in zip(predictions, rows)]
            answerability = binary_score((bool(p), row.question.answerable) for p, row in zip(predictions, rows))
            results.append(((match_weight, bonus, weight, margin, cap, silence),
                            np.array([s.f1 for s in per_question]), mean_score(per_question), answerability))
    table = Table(title=f"Best evidence selection settings on {len(rows)} dev questions (%)")
    for column in ("match w.", "bonus", "context", "margin", "cap", "silence", "P", "R", "F1", "answerable F1",
                   "accuracy"):
        table.add_column(column, justify="right")
    for settings, _, score, answerability in sorted(results, key=lambda r: -r[2].f1)[: arguments.top]:
        table.add_row(*(f"{v:g}" for v in settings), *(
            f"{100 * v:.1f}" for v in (score.precision, score.recall, score.f1, answerability.f1,
                                       answerability.accuracy)))
    Console().print(table)
    held_out = leave_one_policy_out(rows, results, log=print)
    print(f"leave-one-policy-out F1 {100 * held_out:.1f} (in-sample best {100 * max(r[2].f1 for r in results):.1f})")


def leave_one_policy_out(rows: list[DevRow], results: list[tuple], log=lambda _: None) -> float:
    """Mean F1 when each policy's questions are scored with the settings that are best on the other
    policies' questions. `results` holds (settings, per-question F1 array, ...) tuples."""
    policies = np.array([row.question.policy_id for row in rows])
    held_out = np.zeros(len(rows))
    for policy in sorted(set(policies)):
        others = policies != policy
        best = max(results, key=lambda r: r[1][others].mean())
        held_out[~others] = best[1][~others]
        log(f"held out {policy}: best elsewhere {best[0]}, F1 there {100 * best[1][~others].mean():.1f}")
    return float(held_out.mean())


def sweep_added_score(rows: list[DevRow], added: list[np.ndarray], weights, match_weights, margins, caps,
                      silence: float) -> list[tuple]:
    """The probes' sweep: `weight` × `added[i]` (one value per sentence) joins question i's topic score
    (practice match only, no bonus, no context share). Returns ((weight, match weight, margin, cap),
    per-question F1 array, mean score) per cell, in the form `leave_one_policy_out` reads."""
    results = []
    for weight, match_weight in itertools.product(weights, match_weights):
        topics = [topic_scores(row.on_topic, row.match, 0.0, match_weight) + weight * extra
                  for row, extra in zip(rows, added, strict=True)]
        for margin, cap in itertools.product(margins, caps):
            scores = [question_score(select(row, topic, 0.0, margin, cap, silence), row.question.references)
                      for row, topic in zip(rows, topics)]
            results.append(((weight, match_weight, margin, cap), np.array([s.f1 for s in scores]), mean_score(scores)))
    return results


def dev_rows(dataset, **models) -> list[DevRow]:
    """Every dev question with every sentence of its policy scored once by `Assistant.rank_evidence`
    (no topic score, no context share). `models` go to the `Assistant` (e.g. another `retriever`)."""
    rows = []
    with tempfile.TemporaryDirectory() as home:
        settings = dataclasses.replace(Settings.from_env(), home=Path(home), category_bonus=0.0,
                                       practice_match_weight=0.0, context_weight=0.0, candidates=1_000_000)
        assistant = Assistant(settings, **models)
        for name, sentences in dataset.policies.items():
            digest = hashlib.sha256("\n".join(sentences).encode()).hexdigest()
            assistant.store_policy(policy_from_sentences(sentences), name, "tune", digest)
        for question in dataset.questions:
            ranking = assistant.rank_evidence(question.question, policy=question.policy_id)
            n = len(dataset.policies[question.policy_id])
            relevance, on_topic, match = np.full(n, NO_MATCH_LOGIT), np.zeros(n), np.zeros(n)
            for r in ranking.ranked:
                relevance[r.sentence.ordinal - 1] = _logit(r.relevance)
                on_topic[r.sentence.ordinal - 1] = r.on_topic
                match[r.sentence.ordinal - 1] = r.practice_match
            rows.append(DevRow(question, ranking.reason, relevance, on_topic, match))
    return rows


def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


def _logit(probability: float) -> float:
    probability = min(max(probability, 1e-12), 1 - 1e-12)
    return math.log(probability / (1 - probability))


if __name__ == "__main__":
    main()
