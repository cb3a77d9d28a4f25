"""The retriever's training pairs built from PolicyQA examples (tests/corpora/test_training_data.py: the examples)."""
from __future__ import annotations

from assistant.corpora.policyqa import QAExample
from assistant.models.retriever.pairs import answer_sentences, build_pairs


def test_the_sentence_holding_the_answer_is_the_positive():
    context = "We collect your email. We share it with advertisers for marketing. You may opt out."
    start = context.index("advertisers")
    example = QAExample("x", "p", "Who gets my data?", context, (("advertisers", start),), "A|||B|||C")
    sentences, positives = answer_sentences(example)
    assert sentences == ["We collect your email.", "We share it with advertisers for marketing.", "You may opt out."]
    assert positives == {"We share it with advertisers for marketing."}


def test_pairs_know_every_sentence_relevant_to_a_triple():
    context_a = "We keep logs for 30 days. Cookies are set by us."
    context_b = "Backups are deleted after a year."
    examples = [
        QAExample("1", "p", "How long is data kept?", context_a, (("30 days", 17),), "Data Retention|||Period|||Limited"),
        QAExample("2", "p", "How long is data kept?", context_b, (("after a year", 20),),
                  "Data Retention|||Period|||Limited"),
    ]
    pairs = build_pairs(examples)
    assert len(pairs.pairs) == 2
    assert pairs.relevant[("p", "Data Retention|||Period|||Limited")] == {
        "We keep logs for 30 days.", "Backups are deleted after a year."}
    assert "Cookies are set by us." in pairs.sentences["p"]
