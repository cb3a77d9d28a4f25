"""Loopback load benchmark of the chat: N concurrent conversations × M questions through Rasa's REST channel.

    .venv/bin/python scripts/load_benchmark.py [--conversations 20] [--questions 10] [--rest-url URL]

Without --rest-url it starts its own stack (scripts/serve.sh: action server, Rasa server, page) on
free 127.0.0.1 ports over the demo store (ASSISTANT_HOME, default .demo-home, `make demo-store`),
and stops it afterwards. Every request carries the REST channel's bearer token: the one its own
stack wrote to its run directory, or with --rest-url: --rest-token, CHAT_REST_TOKEN or the token
`make serve` wrote to .chat-run/rest-token. Each conversation chooses a policy, then asks its
questions one after the other; all conversations run at once. Prints the error count, latency
percentiles of the questions, throughput, and the peak resident memory (VmHWM) of the action
server and the Rasa server.
Traffic goes to loopback only; every request has a timeout and the run has a deadline.
"""
from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
POLICIES = ("amazon.com", "instagram.com", "steampowered.com")
QUESTIONS = (
    "What information do they collect about me?",
    "Do they share my personal information with other companies?",
    "and how long do they keep it?",
    "why?",
    "Do they use cookies?",
    "Can I delete my account?",
    "Do they sell my data to advertisers?",
    "How do they protect my information?",
    "Can children use the site?",
    "Will my order arrive by Friday?",
)
REQUEST_TIMEOUT = 60
DEADLINE = 900


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def say(url: str, token: str, sender: str, text: str) -> tuple[float, bool]:
    body = json.dumps({"sender": sender, "message": text}).encode()
    request = urllib.request.Request(url, body, {"Content-Type": "application/json", "Authorization": f"Bearer {token}"})
    started = time.perf_counter()
    try:
        with urllib.request.urlopen(request, timeout=REQUEST_TIMEOUT) as response:
            messages = json.load(response)
        ok = bool(messages) and all((m.get("text") or "").strip() for m in messages)
    except Exception:  # noqa: BLE001 (counted as an error)
        ok = False
    return time.perf_counter() - started, ok


def peak_rss_mib(pid: int) -> float:
    """Peak resident memory (VmHWM) of a process and its children, in MiB."""
    total = 0
    for p in [pid, *_children(pid)]:
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmHWM:"):
                    total += int(line.split()[1])
        except OSError:
            pass
    return total / 1024


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process and its children so far."""
    total = 0.0
    for p in [pid, *_children(pid)]:
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except OSError:
            pass
    return total


def _children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            kids = [int(k) for k in (task / "children").read_text().split()]
        except OSError:
            continue
        for kid in kids:
            found += [kid, *_children(kid)]
    return found


def read_token(run_dir: Path) -> str:
    token_file = run_dir / "rest-token"
    if not token_file.exists():
        sys.exit(f"No REST token at {token_file}: give --rest-token or set CHAT_REST_TOKEN.")
    return token_file.read_text().strip()


def run(url: str, token: str, conversations: int, questions: int) -> dict:
    latencies: list[float] = []
    choose_latencies: list[float] = []
    errors = 0
    lock = threading.Lock()
    deadline = time.monotonic() + DEADLINE

    def conversation(index: int) -> None:
        nonlocal errors
        sender = f"load-{index}-{os.getpid()}"
        turns = [POLICIES[index % len(POLICIES)]] + [QUESTIONS[(index + i) % len(QUESTIONS)] for i in range(questions)]
        for turn, text in enumerate(turns):
            if time.monotonic() > deadline:
                with lock:
                    errors += 1
                return
            seconds, ok = say(url, token, sender, text)
            with lock:
                (choose_latencies if turn == 0 else latencies).append(seconds)
                errors += not ok

    started = time.perf_counter()
    threads = [threading.Thread(target=conversation, args=(i,)) for i in range(conversations)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    wall = time.perf_counter() - started
    ordered = sorted(latencies)

    def percentile(q: float) -> float:
        return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))] if ordered else float("nan")

    return {
        "conversations": conversations, "questions_each": questions, "requests": len(latencies) + len(choose_latencies),
        "errors": errors, "wall_s": wall, "throughput_rps": (len(latencies) + len(choose_latencies)) / wall,
        "p50_s": percentile(0.50), "p95_s": percentile(0.95), "max_s": max(ordered, default=float("nan")),
        "mean_s": statistics.fmean(ordered) if ordered else float("nan"),
        "choose_p50_s": statistics.median(choose_latencies) if choose_latencies else float("nan"),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--conversations", type=int, default=20)
    parser.add_argument("--questions", type=int, default=10)
    parser.add_argument("--rest-url", help="A running Rasa server's REST webhook (default: start a stack).")
    parser.add_argument("--rest-token", default=os.environ.get("CHAT_REST_TOKEN"),
                        help="That server's REST token (default CHAT_REST_TOKEN, else .chat-run/rest-token).")
    parser.add_argument("--json", action="store_true", help="Print the numbers as JSON.")
    args = parser.parse_args()

    env = run_dir = None
    if args.rest_url:
        url = args.rest_url
        token = args.rest_token or read_token(ROOT / ".chat-run")
    else:
        run_dir = Path(tempfile.mkdtemp(prefix="chat-load-"))
        rasa_port = free_port()
        env = dict(os.environ, CHAT_HOST="127.0.0.1", ACTIONS_PORT=str(free_port()), RASA_PORT=str(rasa_port),
                   WEB_PORT=str(free_port()), CHAT_RUN_DIR=str(run_dir),
                   ASSISTANT_HOME=os.environ.get("ASSISTANT_HOME", str(ROOT / ".demo-home")))
        print(f"Starting the chat stack (store {env['ASSISTANT_HOME']}, logs {run_dir})...", file=sys.stderr)
        subprocess.run([str(ROOT / "scripts" / "serve.sh"), "start"], env=env, cwd=ROOT, check=True,
                       stdout=subprocess.DEVNULL, timeout=600)
        url = f"http://127.0.0.1:{rasa_port}/webhooks/rest/webhook"
        token = read_token(run_dir)
    try:
        say(url, token, "load-warm-up", POLICIES[0])  # first call loads the policy index
        say(url, token, "load-warm-up", QUESTIONS[0])
        pids = {s: int((run_dir / f"{s}.pid").read_text()) for s in ("actions", "rasa")} if run_dir else {}
        cpu_before = {s: cpu_seconds(pid) for s, pid in pids.items()}
        result = run(url, token, args.conversations, args.questions)
        for service, pid in pids.items():
            result[f"peak_rss_{service}_mib"] = peak_rss_mib(pid)
            result[f"cpu_ms_per_request_{service}"] = 1000 * (cpu_seconds(pid) - cpu_before[service]) / result["requests"]
    finally:
        if env is not None:
            subprocess.run([str(ROOT / "scripts" / "serve.sh"), "stop"], env=env, cwd=ROOT, check=False,
                           stdout=subprocess.DEVNULL, timeout=120)
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(f"{result['conversations']} conversations × {result['questions_each']} questions "
          f"(+1 policy choice each): {result['requests']} requests, {result['errors']} errors")
    print(f"question latency: p50 {result['p50_s']:.2f} s, p95 {result['p95_s']:.2f} s, "
          f"mean {result['mean_s']:.2f} s, max {result['max_s']:.2f} s")
    print(f"wall {result['wall_s']:.1f} s, throughput {result['throughput_rps']:.1f} requests/s")
    for service in ("actions", "rasa"):
        if f"peak_rss_{service}_mib" in result:
            print(f"{service} server: peak RSS {result[f'peak_rss_{service}_mib']:.0f} MiB, "
                  f"CPU {result[f'cpu_ms_per_request_{service}']:.0f} ms per request")


if __name__ == "__main__":
    main()
