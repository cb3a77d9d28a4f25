"""The first-quote figure beside an independent judge's reading of the quotes.

`assistant eval answers` counts a first quote as supporting only when it is one of the sentences the annotator
labelled. A policy often says the same thing twice, so a quote can support the answer without being labelled.
A judge who never saw the labels, the engine or the scores read each first quote the engine gave on a held-out
set, in its place in the policy, and said whether it supports the gold answer (`supports`, `partly`, `no`). The
procedure is in the set's README.md (sets/answers/heldout7/, heldout8/; the judgements in its
judged_first_quotes.jsonl). This script asks the set's questions again and reports:

- `strict`: the harness's figure (the quote is labelled);
- `labelled_or_judged`: the quote is labelled, or the judge said it supports the answer;
- `judged`: the judge said it supports the answer (the labels aside);
- `unjudged`: first quotes the judge never saw, because the engine quotes differently now. Judge them before
  quoting the other two figures.

    .venv/bin/python -m lab.judged_quotes --set heldout8   # or heldout7
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path

from assistant.evaluation.answers import run_answers
from assistant.evaluation.sets import find_set

JUDGEMENTS = "judged_first_quotes.jsonl"  # in the set's folder


def read_judgements(path: Path) -> dict[tuple[str, str, str], str]:
    """(policy file, question, quoted sentence) → supports / partly / no."""
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return {(row["policy_file"], row["question"], _spaced(row["quote"])): row["judgement"] for row in rows}


def _spaced(text: str) -> str:
    return " ".join(text.split())


def judged_figures(set_name: str) -> dict[str, object]:
    answers_set = find_set(set_name)
    judgements = read_judgements(answers_set.folder / JUDGEMENTS)
    report = run_answers(answers_set.answers, answers_set.require_policies())
    quoted = [r for r in report.results if r.item.verdict != "not_stated" and r.item.evidence_text]
    strict = judged = either = 0
    unjudged = []
    for result in quoted:
        labelled = result.item.supported_by(result.first_quote)
        judgement = judgements.get((result.item.policy_file, result.item.question, _spaced(result.first_quote or "")))
        if judgement is None:
            unjudged.append({"policy_file": result.item.policy_file, "question": result.item.question,
                             "quote": result.first_quote})
        strict += labelled
        judged += judgement == "supports"
        either += labelled or judgement == "supports"
    share = (lambda n: round(100 * n / len(quoted), 1)) if quoted else (lambda n: 0.0)
    return {"set": set_name, "items": len(quoted), "strict": share(strict), "labelled_or_judged": share(either),
            "judged": share(judged), "unjudged": unjudged}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--set", default="heldout8", help=f"a held-out set with a {JUDGEMENTS} (default heldout8)")
    print(json.dumps(judged_figures(parser.parse_args().set), indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main()
