"""Training data for the question-only classifiers, built from what exists (docs/results.md, "Answerability").

- answerable: PolicyQA dev questions (answerable by construction) and PrivacyQA train questions
  that experts placed in an OPP-115 category (those they could place nowhere are left out: many
  are still privacy questions, e.g. "does it save my ip?", so they are no clean negative class);
- out_of_scope: wordlists/out_of_scope.txt;
- beyond_policy, vague: wordlists/*.txt, written for this project;
- incomprehensible: generated (keyboard mashes, random letters, scrambled questions), seeded.
PolicyQA test and PrivacyQA test questions are never used for training.
"""
from __future__ import annotations

import csv
import json
import random
from dataclasses import dataclass

from assistant.corpora import corpus_dir
from assistant.corpora.privacyqa import PRIVACYQA_COLUMNS
from assistant.foundation.resources import package_path
from assistant.models.questions.model import ANSWERABLE

REASONS = ("incomprehensible", "out_of_scope", "beyond_policy", "vague")
LABELS = (ANSWERABLE, *REASONS)
WRITTEN_DIR = package_path("models", "questions", "wordlists")

# The flags that name a data practice: what the question category head learns.
PRIVACYQA_FLAGS = {flag: name for flag, name in PRIVACYQA_COLUMNS.items() if flag not in ("other", "unknown")}
POLICYQA_PRACTICES = {
    "First Party Collection/Use": "First Party Collection/Use",
    "Third Party Sharing/Collection": "Third Party Sharing/Collection",
    "Data Security": "Data Security",
    "Data Retention": "Data Retention",
    "User Access, Edit and Deletion": "User Access, Edit and Deletion",
    "User Choice/Control": "User Choice/Control",
    "International and Specific Audiences": "International and Specific Audiences",
    "Policy Change": "Policy Change",
    "Do Not Track": "Do Not Track",
}
QUESTION_CATEGORIES = sorted(set(PRIVACYQA_FLAGS.values()) | set(POLICYQA_PRACTICES.values()))


@dataclass(frozen=True)
class LabelledQuestion:
    text: str
    label: str  # one of LABELS
    categories: frozenset[str]  # OPP-115 categories; empty when unknown
    source: str


def privacyqa_questions(split: str) -> list[LabelledQuestion]:
    """PrivacyQA questions that experts placed in a category, with those categories (`split`: train or test)."""
    path = corpus_dir("privacyqa") / f"questions_{split}.tsv"
    questions = []
    with open(path, newline="", encoding="utf-8") as handle:
        for row in csv.DictReader(handle, delimiter="\t"):
            categories = frozenset(c for flag, c in PRIVACYQA_FLAGS.items() if row.get(flag) == "1")
            if categories or row.get("other") == "1":
                questions.append(LabelledQuestion(row["Query"].strip(), ANSWERABLE, categories, f"privacyqa-{split}"))
    return questions


def policyqa_dev_questions() -> list[LabelledQuestion]:
    """Unique PolicyQA dev questions with the practice of their (practice, attribute, value) type."""
    data = json.loads((corpus_dir("policyqa") / "dev.json").read_text(encoding="utf-8"))
    seen: dict[str, set[str]] = {}
    for article in data["data"]:
        for paragraph in article["paragraphs"]:
            for qa in paragraph["qas"]:
                practice = qa.get("type", "").split("|||")[0]
                seen.setdefault(qa["question"].strip(), set())
                if practice in POLICYQA_PRACTICES:
                    seen[qa["question"].strip()].add(POLICYQA_PRACTICES[practice])
    return [LabelledQuestion(q, ANSWERABLE, frozenset(c), "policyqa-dev") for q, c in seen.items()]


def written_questions(label: str) -> list[LabelledQuestion]:
    lines = (WRITTEN_DIR / f"{label}.txt").read_text(encoding="utf-8").splitlines()
    return [LabelledQuestion(line.strip(), label, frozenset(), "written")
            for line in lines if line.strip() and not line.startswith("#")]


def generated_incomprehensible(real: list[str], count: int = 150, seed: int = 7) -> list[LabelledQuestion]:
    """Keyboard mashes, random letters and scrambled real questions."""
    rng = random.Random(seed)
    rows = ["qwertyuiop", "asdfghjkl", "zxcvbnm", "1234567890"]
    texts = set()
    while len(texts) < count:
        kind = rng.randrange(3)
        if kind == 0:
            row = rng.choice(rows)
            texts.add(" ".join(row[rng.randrange(3):][: rng.randint(3, 8)] for _ in range(rng.randint(1, 3))))
        elif kind == 1:
            texts.add(" ".join("".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(2, 9)))
                               for _ in range(rng.randint(1, 5))) + rng.choice(["", "?", "??"]))
        else:
            words = rng.choice(real).split()
            rng.shuffle(words)
            texts.add(" ".join(words[: rng.randint(2, 6)]).lower() + rng.choice(["", "?"]))
    return [LabelledQuestion(t, "incomprehensible", frozenset(), "generated") for t in sorted(texts)]


def training_questions() -> list[LabelledQuestion]:
    """All training questions, de-duplicated by lower-cased text (first label wins)."""
    answerable = policyqa_dev_questions() + privacyqa_questions("train")
    written = [q for label in ("out_of_scope", "beyond_policy", "vague") for q in written_questions(label)]
    generated = generated_incomprehensible([q.text for q in answerable])
    unique: dict[str, LabelledQuestion] = {}
    for question in written + answerable + generated:
        unique.setdefault(question.text.lower(), question)
    return list(unique.values())
