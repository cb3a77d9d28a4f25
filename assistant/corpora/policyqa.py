"""PolicyQA: the released dev/test files and the train split rebuilt from OPP-115.

PolicyQA's `train.json` (17,056 examples, 75 policies) is not available. Its authors built it
from the OPP-115 annotations; `rebuild_train` repeats their procedure for the 75 OPP-115 policies
that are in neither `dev.json` nor `test.json`:

1. every annotated span with its (practice, attribute, value) is an example, except practice
   `Other` and value `Unspecified` (as the PolicyQA authors did) and spans with no text;
2. its context is the OPP-115 segment as PolicyQA shows it (tags removed, entities decoded,
   whitespace collapsed: this reproduces the released contexts exactly);
3. its answer is the annotated text, located in the context (OPP-115's character offsets are
   off by a few characters, so the text is searched for, nearest to the annotated offset);
4. its question is one of the PolicyQA questions written for the same triple (the `type` field of
   dev/test questions is `Practice|||Attribute|||Value`), chosen with a fixed seed;
5. as in the released dev/test files, one example per (segment, triple): the spans of all
   annotators for that triple in that segment are its answers (identical spans kept once).

`docs/results.md` lists the resulting counts next to the paper's.
"""
from __future__ import annotations

import collections
import json
import random
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from assistant.corpora import corpus_dir
from assistant.corpora.opp115 import annotated_policy, opp115_policies

SPLITS = ("dev", "test")
SKIPPED_PRACTICE = "Other"
SKIPPED_VALUE = "Unspecified"


@dataclass(frozen=True)
class QAExample:
    """One extractive QA example (SQuAD 1.1 style; one gold answer per train example)."""

    id: str
    policy: str
    question: str
    context: str
    answers: tuple[tuple[str, int], ...]  # (text, start offset in context)
    type: str  # Practice|||Attribute|||Value


def policyqa_file(split: str) -> Path:
    return corpus_dir("policyqa") / f"{split}.json"


def load_split(split: str) -> list[QAExample]:
    """The released dev or test split, one example per question (all gold answers kept)."""
    if split not in SPLITS:
        raise ValueError(f"unknown PolicyQA split {split!r}; the released ones are {SPLITS}")
    data = json.loads(policyqa_file(split).read_text(encoding="utf-8"))["data"]
    return [
        QAExample(
            qa["id"], policy["title"], qa["question"], paragraph["context"],
            tuple((a["text"], a["answer_start"]) for a in qa["answers"]), qa["type"],
        )
        for policy in data for paragraph in policy["paragraphs"] for qa in paragraph["qas"]
    ]


@lru_cache(maxsize=1)
def question_templates() -> dict[str, tuple[str, ...]]:
    """The questions PolicyQA's annotators wrote, per `Practice|||Attribute|||Value` triple."""
    templates: dict[str, set[str]] = collections.defaultdict(set)
    for split in SPLITS:
        for example in load_split(split):
            templates[example.type].add(example.question)
    return {triple: tuple(sorted(questions)) for triple, questions in templates.items()}


def train_policies() -> list[str]:
    """The OPP-115 policies in neither PolicyQA dev nor test (75)."""
    held_out = {example.policy for split in SPLITS for example in load_split(split)}
    return [name for name in opp115_policies() if name not in held_out]


@dataclass
class RebuildCounts:
    policies: int = 0
    spans: int = 0  # annotated spans with text, before any filter
    skipped_other_or_unspecified: int = 0
    skipped_no_question: int = 0  # triple for which PolicyQA wrote no question
    skipped_not_found: int = 0  # annotated text not found in the segment
    answers: int = 0  # distinct answer spans over all examples
    examples: int = 0  # (segment, triple) groups


def rebuild_train(seed: int = 13) -> tuple[list[QAExample], RebuildCounts]:
    """The PolicyQA train split rebuilt from OPP-115 (see the module docstring)."""
    rng = random.Random(seed)
    templates = question_templates()
    policy_files = opp115_policies()
    counts = RebuildCounts()
    groups: dict[tuple[str, int, str], dict[tuple[str, int], None]] = {}
    contexts: dict[tuple[str, int], str] = {}
    for name in train_policies():
        counts.policies += 1
        segments, rows = annotated_policy(policy_files[name])
        for row in rows:
            for attribute, value, text in row.highlights():
                counts.spans += 1
                if row.practice == SKIPPED_PRACTICE or value["value"] == SKIPPED_VALUE:
                    counts.skipped_other_or_unspecified += 1
                    continue
                triple = f"{row.practice}|||{attribute}|||{value['value']}"
                if triple not in templates:
                    counts.skipped_no_question += 1
                    continue
                start = locate_span(segments[row.segment_id], text, value["startIndexInSegment"])
                if start is None:
                    counts.skipped_not_found += 1
                    continue
                contexts[(name, row.segment_id)] = segments[row.segment_id]
                groups.setdefault((name, row.segment_id, triple), {})[(text, start)] = None
    examples = [
        QAExample(
            f"opp115-{name}-{segment_id}-{number}", name, rng.choice(templates[triple]),
            contexts[(name, segment_id)], tuple(answers), triple,
        )
        for number, ((name, segment_id, triple), answers) in enumerate(groups.items())
    ]
    counts.answers = sum(len(e.answers) for e in examples)
    counts.examples = len(examples)
    return examples, counts


def locate_span(context: str, text: str, near: int) -> int | None:
    """Offset of `text` in `context` nearest to `near` (OPP-115 offsets are approximate)."""
    starts = [m.start() for m in re.finditer(re.escape(text), context)]
    return min(starts, key=lambda s: abs(s - near)) if starts else None
