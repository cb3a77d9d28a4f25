"""Probe: does pseudo-relevance feedback on the question help evidence selection on the PrivacyQA dev file?

PrivacyQA's references are broad (about 11 relevant sentences per question on lb_dev), so a
question that names one data type may be answered by every sentence on the same practice. Rocchio
feedback moves the question towards what the engine already ranks first: the question's vector
(shipped fine-tuned retriever) plus `beta` × the mean vector of its `k` best sentences by the
shipped selection logit (relevance + practice match), re-normalised, then scored through the
retriever's calibration like the engine's own relevance.

The feedback's change of relevance is added to the topic score of the shipped engine's ranking
(`tune_selection.dev_rows`; refusals and the silence check keep the shipped relevance), with the
practice-match weight, margin and cap swept as in `scripts/tune_selection.py`, and the
leave-one-policy-out check. Nothing is shipped by this script; the numbers go to docs/results.md.

    .venv/bin/python scripts/probe_query_feedback.py
"""
from __future__ import annotations

import itertools

import numpy as np
from tune_selection import CAPS, MARGINS, dev_rows, leave_one_policy_out, sweep_added_score  # scripts/ on path

from assistant.config import Settings
from assistant.corpora import corpus_dir
from assistant.engine import RETRIEVER_DIR
from assistant.evaluation.privacyqa import load_privacyqa
from assistant.selection import NO_MATCH_LOGIT
from retrieval.embedder import Embedder

BETAS = (0.25, 0.5, 1.0)
FEEDBACK_SIZES = (3, 5, 10)
MATCH_WEIGHTS = (4.0, 6.0, 8.0)


def main() -> None:
    dataset = load_privacyqa(corpus_dir("privacyqa") / "privacyqa_lb_dev.json")
    rows = dev_rows(dataset)
    settings = Settings.from_env()
    retriever = Embedder(release=RETRIEVER_DIR)
    calibration = retriever.config["calibration"]
    sentence_vectors = {name: retriever.encode(sentences) for name, sentences in dataset.policies.items()}
    question_vectors = retriever.encode([q.question for q in dataset.questions])

    def feedback_change(beta: float, k: int) -> list[np.ndarray]:
        """Per question: the relevance logit with feedback minus the shipped one (0 where not eligible)."""
        changes = []
        for row, query in zip(rows, question_vectors, strict=True):
            vectors = sentence_vectors[row.question.policy_id]
            eligible = row.relevance > NO_MATCH_LOGIT
            shipped = np.where(eligible, row.relevance + settings.practice_match_weight * row.match, -np.inf)
            top = np.argsort(-shipped)[: min(k, int(eligible.sum()))]
            moved = query + beta * vectors[top].mean(axis=0) if len(top) else query
            moved = moved / np.linalg.norm(moved)  # never in place: `moved` may be the question's own row
            relevance = calibration["slope"] * (vectors @ moved) + calibration["intercept"]
            changes.append(np.where(eligible, relevance - row.relevance, 0.0))
        return changes

    without = sweep_added_score(rows, [np.zeros_like(r.relevance) for r in rows], (0.0,), MATCH_WEIGHTS, MARGINS,
                                CAPS, settings.silence_threshold)
    print(f"without feedback: best F1 {100 * max(r[2].f1 for r in without):.1f}")
    results = list(without)
    for beta, k in itertools.product(BETAS, FEEDBACK_SIZES):
        cells = sweep_added_score(rows, feedback_change(beta, k), (1.0,), MATCH_WEIGHTS, MARGINS, CAPS,
                                  settings.silence_threshold)
        cells = [((beta, k, *cell[0][1:]), *cell[1:]) for cell in cells]
        best = max(cells, key=lambda r: r[2].f1)
        print(f"beta {beta:g}, k {k}: best F1 {100 * best[2].f1:.1f} at (match, margin, cap) {best[0][2:]}")
        results.extend(cells)
    print(f"leave-one-policy-out: with feedback in the grid {100 * leave_one_policy_out(rows, results, log=print):.1f}, "
          f"without {100 * leave_one_policy_out(rows, without):.1f}")


if __name__ == "__main__":
    main()
