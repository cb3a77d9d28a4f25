"""Conditions a statement puts on a practice (`lang/conditions.toml`): every rule finds its example sentences and no
rule its counter-examples; and on real policy sentences (`tests/fixtures/condition_sentences.tsv`: 200 sentences drawn
at random from the current corpus's 502 policies, each labelled by a helper who had not seen the rules: `plain`,
`choice`, `law`, `denied` or `none`), the stance reads "only if" where the practice waits on the person's choice or on
the law, and keeps "yes" for ordinary use. The rules were written on the development half; the validation half was
scored once (21 of 34 choice-or-law sentences read "only if", 3 of 21 plain ones; 6 of 34 and 0 of 21 before)."""
from __future__ import annotations

import csv

import pytest

from assistant.foundation.types import Sentence
from assistant.understanding.statements import CONDITIONAL, condition_rules, on_your_setting, stance
from tests.support.paths import ROOT

EXAMPLES = [(r.name, text, True) for r in condition_rules() for text in r.match] + [
    (r.name, text, False) for r in condition_rules() for text in r.no_match]
ROWS = list(csv.DictReader((ROOT / "tests/fixtures/condition_sentences.tsv").open(encoding="utf-8"), delimiter="\t"))
# half → (choice-or-law sentences read "only if" at least, plain sentences read "only if" at most)
FLOORS = {"development": (20, 3), "validation": (21, 3)}


@pytest.mark.parametrize(("name", "text", "expected"), EXAMPLES, ids=[f"{n}:{t[:30]}" for n, t, _ in EXAMPLES])
def test_every_condition_rule_matches_its_examples(name: str, text: str, expected: bool) -> None:
    rule = next(r for r in condition_rules() if r.name == name)
    assert bool(rule.pattern.search(text)) is expected
    assert expected or not on_your_setting(text)  # a counter-example matches no rule at all


@pytest.mark.parametrize("half", list(FLOORS))
def test_the_stance_reads_conditions_in_real_sentences_labelled_blind(half: str) -> None:
    rows = [row for row in ROWS if row["half"] == half]
    read = [(row["label"], stance(Sentence(ordinal=1, text=row["sentence"], start=0, end=len(row["sentence"]),
                                           section=""), None)) for row in rows]
    conditional = [said for label, said in read if label in ("choice", "law")]
    plain = [said for label, said in read if label == "plain"]
    least, most = FLOORS[half]
    assert len(rows) == 100 and len(conditional) >= 29 and len(plain) >= 21
    assert conditional.count(CONDITIONAL) >= least and plain.count(CONDITIONAL) <= most, (conditional, plain)
