"""Wall time of the CLI's `ask` from a fresh process, with `assistant serve` running and without (prints numbers;
not a test).

    .venv/bin/python scripts/bench_serve.py [--runs 5] [--threads 1]

Ingests the bundled Amazon example into a temporary store, then times `assistant ask` (a new process each
time, as a user runs it) with no server listening at ASSISTANT_SERVER (the process loads the models itself),
and with `assistant serve` started on a free 127.0.0.1 port over the same store. The yardstick, measured in the
same run, is a process that only imports torch and transformers: what every in-process command pays first.
"""
from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
AMAZON = ROOT / "examples" / "policies" / "amazon.com.html"
QUESTION = "Do they share my personal information with other companies?"
CLI = [sys.executable, "-m", "assistant.frontends.cli"]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def timed(command: list[str], env: dict[str, str]) -> float:
    started = time.perf_counter()
    subprocess.run(command, env=env, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - started


def median_of(runs: int, command: list[str], env: dict[str, str]) -> tuple[float, list[float]]:
    times = [timed(command, env) for _ in range(runs)]
    return statistics.median(times), times


def wait_for(url: str, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(f"{url}/health", timeout=1) as reply:
                json.load(reply)
                return
        except OSError:
            if time.monotonic() > deadline:
                raise SystemExit(f"the server at {url} did not start in {timeout:.0f} s") from None
            time.sleep(0.1)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5, help="fresh processes timed per case (median reported)")
    parser.add_argument("--threads", type=int, default=1, help="the server's torch threads (assistant serve --threads)")
    arguments = parser.parse_args()
    runs = arguments.runs
    with tempfile.TemporaryDirectory() as home:
        server = f"http://127.0.0.1:{free_port()}"
        env = dict(os.environ, ASSISTANT_HOME=home, ASSISTANT_SERVER=server, COLUMNS="100")
        subprocess.run([*CLI, "ingest", str(AMAZON), "--name", "amazon"], env=env, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        ask = [*CLI, "ask", QUESTION, "--policy", "amazon"]

        yardstick, yardsticks = median_of(runs, [sys.executable, "-c", "import torch, transformers"], env)
        alone, alones = median_of(runs, ask, env)  # nothing listens at ASSISTANT_SERVER: the CLI works in process

        started = time.perf_counter()
        process = subprocess.Popen([*CLI, "serve", "--port", server.rsplit(":", 1)[1],
                                    "--threads", str(arguments.threads)], env=env,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            wait_for(server, 300)
            start_seconds = time.perf_counter() - started
            timed(ask, env)  # the server's first question loads the policy's index
            served, serveds = median_of(runs, ask, env)
        finally:
            process.send_signal(signal.SIGINT)
            process.wait(60)

    def show(times: list[float]) -> str:
        return ", ".join(f"{t:.2f}" for t in times)

    print(f"assistant ask, server running ({arguments.threads} torch thread(s)): median {served:.2f} s  ({runs} runs: {show(serveds)})")
    print(f"assistant ask, no server:            median {alone:.2f} s  ({runs} runs: {show(alones)})")
    print(f"yardstick: import torch + transformers  median {yardstick:.2f} s  ({runs} runs: {show(yardsticks)})")
    print(f"server start until it answers (models loaded once): {start_seconds:.1f} s")


if __name__ == "__main__":
    main()
