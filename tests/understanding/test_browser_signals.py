"""Whether a service honours a browser's privacy signal (Do Not Track; Global Privacy Control and the other opt-out
preference signals), read sentence by sentence by the `do_not_track` and `privacy_signal` facets.

`tests/fixtures/browser_signal_sentences.tsv`: 160 sentences naming a signal, drawn at random from the current corpus's
502 policies, each labelled by a helper who had not seen the rules — yes / no / some (only in some places, products,
or where the law requires) / none (states nothing of it) — for each signal. The rules were written on the development
half; the validation half was scored once (72 of 80 for each signal) and is not read for rules."""
from __future__ import annotations

import csv

import pytest

from assistant.foundation.types import Sentence
from assistant.understanding.facets import BY_NAME, facet_of
from assistant.understanding.statements import CONDITIONAL, NO, YES, stance
from tests.support.paths import ROOT

ROWS = list(csv.DictReader((ROOT / "tests/fixtures/browser_signal_sentences.tsv").open(encoding="utf-8"),
                           delimiter="\t"))
READING = {YES: "yes", NO: "no", CONDITIONAL: "some"}
# (half, label column, facet) → (sentences read as labelled at least, sentences stating nothing given a verdict at most)
FLOORS = {("development", "dnt", "do_not_track"): (78, 0), ("development", "gpc", "privacy_signal"): (77, 1),
          ("validation", "dnt", "do_not_track"): (72, 3), ("validation", "gpc", "privacy_signal"): (72, 2)}


def read(text: str, facet: str) -> str:
    """What the facet reads in one sentence: yes / no / some, or none where it does not address the signal."""
    if not BY_NAME[facet].addressed_by(text):
        return "none"
    sentence = Sentence(ordinal=1, text=text, start=0, end=len(text), section="", categories=(), facts=None,
                        practice_scores={}, page=None)
    return READING[stance(sentence, BY_NAME[facet])]


@pytest.mark.parametrize(("half", "column", "facet"), list(FLOORS))
def test_the_signal_is_read_as_the_blind_labels_say(half, column, facet):
    rows = [row for row in ROWS if row["half"] == half]
    readings = [read(row["sentence"], facet) for row in rows]
    right = sum(got == row[column] for got, row in zip(readings, rows, strict=True))
    invented = sum(got != "none" and row[column] == "none" for got, row in zip(readings, rows, strict=True))
    least, most = FLOORS[(half, column, facet)]
    assert len(rows) == 80 and right >= least and invented <= most, (right, invented)


def test_a_question_naming_a_signal_asks_about_that_signal_not_about_tracking():
    assert facet_of("Does reddit respect Do Not Track signals?").name == "do_not_track"
    assert facet_of("will you honor my browser's dnt setting").name == "do_not_track"
    assert facet_of("Do you honour Global Privacy Control?").name == "privacy_signal"
    assert facet_of("do they respect opt-out preference signals like GPC").name == "privacy_signal"
    assert facet_of("Do they track me with cookies?").name == "cookies_tracking"
    assert BY_NAME["do_not_track"].decisive and BY_NAME["privacy_signal"].decisive


def test_a_reason_for_a_no_is_no_condition():
    # read on Shein's current policy: "Only in some cases — honours Do Not Track" of this denial
    text = ('To the extent that uniform standards for "DNT" signals have not been adopted, our Services does not '
            'currently process or respond to "DNT" signals.')
    assert read(text, "do_not_track") == "no"
    # the class, in other words: a negative extent clause is the reason, a positive one a case
    assert read("To the extent that no industry standard exists, we do not honour Do Not Track requests.",
                "do_not_track") == "no"
    assert read("To the extent that your browser sends a Global Privacy Control signal, we treat it as an opt-out of "
                "sale.", "privacy_signal") == "some"
