"""Measure the `policy_silent` threshold on the PrivacyQA dev file (reconstructed, 197 questions).

For every question, the engine's best cross-encoder probability over the whole policy is
compared with the label "answerable" (= at least one sentence marked relevant). Prints
answerability accuracy / precision / recall / F1 for a sweep of thresholds.

    .venv/bin/python scripts/calibrate_silence.py
"""
from __future__ import annotations

import hashlib
import json
import tempfile
from pathlib import Path

from rich.console import Console
from rich.table import Table

from assistant.config import Settings
from assistant.corpora import corpus_dir
from assistant.engine import Assistant
from assistant.sentences import policy_from_sentences

THRESHOLDS = (0.00005, 0.0001, 0.0002, 0.0005, 0.001, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.5)


def main() -> None:
    data = json.loads((corpus_dir("privacyqa") / "privacyqa_lb_dev.json").read_text())
    with tempfile.TemporaryDirectory() as home:
        assistant = Assistant(Settings(home=Path(home), silence_threshold=0.0))
        for app, sentences in data["policies"].items():
            digest = hashlib.sha256("\n".join(sentences).encode()).hexdigest()
            assistant.store_policy(policy_from_sentences(sentences), app, "privacyqa_lb_dev.json", digest)
        scored = [
            (assistant.ask(q["question"], policy=q["app"], top_k=1).confidence, bool(q["relevant"]))
            for q in data["questions"]
        ]
    table = Table(title=f"policy_silent threshold on privacyqa_lb_dev ({len(scored)} questions, "
                        f"{sum(label for _, label in scored)} answerable)")
    for column in ("threshold", "accuracy", "precision", "recall", "F1", "silent"):
        table.add_column(column, justify="right")
    for threshold in THRESHOLDS:
        predicted = [(confidence >= threshold, label) for confidence, label in scored]
        tp = sum(p and l for p, l in predicted)
        precision = tp / max(1, sum(p for p, _ in predicted))
        recall = tp / max(1, sum(l for _, l in predicted))
        f1 = 2 * precision * recall / max(1e-9, precision + recall)
        accuracy = sum(p == l for p, l in predicted) / len(predicted)
        silent = sum(not p for p, _ in predicted)
        table.add_row(f"{threshold:g}", *(f"{100 * v:.1f}" for v in (accuracy, precision, recall, f1)), str(silent))
    Console().print(table)


if __name__ == "__main__":
    main()
