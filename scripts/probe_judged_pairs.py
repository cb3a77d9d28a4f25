"""Probe: where do the shipped engine's quoted sentences fall among the dev file's judged pairs?

`privacyqa_lb_dev.json` comes from LegalBench's question–sentence pairs: per question about 23
sentences were judged (`relevant` or `judged_irrelevant`), and the metric counts every other
sentence of the policy (about 88 per question) as not relevant. This script takes the evidence the
shipped engine quotes (the shipped selection cell, `tune_selection.select`) and counts how many of
its sentences are relevant, judged irrelevant or never judged for the question, beside the rate a
random draw of the non-relevant sentences would give. Diagnostic only: the judgements are not
used by the engine or its settings.

    .venv/bin/python scripts/probe_judged_pairs.py
"""
from __future__ import annotations

import json

import numpy as np
from tune_selection import dev_rows, select  # scripts/ on path

from assistant.config import DEFAULT_MAX_EVIDENCE, Settings
from assistant.corpora import corpus_dir
from assistant.evaluation.privacyqa import load_privacyqa
from assistant.selection import topic_scores


def main() -> None:
    path = corpus_dir("privacyqa") / "privacyqa_lb_dev.json"
    raw = json.loads(path.read_text(encoding="utf-8"))
    raw_questions = {q["id"]: q for q in raw["questions"]}
    dataset = load_privacyqa(path)  # stored shuffled: sentences are matched by text below
    settings = Settings.from_env()
    counts = {"relevant": 0, "judged irrelevant": 0, "not judged": 0}
    judged_irrelevant, not_judged = [], []
    for row in dev_rows(dataset):
        question = raw_questions[row.question.id]
        sentences = raw["policies"][question["app"]]
        relevant = {sentences[i] for i in question["relevant"]}
        irrelevant = {sentences[i] for i in question["judged_irrelevant"]}
        judged_irrelevant.append(len(irrelevant))
        not_judged.append(len(set(sentences) - relevant - irrelevant))
        topic = topic_scores(row.on_topic, row.match, settings.category_bonus, settings.practice_match_weight)
        chosen = select(row, topic, settings.context_weight, settings.evidence_margin, DEFAULT_MAX_EVIDENCE,
                        settings.silence_threshold)
        for i in chosen:
            text = dataset.policies[row.question.policy_id][i]
            key = "relevant" if text in relevant else "judged irrelevant" if text in irrelevant else "not judged"
            counts[key] += 1
    wrong = counts["judged irrelevant"] + counts["not judged"]
    print(f"quoted sentences: {counts}")
    print(f"precision on the judged pairs only: {100 * counts['relevant'] / (counts['relevant'] + counts['judged irrelevant']):.1f}")
    print(f"of the quoted sentences outside the reference, judged irrelevant: {100 * counts['judged irrelevant'] / wrong:.1f}% "
          f"(a random draw of the non-relevant sentences: "
          f"{100 * np.sum(judged_irrelevant) / (np.sum(judged_irrelevant) + np.sum(not_judged)):.1f}%)")


if __name__ == "__main__":
    main()
