"""Print a policy file's sentences as the assistant stores them: `ordinal<TAB>section<TAB>text`.

The sentence numbers are the ones `ask` cites (`sentence_id`), so a person labelling an answers set reads the same
numbering:

    .venv/bin/python -m lab.print_policy FILE [--max-bytes N]
    .venv/bin/python -m lab.print_policy --set heldout12 psf.md     # a file of a set's policies (rebuilt first)
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from assistant.evaluation.sets import find_set
from assistant.foundation.errors import AssistantError
from assistant.foundation.sentences import build_policy
from assistant.foundation.settings import DEFAULT_MAX_BYTES
from assistant.ingest.parsing import load_document


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", type=Path)
    parser.add_argument("--set", dest="name", help="read FILE from this answers set's policies")
    parser.add_argument("--max-bytes", type=int, default=DEFAULT_MAX_BYTES)
    arguments = parser.parse_args()
    path = arguments.file
    try:
        if arguments.name:
            path = find_set(arguments.name).require_policies() / arguments.file
        policy = build_policy(load_document(path, arguments.max_bytes))
    except AssistantError as error:
        print(error, file=sys.stderr)
        return 1
    for sentence in policy.sentences:
        print(f"{sentence.ordinal}\t{sentence.section}\t{sentence.text}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
