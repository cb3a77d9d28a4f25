"""What every held-out set's labels module shares: its labels turned into the JSON Lines `assistant eval
answers` reads, each supporting sentence number into that sentence's text as `lab.print_policy` numbers it.

A labels module holds `QUESTIONS` (facet → question) and `LABELS` (policy file → facet → (verdict, evidence
numbers, ambiguous, note)) and calls `write_set` from its `main`.
"""
from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

from assistant.foundation.sentences import build_policy
from assistant.foundation.settings import DEFAULT_MAX_BYTES
from assistant.ingest.parsing import load_document

Label = tuple[str, list[int], bool, str]  # verdict, evidence sentence numbers (best first), ambiguous, note


def label_rows(labels: Mapping[str, Mapping[str, Label]], questions: Mapping[str, str], policies: Path) -> list[dict]:
    """One JSON row per (policy, facet): question, verdict, evidence numbers and their text, note."""
    out = []
    for policy, policy_labels in labels.items():
        sentences = build_policy(load_document(policies / policy, DEFAULT_MAX_BYTES)).sentences
        for facet, question in questions.items():
            verdict, evidence, ambiguous, note = policy_labels[facet]
            out.append({"policy_file": policy, "question": question, "facet": facet, "verdict": verdict,
                        "evidence": evidence, "ambiguous": ambiguous, "note": note,
                        "evidence_text": [sentences[n - 1].text for n in evidence]})
    return out


def write_set(labels: Mapping[str, Mapping[str, Label]], questions: Mapping[str, str], policies: Path,
              output: Path) -> None:
    """Write the set's JSON Lines to `output` and say how many items (and how many scored) it holds."""
    rows = label_rows(labels, questions, policies)
    output.write_text("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows), encoding="utf-8")
    print(f"{len(rows)} items ({sum(not r['ambiguous'] for r in rows)} scored) written to {output}")
