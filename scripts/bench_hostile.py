"""Parse + split cost of hostile policy files, against the bundled real policies (prints numbers; not a test).

    .venv/bin/python scripts/bench_hostile.py [--sizes 0.1 0.3 1.0]

Writes each generated input (sizes in MB) to a temporary file and runs what ingest runs before any
model: `load_document` then `build_policy` with the default limits. Prints seconds per MB for the
inputs that are accepted and the time to refuse for those that are refused (with the reason). The
yardstick, in the same run: the three bundled example policies (examples/policies/*.html).
"""
from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from assistant.foundation.errors import AssistantError
from assistant.foundation.limits import IngestLimits
from assistant.foundation.sentences import build_policy
from assistant.ingest.parsing import load_document

ROOT = Path(__file__).resolve().parent.parent
MB = 1_000_000
WORDS = "we collect your personal data and share it with partners for advertising purposes".split()


def repeat(unit: str, size: int) -> str:
    return unit * (size // len(unit) + 1)


def words(size: int, separator: str = " ") -> str:
    n = size // 7 + 1
    return separator.join(WORDS[(i * 7) % len(WORDS)] for i in range(n))


# name, suffix, generator(size in characters) -> text
CASES: list[tuple[str, str, Callable[[int], str]]] = [
    ("nested unclosed tags  <div><b>x", ".html", lambda n: repeat("<div><b>text ", n)),
    ("nested unclosed list  <ul><li>x", ".html", lambda n: repeat("<ul><li>text ", n)),
    ("deep nesting, closed  <div>*N", ".html", lambda n: repeat("<div>", n // 2) + "deep" + repeat("</div>", n // 2)),
    ("flat at depth 500     <p>x", ".html", lambda n: "<div>" * 500 + repeat("<p>Some text. ", n)),
    ("reopened formatting   <b id=k>", ".html",
     lambda n: "<p>" + "".join(f"<b id={i}>" for i in range(300)) + "x</p>" + repeat("<p>x</p>", n)),
    ("long paragraph, no punctuation", ".txt", words),
    ("huge single line (HTML)", ".html", lambda n: "<p>" + words(n) + "</p>"),
    ("one word, no whitespace", ".txt", lambda n: "x" * n),
    ("many tiny sentences   Ok. Ok.", ".txt", lambda n: repeat("We do. ", n)),
    ("many tiny paragraphs  <p>Ok.</p>", ".html", lambda n: repeat("<p>We do.</p>", n)),
]


def run(path: Path, limits: IngestLimits) -> tuple[float, str]:
    """Seconds for load_document + build_policy, and the outcome (sentences, or why it was refused)."""
    started = time.perf_counter()
    try:
        document = load_document(path, 20 * MB, limits.max_html_depth)
        policy = build_policy(document, limits.max_sentences, limits.max_paragraph_chars)
        outcome = f"{len(policy.sentences)} sentences"
    except AssistantError as error:
        outcome = "refused: " + str(error).split(": ", 1)[-1][:70]
    return time.perf_counter() - started, outcome


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=float, nargs="+", default=[0.1, 0.3, 1.0], help="input sizes in MB")
    arguments = parser.parse_args()
    limits = IngestLimits()
    print(f"limits: {limits}")
    print(f"{'input':34} {'MB':>6} {'seconds':>8} {'s/MB':>7}  outcome")
    for path in sorted((ROOT / "examples" / "policies").glob("*.html")):
        seconds, outcome = run(path, limits)
        megabytes = path.stat().st_size / MB
        print(f"{'real: ' + path.name:34} {megabytes:6.3f} {seconds:8.3f} {seconds / megabytes:7.2f}  {outcome}")
    with tempfile.TemporaryDirectory() as folder:
        for name, suffix, generate in CASES:
            for size in arguments.sizes:
                path = Path(folder) / f"input{suffix}"
                path.write_text(generate(int(size * MB))[: int(size * MB)], encoding="utf-8")
                megabytes = path.stat().st_size / MB
                seconds, outcome = run(path, limits)
                per_mb = "" if outcome.startswith("refused") else f"{seconds / megabytes:7.2f}"
                print(f"{name:34} {megabytes:6.3f} {seconds:8.3f} {per_mb:>7}  {outcome}")


if __name__ == "__main__":
    main()
