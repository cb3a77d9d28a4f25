"""Evidence selection: topic scores, ranking, the evidence margin and silence, hand-computed."""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from assistant.answering.selection import (
    NO_MATCH_LOGIT,
    SelectionParameters,
    practice_match,
    rank_candidates,
    select,
    topic_scores,
    within_margin,
)


def test_practice_match_weighs_the_sentence_scores_by_the_question_probabilities():
    question = {"Data Retention": 0.75, "Data Security": 0.25}
    sentences = [{"Data Retention": 0.8, "Data Security": 0.0, "Do Not Track": 1.0},
                 {"Data Retention": 0.0, "Data Security": 1.0},
                 {}]  # a sentence stored before practice scores were kept
    assert practice_match(question, sentences) == pytest.approx([0.6, 0.25, 0.0])
    assert practice_match({}, sentences) == pytest.approx([0.0, 0.0, 0.0])


def test_topic_scores_weigh_the_match():
    assert topic_scores(np.array([0.5, 0.25]), 4.0) == pytest.approx([2.0, 1.0])


def test_within_margin_keeps_the_answer_and_the_close_ones_up_to_the_cap():
    logits = [2.0, 5.0, -1.0, -3.5, 1.0]  # the answer first; another may score higher than it
    assert within_margin(logits, 3.0, 10) == [0, 1, 2, 4]
    assert within_margin(logits, 3.0, 3) == [0, 1, 2]
    assert within_margin(logits, 0.5, 10) == [0, 1]
    assert within_margin(logits[:1], 0.0, 1) == [0]
    assert within_margin([], 3.0, 10) == []


def test_ranking_adds_the_topic_drops_non_evidence_and_keeps_the_best_candidates():
    relevance = np.array([0.5, NO_MATCH_LOGIT, -3.0, 1.0])
    topic = np.array([1.0, 30.0, 0.0, 0.0])
    assert rank_candidates(relevance, topic, 10) == [0, 3, 2]  # 1.5, 1.0, -3.0; the question sentence never
    assert rank_candidates(relevance, topic, 2) == [0]  # the cut comes first: the best 2 include sentence 1
    assert rank_candidates(relevance, np.zeros(4), 10) == [3, 0, 2]  # without topic the relevance ranks


def test_select_is_silent_below_the_threshold_and_caps_the_evidence():
    shipped = SelectionParameters.load()
    parameters = dataclasses.replace(shipped, evidence_margin=3.0, silence_threshold=0.2)
    chosen = select([4.0, 3.0, 2.0, 0.5], [0.9, 0.5, 0.3, 0.1], parameters, cap=10)
    assert chosen.positions == [0, 1, 2] and not chosen.silent and chosen.best_relevance == 0.9
    assert select([4.0, 3.0, 2.0], [0.9, 0.5, 0.3], parameters, cap=2).positions == [0, 1]
    assert select([4.0, 3.0], [0.9, 0.5], parameters, cap=0).positions == [0]  # the answer at least
    assert select([1.0], [0.1], parameters, cap=3).silent
    assert select([], [], parameters, cap=3) == select([], [], parameters, cap=3)
    assert select([], [], parameters, cap=3).silent


def test_the_shipped_parameters_are_the_tuned_ones():
    shipped = SelectionParameters.load()
    assert (shipped.silence_threshold, shipped.evidence_margin, shipped.max_evidence) == (0.05, 5.0, 20)
    assert (shipped.practice_match_weight, shipped.candidates) == (6.0, 50)
