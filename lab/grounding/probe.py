"""The learned grounding step, measured and not shipped (docs/lab/notebook.md, "A learned grounding step").

    .venv/bin/python -m lab.grounding.probe                       # attempt 1: every candidate a labelled one is not
    .venv/bin/python -m lab.grounding.probe --clean-negatives     # attempt 2: negatives from silent items only
    .venv/bin/python -m lab.grounding.probe --only-if FILE        # the stance head and the rules on written sentences

Pairs are built once into .train/grounding/pairs.jsonl (the sets' policies ingested under .train/grounding/home;
about 15 minutes), then read back. Each attempt trains into its own folder under .train/grounding/ (resumable) and
prints its validation measurements on freedev: pair AUC, how often the best-scored candidate is a labelled one, and
per yes/no item how well the best candidate's probability separates items the policy answers from silent ones.
"""
from __future__ import annotations

import argparse
import csv
from pathlib import Path

import numpy as np

from assistant.foundation.types import Sentence
from assistant.understanding.facets import facet_of
from assistant.understanding.statements import CONDITIONAL, YES, stance
from lab.grounding.model import GroundingVerifier
from lab.grounding.network import STANCES
from lab.grounding.pairs import TRAINING_SETS, VALIDATION_SETS, load_or_build, object_swaps
from lab.grounding.train import CHECKPOINT_DIR, TrainConfig, pair_scores, train_release

PAIRS = CHECKPOINT_DIR / "pairs.jsonl"
YES_NO_GOLD = ("yes", "no", "only_if", "not_stated")


def items_separation(pairs, scores) -> dict:
    """Per yes/no item: ROC AUC of the best candidate's probability for "the policy answers it"."""
    from sklearn.metrics import roc_auc_score

    items: dict[str, list[int]] = {}
    for i, pair in enumerate(pairs):
        if pair.verdict in YES_NO_GOLD:
            items.setdefault(pair.item, []).append(i)
    best = [scores[rows].max() for rows in items.values()]
    answers = [pairs[rows[0]].verdict != "not_stated" for rows in items.values()]
    return {"items": len(items), "answered": sum(answers), "auc": round(100 * roc_auc_score(answers, best), 1)}


def only_if_on(path: Path, verifier: GroundingVerifier) -> dict:
    """The stance rules, and the rules with the head's "only if", on sentences labelled yes / only_if."""
    said = {"rules": [0, 0], "rules + head": [0, 0]}  # [only if said of only-if sentences, yes kept of yes sentences]
    rows = list(csv.DictReader(path.open(encoding="utf-8"), delimiter="\t"))
    for row in rows:
        rule = stance(Sentence(1, row["sentence"], 0, len(row["sentence"]), ""), facet_of(row["question"]))
        _, stances = verifier.read(row["question"], [(row["sentence"], "")])
        head = stances[0][STANCES.index("only_if")] >= verifier.only_if_threshold
        for name, verdict in (("rules", rule), ("rules + head", CONDITIONAL if rule == YES and head else rule)):
            said[name][0] += row["stance"] == "only_if" and verdict == CONDITIONAL
            said[name][1] += row["stance"] == "yes" and verdict == YES
    counts = {s: sum(r["stance"] == s for r in rows) for s in ("only_if", "yes")}
    return {name: f"only if {a} of {counts['only_if']}, yes kept {b} of {counts['yes']}" for name, (a, b) in said.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clean-negatives", action="store_true")
    parser.add_argument("--only-if", type=Path)
    args = parser.parse_args()
    pairs = load_or_build(CHECKPOINT_DIR / "home", TRAINING_SETS + VALIDATION_SETS, PAIRS)
    training = [p for p in pairs if p.answers_set in TRAINING_SETS]
    swapped = object_swaps(training)
    if args.clean_negatives:
        training = [p for p in training if p.positive or p.verdict == "not_stated"]
    folder = CHECKPOINT_DIR / ("clean" if args.clean_negatives else "all")
    validation = [p for p in pairs if p.answers_set in VALIDATION_SETS]
    print(train_release(training + swapped, validation, TrainConfig(), directory=folder / "release",
                        checkpoint_dir=folder))
    verifier = GroundingVerifier.load(folder / "release")
    scores, _ = pair_scores(verifier, validation)
    print("yes/no items of freedev:", items_separation(validation, np.asarray(scores)))
    if args.only_if:
        print(only_if_on(args.only_if, verifier))


if __name__ == "__main__":
    main()
