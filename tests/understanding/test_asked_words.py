"""What an open-vocabulary yes/no question asks, and whether a sentence states it (`understanding/asked_words.py`,
words in `lang/asked_words.toml`): the class of sentences on the same general topic that do not say what is asked."""
from __future__ import annotations

import csv
import subprocess
import sys

from assistant.understanding.asked_words import asked_words, share_stated, states_asked
from tests.support.paths import ROOT


def test_the_asked_words_leave_out_stop_words_generic_words_and_the_policy_s_own_name():
    assert asked_words("Does Grammarly make automated decisions about me?", "grammarly").stems == {"autom", "decis"}
    assert asked_words("Are my calls with FedEx customer service recorded?", "fedex").stems == {"call", "custom", "record"}
    assert not asked_words("Do they collect my personal information?")


def test_alternatives_are_read_one_at_a_time():
    asked = asked_words("Do you collect crash reports or telemetry from the apps?")
    assert set(asked.readings) == {frozenset({"crash", "report"}), frozenset({"telemetri"})}
    assert states_asked(asked, "We collect telemetry about app performance.")
    assert set(asked_words("does viber record or listen to my calls?", "viber").readings) == {
        frozenset({"record", "call"}), frozenset({"listen", "call"})}
    # one common word is no reading on its own: "profile" alone would be said by any sentence about your profile
    assert asked_words("Does it profile me or make automated decisions?").readings == (frozenset({"autom", "decis"}),)


def test_a_sentence_on_the_topic_that_does_not_say_what_is_asked_does_not_state_it():
    asked = asked_words("Does it make automated decisions about me?")
    assert not states_asked(asked, "We collect some information automatically.")
    assert not states_asked(asked, "We may also use cookies for website analytics purposes.")
    assert states_asked(asked, "We do not make decisions based solely on automated processing.")
    calls = asked_words("Do they record customer support calls?")
    assert not states_asked(calls, "We process your data for account management and client services.")
    assert states_asked(calls, "Calls with our customer service team may be recorded for training.")


def test_inflections_meet_in_their_stems():
    asked = asked_words("Can my neighbours see my street address?")
    assert share_stated(asked, "Neighbours you invite can see your street addresses.") == 1.0
    assert share_stated(asked_words("Do they collect my data?"), "anything") == 0.0


def _labelled() -> list[dict[str, str]]:
    path = ROOT / "tests/fixtures/asked_sentences.tsv"
    return list(csv.DictReader(path.open(encoding="utf-8"), delimiter="\t", quoting=csv.QUOTE_NONE))


def test_it_agrees_with_a_reader_on_sentences_of_ten_policies_it_was_not_written_from():
    """360 pairs: 60 questions a helper wrote about ten current policies in no set (outside the sixteen facets,
    before reading them), each beside the six sentences the engine ranked first for it, labelled by the helper as
    stating what is asked or not. Measured: precision 0.59, recall 0.53 (10 of 19); a word rule cannot see a
    paraphrase ("traffic" for "browsing activity"), which is why it only gates questions of no known topic."""
    rows = _labelled()
    assert len(rows) == 360
    said = [states_asked(asked_words(row["question"], row["service"]), row["sentence"]) for row in rows]
    states = [row["label"] == "states" for row in rows]
    hits = sum(s and g for s, g in zip(said, states))
    assert hits / sum(said) >= 0.55 and hits / sum(states) >= 0.5


def test_the_stem_frequencies_are_what_their_script_writes_from_the_bundled_corpus():
    done = subprocess.run([sys.executable, "scripts/stem_frequencies.py", "--check"], cwd=ROOT, check=False)
    assert done.returncode == 0, "lang/stem_frequencies.tsv differs from what scripts/stem_frequencies.py writes"
