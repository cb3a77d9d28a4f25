"""Ingest against its one-pass limit: a whole ingest beside one plain MiniLM-L6 pass over the same sentences
(prints numbers; not a test).

    .venv/bin/python scripts/bench_ingest.py [--words 4700,40000,120000] [--policy FILE ...] [--repeat 3]

Loads every model and ingests one bundled example first (not timed). Then for each policy — one of real text per
`--words` size (`long_policy.py`: the bundled examples, then OPP-115's policies) and each `--policy` file — it
times, `--repeat` times and alternating so that the machine's load falls on both alike:

- the whole `Assistant.ingest` under a new name (parse, screen, split, read every sentence, profile, store and
  index);
- the yardstick: one plain all-MiniLM-L6-v2 pass (the base embedder's graph, fp32, batched by length) over the
  same sentences, in the same process.

Prints the median (and range) of each and their ratio: the issue's target is ingest ≤ 1.5 × the yardstick. The
backend is ASSISTANT_BACKEND's (default onnx). It uses only `Assistant.ingest` and `Embedder`, so the same script
times an older checkout (`PYTHONPATH=OLD_CHECKOUT`) for a before / after.
"""
from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

from long_policy import ROOT, write_long_policy

from assistant.engine import Assistant
from assistant.foundation.inference import backend
from assistant.foundation.sentences import build_policy
from assistant.foundation.settings import Settings
from assistant.ingest.parsing import load_document
from assistant.models.retriever.model import Embedder

MAX_BYTES = 20 * 1024 * 1024


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--words", default="4700,40000,120000", help="sizes of the real-text policies, in words")
    parser.add_argument("--policy", type=Path, action="append", default=[], help="also time this policy file")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        models = Assistant(Settings(home=folder / "warm-up"))
        started = time.perf_counter()
        models.load_models()
        models.ingest(ROOT / "examples" / "policies" / "amazon.com.html", name="warm-up")
        yardstick = Embedder()
        yardstick.encode(["We collect your email address."])
        print(f"backend {backend()}; models loaded, one example ingested in {time.perf_counter() - started:.1f} s")
        policies = list(args.policy)
        for words in (int(w) for w in args.words.split(",") if w):
            path = folder / f"real-text-{words}-words.md"
            write_long_policy(path, words)
            policies.append(path)
        print("| policy | sentences | whole ingest | one MiniLM-L6 pass (yardstick) | ingest ÷ yardstick |")
        print("|---|---|---|---|---|")
        results = []
        for path in policies:
            texts = [s.text for s in build_policy(load_document(path, MAX_BYTES)).sentences]
            ingests, passes = [], []
            for run in range(args.repeat):
                started = time.perf_counter()
                models.ingest(path, name=f"{path.stem}-{run}")  # a new name: stored anew, never "unchanged"
                ingests.append(time.perf_counter() - started)
                started = time.perf_counter()
                yardstick.encode(texts)
                passes.append(time.perf_counter() - started)
            ratios = [i / p for i, p in zip(ingests, passes, strict=True)]
            results.append({"policy": path.name, "sentences": len(texts), "ingest_s": ingests, "yardstick_s": passes,
                            "ratio": ratios})
            print(f"| {path.name} | {len(texts):,} | {_spread(ingests)} s | {_spread(passes)} s | "
                  f"**{statistics.median(ratios):.2f}×** ({min(ratios):.2f}–{max(ratios):.2f}) |", flush=True)
        if args.out:
            args.out.write_text(json.dumps(results, indent=1) + "\n")


def _spread(values: list[float]) -> str:
    return f"{statistics.median(values):.2f} ({min(values):.2f}–{max(values):.2f})"


if __name__ == "__main__":
    main()
