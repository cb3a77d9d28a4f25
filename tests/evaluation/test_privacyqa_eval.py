"""The PrivacyQA harness: the metric by hand, both loaders, the real engine end to end, the CLI."""
from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from assistant.corpora.privacyqa import LB_DEV_FILE, OFFICIAL, RECONSTRUCTED, load_privacyqa, unordered
from assistant.evaluation.baselines import baseline_predictions, word_count_ranking
from assistant.evaluation.metrics import (
    Score,
    binary_score,
    mean_score,
    question_score,
    set_score,
)
from assistant.evaluation.privacyqa import (
    QuestionResult,
    run_privacyqa,
    summarise,
)
from assistant.foundation.errors import AssistantError
from tests.support.cli import cli_env

FIRST, THIRD, CHOICE = "First Party Collection/Use", "Third Party Sharing/Collection", "User Choice/Control"


def approx(score: Score, precision: float, recall: float, f1: float) -> bool:
    return (score.precision, score.recall, score.f1) == pytest.approx((precision, recall, f1))


# -- the metric, by hand ---------------------------------------------------------------------


def test_set_score_one_reference():
    # pred {1,2,3} vs ref {2,3,4,5}: 2 in common; P = 2/3, R = 2/4; F1 = 2·(2/3)(1/2) / (2/3 + 1/2) = 4/7
    assert approx(set_score({1, 2, 3}, {2, 3, 4, 5}), 2 / 3, 1 / 2, 4 / 7)
    assert approx(question_score({1, 2, 3}, [{2, 3, 4, 5}]), 2 / 3, 1 / 2, 4 / 7)
    assert approx(set_score({1}, {2}), 0, 0, 0)  # no overlap


def test_empty_sets():
    assert approx(set_score(set(), set()), 1, 1, 1)  # both say "no answer"
    assert approx(set_score(set(), {1}), 0, 0, 0)
    assert approx(set_score({1}, set()), 0, 0, 0)
    assert approx(question_score(set(), [set()]), 1, 1, 1)
    assert approx(question_score({1}, [set(), set()]), 0, 0, 0)
    # refs [∅, {1}], pred ∅: hold out ∅ -> vs {1}: 0; hold out {1} -> vs ∅: 1; mean 1/2
    assert approx(question_score(set(), [set(), {1}]), 0.5, 0.5, 0.5)
    with pytest.raises(ValueError):
        question_score({1}, [])


def test_two_references():
    # pred {1,2}; A = {1}: P = 1/2, R = 1, F1 = 2/3; B = {1,2,3,4}: P = 1, R = 1/2, F1 = 2/3
    # hold out A -> only B: (1, 1/2, 2/3); hold out B -> only A: (1/2, 1, 2/3)
    # mean: P = 3/4, R = 3/4, F1 = 2/3
    assert approx(question_score({1, 2}, [{1}, {1, 2, 3, 4}]), 3 / 4, 3 / 4, 2 / 3)


def test_three_references():
    # pred {1,2}; A = {1,2}: (1, 1, 1); B = {2,3}: (1/2, 1/2, 1/2); C = ∅: (0, 0, 0)
    # hold out A -> best of B, C = B (1/2); hold out B -> A (1); hold out C -> A (1)
    # mean = (1/2 + 1 + 1) / 3 = 5/6 for P, R and F1
    assert approx(question_score({1, 2}, [{1, 2}, {2, 3}, set()]), 5 / 6, 5 / 6, 5 / 6)


def test_three_references_precision_recall_follow_the_best_f1_reference():
    # pred {1,2,3,4}; A = {1,2}: P = 2/4, R = 1, F1 = 2/3; B = {1..8}: P = 1, R = 4/8, F1 = 2/3; C = {9}: 0
    # hold out A -> best of B, C = B: (1, 1/2, 2/3)
    # hold out B -> best of A, C = A: (1/2, 1, 2/3)
    # hold out C -> A and B tie at 2/3, the earlier (A) wins: (1/2, 1, 2/3)
    # mean: P = (1 + 1/2 + 1/2)/3 = 2/3, R = (1/2 + 1 + 1)/3 = 5/6, F1 = 2/3
    # (F1 is the mean question F1, not the harmonic mean of P and R, which would be 20/27)
    refs = [{1, 2}, {1, 2, 3, 4, 5, 6, 7, 8}, {9}]
    assert approx(question_score({1, 2, 3, 4}, refs), 2 / 3, 5 / 6, 2 / 3)


def test_mean_and_answerability_scores():
    assert approx(mean_score([Score(1, 0, 0.5), Score(0, 1, 0.25)]), 0.5, 0.5, 0.375)
    # (pred, gold): TP = 2, predicted = 3, gold = 3 -> P = R = F1 = 2/3; 3 of 5 agree
    score = binary_score([(True, True), (True, False), (False, True), (False, False), (True, True)])
    assert (score.precision, score.recall, score.f1, score.accuracy) == pytest.approx((2 / 3, 2 / 3, 2 / 3, 3 / 5))


def test_word_count_drops_stopwords_and_keeps_sentence_order_on_ties():
    sentences = ["We do what we do.", "Your data is sold.", "Data, data, data!", "Nothing here."]
    # "what do you do with my data?" -> content words {data}; sentences 1 and 2 have it once (distinct)
    assert word_count_ranking("What do you do with my data?", sentences) == [1, 2, 0, 3]
    predictions = baseline_predictions("What do you do with my data?", sentences)
    assert predictions["no_answer"] == set()
    assert predictions["word_count_top2"] == {1, 2}
    assert predictions["word_count_top3"] == {0, 1, 2}
    assert predictions["word_count_top5"] == {0, 1, 2, 3}  # never more than the policy has


# -- the official format, end to end through the real engine -----------------------------------

FIVERR = [
    "Fiverr collects the information you provide when you create an account.",
    "We use cookies to remember your preferences.",
    "Messages you exchange with sellers through our platform are stored on our servers.",
    "Our staff may review chat messages to enforce the terms of service and prevent fraud.",
    "We share order details with the seller you hire.",
    "Payment information is processed by our payment providers.",
    "We retain your data for as long as your account is active.",
    "You can close your account at any time.",
    "We use encryption to protect data in transit.",
    "Children under 13 may not use the service.",
    "We may update this policy from time to time.",
]
KEEP = [
    "Your coach can see the workouts you complete and may share summaries with other coaches.",
    "Your workout plans are visible only to you unless you make them public in the settings.",
    "We share your information with partners who help us run the service.",
    "You can delete your account in the app.",
]
# (DocID, folder app, QueryID, question, {annotator column: relevant SentID numbers}); unlisted columns are None.
# QueryIDs are the real ones of questions_test.tsv (for the category flags): "Fiverr  _1_1" has an extra
# space, and "Keep _2_x1" is unknown, so it is matched by its text (that of Keep _2_1).
QUESTIONS = [
    ("Fiverr _1", "com.fiverr.fiverr", "Fiverr _1_0", "is my chat here with the platform confidential?",
     {"Ann1": {2, 3}, "Ann2": {3}, "Ann3": set()}),
    ("Fiverr _1", "com.fiverr.fiverr", "Fiverr  _1_1", "who can read the chat i have with the platform?",
     {"Ann1": set(), "Ann4": set()}),
    ("Keep _2", "com.gotokeep.keep.intl", "Keep _2_0", "who has access to my workout plans?", {"Ann1": {1}}),
    ("Keep _2", "com.gotokeep.keep.intl", "Keep _2_x1", "will my fitness coach share my information with others?",
     {"Ann2": {0, 2}, "Ann5": set()}),
]
ANNOTATORS = [f"Ann{i}" for i in range(1, 7)]


def write_official(path: Path) -> Path:
    """policy_test_data.csv's layout: one row per (question, sentence); rows of a question in random order."""
    header = ["Folder", "DocID", "QueryID", "SentID", "Split", "Query", "Segment", *ANNOTATORS]
    lines = ["\t".join(header)]
    shuffle = random.Random(0).shuffle
    for doc, app, query_id, question, judged in QUESTIONS:
        sentences = FIVERR if doc.startswith("Fiverr") else KEEP
        rows = []
        for n, segment in enumerate(sentences):
            labels = [
                "None" if column not in judged else "Relevant" if n in judged[column] else "Irrelevant"
                for column in ANNOTATORS
            ]
            rows.append([f"../../Dataset/Test/{app}", doc, query_id, f"{doc}_{n}", "test", question, segment, *labels])
        shuffle(rows)  # SentID order must come from the ids ("…_10" after "…_9"), not from the file
        lines += ["\t".join(row) for row in rows]
    path.write_text("\r\n".join(lines) + "\r\n", encoding="utf-8")
    return path


def test_official_loader_parses_policies_and_references(tmp_path):
    dataset = load_privacyqa(write_official(tmp_path / "policy_test_data.csv"))
    assert dataset.format == OFFICIAL
    assert dataset.policies == {"Fiverr _1": FIVERR, "Keep _2": KEEP}
    assert [q.id for q in dataset.questions] == ["Fiverr _1_0", "Fiverr  _1_1", "Keep _2_0", "Keep _2_x1"]
    assert [q.policy_id for q in dataset.questions] == ["Fiverr _1", "Fiverr _1", "Keep _2", "Keep _2"]
    # one reference per annotator that is not None, in column order, possibly empty
    assert [q.references for q in dataset.questions] == [[{2, 3}, {3}, set()], [set(), set()], [{1}], [{0, 2}, set()]]
    assert [q.answerable for q in dataset.questions] == [True, False, True, True]
    assert [q.categories for q in dataset.questions] == [
        {FIRST}, {FIRST, THIRD}, {FIRST, THIRD, CHOICE}, {FIRST, THIRD}
    ]


def test_official_file_scored_end_to_end(tmp_path, embedder, retriever, policyie):
    from assistant.engine import Assistant
    from assistant.foundation.sentences import policy_from_sentences
    from assistant.foundation.settings import Settings

    path = write_official(tmp_path / "policy_test_data.csv")
    report = run_privacyqa(path, settings=Settings(home=tmp_path / "unused"), embedder=embedder, retriever=retriever, policyie=policyie)
    assert not (tmp_path / "unused").exists()  # the run used a throwaway store
    dataset = load_privacyqa(path)

    # The same questions asked independently: the harness's predictions are the engine's evidence.
    checker = Assistant(Settings(home=tmp_path / "check"), embedder=embedder, retriever=retriever, policyie=policyie)
    for name, sentences in dataset.policies.items():
        checker.store_policy(policy_from_sentences(sentences), name, "test", name)
    expected = []
    for question in dataset.questions:
        answer = checker.ask(question.question, policy=question.policy_id, top_k=10)
        for evidence in answer.evidence:  # sentence_id - 1 indexes the file's sentence list
            assert dataset.policies[question.policy_id][evidence.sentence_id - 1] == evidence.text
        expected.append({e.sentence_id - 1 for e in answer.evidence} if answer.answerable else set())
    assert [r.predicted for r in report.results] == expected
    assert report.score == mean_score(question_score(p, q.references) for p, q in zip(expected, dataset.questions))
    assert report.answerability == binary_score(
        (r.answerable, gold) for r, gold in zip(report.results, [True, False, True, True])
    )

    # Baselines by hand (refs: Q1 [{2,3},{3},∅], Q2 [∅,∅], Q3 [{1}], Q4 [{0,2},∅]).
    # no answer: Q1 = (1 + 1 + 0)/3 (an ∅ is among the others unless ∅ is held out) = 2/3; Q2 = 1; Q3 = 0;
    #   Q4 = (hold out {0,2}: vs ∅ = 1; hold out ∅: vs {0,2} = 0)/2 = 1/2 -> (2/3 + 1 + 0 + 1/2)/4 = 13/24
    # word count rankings (content words, ties in sentence order):
    #   Q1 {chat, platform, confidential}: sentence 2 has platform, 3 has chat -> [2, 3, 0, 1, 4, …]
    #   Q2 {read, chat, platform}: [2, 3, 0, …] (any non-empty prediction scores 0 on [∅, ∅])
    #   Q3 {access, workout, plans}: sentence 1 has 2 ("workouts" is another word) -> [1, 0, 2, 3]
    #   Q4 {fitness, coach, share, information, others}: 0 has coach+share, 2 share+information -> [0, 2, 1, 3]
    # top 2: Q1 {2,3}: vs A 1, vs B (1/2, 1, 2/3), vs ∅ 0 -> (2/3 + 1 + 1)/3 = 8/9; Q2 0;
    #        Q3 {1,0} vs {1}: F1 2/3; Q4 {0,2}: (0 + 1)/2 = 1/2 -> (8/9 + 0 + 2/3 + 1/2)/4 = 37/72
    # top 3: Q1 {2,3,0}: vs A F1 4/5, vs B (1/3, 1, 1/2) -> (1/2 + 4/5 + 4/5)/3 = 7/10; Q3 {1,0,2}: 1/2;
    #        Q4 {0,2,1}: (0 + 4/5)/2 = 2/5 -> (7/10 + 0 + 1/2 + 2/5)/4 = 2/5
    # top 5: Q1 {2,3,0,1,4}: vs A (2/5, 1, 4/7), vs B (1/5, 1, 1/3) -> (1/3 + 4/7 + 4/7)/3 = 31/63;
    #        Q3 all 4: (1/4, 1, 2/5); Q4 all 4 vs {0,2}: (1/2, 1, 2/3) -> (0 + 2/3)/2 = 1/3
    #        -> (31/63 + 0 + 2/5 + 1/3)/4 = 193/630
    assert report.results[0].baselines["word_count_top5"] == {2, 3, 0, 1, 4}
    f1 = {name: score.f1 for name, score in report.baselines.items()}
    assert f1 == pytest.approx(
        {"no_answer": 13 / 24, "word_count_top2": 37 / 72, "word_count_top3": 2 / 5, "word_count_top5": 193 / 630}
    )
    # Categories: First Party on all 4, Third Party on Q2-Q4, User Choice on Q3.
    assert {name: count for name, (count, _) in report.by_category.items()} == {FIRST: 4, THIRD: 3, CHOICE: 1}
    assert report.by_category[CHOICE][1] == report.results[2].score
    out = report.to_json()
    assert out["questions"] == 4
    assert out["baselines"] == {"no_answer": 54.2, "word_count_top2": 51.4, "word_count_top3": 40.0,
                                "word_count_top5": 30.6}
    assert out["f1"] == round(100 * report.score.f1, 1)


def test_file_without_sentence_order_is_stored_shuffled(tmp_path):
    """A reconstructed file lost the policies' sentence order: its sentences are stored shuffled."""
    path = tmp_path / "lb.json"
    path.write_text(json.dumps({"policies": {"fiverr": FIVERR}, "questions": [
        {"app": "fiverr", "question": question, "relevant": sorted(judged.get("Ann1", ()))}
        for doc, _, _, question, judged in QUESTIONS if doc.startswith("Fiverr")
    ]}), encoding="utf-8")
    dataset = load_privacyqa(path)
    assert not dataset.ordered and dataset.policies["fiverr"] != FIVERR
    assert sorted(dataset.policies["fiverr"]) == sorted(FIVERR)
    # The official file keeps SentID order.
    assert load_privacyqa(write_official(tmp_path / "policy_test_data.csv")).ordered


def test_limit_keeps_the_first_questions_and_only_their_policies(tmp_path):
    dataset = load_privacyqa(write_official(tmp_path / "policy_test_data.csv")).limited(2)
    assert [q.id for q in dataset.questions] == ["Fiverr _1_0", "Fiverr  _1_1"]
    assert list(dataset.policies) == ["Fiverr _1"]


def test_table_rendering(tmp_path):
    from rich.console import Console

    dataset = load_privacyqa(write_official(tmp_path / "policy_test_data.csv"))
    results = [
        QuestionResult(q, frozenset({1}), True, question_score({1}, q.references),
                       baseline_predictions(q.question, dataset.policies[q.policy_id]))
        for q in dataset.questions
    ]
    console = Console(record=True, width=120)
    from assistant.frontends.render import render_privacyqa_report

    console.print(render_privacyqa_report(summarise(dataset, results)))
    text = console.export_text()
    for expected in ("4 questions, 3 answerable", "assistant", "word count, top 5", "Answerability", THIRD):
        assert expected in text


@pytest.mark.parametrize("content", ["hello\tworld\n1\t2\n", "{not json", '{"policies": []}'])
def test_unreadable_files_are_one_line_errors(tmp_path, content):
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(AssistantError) as error:
        load_privacyqa(path)
    assert "\n" not in str(error.value)
    with pytest.raises(AssistantError, match="no such file"):
        load_privacyqa(tmp_path / "missing.csv")


def test_bad_annotator_label_is_reported(tmp_path):
    path = write_official(tmp_path / "policy_test_data.csv")
    path.write_text(path.read_text().replace("Irrelevant", "Maybe", 1))
    with pytest.raises(AssistantError, match="expected Relevant, Irrelevant or None"):
        load_privacyqa(path)


# -- the reconstructed JSON (real file) and the CLI --------------------------------------------


@pytest.fixture(scope="module")
def lb_dev() -> Path:
    from assistant.corpora import corpus_dir

    return corpus_dir("privacyqa") / LB_DEV_FILE


def test_reconstructed_loader_on_lb_dev(lb_dev):
    dataset = load_privacyqa(lb_dev)
    assert dataset.format == RECONSTRUCTED
    assert len(dataset.questions) == 197 and len(dataset.policies) == 4
    assert sum(len(s) for s in dataset.policies.values()) == 160 + 74 + 53 + 154
    assert all(len(q.references) == 1 for q in dataset.questions)
    assert sum(q.answerable for q in dataset.questions) == 181
    assert all(q.categories is not None for q in dataset.questions)  # incl. the 3 without query ids
    # The file's order leaks its labels, so the loader shuffles each policy (fixed seed) and remaps.
    assert not dataset.ordered
    raw = json.loads(lb_dev.read_text(encoding="utf-8"))
    assert all(sorted(dataset.policies[app]) == sorted(sentences) for app, sentences in raw["policies"].items())
    assert dataset.policies["com.fiverr.fiverr"] != raw["policies"]["com.fiverr.fiverr"]
    for question, item in zip(dataset.questions, raw["questions"], strict=True):
        sentences, original = dataset.policies[question.policy_id], raw["policies"][item["app"]]
        assert {sentences[i] for i in question.references[0]} == {original[i] for i in item["relevant"]}
    assert load_privacyqa(lb_dev).policies == dataset.policies  # the same order every time
    reseeded = unordered(dataset, seed=1)  # another seed, another order, the same labels
    assert reseeded.policies != dataset.policies
    assert [{reseeded.policies[q.policy_id][i] for i in q.references[0]} for q in reseeded.questions] == [
        {dataset.policies[q.policy_id][i] for i in q.references[0]} for q in dataset.questions]
    by_id = {q.id: q for q in dataset.questions}
    assert len(by_id["Fiverr _1_13"].references[0]) == 9
    # With one reference, "no answer" scores exactly the unanswerable share: 16/197 = 8.1 %.
    no_answer = mean_score(question_score(set(), q.references) for q in dataset.questions)
    assert no_answer.f1 == pytest.approx(16 / 197)


@pytest.mark.slow
def test_cli_json(tmp_path, lb_dev):
    assistant_cli = str(Path(sys.executable).parent / "assistant")
    home = tmp_path / "home"
    result = subprocess.run(
        [assistant_cli, "eval", "privacyqa", "--data", str(lb_dev), "--limit", "5", "--json"],
        check=False, capture_output=True, text=True, env=cli_env(home), timeout=300,
    )
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    assert list(out) == ["questions", "precision", "recall", "f1", "answerability", "by_category", "baselines"]
    assert out["questions"] == 5
    assert list(out["answerability"]) == ["precision", "recall", "f1", "accuracy"]
    assert list(out["baselines"]) == ["no_answer", "word_count_top2", "word_count_top3", "word_count_top5"]
    assert out["by_category"] and all(0 <= v <= 100 for v in out["by_category"].values())
    assert not home.exists()  # the user's store is untouched

    missing = subprocess.run(
        [assistant_cli, "eval", "privacyqa", "--data", str(tmp_path / "nope.csv")],
        check=False, capture_output=True, text=True, env=cli_env(home), timeout=120,
    )
    assert missing.returncode == 2 and missing.stderr.strip().startswith("error:")
