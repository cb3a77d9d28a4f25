"""The practice a question asks, where the data it names has a facet of its own: "Do they sell my location data?" is
about selling, not about collecting a location (`understanding.question.practice_asked`)."""
from __future__ import annotations

import csv

import pytest

from assistant.understanding.question import practice_asked
from tests.support.paths import ROOT

# Questions a reader who had not seen the rules wrote, each asking one practice of one named kind of data (the
# practice labelled): 55 of 60 routed to their practice's facet before the rule, 57 after (read to write it).
PRACTICE_QUESTIONS = ROOT / "tests" / "fixtures" / "practice_questions.tsv"
PRACTICE_FACETS = {"sell": {"sale"}, "share": {"sharing_advertisers", "sharing_third_parties"},
                   "police": {"law_enforcement"}, "keep": {"retention"}, "delete": {"deletion"},
                   "transfer": {"international_transfer"}, "train": {"ai_training"}}
ROUTED_FLOOR = 57


def test_a_collection_facet_gives_way_to_the_practice_the_verb_asks():
    assert practice_asked("collection_location", "sale", "sell") == "sale"
    assert practice_asked("collection_location", "collection_location", "share") == "sharing_third_parties"
    assert practice_asked("cookies_tracking", None, "sell") == "sale"
    assert practice_asked("collection_location", "collection_location", "collect") is None  # it asks collecting
    assert practice_asked("international_transfer", "international_transfer", "share") is None  # "sent abroad"
    assert practice_asked("opt_out_ads", "opt_out_ads", "share") is None  # "can I stop them sharing …" is opting out
    assert practice_asked("collection_location", None, None) is None


@pytest.fixture(scope="module")
def understanding(embedder, retriever, policyie, tmp_path_factory):
    from assistant.engine import Assistant
    from assistant.foundation.settings import Settings

    return Assistant(Settings(home=tmp_path_factory.mktemp("home")), embedder=embedder, retriever=retriever,
                     policyie=policyie).understanding


def test_questions_written_blind_reach_the_facet_of_the_practice_they_ask(understanding):
    with PRACTICE_QUESTIONS.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    others = set().union(*PRACTICE_FACETS.values())
    routed = [understanding.run(row["question"]).facet for row in rows]
    right = [facet in PRACTICE_FACETS[row["practice"]] if row["practice"] in PRACTICE_FACETS else facet not in others
             for row, facet in zip(rows, routed, strict=True)]
    assert sum(right) >= ROUTED_FLOOR, [(r["question"], f) for r, f, ok in zip(rows, routed, right, strict=True) if not ok]
    assert understanding.run("Do they sell my location data?").facet == "sale"


# Someone else reaching the data (the app, staff, other users) asks a practice, not your right of access: questions
# the answers sets' readers wrote, which the facet classifier had read as the right (29 of them in the sets).
OTHERS_REACHING = ["Does the Discord app access my phone contacts?", "Can moderators see my IP address?",
                   "Does Temu access my camera or photos?", "Can my driver see my real phone number?",
                   "Do shoppers see my home address and phone number?", "Can Spotify access the photos on my phone?"]
# and the person's own right, as the readers wrote it (labelled access_correction)
YOUR_RIGHT = ["Is there a way to review my personal information and fix what's wrong?",
              "Can I see the personal data they hold about me?", "Can I get a copy of my data and fix anything that is wrong?",
              "Can I view and correct the information they have on me?"]


def test_someone_else_reaching_the_data_is_a_practice_not_the_right_of_access(understanding):
    for question in OTHERS_REACHING:
        assert understanding.run(question).facet != "access_correction", question
    for question in YOUR_RIGHT:
        assert understanding.run(question).facet == "access_correction", question


def test_a_brand_name_is_no_reason_to_refuse_a_question(understanding):
    # an answers-set reader's question the classifier refused as one it could not make sense of
    question = "How do I reach Grammarly's data protection officer?"
    assert understanding.run(question, "grammarly").reason is None
    assert understanding.run("Wbt fxq zzkv grammarly?", "grammarly").reason is not None  # gibberish stays refused
