"""The grounding probe (lab/grounding, measured and not shipped): its training data's construction, its thresholds,
and a short training run that resumes."""
from __future__ import annotations

import numpy as np

from lab.grounding.pairs import object_swaps
from lab.grounding.train import GroundingPair, TrainConfig, choose_threshold, measure, train


def _pair(question: str, sentence: str, positive: bool = True, item: str = "p: q", verdict: str = "yes"):
    return GroundingPair("dev", item, question, "", sentence, positive, verdict)


def test_object_swaps_ask_the_sentence_of_a_kind_it_does_not_name():
    pairs = [_pair("Do you collect my email address?", "We collect your name and email address when you sign up."),
             _pair("Do you share my data with advertisers?", "We share your information with advertising partners."),
             _pair("Do you sell my data?", "We do not sell your personal information."),  # names nothing narrower
             _pair("Do you collect my email address?", "We collect your email address.", positive=False)]
    swapped = object_swaps(pairs)
    assert len(swapped) == 2 and not any(p.positive for p in swapped)
    for pair, original in zip(swapped, pairs):
        assert pair.sentence == original.sentence and pair.question != original.question
        assert "email address" not in pair.question and "advertis" not in pair.question, pair.question


def test_the_threshold_separates_answered_items_from_silent_ones():
    pairs = [_pair("q1", "a", True, "i1"), _pair("q1", "b", False, "i1"),
             _pair("q2", "c", False, "i2", "not_stated"), _pair("q2", "d", False, "i2", "not_stated")]
    scores = np.array([0.9, 0.2, 0.3, 0.1])
    threshold = choose_threshold(pairs, scores)
    assert 0.3 < threshold <= 0.9
    measured = measure(pairs, scores, threshold)
    assert (measured["best_is_labelled"], measured["answered_passes"], measured["silent_refused"]) == (100, 100, 100)


def test_training_checkpoints_and_resumes(tmp_path):
    pairs = [_pair(f"Do you sell my data {i}?", "We do not sell your personal information.", i % 2 == 0, f"i{i}", "no")
             for i in range(8)]
    config = TrainConfig(batch_size=4, checkpoint_every=1)
    train(pairs, config, checkpoint_dir=tmp_path, log=lambda _: None)
    assert (tmp_path / "checkpoint.pt").exists()
    said: list[str] = []
    train(pairs, config, checkpoint_dir=tmp_path, log=said.append)
    assert said == ["resumed at step 2"], said
