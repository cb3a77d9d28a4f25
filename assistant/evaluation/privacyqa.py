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

import csv
import dataclasses
import hashlib
import json
import random
import re
import tempfile
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text

from assistant.answering.selection import SelectionParameters
from assistant.evaluation.metrics import (
    BinaryScore,
    Score,
    binary_score,
    mean_score,
    percent,
    question_score,
)
from assistant.foundation.errors import AssistantError
from assistant.foundation.settings import Settings
from assistant.foundation.types import ProgressCallback
from assistant.models.questions.data import PRIVACYQA_COLUMNS

LB_DEV_FILE = "privacyqa_lb_dev.json"
FLAG_FILES = ("questions_test.tsv", "questions_train.tsv")
OFFICIAL = "official"
RECONSTRUCTED = "reconstructed"
WORD_COUNT_TOP = (2, 3, 5)

CATEGORY_NAMES = PRIVACYQA_COLUMNS
_FLAG_META_COLUMNS = {"folder", "docid", "queryid", "split", "query"}
_OFFICIAL_REQUIRED = ("DocID", "QueryID", "SentID", "Query", "Segment")
_ANNOTATOR_COLUMN = re.compile(r"ann\d+", re.IGNORECASE)
_LABELS = {"relevant", "irrelevant", "none"}

# NLTK's English stopword list (apostrophe-free forms: `\w+` splits "don't" into "don" and "t").
STOPWORDS = frozenset(
    """i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her
    hers herself it its itself they them their theirs themselves what which who whom this that these
    those am is are was were be been being have has had having do does did doing a an the and but if or
    because as until while of at by for with about against between into through during before after
    above below to from up down in out on off over under again further then once here there when where
    why how all any both each few more most other some such no nor not only own same so than too very s
    t can will just don should now d ll m o re ve y ain aren couldn didn doesn hadn hasn haven isn ma
    mightn mustn needn shan shouldn wasn weren won wouldn""".split()
)
_WORD = re.compile(r"\w+")


# -- data ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PrivacyQAQuestion:
    """One question; `references` hold 0-based indices into its policy's sentence list."""

    id: str
    policy_id: str
    question: str
    references: list[frozenset[int]]
    query_ids: tuple[str, ...] = ()
    # OPP-115 category names flagged by the experts; None when the question is not in the flag files.
    categories: frozenset[str] | None = None

    @property
    def answerable(self) -> bool:
        """True when any reference marks a sentence relevant."""
        return any(self.references)


@dataclass(frozen=True)
class PrivacyQADataset:
    path: Path
    format: str  # OFFICIAL or RECONSTRUCTED
    policies: dict[str, list[str]]
    questions: list[PrivacyQAQuestion]
    # False when the file does not keep the policies' sentence order (the reconstructed file): the
    # sentences are then in a fixed shuffled order, and nothing may use neighbours (see `unordered`).
    ordered: bool = True

    def limited(self, limit: int | None) -> PrivacyQADataset:
        """The first `limit` questions and only the policies they need (all of them for None)."""
        questions = self.questions if limit is None else self.questions[:limit]
        needed = dict.fromkeys(q.policy_id for q in questions)
        return dataclasses.replace(
            self, questions=list(questions), policies={p: self.policies[p] for p in needed}
        )


@dataclass(frozen=True)
class CategoryFlags:
    """Expert OPP-115 category flags of PrivacyQA questions, indexed for robust matching."""

    by_id: dict[str, frozenset[str]] = field(default_factory=dict)
    by_text: dict[tuple[str, str], frozenset[str]] = field(default_factory=dict)

    def lookup(self, query_ids: Iterable[str], policy_keys: Iterable[str], question: str) -> frozenset[str] | None:
        """The union of the flags of the matching questions, or None when nothing matches."""
        found = [self.by_id[key] for key in map(_norm_id, query_ids) if key in self.by_id]
        if not found:
            text = _norm_text(question)
            found = [self.by_text[(key, text)] for key in map(_norm_id, policy_keys) if (key, text) in self.by_text]
        return frozenset().union(*found) if found else None


def load_category_flags(paths: Sequence[Path] | None = None) -> CategoryFlags:
    """Read the flag files (default: the PrivacyQA corpus' questions_test.tsv and questions_train.tsv)."""
    if paths is None:
        try:
            from assistant.corpora import corpus_dir

            folder = corpus_dir("privacyqa")
        except OSError:
            return CategoryFlags()
        paths = [folder / name for name in FLAG_FILES]
    by_id: dict[str, set[str]] = {}
    by_text: dict[tuple[str, str], set[str]] = {}
    for path in paths:
        if not path.is_file():
            continue
        with open(path, encoding="utf-8-sig", newline="") as handle:
            for row in csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE):
                row = {(k or "").strip(): (v or "").strip() for k, v in row.items()}
                flags = {
                    CATEGORY_NAMES.get(column, column)
                    for column, value in row.items()
                    if column.lower() not in _FLAG_META_COLUMNS and column and value == "1"
                }
                by_id.setdefault(_norm_id(row.get("QueryID", "")), set()).update(flags)
                text = _norm_text(row.get("Query", ""))
                for key in {_norm_id(row.get("DocID", "")), _norm_id(_folder_app(row.get("Folder", "")))}:
                    if key:
                        by_text.setdefault((key, text), set()).update(flags)
    by_id.pop("", None)
    return CategoryFlags(
        {k: frozenset(v) for k, v in by_id.items()}, {k: frozenset(v) for k, v in by_text.items()}
    )


def _norm_id(value: str) -> str:
    return re.sub(r"\s+", "", value).casefold()


def _norm_text(value: str) -> str:
    return " ".join(value.split()).casefold()


def _folder_app(folder: str) -> str:
    """'../../Dataset/Test/com.fiverr.fiverr' -> 'com.fiverr.fiverr'."""
    return folder.replace("\\", "/").rstrip("/").rsplit("/", 1)[-1]


# -- loading ---------------------------------------------------------------------------------


def load_privacyqa(path: Path, flags: CategoryFlags | None = None) -> PrivacyQADataset:
    """Load either PrivacyQA format; `flags` default to the corpus' question flag files."""
    path = Path(path)
    kind = detect_format(path)
    loader = load_official if kind == OFFICIAL else load_reconstructed
    return loader(path, load_category_flags() if flags is None else flags)


def detect_format(path: Path) -> str:
    """OFFICIAL (tab-separated with the PrivacyQA header) or RECONSTRUCTED (JSON), from the content."""
    if not path.exists():
        raise AssistantError(f"{path}: no such file.")
    if not path.is_file():
        raise AssistantError(f"{path} is not a file.")
    try:
        with open(path, "rb") as handle:
            head = handle.read(64 * 1024)
    except OSError as error:
        raise AssistantError(f"{path}: cannot be read ({error.strerror or error}).") from None
    text = head.decode("utf-8", errors="replace").lstrip("\ufeff \t\r\n")
    if text.startswith("{"):
        return RECONSTRUCTED
    header = {column.strip() for column in text.split("\n", 1)[0].split("\t")}
    if all(column in header for column in _OFFICIAL_REQUIRED):
        return OFFICIAL
    if path.suffix.lower() == ".json":
        return RECONSTRUCTED  # the JSON loader reports what is wrong with it
    raise AssistantError(
        f"{path}: not a PrivacyQA file (expected the official tab-separated policy_test_data.csv "
        f"or the reconstructed JSON such as {LB_DEV_FILE})."
    )


def load_official(path: Path, flags: CategoryFlags | None = None) -> PrivacyQADataset:
    """The official tab-separated file: one row per (question, sentence) with annotator columns."""
    flags = flags or CategoryFlags()
    segments: dict[str, dict[str, str]] = {}  # DocID -> SentID -> Segment (first seen)
    questions: dict[str, dict[str, Any]] = {}  # QueryID -> what we know, in file order
    try:
        with open(path, encoding="utf-8-sig", newline="") as handle:
            reader = csv.reader(handle, delimiter="\t", quoting=csv.QUOTE_NONE)
            header = [column.strip() for column in next(reader, [])]
            index = {column: i for i, column in enumerate(header)}
            missing = [column for column in _OFFICIAL_REQUIRED if column not in index]
            if missing:
                raise AssistantError(f"{path}: not a PrivacyQA file: no {', '.join(missing)} column.")
            annotators = [i for i, column in enumerate(header) if _ANNOTATOR_COLUMN.fullmatch(column)]
            if not annotators and "Label" in index:
                annotators = [index["Label"]]
            if not annotators:
                raise AssistantError(f"{path}: no annotator columns (Ann1 … Ann6).")
            width = max([*index.values(), *annotators]) + 1
            for line, row in enumerate(reader, start=2):
                if not any(cell.strip() for cell in row):
                    continue
                if len(row) < width:
                    raise AssistantError(f"{path}, line {line}: {len(row)} fields, expected {len(header)}.")
                doc, query_id, sent_id = (row[index[c]].strip() for c in ("DocID", "QueryID", "SentID"))
                segments.setdefault(doc, {}).setdefault(sent_id, row[index["Segment"]])
                entry = questions.setdefault(query_id, {
                    "doc": doc,
                    "question": row[index["Query"]].strip(),
                    "app": _folder_app(row[index["Folder"]]) if "Folder" in index else "",
                    "judged": [False] * len(annotators),
                    "relevant": [set() for _ in annotators],
                })
                if entry["doc"] != doc:
                    raise AssistantError(f"{path}, line {line}: query {query_id} belongs to {entry['doc']}, not {doc}.")
                for j, column in enumerate(annotators):
                    label = row[column].strip().lower()
                    if label not in _LABELS:
                        raise AssistantError(
                            f"{path}, line {line}: {header[column]} is {row[column]!r}; "
                            "expected Relevant, Irrelevant or None."
                        )
                    if label != "none":
                        entry["judged"][j] = True
                    if label == "relevant":
                        entry["relevant"][j].add(sent_id)
    except UnicodeDecodeError:
        raise AssistantError(f"{path}: not UTF-8 text, so not a PrivacyQA file.") from None
    except csv.Error as error:
        raise AssistantError(f"{path}: unreadable tab-separated file ({error}).") from None
    if not questions:
        raise AssistantError(f"{path}: no questions.")

    policies: dict[str, list[str]] = {}
    positions: dict[str, dict[str, int]] = {}
    for doc, by_id in segments.items():
        order = sorted(by_id, key=_natural_key)
        policies[doc] = [by_id[sent_id] for sent_id in order]
        positions[doc] = {sent_id: i for i, sent_id in enumerate(order)}
    parsed = []
    for query_id, entry in questions.items():
        where = positions[entry["doc"]]
        references = [
            frozenset(where[s] for s in relevant)
            for judged, relevant in zip(entry["judged"], entry["relevant"], strict=True)
            if judged
        ] or [frozenset()]
        parsed.append(PrivacyQAQuestion(
            id=query_id,
            policy_id=entry["doc"],
            question=entry["question"],
            references=references,
            query_ids=(query_id,),
            categories=flags.lookup([query_id], [entry["doc"], entry["app"]], entry["question"]),
        ))
    return PrivacyQADataset(path, OFFICIAL, policies, parsed)


def _natural_key(sent_id: str) -> tuple:
    """'Fiverr _1_10' after 'Fiverr _1_9': digit runs compare as numbers."""
    return tuple((0, int(part), "") if part.isdigit() else (1, 0, part) for part in re.split(r"(\d+)", sent_id))


def load_reconstructed(path: Path, flags: CategoryFlags | None = None) -> PrivacyQADataset:
    """The reconstructed JSON: {"policies": {app: [sentences]}, "questions": [{..., "relevant": [...]}]}."""
    flags = flags or CategoryFlags()
    try:
        data = json.loads(path.read_text(encoding="utf-8-sig"))
    except UnicodeDecodeError:
        raise AssistantError(f"{path}: not UTF-8 text, so not a PrivacyQA file.") from None
    except json.JSONDecodeError as error:
        raise AssistantError(f"{path}: not valid JSON ({error.msg} at line {error.lineno}).") from None
    if not isinstance(data, dict) or not isinstance(data.get("policies"), dict) or not isinstance(
        data.get("questions"), list
    ):
        raise AssistantError(f"{path}: not a PrivacyQA JSON file (needs \"policies\" and \"questions\").")
    policies: dict[str, list[str]] = {}
    for app, sentences in data["policies"].items():
        if not isinstance(sentences, list) or not all(isinstance(s, str) for s in sentences):
            raise AssistantError(f"{path}: policy {app!r} is not a list of sentences.")
        policies[str(app)] = sentences
    questions = []
    for n, item in enumerate(data["questions"], start=1):
        if not isinstance(item, dict) or not {"app", "question", "relevant"} <= item.keys():
            raise AssistantError(f"{path}: question {n} lacks \"app\", \"question\" or \"relevant\".")
        app = str(item["app"])
        if app not in policies:
            raise AssistantError(f"{path}: question {n} is about {app!r}, which has no policy in the file.")
        relevant = item["relevant"]
        if not isinstance(relevant, list) or not all(
            isinstance(i, int) and not isinstance(i, bool) and 0 <= i < len(policies[app]) for i in relevant
        ):
            raise AssistantError(f"{path}: question {n} has relevant sentences outside {app!r}'s 0-based indices.")
        query_ids = tuple(str(q) for q in item.get("query_ids") or ())
        questions.append(PrivacyQAQuestion(
            id=str(item.get("id") or f"{app}#{n}"),
            policy_id=app,
            question=str(item["question"]),
            references=[frozenset(relevant)],
            query_ids=query_ids,
            categories=flags.lookup(query_ids, [app], str(item["question"])),
        ))
    if not questions:
        raise AssistantError(f"{path}: no questions.")
    return unordered(PrivacyQADataset(path, RECONSTRUCTED, policies, questions))


def unordered(dataset: PrivacyQADataset, seed: int = 0) -> PrivacyQADataset:
    """The dataset with each policy's sentences in a fixed pseudo-random order (seeded by `seed` and
    the policy id), references remapped, and `ordered=False`.

    The reconstructed file lost the policies' order: its sentences are numbered in the order they
    first occur in the LegalBench task, whose rows come grouped by question with the relevant
    sentences first. That order carries the labels — the sentences one question marked relevant
    sit side by side — so anything that looks at neighbours would score on it (the neighbours'
    share did: docs/results.md). Shuffling removes it; the harness also turns the neighbours'
    share off for such files.
    """
    policies, moved = {}, {}
    for policy_id, sentences in dataset.policies.items():
        key = policy_id if seed == 0 else f"{seed}:{policy_id}"
        rng = random.Random(int.from_bytes(hashlib.sha256(key.encode("utf-8")).digest()[:8], "big"))
        order = rng.sample(range(len(sentences)), len(sentences))  # new position -> old index
        policies[policy_id] = [sentences[old] for old in order]
        moved[policy_id] = {old: new for new, old in enumerate(order)}
    questions = [
        dataclasses.replace(q, references=[frozenset(moved[q.policy_id][i] for i in r) for r in q.references])
        for q in dataset.questions
    ]
    return dataclasses.replace(dataset, policies=policies, questions=questions, ordered=False)


# -- baselines -------------------------------------------------------------------------------


def content_words(text: str) -> set[str]:
    """Lower-cased `\\w+` tokens that are not stopwords."""
    return {word for word in _WORD.findall(text.lower()) if word not in STOPWORDS}


def word_count_ranking(question: str, sentences: Sequence[str]) -> list[int]:
    """Sentence indices by decreasing number of distinct question content words they contain."""
    wanted = content_words(question)
    counts = [len(wanted & set(_WORD.findall(sentence.lower()))) for sentence in sentences]
    return sorted(range(len(sentences)), key=lambda i: -counts[i])  # stable: ties keep sentence order


def baseline_predictions(question: str, sentences: Sequence[str]) -> dict[str, frozenset[int]]:
    """{"no_answer": ∅, "word_count_top2": …, "word_count_top3": …, "word_count_top5": …}."""
    ranking = word_count_ranking(question, sentences)
    predictions = {"no_answer": frozenset()}
    for k in WORD_COUNT_TOP:
        predictions[f"word_count_top{k}"] = frozenset(ranking[:k])
    return predictions


# -- running ---------------------------------------------------------------------------------


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
    from assistant.engine import Assistant
    from assistant.foundation.sentences import policy_from_sentences

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


# -- rendering -------------------------------------------------------------------------------

_BASELINE_LABELS = {
    "no_answer": "baseline: no answer",
    "word_count_top2": "baseline: word count, top 2",
    "word_count_top3": "baseline: word count, top 3",
    "word_count_top5": "baseline: word count, top 5",
}


def render_report(report: PrivacyQAReport) -> Group:
    """Rich tables: sentence-level P/R/F1 with baselines, answerability, F1 per OPP-115 category."""
    answerable = sum(r.question.answerable for r in report.results)
    heading = Text(
        f"PrivacyQA sentence-level evaluation: {report.data.name} ({report.format}), "
        f"{len(report.results)} questions, {answerable} answerable",
        style="bold",
    )
    main = Table()
    main.add_column("system")
    for column in ("precision", "recall", "F1"):
        main.add_column(column, justify="right")
    main.add_row("assistant", *_cells(report.score), style="bold")
    for name, score in report.baselines.items():
        main.add_row(_BASELINE_LABELS.get(name, name), *_cells(score))

    answerability = Table(title="Answerability (answerable class)", title_justify="left")
    for column in ("precision", "recall", "F1", "accuracy"):
        answerability.add_column(column, justify="right")
    a = report.answerability
    answerability.add_row(*(f"{percent(v):.1f}" for v in (a.precision, a.recall, a.f1, a.accuracy)))

    categories = Table(title="Assistant F1 by OPP-115 category (expert flags)", title_justify="left")
    categories.add_column("category")
    categories.add_column("questions", justify="right")
    categories.add_column("F1", justify="right")
    for name, (count, score) in report.by_category.items():
        categories.add_row(name, str(count), f"{percent(score.f1):.1f}")
    parts: list = [heading, main, answerability, categories]
    if report.uncategorised:
        parts.append(Text(f"{report.uncategorised} question(s) not found in the category flag files.", style="dim"))
    if not report.ordered:
        parts.append(Text("The file does not keep the policies' sentence order: sentences were stored in a "
                          "fixed shuffled order, with the neighbours' share off.", style="dim"))
    parts.append(Text(f"All numbers are percentages. {report.seconds:.0f} s.", style="dim"))
    return Group(*parts)


def _cells(score: Score) -> list[str]:
    return [f"{percent(v):.1f}" for v in (score.precision, score.recall, score.f1)]
