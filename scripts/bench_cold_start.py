"""How long `assistant ask` takes from a fresh process with no server (prints numbers; not a test).

    .venv/bin/python scripts/bench_cold_start.py [--repeat 5] [--torch]

Ingests the bundled amazon.com policy into a temporary store, then runs
`assistant ask "Do they sell my data?" --policy amazon.com` (ASSISTANT_SERVER=off) `--repeat` times, each
in a fresh process, and prints the median wall time, CPU time and peak memory beside a yardstick measured
in the same run: a process that only imports torch + transformers. Targets (issue 21): ≤ 2 s wall and
≤ 0.2 × the yardstick's wall time. `--torch` also measures the same ask with ASSISTANT_BACKEND=torch.
The ONNX graphs come from the usual cache (exported first if missing, not timed).
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
CLI = [sys.executable, "-m", "assistant.frontends.cli"]
ASK = [*CLI, "ask", "Do they sell my data?", "--policy", "amazon.com"]
YARDSTICK = [sys.executable, "-c", "import torch, transformers"]


def measure(command: list[str], env: dict[str, str], repeat: int) -> tuple[float, float, float]:
    """Median wall seconds, CPU seconds and peak RSS (MiB) of `repeat` runs (after one uncounted warm-up)."""
    walls, cpus, peaks = [], [], []
    for run in range(repeat + 1):
        started = time.perf_counter()
        child = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        _, status, usage = os.wait4(child.pid, 0)  # this child's own CPU time and peak memory
        wall = time.perf_counter() - started
        child.returncode = os.waitstatus_to_exitcode(status)
        if child.returncode != 0:
            raise SystemExit(f"{' '.join(command[:4])}… failed: {child.stderr.read().decode()[-400:]}")
        child.stderr.close()
        if run:
            walls.append(wall)
            cpus.append(usage.ru_utime + usage.ru_stime)
            peaks.append(usage.ru_maxrss / 1024)  # kB → MiB
    return statistics.median(walls), statistics.median(cpus), max(peaks)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--torch", action="store_true", help="also time the ask on the torch backend")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as home:
        env = dict(os.environ, ASSISTANT_HOME=home, ASSISTANT_SERVER="off")
        subprocess.run([*CLI, "export"], env=env, check=True, capture_output=True)
        subprocess.run([*CLI, "ingest", str(ROOT / "examples/policies/amazon.com.html")], env=env, check=True,
                       capture_output=True)
        rows = {"assistant ask (onnx), fresh process": measure(ASK, env, args.repeat)}
        if args.torch:
            rows["assistant ask (ASSISTANT_BACKEND=torch)"] = measure(ASK, env | {"ASSISTANT_BACKEND": "torch"},
                                                                      args.repeat)
        rows["yardstick: import torch + transformers"] = measure(YARDSTICK, env, args.repeat)
    yardstick = rows["yardstick: import torch + transformers"][0]
    cpu_yardstick = rows["yardstick: import torch + transformers"][1]
    print(f"| case | median wall ({args.repeat} runs) | CPU | peak RSS | wall / yardstick | CPU / yardstick |\n"
          "|---|---|---|---|---|---|")
    for case, (wall, cpu, peak) in rows.items():
        print(f"| {case} | {wall:.2f} s | {cpu:.2f} s | {peak:.0f} MiB | {wall / yardstick:.2f} | "
              f"{cpu / cpu_yardstick:.2f} |")


if __name__ == "__main__":
    main()
