"""Probe: does the PrivacyQA dev file's sentence order carry its labels?

The harness stores the reconstructed file's policies in a fixed shuffled order and turns the
neighbours' share off (`assistant.evaluation.privacyqa.unordered`). This probe undoes that guard on
purpose: it scores the engine with a given neighbours' share (`--context-weight`) on the file's own
sentence order, and on random permutations of each policy (references remapped), marking both as
ordered so the share applies. If the file's order scores clearly above random orders, the order
leaks the labels (docs/results.md, "The dev file's sentence order leaks its labels").

    .venv/bin/python scripts/probe_sentence_order.py [--context-weight 0.7] [--seeds 1 2 3]
"""
from __future__ import annotations

import argparse
import dataclasses
import json

from assistant.config import Settings
from assistant.corpora import corpus_dir
from assistant.evaluation.privacyqa import PrivacyQADataset, evaluate, load_privacyqa, unordered


def in_file_order(dataset: PrivacyQADataset) -> PrivacyQADataset:
    """The reconstructed file as written: its sentence order and its sentence indices."""
    raw = json.loads(dataset.path.read_text(encoding="utf-8"))
    questions = [dataclasses.replace(q, references=[frozenset(item["relevant"])])
                 for q, item in zip(dataset.questions, raw["questions"], strict=True)]
    return dataclasses.replace(dataset, policies=raw["policies"], questions=questions, ordered=True)


def permuted(dataset: PrivacyQADataset, seed: int) -> PrivacyQADataset:
    """Each policy's sentences in a random order (the harness's `unordered`, another seed), marked
    as ordered so that the neighbours' share applies."""
    return dataclasses.replace(unordered(dataset, seed), ordered=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--context-weight", type=float, default=0.7)
    parser.add_argument("--seeds", type=int, nargs="*", default=[1, 2, 3])
    arguments = parser.parse_args()
    settings = dataclasses.replace(Settings.from_env(), context_weight=arguments.context_weight)
    file_order = in_file_order(load_privacyqa(corpus_dir("privacyqa") / "privacyqa_lb_dev.json"))
    variants = {"the file's order": file_order} | {f"random order, seed {s}": permuted(file_order, s)
                                                   for s in arguments.seeds}
    for label, dataset in variants.items():
        score = evaluate(dataset, settings=settings).score
        print(f"{label}, context weight {arguments.context_weight:g}: P {100 * score.precision:.1f} "
              f"R {100 * score.recall:.1f} F1 {100 * score.f1:.1f}", flush=True)


if __name__ == "__main__":
    main()
