"""Probe: does a question-independent prior on each sentence help evidence selection on the PrivacyQA dev file?

PrivacyQA annotators mark broadly: on lb_dev some sentences are relevant to a third or more of
their policy's questions, and long, information-dense sentences more often than short ones. Each
signal below gives every sentence one score, independent of the question and of any label:

- **length**: log(1 + words);
- **centrality**: the mean cosine (shipped fine-tuned retriever) between the sentence and the
  1,350 PrivacyQA *train* questions (other apps; `questions_train.tsv`, questions only, no labels),
  i.e. how close the sentence sits to what people ask about privacy in general;
- **density**: the sum of the shipped practice tagger's 12 category probabilities.

Each signal is z-scored over its policy's sentences and `weight` × it is added to the topic score
of the shipped engine's ranking (`tune_selection.dev_rows`), with the practice-match weight, margin
and cap swept as in `scripts/tune_selection.py`, and the leave-one-policy-out check. Nothing is
shipped by this script; the numbers go to docs/results.md.

    .venv/bin/python scripts/probe_sentence_prior.py [--signals length centrality density]
"""
from __future__ import annotations

import argparse
import csv

import numpy as np
from probe_extra_signals import mean_average_precision, report_added_signal, zscored  # scripts/ on path
from tune_selection import dev_rows

from assistant.config import Settings
from assistant.corpora import corpus_dir
from assistant.evaluation.privacyqa import load_privacyqa

WEIGHTS = (0.0, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0)
MATCH_WEIGHTS = (4.0, 6.0, 8.0)


def train_questions() -> list[str]:
    """The 1,350 PrivacyQA train questions (other apps than the dev file's; texts only)."""
    with open(corpus_dir("privacyqa") / "questions_train.tsv", newline="", encoding="utf-8") as handle:
        return [row["Query"] for row in csv.DictReader(handle, delimiter="\t")]


def length_signal(dataset) -> dict[str, np.ndarray]:
    return {name: np.log1p([len(s.split()) for s in sentences]) for name, sentences in dataset.policies.items()}


def centrality_signal(dataset) -> dict[str, np.ndarray]:
    from assistant.engine import RETRIEVER_DIR
    from retrieval.embedder import Embedder

    retriever = Embedder(release=RETRIEVER_DIR)
    questions = retriever.encode(train_questions())
    return {name: retriever.encode(sentences) @ questions.mean(axis=0)
            for name, sentences in dataset.policies.items()}


def density_signal(dataset) -> dict[str, np.ndarray]:
    from nlu.categories import PracticeClassifier

    tagger = PracticeClassifier.load()
    return {name: tagger.probabilities(sentences).sum(axis=1) for name, sentences in dataset.policies.items()}


SIGNALS = {"length": length_signal, "centrality": centrality_signal, "density": density_signal}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--signals", nargs="+", choices=sorted(SIGNALS), default=list(SIGNALS))
    arguments = parser.parse_args()
    dataset = load_privacyqa(corpus_dir("privacyqa") / "privacyqa_lb_dev.json")
    rows = dev_rows(dataset)
    settings = Settings.from_env()
    shipped = [row.relevance + settings.practice_match_weight * row.match for row in rows]
    print(f"shipped selection logit: mean AP {mean_average_precision(rows, shipped):.1f}")
    combined = {}
    for name in arguments.signals:
        per_policy = {policy: zscored(values) for policy, values in SIGNALS[name](dataset).items()}
        combined[name] = per_policy
        added = [per_policy[row.question.policy_id] for row in rows]
        report_added_signal(name, rows, added, WEIGHTS, MATCH_WEIGHTS)
    if len(combined) > 1:
        added = [sum(per_policy[row.question.policy_id] for per_policy in combined.values()) / len(combined)
                 for row in rows]
        report_added_signal("mean of " + " + ".join(combined), rows, added, WEIGHTS, MATCH_WEIGHTS)


if __name__ == "__main__":
    main()
