"""Do several fine-tunes of the practice-category classifier do better together? (A probe: prints numbers.)

Train the members first, one per seed (about 45 min each on one core), e.g.

    .venv/bin/python -c "from pathlib import Path; from nlu.categories import TrainConfig, train_release; \
        train_release(TrainConfig(seed=14), directory=Path('.train/runs/cat-s14'), \
                      checkpoint_dir=Path('.train/cat-s14'))"

then compare on the OPP-115 validation split each member, the uniform weight average of every
pair and of all (a "model soup"), and the mean of their probabilities (an ensemble), thresholds
tuned on validation for each. Only the candidate with the best validation macro-F1 (ties: micro-F1)
is scored on test.

    .venv/bin/python scripts/probe_categories_ensemble.py weights/practice_categories .train/runs/cat-s14 ...
"""
from __future__ import annotations

import argparse
import itertools
from pathlib import Path

import numpy as np

from nlu.categories import PracticeClassifier, PracticeModel, _label_matrix, load_split, scores, tune_thresholds
from nlu.encoder import load_base_encoder, load_task_state
from nlu.release import load_release


def classifier(state: dict, labels: list[str]) -> PracticeClassifier:
    bert, tokenizer = load_base_encoder()
    model = PracticeModel(bert, len(labels))
    load_task_state(model, state, "member")
    return PracticeClassifier(model, tokenizer, labels, [0.5] * len(labels))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("members", type=Path, nargs="+", help="release directories of the fine-tunes")
    members = parser.parse_args().members
    states = {d.name: load_release(d)[0] for d in members}
    labels = load_release(members[0])[1]["labels"]
    splits = {name: load_split(name) for name in ("validation", "test")}

    def soup(names: tuple[str, ...]) -> dict:
        return {k: sum(states[n][k] for n in names) / len(names) for k in states[names[0]]}

    models = {name: classifier(state, labels) for name, state in states.items()}
    groups = [g for size in range(2, len(members) + 1) for g in itertools.combinations(states, size)]
    models |= {f"soup {'+'.join(g)}": classifier(soup(g), labels) for g in groups}
    probabilities = {name: m.probabilities([e.text for e in splits["validation"]]) for name, m in models.items()}
    probabilities |= {f"ensemble {'+'.join(g)}": np.mean([probabilities[n] for n in g], axis=0) for g in groups}
    gold = _label_matrix(splits["validation"], labels)
    results = {}
    for name, p in probabilities.items():
        thresholds = np.asarray(tune_thresholds(p, gold))
        predicted = [[label for label, on in zip(labels, row) if on] for row in p >= thresholds]
        results[name] = (scores([e.labels for e in splits["validation"]], predicted, labels), thresholds)
        print(f"validation {name}: {results[name][0]}", flush=True)
    best = max(results, key=lambda n: (results[n][0]["macro_f1"], results[n][0]["micro_f1"]))
    texts = [e.text for e in splits["test"]]
    if best.startswith("ensemble "):
        p = np.mean([models[n].probabilities(texts) for n in best.removeprefix("ensemble ").split("+")], axis=0)
    else:
        p = models[best].probabilities(texts)
    predicted = [[label for label, on in zip(labels, row) if on] for row in p >= results[best][1]]
    print(f"test {best} (best on validation): {scores([e.labels for e in splits['test']], predicted, labels)}")


if __name__ == "__main__":
    main()
