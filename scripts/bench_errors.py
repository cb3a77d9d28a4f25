"""How long the command line takes to refuse bad input and to run store-only commands (prints
numbers; not a test).

    .venv/bin/python scripts/bench_errors.py [--repeat 5]

Each case runs the real `assistant` command in a fresh process against an empty temporary store;
the median wall time of `--repeat` runs is printed beside a yardstick measured in the same run:
a process that only imports torch and sentence-transformers, which every command paid before the
engine loaded its models lazily.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ASSISTANT = str(Path(sys.executable).with_name("assistant"))
CASES = {
    "ingest a missing file": [ASSISTANT, "ingest", "/no/such/policy.html"],
    "ask an empty question": [ASSISTANT, "ask", ""],
    "ask a 1,001-character question": [ASSISTANT, "ask", "x" * 1001],
    "ask with a non-UTF-8 argument": [ASSISTANT, "ask", os.fsdecode(b"sell \xff?")],
    "remove an unknown policy": [ASSISTANT, "remove", "nope"],
    "policies (empty store)": [ASSISTANT, "policies"],
    "yardstick: import torch + sentence-transformers": [
        sys.executable, "-c", "import torch, sentence_transformers"],
}


def median_seconds(command: list[str], env: dict[str, str], repeat: int) -> float:
    times = []
    for _ in range(repeat + 1):  # the first run warms the file cache and is not counted
        started = time.perf_counter()
        subprocess.run(command, env=env, capture_output=True, check=False)
        times.append(time.perf_counter() - started)
    return statistics.median(times[1:])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    repeat = parser.parse_args().repeat
    with tempfile.TemporaryDirectory() as home:
        env = dict(os.environ, ASSISTANT_HOME=home)
        print(f"| case | median wall time ({repeat} runs) |\n|---|---|")
        for case, command in CASES.items():
            print(f"| {case} | {median_seconds(command, env, repeat):.2f} s |")


if __name__ == "__main__":
    main()
