"""Write an answers set's `answers.jsonl` from its labels (`labels.tsv`) and its policies: each label's supporting
sentence numbers are turned into their text as `lab.print_policy` numbers them (`evidence_text`, what
`assistant eval answers` matches quotes against).

    .venv/bin/python -m lab.label_set heldout12            # rewrites sets/answers/heldout12/answers.jsonl
    .venv/bin/python -m lab.label_set heldout12 --check    # says whether it would change; exit 1 if it would
    .venv/bin/python -m lab.label_set --all [--check]      # every set with a labels.tsv whose policies are present

`labels.tsv` is tab-separated with a header line, one row per item, in the order the items are written:

    policy_file  facet  question  verdict  evidence  ambiguous  note

`evidence` is the supporting sentence numbers, best first, separated by spaces (empty for none); `ambiguous` is
`true` or `false`; `note` is free text (no tabs). A set of questions of every type (`blind1`) has `labels.jsonl`
instead: one JSON object per line with the fields of its LABELLING.md (`type`, `verdict`, `evidence`, `content` …);
each `content` string must be found verbatim in the policy's sentences. A set's policies must be rebuilt first
(`scripts/heldout_policies.py --set NAME`); the dev set has no labels file (its answers.jsonl is the labelled
data, written by its annotators at commit e9bfd78's sentence numbering). An item whose numbers are unchanged but
now point at other text than answers.jsonl holds (the parser has changed since it was labelled: two of heldout1's)
is not written over without `--force`.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from assistant.evaluation.answers import VERDICTS
from assistant.evaluation.sets import AnswersSet, all_sets, find_set
from assistant.foundation.errors import AssistantError
from assistant.foundation.sentences import build_policy
from assistant.foundation.settings import DEFAULT_MAX_BYTES
from assistant.ingest.parsing import load_document

COLUMNS = ("policy_file", "facet", "question", "verdict", "evidence", "ambiguous", "note")


def read_labels(path: Path) -> list[dict]:
    """The labels, each row as the item it becomes (without `evidence_text`); a bad line is a one-line error."""
    lines = path.read_text(encoding="utf-8").splitlines()
    if not lines or tuple(lines[0].split("\t")) != COLUMNS:
        raise AssistantError(f"{path}:1: the header is not {' '.join(COLUMNS)} (tab-separated).")
    rows = []
    for number, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        fields = line.split("\t")
        if len(fields) != len(COLUMNS):
            raise AssistantError(f"{path}:{number}: {len(fields)} fields, not {len(COLUMNS)}.")
        row = dict(zip(COLUMNS, fields, strict=True))
        if row["verdict"] not in VERDICTS:
            raise AssistantError(f"{path}:{number}: verdict {row['verdict']!r} is not one of {', '.join(VERDICTS)}.")
        if row["ambiguous"] not in ("true", "false"):
            raise AssistantError(f"{path}:{number}: ambiguous is {row['ambiguous']!r}, not true or false.")
        try:
            evidence = [int(n) for n in row["evidence"].split()]
        except ValueError:
            raise AssistantError(f"{path}:{number}: evidence {row['evidence']!r} is not sentence numbers.") from None
        rows.append({"policy_file": row["policy_file"], "question": row["question"], "facet": row["facet"],
                     "verdict": row["verdict"], "evidence": evidence, "ambiguous": row["ambiguous"] == "true",
                     "note": row["note"], "_line": number})
    return rows


def write_labels(rows: list[dict], path: Path) -> None:
    """Write items (dicts with the columns' keys) as `labels.tsv`: the inverse of `read_labels`."""
    out = ["\t".join(COLUMNS)]
    for row in rows:
        fields = [row["policy_file"], row["facet"], row["question"], row["verdict"],
                  " ".join(str(n) for n in row["evidence"]), "true" if row["ambiguous"] else "false", row["note"]]
        if any("\t" in f or "\n" in f or "\r" in f for f in fields):
            raise AssistantError(f"{row['policy_file']} {row['facet']}: a field holds a tab or a line break.")
        out.append("\t".join(fields))
    path.write_text("\n".join(out) + "\n", encoding="utf-8")


BLIND_VERDICTS = ("yes", "no", "only_if", "scoped", "not_stated", "answered")


def read_labels_jsonl(path: Path) -> list[dict]:
    """The labels of a set of questions of every type (`labels.jsonl`); a bad line is a one-line error."""
    rows = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            evidence = [int(n) for n in row["evidence"]]
            content = [str(c) for c in row["content"]]
            verdict, kind = row["verdict"], row["type"]
        except (json.JSONDecodeError, KeyError, TypeError, ValueError) as error:
            raise AssistantError(f"{path}:{number}: not a label ({error}).") from None
        allowed = BLIND_VERDICTS[:-1] if kind == "yes_no" else ("answered", "not_stated")
        if verdict not in allowed:
            raise AssistantError(f"{path}:{number}: verdict {verdict!r} is not one for a {kind} question.")
        rows.append({**row, "evidence": evidence, "content": content, "_line": number})
    return rows


def answers_text(labels: Path, policies: Path) -> str:
    """The JSON Lines the labels become over the policies in `policies`."""
    rows = read_labels_jsonl(labels) if labels.suffix == ".jsonl" else read_labels(labels)
    texts: dict[str, list[str]] = {}
    for row in rows:
        if row["policy_file"] not in texts:
            path = policies / row["policy_file"]
            if not path.is_file():
                raise AssistantError(f"{path}: not found (labels.tsv line {row['_line']}).")
            texts[row["policy_file"]] = [s.text for s in build_policy(load_document(path, DEFAULT_MAX_BYTES)).sentences]
        sentences = texts[row["policy_file"]]
        if any(not 1 <= n <= len(sentences) for n in row["evidence"]):
            raise AssistantError(f"{labels}:{row['_line']}: evidence {row['evidence']} beyond the policy's "
                                 f"{len(sentences)} sentences.")
        row["evidence_text"] = [sentences[n - 1] for n in row["evidence"]]
        absent = [c for c in row.get("content", ()) if not any(c in sentence for sentence in sentences)]
        if absent:
            raise AssistantError(f"{labels}:{row['_line']}: content {absent[0]!r} is not in the policy's sentences.")
    return "".join(json.dumps({k: v for k, v in row.items() if k != "_line"}, ensure_ascii=False) + "\n"
                   for row in rows)


def moved(text: str, current: str) -> list[str]:
    """The items whose sentence numbers are the ones written before but now point at other text (the parser has
    changed since they were labelled): `policy_file facet` each."""
    before = {(row["policy_file"], row.get("facet"), row["question"]): row for row in map(json.loads, current.splitlines())}
    out = []
    for row in map(json.loads, text.splitlines()):
        old = before.get((row["policy_file"], row.get("facet"), row["question"]))
        if old and old.get("evidence") == row["evidence"] and old.get("evidence_text") != row["evidence_text"]:
            out.append(f"{row['policy_file']} {row.get('facet') or row['question']}")
    return out


def label_set(answers_set: AnswersSet, check: bool = False, force: bool = False) -> bool:
    """Write (or with `check`, compare) the set's answers.jsonl; whether the file is as its labels make it. An item
    whose sentence numbers now point at other text than the file holds is not written over (unless `force`)."""
    if not answers_set.labels.is_file():
        raise AssistantError(f"{answers_set.name}: no labels.tsv or labels.jsonl in {answers_set.folder}.")
    text = answers_text(answers_set.labels, answers_set.require_policies())
    current = answers_set.answers.read_text(encoding="utf-8") if answers_set.answers.is_file() else ""
    rows = text.splitlines()
    scored = sum(not json.loads(line)["ambiguous"] for line in rows)
    shifted = moved(text, current)
    if check:
        print(f"{answers_set.name}: {len(rows)} items ({scored} scored): "
              f"{'identical to' if text == current else 'DIFFERS from'} {answers_set.answers}"
              + (f"; numbers now pointing at other text: {', '.join(shifted)}" if shifted else ""))
        return text == current
    if shifted and not force:
        raise AssistantError(f"{answers_set.name}: the sentence numbers of {', '.join(shifted)} now point at other "
                             "text than when labelled (the parser has changed): read them again with "
                             "python -m lab.print_policy, or write over with --force.")
    answers_set.answers.write_text(text, encoding="utf-8")
    print(f"{len(rows)} items ({scored} scored) written to {answers_set.answers}")
    return True


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("name", nargs="?", help="the answers set (sets/answers/NAME/)")
    which.add_argument("--all", action="store_true", help="every set with a labels.tsv whose policies are present")
    parser.add_argument("--check", action="store_true", help="compare with answers.jsonl instead of writing it")
    parser.add_argument("--force", action="store_true",
                        help="write even items whose sentence numbers now point at other text")
    args = parser.parse_args()
    try:
        if not args.all:
            return 0 if label_set(find_set(args.name), args.check, args.force) else 1
        same = True
        for answers_set in all_sets():
            if not answers_set.labels.is_file():
                continue
            if not answers_set.has_policies():
                print(f"{answers_set.name}: no policies; rebuild them with {answers_set.rebuild_command}",
                      file=sys.stderr)
                continue
            try:
                same = label_set(answers_set, args.check, args.force) and same
            except AssistantError as error:  # one set's problem does not stop the others
                print(error, file=sys.stderr)
                same = False
        return 0 if same else 1
    except AssistantError as error:
        print(error, file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
