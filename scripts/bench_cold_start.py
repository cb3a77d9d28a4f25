"""How long `assistant ask` takes from a fresh process with no server (prints numbers; not a test).

    .venv/bin/python scripts/bench_cold_start.py [--repeat 5] [--torch]

Ingests the bundled amazon.com policy into a temporary store, then runs
`assistant ask "Do they sell my data?" --policy amazon.com` (ASSISTANT_SERVER=off) `--repeat` times, each
in a fresh process, and prints the median wall time, CPU time and peak memory beside a yardstick measured
in the same run: a process that only imports torch + transformers. Targets (issue 21): ≤ 2 s wall and
≤ 0.2 × the yardstick's wall time. The command runs as `python -m assistant.frontends.launch`, the
same entry point as the installed `assistant` script (`frontends/launch.py`: the question's models
load on a background thread while the command line is imported); the row "without the overlap" runs the command line module directly.
`--torch` also measures the same ask with ASSISTANT_BACKEND=torch. The ONNX graphs come from the usual
cache (exported first if missing, not timed). Python writes its bytecode caches during the uncounted
warm-up run (as `pip install` does for an installed package), even where PYTHONDONTWRITEBYTECODE is set.
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

ROOT = Path(__file__).resolve().parent.parent
CLI = [sys.executable, "-m", "assistant.frontends.launch"]
QUESTION = ["ask", "Do they sell my data?", "--policy", "amazon.com"]
ASK = [*CLI, *QUESTION]
ASK_WITHOUT_OVERLAP = [sys.executable, "-m", "assistant.frontends.cli", *QUESTION]
YARDSTICK = [sys.executable, "-c", "import torch, transformers"]


def run_once(command: list[str], env: dict[str, str]) -> tuple[float, float, float]:
    """Wall seconds, CPU seconds and peak RSS (MiB) of one run of `command` in a fresh process."""
    started = time.perf_counter()
    child = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(child.pid, 0)  # this child's own CPU time and peak memory
    wall = time.perf_counter() - started
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise SystemExit(f"{' '.join(command[:4])}… failed: {child.stderr.read().decode()[-400:]}")
    child.stderr.close()
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024  # kB → MiB


def measure(cases: dict[str, tuple[list[str], dict[str, str]]], repeat: int) -> dict[str, tuple[float, float, float]]:
    """Median wall seconds, CPU seconds and peak RSS (MiB) of each case over `repeat` rounds, after one uncounted
    warm-up round; the cases take turns within a round, so that a change in the machine's load falls on all."""
    runs: dict[str, list[tuple[float, float, float]]] = {case: [] for case in cases}
    for round_ in range(repeat + 1):
        for case, (command, env) in cases.items():
            result = run_once(command, env)
            if round_:
                runs[case].append(result)
    return {case: (statistics.median(r[0] for r in results), statistics.median(r[1] for r in results),
                   max(r[2] for r in results)) for case, results in runs.items()}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--torch", action="store_true", help="also time the ask on the torch backend")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as home:
        env = dict(os.environ, ASSISTANT_HOME=home, ASSISTANT_SERVER="off")
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        subprocess.run([*CLI, "export"], env=env, check=True, capture_output=True)
        subprocess.run([*CLI, "ingest", str(ROOT / "examples/policies/amazon.com.html")], env=env, check=True,
                       capture_output=True)
        cases = {"assistant ask (onnx), fresh process": (ASK, env),
                 "same, without the overlap (models loaded after the imports)": (ASK_WITHOUT_OVERLAP, env)}
        if args.torch:
            cases["assistant ask (ASSISTANT_BACKEND=torch)"] = (ASK, env | {"ASSISTANT_BACKEND": "torch"})
        cases["yardstick: import torch + transformers"] = (YARDSTICK, env)
        rows = measure(cases, args.repeat)
    yardstick = rows["yardstick: import torch + transformers"][0]
    cpu_yardstick = rows["yardstick: import torch + transformers"][1]
    print(f"| case | median wall ({args.repeat} runs) | CPU | peak RSS | wall / yardstick | CPU / yardstick |\n"
          "|---|---|---|---|---|---|")
    for case, (wall, cpu, peak) in rows.items():
        print(f"| {case} | {wall:.2f} s | {cpu:.2f} s | {peak:.0f} MiB | {wall / yardstick:.2f} | "
              f"{cpu / cpu_yardstick:.2f} |")


if __name__ == "__main__":
    main()
