"""PrivacyQA sentence-level evaluation: `assistant eval privacyqa --data FILE [--json] [--limit N]`.

Every policy of the file is stored, with exactly the file's sentences, in a throwaway store (a
temporary `Settings.home`), and every question is put to the assistant's evidence selection,
`Assistant.ask(question, policy, top_k=--max-evidence)`, over *all* sentences of its policy,
exactly as the assistant runs: the FAISS index holds every sentence, the engine's candidate
count, question classifier and calibrated thresholds decide. The predicted set is the evidence's
`sentence_id - 1` (0-based index into the file's sentence list) when `answer.answerable`, else
the empty set, and is scored with `assistant.evaluation.metrics` (Ravichander et al. 2019, §4.2.1).
One `Assistant` (one set of models) serves the whole run.

Input files (the format is detected from the content, the suffix only breaks ties):

- the official PrivacyQA test file `policy_test_data.csv`: tab-separated, with a header
  `Folder DocID QueryID SentID Split Query Segment Ann1 … Ann6` (`Ann0 …` is accepted too; a single
  `Label` column, as in the train file, counts as one annotator). A policy is a DocID; its
  sentences are its unique (SentID, Segment) pairs in natural SentID order. Each annotator column
  that is not `None` for a question is one reference: the sentences it marked `Relevant` (possibly
  none). A question that no annotator judged gets one empty reference, as in the authors' scorer.
- the reconstructed LegalBench dev file `privacyqa_lb_dev.json`, shipped in the PrivacyQA corpus:
  `assistant.corpora.corpus_dir("privacyqa") / "privacyqa_lb_dev.json"` (the default of
  `--data`). One reference per question: `relevant`. The file lost the policies' sentence order,
  and its own order leaks the labels, so the loader stores the sentences in a fixed shuffled
  order (`unordered`).

Every number in the report (`PrivacyQAReport.to_json`) is a *percentage with one decimal* (0–100),
as in the paper's tables. `answerability` scores the answerable class, a question being
answerable when any of its references is non-empty and a prediction when `answer.answerable`.
`by_category` is the assistant's F1 over the questions flagged with each OPP-115 category in the
corpus' `questions_test.tsv` / `questions_train.tsv` (matched by QueryID with whitespace removed
and case folded, else by policy and question text; a question with several query ids gets the
union of their flags).

Baselines, on the same questions and sentences:

- `no_answer`: always the empty set.
- `word_count_topK` (K = 2, 3, 5): the paper's word-count baseline, which follows WikiQA's
  (Yang et al. 2015) "Word Count": a sentence's score is the number of distinct non-stopword
  question words (lower-cased `\\w+` tokens, NLTK's English stopword list) that occur in it; the
  K best sentences are predicted, always K (fewer only when the policy is shorter), ties broken by
  sentence order.
"""
from __future__ import annotations

import dataclasses
import hashlib
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from assistant.answering.selection import SelectionParameters
from assistant.corpora.privacyqa import (
    CATEGORY_NAMES,
    LB_DEV_FILE,
    PrivacyQADataset,
    PrivacyQAQuestion,
    load_privacyqa,
)
from assistant.engine import Assistant
from assistant.evaluation.baselines import baseline_predictions
from assistant.evaluation.metrics import (
    BinaryScore,
    Score,
    binary_score,
    mean_score,
    percent,
    question_score,
)
from assistant.foundation.errors import AssistantError
from assistant.foundation.sentences import policy_from_sentences
from assistant.foundation.settings import Settings
from assistant.foundation.types import ProgressCallback

__all__ = ["LB_DEV_FILE", "PrivacyQAReport", "QuestionResult", "evaluate", "load_privacyqa", "run_privacyqa",
           "summarise"]


@dataclass(frozen=True)
class QuestionResult:
    question: PrivacyQAQuestion
    predicted: frozenset[int]  # 0-based sentence indices; empty when the assistant found the policy silent
    answerable: bool  # the assistant's answer.answerable
    score: Score
    baselines: dict[str, frozenset[int]]


@dataclass(frozen=True)
class PrivacyQAReport:
    data: Path
    format: str
    results: list[QuestionResult]
    score: Score
    answerability: BinaryScore
    by_category: dict[str, tuple[int, Score]]  # OPP-115 category -> (questions, assistant's score)
    baselines: dict[str, Score]
    seconds: float
    ordered: bool = True  # False: the file lost the sentence order (no neighbours' share)

    @property
    def uncategorised(self) -> int:
        """Questions not found in the category flag files."""
        return sum(r.question.categories is None for r in self.results)

    def to_json(self) -> dict[str, Any]:
        """The stable JSON form; every number but `questions` is a percentage with one decimal."""
        return {
            "questions": len(self.results),
            **self.score.percent(),
            "answerability": self.answerability.percent(),
            "by_category": {name: percent(score.f1) for name, (_, score) in self.by_category.items()},
            "baselines": {name: percent(score.f1) for name, score in self.baselines.items()},
        }


def run_privacyqa(
    path: Path,
    limit: int | None = None,
    max_evidence: int | None = None,
    settings: Settings | None = None,
    progress: ProgressCallback | None = None,
    **models: Any,
) -> PrivacyQAReport:
    """Load `path`, keep the first `limit` questions, and evaluate them (see `evaluate`)."""
    if limit is not None and limit < 1:
        raise AssistantError("--limit must be at least 1.")
    dataset = load_privacyqa(Path(path)).limited(limit)
    return evaluate(dataset, max_evidence, settings, progress, **models)


def evaluate(
    dataset: PrivacyQADataset,
    max_evidence: int | None = None,
    settings: Settings | None = None,
    progress: ProgressCallback | None = None,
    **models: Any,
) -> PrivacyQAReport:
    """Ingest the dataset's policies into a temporary store and score the assistant and baselines.

    `max_evidence` defaults to the shipped selection's cap. `settings` (default: from the
    environment) has its home replaced by a temporary directory. `models` (and `parameters`, the
    evidence selection) are passed to the engine (see `Assistant`).
    """
    if max_evidence is None:
        max_evidence = (models.get("parameters") or SelectionParameters.load()).max_evidence
    if max_evidence < 1:
        raise AssistantError("--max-evidence must be at least 1.")
    if not dataset.questions:
        raise AssistantError(f"{dataset.path}: no questions to evaluate.")
    for policy_id, sentences in dataset.policies.items():
        if not sentences:
            raise AssistantError(f"{dataset.path}: policy {policy_id!r} has no sentences.")
    started = time.perf_counter()
    base = settings or Settings.from_env()
    results = []
    with tempfile.TemporaryDirectory(prefix="privacyqa-eval-") as home:
        run_settings = dataclasses.replace(base, home=Path(home))
        assistant = Assistant(run_settings, **models)
        try:
            for done, (policy_id, sentences) in enumerate(dataset.policies.items()):
                if progress:
                    progress("storing policies", done, len(dataset.policies))
                digest = hashlib.sha256("\n".join(sentences).encode("utf-8")).hexdigest()
                assistant.store_policy(policy_from_sentences(sentences), policy_id, str(dataset.path), digest)
            for done, question in enumerate(dataset.questions):
                if progress:
                    progress("asking", done, len(dataset.questions))
                try:
                    answer = assistant.ask(question.question, policy=question.policy_id, top_k=max_evidence)
                except AssistantError as error:
                    raise AssistantError(f"question {question.id}: {error}") from None
                predicted = frozenset(e.sentence_id - 1 for e in answer.evidence) if answer.answerable else frozenset()
                results.append(QuestionResult(
                    question=question,
                    predicted=predicted,
                    answerable=answer.answerable,
                    score=question_score(predicted, question.references),
                    baselines=baseline_predictions(question.question, dataset.policies[question.policy_id]),
                ))
            if progress:
                progress("asking", len(dataset.questions), len(dataset.questions))
        finally:
            if "store" in assistant.__dict__:
                assistant.store.close()
    return summarise(dataset, results, time.perf_counter() - started)


def summarise(dataset: PrivacyQADataset, results: list[QuestionResult], seconds: float = 0.0) -> PrivacyQAReport:
    """Aggregate per-question results: mean scores, answerability, categories, baselines."""
    categories: dict[str, list[Score]] = {}
    for result in results:
        for name in sorted(result.question.categories or ()):
            categories.setdefault(name, []).append(result.score)
    order = {name: i for i, name in enumerate(CATEGORY_NAMES.values())}
    by_category = {
        name: (len(scores), mean_score(scores))
        for name, scores in sorted(categories.items(), key=lambda item: (order.get(item[0], len(order)), item[0]))
    }
    baselines = {
        name: mean_score(question_score(r.baselines[name], r.question.references) for r in results)
        for name in results[0].baselines
    }
    return PrivacyQAReport(
        data=dataset.path,
        format=dataset.format,
        results=results,
        score=mean_score(r.score for r in results),
        answerability=binary_score((r.answerable, r.question.answerable) for r in results),
        by_category=by_category,
        baselines=baselines,
        seconds=seconds,
        ordered=dataset.ordered,
    )
