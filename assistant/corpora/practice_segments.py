"""OPP-115 segment classification split used by PrivacyGLUE (the majority-label split: one row per
segment and category)."""
from __future__ import annotations

import collections
import csv
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from assistant.corpora import corpus_dir

SPLITS = {"train": "train_dataset.csv", "validation": "validation_dataset.csv", "test": "test_dataset.csv"}


@dataclass(frozen=True)
class Example:
    text: str
    labels: frozenset[str]


def split_file(split: str) -> Path:
    return corpus_dir("opp115") / "majority_split" / SPLITS[split]


def load_split(split: str) -> list[Example]:
    """One example per segment: PrivacyGLUE's rows are (segment, category), grouped by text."""
    groups: dict[str, set[str]] = collections.defaultdict(set)
    with open(split_file(split), newline="", encoding="utf-8") as handle:
        for text, label in csv.reader(handle):
            if text != "#NAME?":  # a spreadsheet artefact in the train split
                groups[text].add(label)
    return [Example(text, frozenset(labels)) for text, labels in groups.items()]


def label_matrix(examples: Sequence[Example], labels: list[str]) -> np.ndarray:
    """(n, n_labels) booleans: whether each example carries each label."""
    return np.array([[label in e.labels for label in labels] for e in examples], dtype=bool)
