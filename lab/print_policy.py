"""Print a policy file's sentences as the assistant stores them: `ordinal<TAB>section<TAB>text`.

The sentence numbers are the ones `ask` cites (`sentence_id`), so a person labelling the answers
set reads the same numbering:

    .venv/bin/python -m lab.print_policy FILE [--max-bytes N]
"""
from __future__ import annotations

import argparse
from pathlib import Path

from assistant.foundation.sentences import build_policy
from assistant.foundation.settings import DEFAULT_MAX_BYTES
from assistant.ingest.parsing import load_document


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", type=Path)
    parser.add_argument("--max-bytes", type=int, default=DEFAULT_MAX_BYTES)
    arguments = parser.parse_args()
    policy = build_policy(load_document(arguments.file, arguments.max_bytes))
    for sentence in policy.sentences:
        print(f"{sentence.ordinal}\t{sentence.section}\t{sentence.text}")


if __name__ == "__main__":
    main()
