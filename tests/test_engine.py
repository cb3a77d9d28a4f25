"""The engine end to end with the real parser, embedder, FAISS index, SQLite store and cross-encoder."""
from __future__ import annotations

import json
import shutil

import pytest

from assistant.foundation.errors import InvalidQuestionError, UnknownPolicyError
from tests.support.paths import AMAZON, EXAMPLES
from tests.support.store import store_snapshot


def test_ingest_stores_verbatim_sentences_with_sections(amazon):
    version = amazon.store.get_version("amazon")
    text = amazon.store.policy_text(version.id)
    sentences = amazon.store.sentences(version.id)
    assert version.n_sentences == len(sentences) > 50
    assert [s.ordinal for s in sentences] == list(range(1, len(sentences) + 1))
    for sentence in sentences:
        assert text[sentence.start : sentence.end] == sentence.text
    assert "|||" not in text
    assert any("Cookies" in s.section for s in sentences)
    assert amazon.store.load_index(version).size == len(sentences)


def test_ingest_keeps_the_practice_taggers_scores_beside_its_categories(amazon):
    sentences = amazon.store.sentences(amazon.store.get_version("amazon").id)
    labels = amazon.practice_classifier.labels
    thresholds = dict(zip(labels, amazon.practice_classifier.thresholds))
    for sentence in sentences:
        assert set(sentence.practice_scores) == set(labels)
        assert all(0.0 <= p <= 1.0 for p in sentence.practice_scores.values())
        # the stored categories are the scores above their thresholds (scores are kept to 4 decimals)
        assert all(sentence.practice_scores[c] >= thresholds[c] - 1e-4 for c in sentence.categories)
    cookies = [s for s in sentences if "cookie" in s.text.lower()]
    assert max(s.practice_scores["First Party Collection/Use"] for s in cookies) > 0.5


def test_ingest_reads_facts_with_verbatim_slots(amazon):
    sentences = amazon.store.sentences(amazon.store.get_version("amazon").id)
    assert all(s.facts is not None for s in sentences)
    intents = {s.facts.intent for s in sentences}
    assert {"data-collection-usage", "data-sharing-disclosure", "Other"} <= intents
    slots = [(s, slot) for s in sentences for slot in s.facts.slots]
    assert len(slots) > 50
    assert all(s.text[slot.start : slot.end] == slot.text for s, slot in slots)


def test_answer_quotes_stored_sentences_with_citations(amazon):
    answer = amazon.ask("Does Amazon use cookies?", policy="amazon", top_k=3)
    assert answer.answerable and answer.reason is None
    assert answer.policy == "amazon" and answer.version == 1
    assert 1 <= len(answer.evidence) <= 3
    # evidence beyond the answer: by selection score, within the evidence margin of the answer's
    ranked = {r.sentence.ordinal: r for r in amazon.rank_evidence("Does Amazon use cookies?", policy="amazon").ranked}
    floor = ranked[answer.evidence[0].sentence_id].selection_logit - amazon.parameters.evidence_margin
    assert all(ranked[e.sentence_id].selection_logit >= floor for e in answer.evidence)
    assert "cookie" in answer.answer.lower()
    assert answer.answer == answer.evidence[0].text
    # confidence: the answer sentence's relevance probability; evidence scores also weigh its neighbours
    assert answer.confidence >= amazon.parameters.silence_threshold
    # the answer is the best match on its own; the further evidence comes by selection score
    assert [e.score for e in answer.evidence[1:]] == sorted((e.score for e in answer.evidence[1:]), reverse=True)
    stored = {s.ordinal: s for s in amazon.store.sentences(amazon.store.get_version("amazon").id)}
    for item in answer.evidence:
        assert stored[item.sentence_id].text == item.text
        assert stored[item.sentence_id].section == item.section
        assert item.citation().endswith(f"sentence {item.sentence_id}")
    assert set(json.loads(json.dumps(answer.to_dict()))) == {
        "question", "policy", "version", "answerable", "reason", "answer", "confidence", "evidence", "facts", "span",
        "verdict", "headline", "facet", "question_type",
    }


def test_sharing_question_finds_sharing_sentence(amazon):
    answer = amazon.ask("Do they share my personal information with other companies?", policy="amazon")
    assert answer.answerable
    assert answer.evidence[0].section == "Does Amazon.com Share the Information It Receives?"


def test_questions_in_the_policy_are_never_evidence(amazon):
    answer = amazon.ask("Are children allowed to use Amazon.com?", policy="amazon", top_k=5)
    assert answer.answerable
    assert all(not e.text.endswith("?") for e in answer.evidence)
    assert "children" in answer.answer.lower() or "18" in answer.answer


def test_weak_evidence_is_policy_silent(amazon):
    answer = amazon.ask("Do you record my heart rate with a smartwatch?", policy="amazon")
    assert not answer.answerable
    assert answer.reason == "policy_silent"
    assert answer.answer is None
    assert answer.confidence < amazon.parameters.silence_threshold


def test_the_one_retention_sentence_answers_a_retention_question(amazon):
    # Amazon's policy says little about retention. The practice tagger gives "we receive and store"
    # a retention probability above the coverage threshold (OPP-115's annotators mark storing data as
    # retention, period unspecified), so the policy is not silent, and the retriever puts the one
    # sentence that says what is kept first, as a related passage. (A policy with no retention sentence at all is
    # policy_silent: tests/models/test_nlu.py.)
    keep = "When you update information, we usually keep a copy of the prior version for our records."
    sentences = amazon.store.sentences(amazon.store.get_version("amazon").id)
    floor = amazon.parameters.coverage_threshold
    covering = [s.text for s in sentences if s.practice_scores["Data Retention"] >= floor]
    assert covering and all("store" in text or "keep" in text for text in covering)
    answer = amazon.ask("How long do you keep my data?", policy="amazon")
    # it states no period: the answer is "not stated" (not answerable), with that sentence first among the related
    assert (answer.verdict, answer.answerable, answer.reason) == ("not_stated", False, "policy_silent")
    assert answer.evidence[0].text == keep


@pytest.mark.parametrize(
    ("question", "reason"),
    [
        ("What is the boiling point of water at sea level?", "out_of_scope"),
        ("How much storage does the app use?", "out_of_scope"),
        ("Has Amazon ever been hacked?", "beyond_policy"),
        ("is it safe?", "vague"),
        ("asdf qwer zxcv", "incomprehensible"),
    ],
)
def test_questions_policies_cannot_answer_get_a_reason(amazon, question, reason):
    answer = amazon.ask(question, policy="amazon")
    assert (answer.answerable, answer.reason, answer.answer, answer.evidence) == (False, reason, None, [])


@pytest.mark.parametrize("question", ["", "   ", "x" * 1001])
def test_bad_questions_are_rejected(amazon, question):
    with pytest.raises(InvalidQuestionError):
        amazon.ask(question, policy="amazon")


def test_unknown_policy_is_rejected(amazon):
    with pytest.raises(UnknownPolicyError, match="Stored policies: amazon"):
        amazon.ask("Do they use cookies?", policy="walmart")


def test_reingest_identical_is_noop_and_changes_make_new_versions(assistant, home, tmp_path):
    policy = tmp_path / "acme.html"
    shutil.copy(EXAMPLES / "steampowered.com.html", policy)
    first = assistant.ingest(policy, name="acme")
    snapshot = store_snapshot(home)
    again = assistant.ingest(policy, name="acme")
    assert again.unchanged and again.version.version == 1
    assert store_snapshot(home) == snapshot

    policy.write_text(
        "<h1>Acme Privacy</h1><h2>Retention</h2><p>We keep your purchase history for seven years.</p>"
    )
    second = assistant.ingest(policy, name="acme", force=True)  # a one-sentence fixture
    assert (first.version.version, second.version.version) == (1, 2)
    latest = assistant.ask("How long do you keep my purchase history?", policy="acme")
    assert latest.version == 2 and "seven years" in latest.answer
    old = assistant.ask("How long do you keep my purchase history?", policy="acme", version=1)
    assert old.version == 1
    assert all("seven years" not in e.text for e in old.evidence)


def test_remove_forgets_the_policy(assistant):
    assistant.ingest(AMAZON, name="amazon")
    assert [p.latest.name for p in assistant.policies()] == ["amazon"]
    assert assistant.remove("amazon") == 1
    assert assistant.policies() == []
    with pytest.raises(UnknownPolicyError):
        assistant.ask("Do they use cookies?", policy="amazon")


def test_identical_content_from_an_older_pipeline_is_ingested_again(assistant, home):
    first = assistant.ingest(AMAZON, name="amazon")
    assistant.store.db.execute("UPDATE versions SET embedder = 'an older pipeline'")
    again = assistant.ingest(AMAZON, name="amazon")
    assert not again.unchanged and again.version.version == first.version.version + 1
    assert assistant.ingest(AMAZON, name="amazon").unchanged


def test_a_twin_shares_the_loaded_models_and_nothing_else(amazon):
    """`assistant serve` ingests on a twin while it answers on the engine: same models, own store connection."""
    twin = amazon.twin()
    assert twin.retriever is amazon.retriever and twin.policyie is amazon.policyie
    assert twin.store is not amazon.store and twin.store.db is not amazon.store.db
    assert twin.settings == amazon.settings
    assert twin.ask("Do they sell my personal information?", policy="amazon").to_dict() == \
        amazon.ask("Do they sell my personal information?", policy="amazon").to_dict()
