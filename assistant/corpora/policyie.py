"""PolicyIE (Ahmad et al. 2021, PLUE json): the split files read into sentences with their intent and BIO tags."""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from assistant.corpora import corpus_dir

SPLITS = ("train", "valid", "test")


@dataclass(frozen=True)
class PolicyIEExample:
    tokens: tuple[str, ...]
    intent: str
    type_i: tuple[str, ...]  # BIO tags, one per token
    type_ii: tuple[str, ...]


def corpus_file(kind: str, split: str) -> Path:
    return corpus_dir("policyie") / f"{kind}_{split}.json"


def load_split(split: str) -> list[PolicyIEExample]:
    """The split's sentences with their intent and both tag sequences (the three files align by line)."""
    if split not in SPLITS:
        raise ValueError(f"unknown PolicyIE split {split!r}; choose one of {SPLITS}")
    files = [corpus_file(kind, split) for kind in
             ("intent_classification", "type_I_slot_filling", "type_II_slot_filling")]
    lines = [f.read_text(encoding="utf-8").splitlines() for f in files]
    examples = []
    for number, (intent, type_i, type_ii) in enumerate(zip(*lines, strict=True), start=1):
        intent, type_i, type_ii = json.loads(intent), json.loads(type_i), json.loads(type_ii)
        if type_i["tokens"] != type_ii["tokens"]:
            raise ValueError(f"PolicyIE {split} line {number}: the type-I and type-II files disagree")
        examples.append(PolicyIEExample(
            tuple(type_i["tokens"]), intent["label"], tuple(type_i["labels"]), tuple(type_ii["labels"])
        ))
    return examples


def tag_inventory(kind: str) -> list[str]:
    """BIO tags of `type_I` or `type_II` (without PAD/UNK), `O` first."""
    tags = (corpus_dir("policyie") / f"{kind}_tags.txt").read_text().split()
    return ["O"] + [t for t in tags if t not in ("PAD", "UNK", "O")]
