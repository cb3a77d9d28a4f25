"""Ingest the bundled example policies into $ASSISTANT_HOME under their file names (amazon.com, ...).

Used by `make chat` / `make serve` for the demo store; identical files are skipped in milliseconds.
"""
from __future__ import annotations

import sys
from pathlib import Path

from assistant.engine import Assistant

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "policies"


def main() -> None:
    assistant = Assistant()
    for path in sorted(EXAMPLES.glob("*.html")):
        result = assistant.ingest(path, name=path.stem)
        state = "unchanged" if result.unchanged else f"ingested in {result.seconds:.1f} s"
        print(f"{result.version.name}: {result.version.n_sentences} sentences, {state}", file=sys.stderr)
    print(f"Store: {assistant.settings.home}", file=sys.stderr)


if __name__ == "__main__":
    main()
