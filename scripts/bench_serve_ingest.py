"""`/ask` latency while another client ingests a large policy through the same `assistant serve` (prints numbers;
not a test).

    .venv/bin/python scripts/bench_serve_ingest.py [--words 37000] [--idle 40] [--out result.json]

Starts `assistant serve` on a free 127.0.0.1 port over a temporary store holding the Amazon example, then asks
one question over and over: first with nothing else running (the yardstick, same run, same server), then while
a second client uploads a long policy of real text (`long_policy.py`: about 1,500 sentences at 37,000 words)
with `wait=false` and the job runs. Prints p50 / p95 / max of the answers' wall time in each phase, how many
answers came back while the job ran, and the ingest's own time.
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
from pathlib import Path

import httpx2 as httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))

from long_policy import write_long_policy

ROOT = Path(__file__).resolve().parent.parent
AMAZON = ROOT / "examples" / "policies" / "amazon.com.html"
QUESTIONS = ("Do they sell my personal information?", "How long do they keep my data?",
             "Can I delete my account?", "Do they share my location with advertisers?")
CLI = [sys.executable, "-m", "assistant.frontends.cli"]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for(url: str, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{url}/health", timeout=1).status_code == 200:
                return
        except httpx.TransportError:
            time.sleep(0.2)
    raise SystemExit(f"the server at {url} did not start in {timeout:.0f} s")


def ask(url: str, i: int) -> float:
    started = time.perf_counter()
    reply = httpx.post(f"{url}/ask", json={"question": QUESTIONS[i % len(QUESTIONS)], "policy": "amazon"},
                       timeout=300)
    reply.raise_for_status()
    return time.perf_counter() - started


def summary(times: list[float]) -> dict[str, float]:
    p95 = statistics.quantiles(times, n=20, method="inclusive")[18]
    return {"n": len(times), "p50": round(statistics.median(times), 3), "p95": round(p95, 3),
            "max": round(max(times), 3)}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--words", type=int, default=37_000, help="words of the long policy (~1,500 sentences)")
    parser.add_argument("--idle", type=int, default=40, help="answers timed with nothing else running")
    parser.add_argument("--out", type=Path, help="also write the numbers as JSON")
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        home, policy = Path(scratch) / "home", Path(scratch) / "long.md"
        write_long_policy(policy, arguments.words)
        env = dict(os.environ, ASSISTANT_HOME=str(home))
        subprocess.run([*CLI, "ingest", str(AMAZON), "--name", "amazon"], env=env, check=True,
                       stdout=subprocess.DEVNULL)
        port = free_port()
        url = f"http://127.0.0.1:{port}"
        server = subprocess.Popen([*CLI, "serve", "--port", str(port)], env=env, stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL)
        try:
            wait_for(url, 180)
            for i in range(5):
                ask(url, i)  # warm
            idle = [ask(url, i) for i in range(arguments.idle)]
            reply = httpx.post(f"{url}/ingest", data={"name": "long", "wait": "false"}, timeout=60,
                               files={"file": ("long.md", policy.read_bytes(), "text/markdown")})
            job = reply.json()["job"]
            during: list[float] = []
            while True:
                during.append(ask(url, len(during)))
                state = httpx.get(f"{url}/jobs/{job}", timeout=30).json()
                if state["status"] not in ("queued", "running"):
                    break
            during.pop()  # the last answer may have come after the job ended
        finally:
            server.send_signal(signal.SIGINT)
            server.wait(60)
    if state["status"] != "done":
        raise SystemExit(f"the ingest failed: {state.get('error')}")
    result = {"idle": summary(idle), "while_ingesting": summary(during),
              "ingest": {"sentences": state["result"]["sentences"], "seconds": state["seconds"]}}
    print(f"{'phase':<22}{'answers':>8}{'p50 s':>8}{'p95 s':>8}{'max s':>8}")
    for phase in ("idle", "while_ingesting"):
        row = result[phase]
        print(f"{phase:<22}{row['n']:>8}{row['p50']:>8}{row['p95']:>8}{row['max']:>8}")
    print(f"ingest: {result['ingest']['sentences']} sentences in {result['ingest']['seconds']:.1f} s")
    if arguments.out:
        arguments.out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
