"""PI-Extract tagger: the personal-information types a policy sentence says are collected (COLLECT),
not collected (NOT_COLLECT), shared (SHARE) or not shared (NOT_SHARE), as spans with character offsets.

One model: all-MiniLM-L6-v2 (all 6 layers fine-tuned) with four BIO taggers, one per layer, read on
each word's first word piece and decoded to valid BIO (Viterbi, `assistant.models.policyie.bio`).
The layers may overlap ("we collect and share your email address": COLLECT and SHARE).

This module holds the inference (ONNX Runtime or torch, `assistant.models.runtime`; no torch import); its graph is
declared in `graph.py`, the torch module is in `network.py`, training in `train.py`, scoring in `evaluate.py`.

    assistant train piextract        # reproduces weights/piextract/ (resumes from .train/piextract/)
    assistant eval piextract --split test
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from assistant.foundation.inference import Forward
from assistant.foundation.releases import release_files
from assistant.foundation.tokenization import encode_words, first_pieces
from assistant.models.piextract.graph import PIEXTRACT, RELEASE_DIR
from assistant.models.policyie.bio import BIODecoder
from assistant.models.runtime import load_forward

LAYERS = ("COLLECT", "NOT_COLLECT", "SHARE", "NOT_SHARE")
TAGS = ("O", "B", "I")  # per layer: the head's three scores
# spaCy-like words, as in the PI-Extract files: "do n't", "e - mail", "U.S.", "Amazon.com"
_WORD = re.compile(r"\w+(?=n['’]t\b)|n['’]t\b|['’](?:s|ve|re|ll|d|m)\b|(?:[A-Za-z]\.){2,}|\w+(?:[.@/&]\w+)*|[^\w\s]",
                   re.IGNORECASE)


@dataclass(frozen=True)
class PISpan:
    """A personal-information type in a sentence: `sentence[start:end] == text`."""

    start: int
    end: int
    text: str
    label: str  # COLLECT, NOT_COLLECT, SHARE or NOT_SHARE


def words(text: str) -> list[tuple[str, int, int]]:
    """Words of raw text (punctuation apart, as in the PI-Extract files) with their character offsets."""
    return [(m.group(), m.start(), m.end()) for m in _WORD.finditer(text)]


class PIExtractTagger:
    """Tags sentences with a released PI-Extract model (`forward`: its graph, `assistant.models.runtime`)."""

    def __init__(self, forward: Forward, max_length: int = 256) -> None:
        self.forward = forward
        self.max_length = max_length
        self._decoders = {layer: BIODecoder(["O", f"B-{layer}", f"I-{layer}"]) for layer in LAYERS}

    @classmethod
    def load(cls, directory: Path = RELEASE_DIR) -> PIExtractTagger:
        release_files(directory)  # a clear error when the release is missing
        return cls(load_forward(PIEXTRACT.name, directory))

    def tag_tokens(self, token_lists: Sequence[Sequence[str]], batch_size: int = 32) -> list[dict[str, list[str]]]:
        """BIO tags per layer for each token list (tokens past the length limit get `O`)."""
        results: list[dict[str, list[str]] | None] = [None] * len(token_lists)
        order = sorted(range(len(token_lists)), key=lambda i: len(token_lists[i]))
        for begin in range(0, len(order), batch_size):
            rows = order[begin : begin + batch_size]
            batch = encode_words([token_lists[i] or ["."] for i in rows], self.max_length)
            (scores,) = self.forward(batch.feeds(PIEXTRACT.inputs))
            scores = _log_softmax(scores)
            for row, i in enumerate(rows):
                firsts = first_pieces(batch.encodings[row].word_ids)[: len(token_lists[i])]
                padding = ["O"] * (len(token_lists[i]) - len(firsts))
                results[i] = {layer: self._decoders[layer].best(scores[row, firsts, k]) + padding
                              for k, layer in enumerate(LAYERS)}
        return results  # type: ignore[return-value]

    def tag(self, sentences: Sequence[str]) -> list[list[PISpan]]:
        """The spans of each sentence, by start then layer order; offsets are into the sentence."""
        tokenised = [words(s) for s in sentences]
        tagged = self.tag_tokens([[w for w, _, _ in t] for t in tokenised])
        return [sorted((span for layer in LAYERS for span in _spans(sentence, tokens, tags[layer], layer)),
                       key=lambda s: (s.start, LAYERS.index(s.label)))
                for sentence, tokens, tags in zip(sentences, tokenised, tagged)]


def extract_personal_information(sentences: Sequence[str], tagger: PIExtractTagger | None = None) -> list[list[PISpan]]:
    """The PI spans of each sentence text (for ingest): the shipped tagger unless one is given."""
    return (tagger or _shipped()).tag(sentences)


_SHIPPED: list[PIExtractTagger] = []


def _shipped() -> PIExtractTagger:
    if not _SHIPPED:
        _SHIPPED.append(PIExtractTagger.load())
    return _SHIPPED[0]


def _spans(sentence: str, tokens: list[tuple[str, int, int]], tags: list[str], label: str) -> list[PISpan]:
    spans, current = [], None
    for (_, start, end), tag in zip(tokens, tags):
        if tag.startswith("B-") or tag == "O":
            if current:
                spans.append(current)
            current = [start, end] if tag.startswith("B-") else None
        elif current is not None:
            current[1] = end
    if current:
        spans.append(current)
    return [PISpan(start, end, sentence[start:end], label) for start, end in spans]


def _log_softmax(scores: np.ndarray) -> np.ndarray:
    shifted = scores - scores.max(-1, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(-1, keepdims=True))
