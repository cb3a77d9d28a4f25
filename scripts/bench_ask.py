"""Latency of `Assistant.ask` on the bundled Amazon example (prints numbers; not a test).

    .venv/bin/python scripts/bench_ask.py [--repeat 3]

Loads the models once, ingests the example into a temporary store, then times every question of
a fixed list `--repeat` times and prints p50 / p95 / max in milliseconds.
"""
from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from assistant.engine import Assistant
from assistant.foundation.settings import Settings

ROOT = Path(__file__).resolve().parent.parent
QUESTIONS = (
    "What information do you collect about me?",
    "Do you share my personal information with third parties?",
    "Do you use cookies?",
    "How do you protect my information?",
    "Can children use the site?",
    "Can I opt out of advertising?",
    "How can I access or update my information?",
    "Do you sell my data?",
    "How long do you keep my data?",
    "Who won the world cup?",
)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    repeat = parser.parse_args().repeat
    with tempfile.TemporaryDirectory() as home:
        assistant = Assistant(Settings(home=Path(home)))
        started = time.perf_counter()
        assistant.ingest(ROOT / "examples" / "policies" / "amazon.com.html", name="amazon")
        print(f"models + ingest: {time.perf_counter() - started:.1f} s")
        assistant.ask(QUESTIONS[0], policy="amazon")  # warm-up: index and sentence cache
        timings = []
        for _ in range(repeat):
            for question in QUESTIONS:
                started = time.perf_counter()
                assistant.ask(question, policy="amazon")
                timings.append(1000 * (time.perf_counter() - started))
    timings.sort()
    p95 = timings[min(len(timings) - 1, int(0.95 * len(timings)))]
    print(f"ask: n={len(timings)} p50={statistics.median(timings):.0f} ms p95={p95:.0f} ms max={timings[-1]:.0f} ms")


if __name__ == "__main__":
    main()
