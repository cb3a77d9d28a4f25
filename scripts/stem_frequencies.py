"""Write `assistant/understanding/lang/stem_frequencies.tsv`: in how many of OPP-115's 115 privacy policies each word
stem occurs (Snowball English stems of the lower-cased words), the document frequencies `understanding/asked_words.py`
weighs a question's words by: a stem few policies use ("sanction", "telemetri") says more of what is asked than one
most use ("custom", "list").

    .venv/bin/python scripts/stem_frequencies.py [--check]

The corpus is the bundled OPP-115 archive (its sanitized policies); the output is sorted, so a rerun writes the same
file. `--check` exits 1 when the file would change.
"""
from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from pathlib import Path

import snowballstemmer

from assistant.corpora.opp115 import opp115_policies, segment_text

OUTPUT = Path(__file__).resolve().parent.parent / "assistant/understanding/lang/stem_frequencies.tsv"
MIN_POLICIES = 2  # stems fewer policies use are left out (read as used by none)
_WORD = re.compile(r"[a-z][a-z0-9]*")


def frequencies() -> tuple[int, Counter]:
    stemmer = snowballstemmer.stemmer("english")
    policies = opp115_policies()
    counts: Counter = Counter()
    for path in policies.values():
        words = set(_WORD.findall(segment_text(path.read_text(encoding="utf-8", errors="replace")).lower()))
        counts.update(set(stemmer.stemWords(sorted(words))))
    return len(policies), counts


def render(total: int, counts: Counter) -> str:
    rows = sorted((stem, n) for stem, n in counts.items() if n >= MIN_POLICIES)
    return f"# policies\t{total}\n" + "".join(f"{stem}\t{n}\n" for stem, n in rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the file would change")
    args = parser.parse_args()
    text = render(*frequencies())
    if args.check:
        sys.exit(0 if OUTPUT.is_file() and OUTPUT.read_text(encoding="utf-8") == text else 1)
    OUTPUT.write_text(text, encoding="utf-8")
    print(f"{OUTPUT}: {text.count(chr(10)) - 1} stems")


if __name__ == "__main__":
    main()
