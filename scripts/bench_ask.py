"""Latency of a warm `Assistant.ask` (prints numbers; not a test).

    .venv/bin/python scripts/bench_ask.py [--repeat 3] [--words 30000]

Loads the models once, ingests the bundled Amazon example into a temporary store, then times every
question of a fixed list `--repeat` times and prints p50 / p95 / max in milliseconds; with `--words`, the
same for a policy of that many words of real policy text (`long_policy.py`). Targets (issue 21):
p50 ≤ 50 ms, p95 ≤ 100 ms. The backend is ASSISTANT_BACKEND's (default onnx).
"""
from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from long_policy import write_long_policy

from assistant.engine import Assistant
from assistant.foundation.inference import backend
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


def time_questions(assistant: Assistant, policy: str, repeat: int) -> str:
    assistant.ask(QUESTIONS[0], policy=policy)  # warm-up: index and sentence cache
    timings = []
    for _ in range(repeat):
        for question in QUESTIONS:
            started = time.perf_counter()
            assistant.ask(question, policy=policy)
            timings.append(1000 * (time.perf_counter() - started))
    timings.sort()
    p95 = timings[min(len(timings) - 1, int(0.95 * len(timings)))]
    return f"n={len(timings)} p50={statistics.median(timings):.0f} ms p95={p95:.0f} ms max={timings[-1]:.0f} ms"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--words", type=int, help="also a policy of this many words (e.g. 30000)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as home:
        assistant = Assistant(Settings(home=Path(home)))
        started = time.perf_counter()
        assistant.ingest(ROOT / "examples" / "policies" / "amazon.com.html", name="amazon")
        print(f"backend {backend()}; models + ingest: {time.perf_counter() - started:.1f} s")
        print(f"ask (amazon.com): {time_questions(assistant, 'amazon', args.repeat)}", flush=True)
        if args.words:
            path = Path(home) / "long.md"
            count = write_long_policy(path, args.words)
            assistant.ingest(path, name="long", force=True)
            print(f"ask ({count:,}-word policy): {time_questions(assistant, 'long', args.repeat)}")


if __name__ == "__main__":
    main()
