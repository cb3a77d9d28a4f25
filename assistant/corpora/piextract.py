"""PI-Extract (Bui et al. 2021, PLUE CoNLL files): policy sentences with four layers of BIO tags, the
personal-information types a sentence says are collected, not collected, shared and not shared.

PLUE ships one CoNLL file per subtask; the four files of a split hold the same sentences in the same
order (checked on reading), so they are read into one sentence list with a tag layer per subtask.
PLUE's validation file is a copy of test: model selection uses `tuning_split` (a fixed 90/10 split
of train) instead.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

from assistant.corpora import corpus_dir

SPLITS = ("train", "test")
# tag layer -> PLUE subtask folder
LAYERS = {"COLLECT": "CollectUse_true", "NOT_COLLECT": "CollectUse_false",
          "SHARE": "Share_true", "NOT_SHARE": "Share_false"}
TUNING_SEED = 13


@dataclass(frozen=True)
class PIExtractSentence:
    tokens: tuple[str, ...]
    tags: dict[str, tuple[str, ...]]  # layer (COLLECT, NOT_COLLECT, SHARE, NOT_SHARE) -> BIO tags per token


def corpus_file(layer: str, split: str) -> Path:
    return corpus_dir("piextract") / LAYERS[layer] / f"{split}.conll03"


def read_conll(path: Path) -> list[list[tuple[str, str]]]:
    """(token, tag) sentences of a CoNLL-2003 file (`token _ _ TAG`, blank lines between sentences)."""
    sentences, current = [], []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if line.startswith("-DOCSTART-"):
            continue
        if not line.strip():
            if current:
                sentences.append(current)
                current = []
            continue
        fields = line.split(" ")
        if len(fields) != 4:
            raise ValueError(f"{path} line {number}: expected 'token _ _ TAG', got {line!r}")
        current.append((fields[0], fields[3]))
    if current:
        sentences.append(current)
    return sentences


def load_split(split: str) -> list[PIExtractSentence]:
    """The split's sentences with their four tag layers."""
    if split not in SPLITS:
        raise ValueError(f"unknown PI-Extract split {split!r}; choose one of {SPLITS}")
    layers = {layer: read_conll(corpus_file(layer, split)) for layer in LAYERS}
    counts = {layer: len(s) for layer, s in layers.items()}
    if len(set(counts.values())) != 1:
        raise ValueError(f"PI-Extract {split}: the subtasks have different sentence counts {counts}")
    sentences = []
    for number, rows in enumerate(zip(*layers.values()), start=1):
        tokens = tuple(token for token, _ in rows[0])
        if any(tuple(token for token, _ in r) != tokens for r in rows[1:]):
            raise ValueError(f"PI-Extract {split} sentence {number}: the subtask files disagree on its tokens")
        sentences.append(PIExtractSentence(tokens, {layer: tuple(tag for _, tag in r)
                                                    for layer, r in zip(layers, rows)}))
    return sentences


def tuning_split(seed: int = TUNING_SEED) -> tuple[list[PIExtractSentence], list[PIExtractSentence]]:
    """(fit, dev): train shuffled by a fixed seed and cut 90/10 (PLUE's validation is the test set)."""
    sentences = load_split("train")
    order = list(range(len(sentences)))
    random.Random(seed).shuffle(order)
    cut = round(0.9 * len(order))
    return [sentences[i] for i in sorted(order[:cut])], [sentences[i] for i in sorted(order[cut:])]


def load(split: str) -> list[PIExtractSentence]:
    """`fit` / `dev` (the tuning split of train), `train` or `test`."""
    if split in ("fit", "dev"):
        fit, dev = tuning_split()
        return fit if split == "fit" else dev
    return load_split(split)
