"""Evidence selection: topic scores, the neighbours' share and the evidence margin, hand-computed."""
from __future__ import annotations

import numpy as np
import pytest

from assistant.selection import NO_MATCH_LOGIT, practice_match, selection_logits, topic_scores, within_margin


def test_topic_and_neighbours_share():
    relevance = np.array([2.0, -1.0, 4.0])
    topic = np.array([0.0, 1.0, 0.0])
    # own logits (relevance + topic): [2, 0, 4]; neighbour means (at the edges, the one neighbour):
    # [0, (2 + 4) / 2, 0] = [0, 3, 0]; times 0.5 added
    assert selection_logits(relevance, topic, 0.5) == pytest.approx([2.0, 1.5, 4.0])


def test_practice_match_weighs_the_sentence_scores_by_the_question_probabilities():
    question = {"Data Retention": 0.75, "Data Security": 0.25}
    sentences = [{"Data Retention": 0.8, "Data Security": 0.0, "Do Not Track": 1.0},
                 {"Data Retention": 0.0, "Data Security": 1.0},
                 {}]  # a sentence stored before practice scores were kept
    assert practice_match(question, sentences) == pytest.approx([0.6, 0.25, 0.0])
    assert practice_match({}, sentences) == pytest.approx([0.0, 0.0, 0.0])


def test_topic_scores_add_the_bonus_and_the_weighted_match():
    assert topic_scores(np.array([1.0, 0.0]), np.array([0.5, 0.25]), 1.0, 4.0) == pytest.approx([3.0, 1.0])


def test_within_margin_keeps_the_answer_and_the_close_ones_up_to_the_cap():
    logits = [2.0, 5.0, -1.0, -3.5, 1.0]  # the answer first; another may score higher than it
    assert within_margin(logits, 3.0, 10) == [0, 1, 2, 4]
    assert within_margin(logits, 3.0, 3) == [0, 1, 2]
    assert within_margin(logits, 0.5, 10) == [0, 1]
    assert within_margin(logits[:1], 0.0, 1) == [0]
    assert within_margin([], 3.0, 10) == []


def test_sentences_that_cannot_be_evidence_are_no_neighbours():
    # a heading-question (NO_MATCH_LOGIT) before an answer sentence does not drag it down; a sentence
    # with no eligible neighbour at all counts its own logit
    relevance = np.array([NO_MATCH_LOGIT, 2.0, -4.0, NO_MATCH_LOGIT, 1.0, NO_MATCH_LOGIT])
    scores = selection_logits(relevance, np.zeros(6), 0.5)
    assert scores[1] == pytest.approx(2.0 + 0.5 * -4.0)
    assert scores[2] == pytest.approx(-4.0 + 0.5 * 2.0)
    assert scores[4] == pytest.approx(1.0 + 0.5 * 1.0)


def test_without_topic_and_context_the_relevance_is_the_score():
    relevance = np.array([0.5, NO_MATCH_LOGIT, -3.0])
    assert selection_logits(relevance, np.zeros(3), 0.0) == pytest.approx(relevance)


def test_a_sentence_between_two_relevant_ones_overtakes_an_isolated_one():
    # sentences 1-3 form an answer passage; sentence 5 alone scores a little higher than sentence 2
    relevance = np.array([3.0, 1.0, 3.0, -8.0, 1.5, -8.0])
    scores = selection_logits(relevance, np.zeros(6), 0.5)
    assert scores[1] > scores[4]
