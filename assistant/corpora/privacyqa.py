"""PrivacyQA (Ravichander et al., EMNLP 2019) files: questions, their policies' sentences and the
relevance references, read from the official test CSV or the reconstructed LegalBench dev file
(formats: `assistant.evaluation.privacyqa`), with the experts' OPP-115 category flags."""
from __future__ import annotations

import csv
import dataclasses
import hashlib
import json
import random
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from assistant.corpora import corpus_dir
from assistant.foundation.errors import AssistantError

# Column of PrivacyQA's questions_*.tsv -> OPP-115 category (Wilson et al. 2016); `unknown` is
# PrivacyQA's own flag.
PRIVACYQA_COLUMNS = {
    "first": "First Party Collection/Use",
    "third": "Third Party Sharing/Collection",
    "datasecurity": "Data Security",
    "dataretention": "Data Retention",
    "user_access": "User Access, Edit and Deletion",
    "user_choice": "User Choice/Control",
    "other": "Other",
    "audiences": "International and Specific Audiences",
    "unknown": "Unknown",
}
LB_DEV_FILE = "privacyqa_lb_dev.json"
FLAG_FILES = ("questions_test.tsv", "questions_train.tsv")
OFFICIAL = "official"
RECONSTRUCTED = "reconstructed"
CATEGORY_NAMES = PRIVACYQA_COLUMNS
_FLAG_META_COLUMNS = {"folder", "docid", "queryid", "split", "query"}
_OFFICIAL_REQUIRED = ("DocID", "QueryID", "SentID", "Query", "Segment")
_ANNOTATOR_COLUMN = re.compile(r"ann\d+", re.IGNORECASE)
_LABELS = {"relevant", "irrelevant", "none"}


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
