"""Selection logits: the category bonus and the neighbours' share, hand-computed."""
from __future__ import annotations

import numpy as np
import pytest

from assistant.selection import NO_MATCH_LOGIT, selection_logits


def test_bonus_and_neighbours_share():
    relevance = np.array([2.0, -1.0, 4.0])
    on_topic = np.array([0.0, 1.0, 0.0])
    # own logits with bonus 1: [2, 0, 4]; neighbour means (at the edges, the one neighbour):
    # [0, (2 + 4) / 2, 0] = [0, 3, 0]; times 0.5 added
    assert selection_logits(relevance, on_topic, 1.0, 0.5) == pytest.approx([2.0, 1.5, 4.0])


def test_sentences_that_cannot_be_evidence_are_no_neighbours():
    # a heading-question (NO_MATCH_LOGIT) before an answer sentence does not drag it down; a sentence
    # with no eligible neighbour at all counts its own logit
    relevance = np.array([NO_MATCH_LOGIT, 2.0, -4.0, NO_MATCH_LOGIT, 1.0, NO_MATCH_LOGIT])
    scores = selection_logits(relevance, np.zeros(6), 0.0, 0.5)
    assert scores[1] == pytest.approx(2.0 + 0.5 * -4.0)
    assert scores[2] == pytest.approx(-4.0 + 0.5 * 2.0)
    assert scores[4] == pytest.approx(1.0 + 0.5 * 1.0)


def test_without_bonus_and_context_the_relevance_is_the_score():
    relevance = np.array([0.5, NO_MATCH_LOGIT, -3.0])
    assert selection_logits(relevance, np.ones(3), 0.0, 0.0) == pytest.approx(relevance)


def test_a_sentence_between_two_relevant_ones_overtakes_an_isolated_one():
    # sentences 1-3 form an answer passage; sentence 5 alone scores a little higher than sentence 2
    relevance = np.array([3.0, 1.0, 3.0, -8.0, 1.5, -8.0])
    scores = selection_logits(relevance, np.zeros(6), 0.0, 0.5)
    assert scores[1] > scores[4]
