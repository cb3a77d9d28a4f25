"""Study the first quote of the answers sets offline: rank once, then re-decide in seconds.

`rank` ingests an answers set's policies into a store under HOME (kept between runs) and pickles,
per scored item, the engine's ranking and selection (`AnswerPipeline._decide`'s inputs). `score`
re-runs `assistant.answering.verdict.decide` (the current code) on those stored rankings and prints
the scores of `assistant eval answers` (first quote, verdicts, not-stated P/R) and, with `--misses`,
every item whose first quote does not support the gold verdict, with the facet's candidates. A
change to ranking needs `rank` again; a change to the verdict stage needs only `score`.

    .venv/bin/python -m lab.quote_study rank --out /tmp/dev.pkl --home /tmp/h-dev [--set NAME | --data F --policies D]
    .venv/bin/python -m lab.quote_study score /tmp/dev.pkl [--misses]
"""
from __future__ import annotations

import argparse
import json
import pickle
from pathlib import Path

from assistant.answering.selection import select
from assistant.answering.verdict import decide
from assistant.engine import Assistant
from assistant.evaluation.answers import AnswersReport, ItemResult, _policy_name, load_items
from assistant.evaluation.sets import DEV, find_set
from assistant.foundation.settings import Settings
from assistant.understanding.facets import BY_NAME


def rank(data: Path, policies: Path, home: Path, out: Path) -> None:
    items = [item for item in load_items(data) if not item.ambiguous]
    assistant = Assistant(Settings(home=home))
    stored = set(assistant.policy_names())
    for name in sorted({item.policy_file for item in items}):
        if _policy_name(name) not in stored:
            assistant.ingest(policies / name, name=_policy_name(name), force=True)
    rows = []
    pipeline = assistant.answer_pipeline
    for item in items:
        ranking = pipeline.rank(item.question, assistant.version(_policy_name(item.policy_file)))
        rows.append((item, ranking))
    out.write_bytes(pickle.dumps((assistant.answer_pipeline.parameters, rows)))
    print(f"{len(rows)} rankings → {out}")


def results(path: Path) -> list[tuple[ItemResult, object, object]]:
    parameters, rows = pickle.loads(path.read_bytes())
    out = []
    for item, ranking in rows:
        selection = select([r.selection_logit for r in ranking.ranked], [r.relevance for r in ranking.ranked],
                           parameters, 3)
        verdict = decide(ranking, selection)
        positions = selection.positions
        if verdict.support is not None and not (ranking.reason or selection.silent):
            positions = [verdict.support] + [p for p in positions if p != verdict.support]
        first = ranking.ranked[positions[0]].sentence.text if ranking.reason is None and positions else None
        best = ranking.ranked[0].sentence.text if ranking.reason is None and ranking.ranked else None
        out.append((ItemResult(item, verdict.verdict, first, best, verdict.headline), ranking, verdict))
    return out


def score(path: Path, misses: bool, dump: Path | None = None) -> None:
    rows = results(path)
    if dump:
        dump.write_text(json.dumps([[r.item.question, r.item.policy_file, r.verdict, r.correct,
                                     r.item.supported_by(r.first_quote), r.first_quote] for r, _, _ in rows]))
    report = AnswersReport([r for r, _, _ in rows], 0).to_json()
    print({k: report[k] for k in ("accuracy", "first_quote_supports", "first_quote_items", "not_stated")},
          {k: v["accuracy"] for k, v in report["by_verdict"].items()})
    if not misses:
        return
    for result, ranking, verdict in rows:
        item = result.item
        if item.verdict == "not_stated" or not item.evidence_text or item.supported_by(result.first_quote):
            continue
        facet = BY_NAME.get(ranking.facet)
        print(f"\n### {item.policy_file} | {item.question} | gold {item.verdict} → {result.verdict} | facet {ranking.facet}")
        print(f"  FIRST: {(result.first_quote or '')[:220]}")
        for gold in item.evidence_text:
            where = [i for i, r in enumerate(ranking.ranked) if item.supported_by(r.sentence.text) and
                     (r.sentence.text == gold or gold in r.sentence.text or r.sentence.text in gold)]
            print(f"  GOLD (rank {where[0] if where else '-'}"
                  f"{', facet' if facet and facet.addressed_by(gold) else ', NOT facet'}): {gold[:220]}")
        if facet:
            matching = [i for i, r in enumerate(ranking.ranked) if facet.addressed_by(r.sentence.text)][:6]
            for i in matching:
                mark = "*" if item.supported_by(ranking.ranked[i].sentence.text) else " "
                print(f"   {mark}{i:3d} {ranking.ranked[i].selection_logit:6.2f} {ranking.ranked[i].sentence.text[:170]}")


def main() -> None:
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command", required=True)
    r = sub.add_parser("rank")
    r.add_argument("--set", default=DEV, help="an answers set (assistant.evaluation.sets; default dev)")
    r.add_argument("--data", type=Path, default=None, help="a JSON Lines file instead of the set's")
    r.add_argument("--policies", type=Path, default=None, help="its policies folder (default: the set's)")
    r.add_argument("--home", type=Path, required=True)
    r.add_argument("--out", type=Path, required=True)
    s = sub.add_parser("score")
    s.add_argument("path", type=Path)
    s.add_argument("--misses", action="store_true")
    s.add_argument("--dump", type=Path, help="write each item's verdict and first quote here (JSON), to compare runs")
    args = parser.parse_args()
    if args.command == "rank":
        answers_set = find_set(args.set)
        rank(args.data or answers_set.answers, args.policies or answers_set.require_policies(), args.home, args.out)
    else:
        score(args.path, args.misses, args.dump)


if __name__ == "__main__":
    main()
