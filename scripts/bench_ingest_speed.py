"""Ingest throughput after the models are loaded (prints numbers; not a test).

    .venv/bin/python scripts/bench_ingest_speed.py [--words 5000,30000]

Loads every model and ingests one bundled example (warm-up: screening's models load on first use). Then,
for each size, writes a policy of real text (`long_policy.py`), times a whole `Assistant.ingest` of it into
a temporary store (parse, screen, split, embed, tag, store, index), and times each tagging stage alone
on its sentences — the retriever's embeddings, the practice tagger (encoder + TF-IDF half), PolicyIE —
printing sentences per second. Targets (issue 21): 5,000 words ≤ 5 s, 30,000 words ≤ 30 s.
The backend is ASSISTANT_BACKEND's (default onnx).
"""
from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from long_policy import ROOT, write_long_policy

from assistant.engine import Assistant
from assistant.foundation.inference import backend
from assistant.foundation.sentences import build_policy
from assistant.foundation.settings import Settings
from assistant.ingest.parsing import load_document


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--words", default="5000,30000")
    sizes = [int(w) for w in parser.parse_args().words.split(",")]
    with tempfile.TemporaryDirectory() as folder:
        assistant = Assistant(Settings(home=Path(folder) / "home"))
        started = time.perf_counter()
        assistant.load_models()
        assistant.ingest(ROOT / "examples" / "policies" / "amazon.com.html", name="warm-up")
        print(f"backend {backend()}; models loaded and one example ingested in {time.perf_counter() - started:.1f} s")
        print("| policy | sentences | whole ingest | embedding | practices | PolicyIE |\n|---|---|---|---|---|---|")
        for words in sizes:
            path = Path(folder) / f"policy-{words}.md"
            count = write_long_policy(path, words)
            started = time.perf_counter()
            assistant.ingest(path, name=f"long-{words}", force=True)
            whole = time.perf_counter() - started
            texts = [s.text for s in build_policy(load_document(path, 10 * 1024 * 1024)).sentences]
            stages = []
            for stage in (assistant.retriever.encode, assistant.practice_classifier.probabilities,
                          assistant.policyie.facts):
                started = time.perf_counter()
                stage(texts)
                seconds = time.perf_counter() - started
                stages.append(f"{len(texts) / seconds:.0f} sentences/s ({seconds:.1f} s)")
            print(f"| {count:,} words | {len(texts)} | {whole:.1f} s | {' | '.join(stages)} |", flush=True)


if __name__ == "__main__":
    main()
