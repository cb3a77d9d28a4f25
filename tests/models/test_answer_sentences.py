"""The answer-sentence scorer: the shipped heads on real retriever vectors, the engine scoring a facet question's
candidates, and its training code on real sentences (its place in choosing the first quote:
tests/answering/test_first_quote.py)."""
from __future__ import annotations

import numpy as np
import pytest

from assistant.models.answer_sentences.model import ANY_FACET, AnswerSentenceScorer


@pytest.fixture(scope="module")
def scorer() -> AnswerSentenceScorer:
    return AnswerSentenceScorer.load()


@pytest.mark.parametrize(("facet", "statement", "neighbour"), [
    ("sale", "We do not sell your personal information to third parties.",
     "Under the CCPA, a “sale” is broadly defined to include sharing personal information for something of value."),
    ("law_enforcement", ("We may disclose your information to law enforcement agencies when required by a subpoena or "
     "court order."), ("We may choose or be required by law to provide different or additional disclosures relating to "
     "the processing of personal information about residents of certain countries.")),
    ("contact_dpo", "If you have any questions about this Privacy Policy, please contact us at privacy@example.com.",
     "When you contact us via the website, we will receive and process the information you provide."),
    ("security", "We use encryption and access controls to protect your personal data.",
     "We may require you to verify your identity before granting you access to your data."),
    ("retention", ("We keep your personal data for as long as your account is active and delete it within 30 days "
     "after you close it."), "We may retain the photos so that we can verify you in the future."),
])
def test_the_shipped_heads_prefer_the_statement_of_the_practice_to_its_neighbour(retriever, scorer, facet,
                                                                                   statement, neighbour):
    logits = scorer.logits(facet, retriever.encode([statement, neighbour]))
    assert logits[0] > logits[1] + 0.5, logits


def test_no_facet_scores_nothing_and_an_unknown_facet_gets_the_shared_head(retriever, scorer):
    vectors = retriever.encode(["We do not sell your personal information.", "We use cookies."])
    assert not scorer.scores(None, vectors).any()
    assert np.allclose(scorer.logits("no_such_facet", vectors), scorer.logits(ANY_FACET, vectors))
    assert np.allclose(scorer.scores("sale", vectors), scorer.weight * scorer.logits("sale", vectors))


def test_the_engine_scores_the_candidates_of_a_facet_question_only(amazon):
    sale = amazon.rank_evidence("Do they sell my data?", policy="amazon")
    assert sale.facet == "sale" and any(r.answer_score != 0.0 for r in sale.ranked)
    other = amazon.rank_evidence("What does Amazon do with the information it collects?", policy="amazon")
    assert other.facet is None and all(r.answer_score == 0.0 for r in other.ranked)


def test_fitting_gives_a_head_to_each_facet_with_enough_labelled_sentences_and_leaves_sets_out(retriever):
    from assistant.models.answer_sentences.train import LabelledSentence, fit, left_out_top1

    statements = [f"We do not sell your {kind} to anyone." for kind in ("name", "email address", "location",
                                                                          "contacts", "photos", "messages")]
    neighbours = [f"The {law} defines a sale as sharing information for value." for law in ("CCPA", "CPRA", "VCDPA",
                                                                                           "CPA", "CTDPA", "UCPA")]
    vectors = retriever.encode(statements + neighbours + ["We use cookies to remember you."])
    rows = [LabelledSentence(f"set{i % 2}", f"item{i % 6}", "sale", vectors[i], i < 6) for i in range(12)]
    rows.append(LabelledSentence("set0", "item9", "cookies_tracking", vectors[12], True))
    fitted = fit(rows)
    assert fitted.facets == ["sale", ANY_FACET]  # one cookie sentence is too few for a head of its own
    sale = fitted.logits("sale", vectors[:12])
    assert sale[:6].min() > sale[6:].max()
    assert set(left_out_top1(rows)) == {"set0", "set1", "pooled"}


def test_training_without_a_held_out_sets_policies_is_a_one_line_error(tmp_path):
    import shutil

    from assistant.evaluation.answer_sentences import training_sets
    from assistant.evaluation.sets import all_sets
    from assistant.foundation.errors import AssistantError

    for answers_set in all_sets():  # the sets without their policies
        (tmp_path / answers_set.name).mkdir()
        for path in (answers_set.answers, answers_set.index):
            shutil.copy(path, tmp_path / answers_set.name / path.name)
    with pytest.raises(AssistantError, match=r"heldout1/policies: not found; rebuild it with python "
                                             r"scripts/heldout_policies\.py --set heldout1"):
        training_sets(tmp_path)
