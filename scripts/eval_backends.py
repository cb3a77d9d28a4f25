"""Each model's eval on the torch, ONNX fp32 and ONNX int8 backends (prints a markdown table; not a test).

    .venv/bin/python scripts/eval_backends.py [--only policyie,categories,policyqa,privacyqa] [--limit N]

Runs the repository's own eval commands (`assistant eval … --json`, dev / validation splits only) once per
`ASSISTANT_BACKEND` and prints their headline scores side by side with the change from torch, in points.
The target (issue 21): every model within 0.5 points of torch. `--limit` caps the examples of the evals
that take it (policyqa, policyie, privacyqa).
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

BACKENDS = ("torch", "onnx-fp32", "onnx-int8")
# eval name -> (command arguments, model(s) it measures, {label: path into the JSON})
EVALS = {
    "policyie": (["policyie", "--split", "valid"], "PolicyIE tagger (valid)",
                 {"intent F1": ("intent_f1",), "type-I F1": ("type_i_f1",), "type-II F1": ("type_ii_f1",)}),
    "categories": (["categories", "--split", "validation"], "practice tagger (validation segments)",
                   {"macro F1": ("macro_f1",), "micro F1": ("micro_f1",)}),
    "policyqa": (["policyqa", "--split", "dev"], "span reader (PolicyQA dev)", {"EM": ("em",), "F1": ("f1",)}),
    "privacyqa": (["privacyqa"], "embedder + question classifier + retriever (PrivacyQA lb_dev)",
                  {"sentence F1": ("f1",), "answerability F1": ("answerability", "f1")}),
}
LIMITED = {"policyie", "policyqa", "privacyqa"}


def run(name: str, backend: str, limit: int | None) -> dict:
    arguments, _, _ = EVALS[name]
    command = [sys.executable, "-m", "assistant.frontends.cli", "eval", *arguments, "--json"]
    if limit and name in LIMITED:
        command += ["--limit", str(limit)]
    started = time.perf_counter()
    done = subprocess.run(command, check=False, env=dict(os.environ, ASSISTANT_BACKEND=backend), capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command[3:])} on {backend} failed: {done.stderr.strip()[-600:]}")
    print(f"  {name} on {backend}: {time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)
    return json.loads(done.stdout)


def pick(result: dict, path: tuple[str, ...]) -> float:
    for key in path:
        result = result[key]
    return float(result)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--only", default=",".join(EVALS))
    parser.add_argument("--limit", type=int)
    args = parser.parse_args()
    print("| model (eval) | score | torch | onnx fp32 (Δ) | onnx int8 (Δ) |\n|---|---|---|---|---|", flush=True)
    for name in args.only.split(","):
        _, title, scores = EVALS[name]
        results = {backend: run(name, backend, args.limit) for backend in BACKENDS}
        for label, path in scores.items():
            base = pick(results["torch"], path)
            cells = [f"{pick(results[b], path):.1f} ({pick(results[b], path) - base:+.1f})" for b in BACKENDS[1:]]
            print(f"| {title} | {label} | {base:.1f} | {' | '.join(cells)} |", flush=True)


if __name__ == "__main__":
    main()
