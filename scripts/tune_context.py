"""Choose the neighbours' share (`context_weight`) where sentence order is real: PolicyQA dev.

The PrivacyQA dev file lost its policies' sentence order (assistant/evaluation/privacyqa.py,
`unordered`), so the weight of the neighbours' share cannot be tuned there. PolicyQA dev can stand
in: its 20 OPP-115 policies are stored with every sentence in document order, and each distinct
question (policy, practice/attribute/value triple, question) is a query whose reference is every
sentence of the policy holding an answer span of its triple (`retrieval.pairs`), as in the
retriever's own dev measurement. Scored with `scripts/tune_selection.py`'s offline selection (the
engine's `assistant.selection`), for each context weight:

- MRR@10 and recall@10 of the selection logits' ranking;
- set F1 (one reference) at the engine's evidence margin and cap, and at the best margin/cap.

The practice match uses the engine's weight; the category bonus is 0 as in the engine. PolicyQA dev
is a dev split; nothing here reads a test split.

    .venv/bin/python scripts/tune_context.py
"""
from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
from rich.console import Console
from rich.table import Table
from tune_selection import dev_rows, select  # scripts/ is on sys.path when this script runs

from assistant.config import Settings
from assistant.evaluation.metrics import mean_score, question_score
from assistant.evaluation.privacyqa import PrivacyQADataset, PrivacyQAQuestion
from assistant.selection import selection_logits, topic_scores
from assistant.sentences import split_sentences
from nlu.policyqa_data import annotated_policy, load_split, opp115_policies
from retrieval.pairs import build_pairs

CONTEXT_WEIGHTS = (0.0, 0.3, 0.5, 0.7, 1.0)
MARGINS = (2.0, 3.0, 5.0, 8.0)
CAPS = (3, 5, 10, 20)


def policyqa_dev() -> PrivacyQADataset:
    """PolicyQA dev's policies in document order, with one query per distinct question."""
    examples = load_split("dev")
    pairs = build_pairs(examples)
    paths = opp115_policies()
    policies = {}
    for name in sorted({e.policy for e in examples}):
        segments, _ = annotated_policy(paths[name])
        sentences = (segment[start:end] for segment in segments for start, end in split_sentences(segment))
        policies[name] = list(dict.fromkeys(s for s in sentences if s.strip()))
    queries = []
    for n, (policy, triple, question) in enumerate(sorted({(p.policy, p.triple, p.question) for p in pairs.pairs})):
        relevant = pairs.relevant[(policy, triple)]
        reference = frozenset(i for i, s in enumerate(policies[policy]) if s in relevant)
        if reference:
            queries.append(PrivacyQAQuestion(str(n), policy, question, [reference]))
    return PrivacyQADataset(Path("PolicyQA dev"), "policyqa-dev", policies, queries, ordered=True)


def set_f1(rows, topics, context_weight: float, margin: float, cap: int) -> float:
    """Mean set F1 of the evidence `select` picks (never silent: every query has a reference)."""
    return mean_score(question_score(select(row, topic, context_weight, margin, cap, 0.0), row.question.references)
                      for row, topic in zip(rows, topics)).f1


def main() -> None:
    settings = Settings.from_env()
    dataset = policyqa_dev()
    print(f"{len(dataset.questions)} questions over {len(dataset.policies)} policies, "
          f"{sum(map(len, dataset.policies.values()))} sentences in document order")
    rows = dev_rows(dataset)
    topics = [topic_scores(r.on_topic, r.match, settings.category_bonus, settings.practice_match_weight) for r in rows]
    table = Table(title="Neighbours' share on PolicyQA dev (document order, %)")
    for column in ("context", "MRR@10", "R@10", f"F1 at margin {settings.evidence_margin:g}, cap 20",
                   "best F1", "at margin, cap"):
        table.add_column(column, justify="right")
    for weight in CONTEXT_WEIGHTS:
        mrr, recall = [], []
        for row, topic in zip(rows, topics):
            top = np.argsort(-selection_logits(row.relevance, topic, weight), kind="stable")[:10]
            reference = row.question.references[0]
            hits = [rank for rank, i in enumerate(top) if i in reference]
            mrr.append(1 / (hits[0] + 1) if hits else 0.0)
            recall.append(len(hits) / len(reference))
        engine = set_f1(rows, topics, weight, settings.evidence_margin, 20)
        best_f1, best_cell = max((set_f1(rows, topics, weight, m, c), (m, c)) for m, c in itertools.product(MARGINS, CAPS))
        table.add_row(f"{weight:g}", *(f"{100 * v:.1f}" for v in (np.mean(mrr), np.mean(recall), engine, best_f1)),
                      f"{best_cell[0]:g}, {best_cell[1]}")
    Console().print(table)


if __name__ == "__main__":
    main()
