"""Leave each answers set out in turn: fit the answer-sentence scorer on the other sets, let it reorder the left-out
set's stored rankings (`lab.quote_study rank` pickles) and re-decide. Prints, per set, the first quote and the
verdict accuracy without the scorer and with it, for each C and weight asked for; the shipped C and weight
(`assistant/models/answer_sentences/train.py`) were chosen on the pooled held-out first quote here.

    .venv/bin/python -m lab.answer_sentence_study --rankings '/tmp/q-s35-{set}.pkl' --homes '/tmp/h-base-{set}' \\
        [--c 1 3 10] [--weight 0.7 1 1.5]

HOME holds each set's store (the one `lab.quote_study rank` filled); PKL its rankings, `{set}` replaced by the name.
"""
from __future__ import annotations

import argparse
import dataclasses
import pickle
from pathlib import Path

from assistant.engine import Assistant
from assistant.evaluation.answer_sentences import labelled_sentences, training_sets
from assistant.foundation.settings import Settings
from assistant.models.answer_sentences.train import fit
from lab.quote_study import results


def rescored(path: Path, home: Path, scorer, out: Path) -> None:
    """The pickled rankings with each candidate's answer score from `scorer`, written to `out`."""
    parameters, rows = pickle.loads(path.read_bytes())
    search = Assistant(Settings(home=home)).search
    new_rows = []
    for item, ranking in rows:
        if ranking.facet is not None and ranking.ranked:
            vectors = search.vectors(ranking.version)
            scores = scorer.scores(ranking.facet, vectors[[r.sentence.ordinal - 1 for r in ranking.ranked]])
            ranking = dataclasses.replace(ranking, ranked=[dataclasses.replace(r, answer_score=float(s))
                                                           for r, s in zip(ranking.ranked, scores, strict=True)])
        new_rows.append((item, ranking))
    out.write_bytes(pickle.dumps((parameters, new_rows)))


def figures(path: Path) -> tuple[float, float, int]:
    """(first quote supports %, verdict accuracy %, first-quote items) of a pickle, as `lab.quote_study score`."""
    rows = [r for r, _, _ in results(path)]
    quoted = [r for r in rows if r.item.verdict != "not_stated" and r.item.evidence_text]
    return (100 * sum(r.item.supported_by(r.first_quote) for r in quoted) / len(quoted),
            100 * sum(r.correct for r in rows) / len(rows), len(quoted))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rankings", required=True)
    parser.add_argument("--homes", required=True)
    parser.add_argument("--c", type=float, nargs="+", default=[3.0])
    parser.add_argument("--weight", type=float, nargs="+", default=[1.0])
    args = parser.parse_args()
    sets = training_sets()  # the sets of assistant.evaluation.sets (ASSISTANT_SETS or the checkout's)
    sentences = {s.name: labelled_sentences(s, Path(args.homes.format(set=s.name))) for s in sets}
    before = {s.name: figures(Path(args.rankings.format(set=s.name))) for s in sets}
    held_out = [s.name for s in sets if s.name != "dev"]

    def pooled(table: dict) -> float:
        return sum(table[n][0] * table[n][2] for n in held_out) / sum(table[n][2] for n in held_out)

    def show(label: str, table: dict) -> None:
        cells = "  ".join(f"{n} {v[0]:.1f}/{v[1]:.1f}" for n, v in table.items())
        print(f"{label}: held-out first quote pooled {pooled(table):.1f}; per set first quote / verdicts: {cells}",
              flush=True)

    show("without the scorer", before)
    for c in args.c:
        for weight in args.weight:
            after = {}
            for s in sets:
                scorer = fit([r for n, rows in sentences.items() if n != s.name for r in rows], c, weight)
                out = Path(f"/tmp/answer-sentence-study-{s.name}.pkl")
                rescored(Path(args.rankings.format(set=s.name)), Path(args.homes.format(set=s.name)), scorer, out)
                after[s.name] = figures(out)
            show(f"C={c} weight={weight}", after)


if __name__ == "__main__":
    main()
