"""Probe: does averaging two fine-tuned retrievers' relevance help evidence selection?

Scores every question of the PrivacyQA dev file (in the harness's shuffled order, no neighbours'
share) once with the shipped retriever and once with each retriever release given on the command
line (directories written by `retrieval.finetune.train_release`, e.g. the runs in docs/results.md
under `.train/runs/`), each through its own calibration. The relevance of a sentence becomes
(1 − w) × the shipped retriever's logit + w × the other's, and the selection settings are swept as
in `scripts/tune_selection.py` (a smaller grid: no bonus), with its leave-one-policy-out check.
Nothing is shipped; the numbers go to docs/results.md.

    .venv/bin/python scripts/probe_retriever_ensemble.py .train/runs/retriever-topical [...]
"""
from __future__ import annotations

import argparse
import dataclasses
import itertools
from pathlib import Path

import numpy as np
from tune_selection import dev_rows, leave_one_policy_out, select  # scripts/ is on sys.path

from assistant.config import Settings
from assistant.corpora import corpus_dir
from assistant.evaluation.metrics import mean_score, question_score
from assistant.evaluation.privacyqa import load_privacyqa
from assistant.selection import NO_MATCH_LOGIT, topic_scores
from retrieval.embedder import Embedder

MIX_WEIGHTS = (0.0, 0.3, 0.5, 0.7, 1.0)
GRID = {"match_weight": (4.0, 6.0, 8.0), "margin": (3.0, 4.0, 5.0, 6.0), "cap": (15, 20, 30)}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("releases", type=Path, nargs="+", help="retriever release directories")
    arguments = parser.parse_args()
    dataset = load_privacyqa(corpus_dir("privacyqa") / "privacyqa_lb_dev.json")
    silence = Settings.from_env().silence_threshold
    shipped = dev_rows(dataset)
    for release in arguments.releases:
        other = dev_rows(dataset, retriever=Embedder(release=release))
        results = []  # ((w, match weight, margin, cap), per-question F1, score)
        for weight in MIX_WEIGHTS:
            rows = [dataclasses.replace(a, relevance=np.where(
                a.relevance > NO_MATCH_LOGIT, (1 - weight) * a.relevance + weight * b.relevance, a.relevance))
                for a, b in zip(shipped, other, strict=True)]
            for match_weight, margin, cap in itertools.product(*GRID.values()):
                scores = [question_score(select(row, topic_scores(row.on_topic, row.match, 0.0, match_weight), 0.0,
                                                margin, cap, silence), row.question.references) for row in rows]
                results.append(((weight, match_weight, margin, cap), np.array([s.f1 for s in scores]),
                                mean_score(scores)))
        for weight in MIX_WEIGHTS:
            pool = [r for r in results if r[0][0] == weight]
            best = max(pool, key=lambda r: r[2].f1)
            print(f"{release.name}, w {weight:g}: best cell (match, margin, cap) {best[0][1:]} "
                  f"F1 {100 * best[2].f1:.1f}; leave-one-policy-out {100 * leave_one_policy_out(shipped, pool):.1f}")
        print(f"{release.name}: leave-one-policy-out with w swept too {100 * leave_one_policy_out(shipped, results):.1f}")


if __name__ == "__main__":
    main()
