"""Signals at every instant of real store writes, and fetches from hostile servers (prints numbers; not a test).

    .venv/bin/python scripts/fault_run.py [--rounds 102] [--seed 0] [--out result.json]

Each round runs one real `assistant` command on a store that already holds policies — a new policy, a new
version, `repair` of a deleted index, or `remove` — and sends it SIGINT, SIGTERM or SIGKILL (in turn): half of
the rounds at a random instant after start, half just after the command's new index file appears, that is
while its transaction (and the profile computed inside it) runs and as it commits. After each round:

- damage: `assistant doctor` must report no problem that was not there before the round;
- messages: whatever the command printed must be true of the store afterwards — "Ingested X version N" and
  "X stored as version N (kept)" mean that version exists, "Removed X" that it is gone, "the store is
  unchanged" that every version and index file is as before.

With `--readers N`, N threads run `assistant policies --json` and `assistant search` on the store all along:
every read must succeed. Then the hostile servers: `assistant ingest URL --timeout 3` against a server that sends the body a few bytes
every 0.4 s, and one that sends a header line every 0.4 s; the time each takes to fail is printed beside the
time a plain refused connection takes (the yardstick: the command's own start-up).
"""
from __future__ import annotations

import argparse
import json
import os
import random
import re
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
POLICIES = sorted((ROOT / "examples" / "policies").glob("*.html"))
CLI = [sys.executable, "-m", "assistant.frontends.cli"]
SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGKILL)
OPERATIONS = ("new policy", "new version", "repair", "remove")


def rows(home: Path) -> set[tuple[str, int, str]]:
    """(name, version, index file) of every stored version."""
    with sqlite3.connect(home / "assistant.sqlite3") as db:
        return set(db.execute("SELECT p.name, v.version, v.index_file FROM versions v "
                              "JOIN policies p ON p.id = v.policy_id"))


def index_files(home: Path) -> set[str]:
    """The index files of the store's versions and any leftover not yet cleaned, but not the cross-policy index,
    which the concurrent readers' `search` writes whenever the versions changed."""
    with sqlite3.connect(home / "assistant.sqlite3") as db:
        cross = {name for (name,) in db.execute("SELECT name FROM cross_indexes")}
    return {path.name for path in (home / "indexes").iterdir()} - cross - {f"{name}.tmp" for name in cross}


def problems(home: Path, env: dict[str, str]) -> set[str]:
    doctor = subprocess.run([*CLI, "doctor"], env=env, capture_output=True, text=True, check=False)
    found = {line for line in doctor.stdout.splitlines() if line.startswith("problem:")}
    if doctor.returncode not in (0, 1) or (doctor.returncode == 1 and not found):
        found.add(f"doctor failed: {doctor.stderr.strip()}")
    return found


def prepare(operation: str, home: Path, scratch: Path, env: dict[str, str], round_: int) -> list[str]:
    """The command of one round, after setting up what it needs."""
    if operation == "new policy":
        return ["ingest", str(POLICIES[round_ % len(POLICIES)]), "--name", f"p{round_}"]
    if operation == "new version":
        changed = scratch / f"v{round_}.md"
        changed.write_text(POLICIES[0].read_text(encoding="utf-8") + f"\n\nWe keep logs for {round_ + 2} days.\n",
                           encoding="utf-8")
        return ["ingest", str(changed), "--name", "base"]
    if operation == "repair":
        (home / "indexes" / min(rows(home))[2]).unlink()
        return ["repair"]
    victim = f"r{round_}"
    subprocess.run([*CLI, "ingest", str(POLICIES[1]), "--name", victim], env=env, check=True,
                   capture_output=True)
    return ["remove", victim]


def run_round(command: list[str], home: Path, env: dict[str, str], kind: signal.Signals, at_commit: bool,
              rng: random.Random) -> tuple[str, str, int, str]:
    """Start the command, signal it, and return (stdout, stderr, exit code, when the signal went)."""
    known = index_files(home)
    process = subprocess.Popen([*CLI, *command], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    started = time.monotonic()
    when = "never (it had finished)"
    if at_commit and command[0] != "remove":
        while process.poll() is None and not (index_files(home) - known):
            time.sleep(0.002)
        time.sleep(rng.uniform(0.0, 0.4))
    else:  # ingest takes seconds (models, tagging); repair about two; remove under one
        time.sleep(rng.uniform(0.3, 9.0) if command[0] == "ingest" else
                   rng.uniform(0.3, 2.5) if command[0] == "repair" else rng.uniform(0.05, 1.2))
    if process.poll() is None:
        process.send_signal(kind)
        when = f"{time.monotonic() - started:.2f} s"
    stdout, stderr = process.communicate(timeout=300)
    return stdout, stderr, process.returncode, when


def wrong_messages(stdout: str, stderr: str, before: set, after: set, files_before: set, files_after: set) -> list[str]:
    """What the command said that is not true of the store afterwards."""
    wrong = []
    stored = {(name, version) for name, version, _ in after}
    said = stdout + "\n" + stderr
    for name, version in re.findall(r"Ingested (\S+) version (\d+)", said) + \
            re.findall(r"(\S+) stored as version (\d+)", said):
        if (name, int(version)) not in stored:
            wrong.append(f"said {name} version {version} was stored; it is not")
    for name in re.findall(r"Removed (\S+) \(", said) + re.findall(r"(\S+) removed with its", said):
        if any(row[0] == name for row in after):
            wrong.append(f"said {name} was removed; it is there")
    if "the store is unchanged" in said and (before != after or files_before != files_after):
        wrong.append("said the store is unchanged; it changed")
    return wrong


class Hostile(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args: object) -> None:
        pass

    def do_GET(self) -> None:
        try:
            if self.path == "/trickle-body":
                self.wfile.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 100000\r\n\r\n")
                piece = b"We collect your email address. "
            else:
                self.wfile.write(b"HTTP/1.1 200 OK\r\n")
                piece = b"X-Slow: 1\r\n"
            for _ in range(400):
                self.wfile.write(piece)
                self.wfile.flush()
                time.sleep(0.4)
        except OSError:
            pass
        self.close_connection = True


def hostile_fetches(env: dict[str, str]) -> dict[str, float]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), Hostile)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    with tempfile.TemporaryDirectory() as empty_home:
        gone = ThreadingHTTPServer(("127.0.0.1", 0), Hostile)
        refused = f"http://127.0.0.1:{gone.server_address[1]}/x"
        gone.server_close()  # nothing listens there now
        timings = {}
        for label, url in (("refused connection (yardstick)", refused), ("body trickling", f"{base}/trickle-body"),
                           ("headers trickling", f"{base}/trickle-headers")):
            started = time.monotonic()
            result = subprocess.run([*CLI, "ingest", url, "--timeout", "3", "--allow-private"],
                                    env=dict(env, ASSISTANT_HOME=empty_home), capture_output=True, text=True,
                                    check=False, timeout=600)
            timings[label] = round(time.monotonic() - started, 2)
            print(f"  {label:<32}{timings[label]:>7.2f} s  exit {result.returncode}: {result.stderr.strip()[:110]}")
    server.shutdown()
    return timings


class Readers:
    """`n` threads running `assistant policies --json` and `assistant search` on the store, over and over, while
    the rounds write and die: every read must succeed (no "locked", no damage seen) and parse — except a search
    that names the index a repair round deleted on purpose (`deleted`), counted apart."""

    def __init__(self, n: int, env: dict[str, str]) -> None:
        self.env, self.reads, self.failures, self.expected = env, 0, [], 0
        self.deleted = False  # a repair round's own deleted index is in place
        self._stop = threading.Event()
        self._threads = [threading.Thread(target=self._read, args=(i,), daemon=True) for i in range(n)]
        for thread in self._threads:
            thread.start()

    def _read(self, i: int) -> None:
        commands = (["policies", "--json"], ["search", "keep your data", "--top", "3"])
        while not self._stop.is_set():
            command = commands[(self.reads + i) % 2]
            result = subprocess.run([*CLI, *command], env=self.env, capture_output=True, text=True, check=False)
            self.reads += 1
            if result.returncode != 0 and self.deleted and "index file is missing" in result.stderr:
                self.expected += 1
            elif result.returncode != 0 or (command[0] == "policies" and not isinstance(json.loads(result.stdout
                                                                                                 or "null"), list)):
                self.failures.append(f"{' '.join(command)}: exit {result.returncode}: {result.stderr.strip()[:200]}")

    def stop(self) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(120)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=102)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--readers", type=int, default=0, help="concurrent CLI readers during the rounds")
    parser.add_argument("--out", type=Path, help="also write the numbers as JSON")
    arguments = parser.parse_args()
    # Ctrl-C's handler, so that the commands inherit SIGINT's default: a script started in the background by a
    # non-interactive shell has it ignored, and its commands would ignore every SIGINT round
    signal.signal(signal.SIGINT, signal.default_int_handler)
    rng = random.Random(arguments.seed)
    tally: Counter = Counter()
    failures: list[str] = []
    with tempfile.TemporaryDirectory() as scratch_name:
        scratch = Path(scratch_name)
        home = scratch / "home"
        env = dict(os.environ, ASSISTANT_HOME=str(home), COLUMNS="200")
        subprocess.run([*CLI, "ingest", str(POLICIES[0]), "--name", "base"], env=env, check=True, capture_output=True)
        readers = Readers(arguments.readers, env)
        for round_ in range(arguments.rounds):
            kind = SIGNALS[round_ % 3]
            operation = OPERATIONS[(round_ // 3) % 4]
            at_commit = round_ % 2 == 1
            readers.deleted = operation == "repair"
            command = prepare(operation, home, scratch, env, round_)
            if round_ == 0 or operation == "repair":  # else as the last round left it
                problems_after = problems(home, env)
            before, files_before, problems_before = rows(home), index_files(home), problems_after
            stdout, stderr, code, when = run_round(command, home, env, kind, at_commit, rng)
            after, files_after, problems_after = rows(home), index_files(home), problems(home, env)
            damage = sorted(problems_after - problems_before)
            wrong = wrong_messages(stdout, stderr, before, after, files_before, files_after)
            outcome = "changed" if before != after else "unchanged"
            tally[(kind.name, "signalled" if when[0].isdigit() else "finished first")] += 1
            tally[("outcome", outcome)] += 1
            line = (f"{round_:>3} {kind.name:<7} {operation:<11} {'commit' if at_commit else 'random':<6} "
                    f"at {when:<24} exit {code:>4}  store {outcome:<9} damage {len(damage)}  wrong {len(wrong)}")
            print(line, flush=True)
            tally[("damaged stores", "")] += bool(damage)
            tally[("wrong messages", "")] += len(wrong)
            if damage or wrong:
                failures.append(f"{line}: {damage + wrong}; stderr: {stderr.strip()[:200]}")
            if operation == "repair" and problems_after:
                subprocess.run([*CLI, "repair"], env=env, check=False, capture_output=True)
                problems_after = problems(home, env)
        readers.stop()
        print(f"\nconcurrent reads: {readers.reads}, failed: {len(readers.failures)} (and {readers.expected} "
              "searches that named the index a repair round had deleted on purpose)")
        for failure in readers.failures[:20]:
            print("READ FAILED", failure)
        print("\nhostile servers (ingest URL --timeout 3):")
        timings = hostile_fetches(env)
    print(f"\n{arguments.rounds} rounds: " + ", ".join(f"{a} {b}".strip() + f": {v}" for (a, b), v in
                                                   sorted(tally.items())))
    for failure in failures:
        print("FAILED", failure)
    if arguments.out:
        arguments.out.write_text(json.dumps({"rounds": arguments.rounds, "tally": {f"{a} {b}".strip(): v for (a, b), v in
                                                                                          tally.items()},
                                             "failures": failures, "hostile_seconds": timings,
                                             "reads": readers.reads, "read_failures": readers.failures}, indent=2) + "\n")


if __name__ == "__main__":
    main()
