"""PolicyIE: intent classification and type-I / type-II slot filling for policy sentences.

One model: the all-MiniLM-L6-v2 encoder (top layers fine-tuned, see `assistant.foundation.encoder`) with three
heads: the sentence's intent (5 classes, from the mean-pooled tokens) and two BIO taggers, one
for type-I slots (who, what data, to whom, retention, storage, security…) and one for type-II
slots (purpose, condition, polarity, protection method), which may overlap type-I spans. Tags are
predicted on each word's first word piece.

This module holds the inference (ONNX Runtime or torch, `assistant.models.runtime`; no torch import); its graph is
declared in `graph.py`, the torch module is in `network.py`, training in `train.py`, scoring in `evaluate.py`.

    assistant train policyie         # reproduces weights/policyie/ (resumes from .train/policyie/)
    assistant eval policyie --split test
"""
from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from assistant.foundation.inference import Forward
from assistant.foundation.releases import load_release_arrays
from assistant.foundation.tokenization import encode_words, first_pieces
from assistant.foundation.types import Facts, Slot
from assistant.models.policyie.bio import BIODecoder, crf_scores
from assistant.models.policyie.graph import POLICYIE, RELEASE_DIR
from assistant.models.runtime import load_forward

INTENTS = (
    "data-collection-usage", "data-sharing-disclosure", "data-storage-retention-deletion",
    "data-security-protection", "Other",
)
_WORD = re.compile(r"\w+(?:[.'’@&/-]\w+)*|[^\w\s]")


@dataclass(frozen=True)
class TaggedSentence:
    """The model's reading of one sentence: its intent and its tags, one per token."""

    intent: str
    type_i: list[str]
    type_ii: list[str]


def words(text: str) -> list[tuple[str, int, int]]:
    """PolicyIE-style tokens of raw text (words, with punctuation apart) and their offsets."""
    return [(m.group(), m.start(), m.end()) for m in _WORD.finditer(text)]


# (transitions, start) of the type-I and type-II CRFs, or None for softmax taggers
CRFScores = tuple[tuple[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]] | None


class PolicyIETagger:
    """Reads sentences with a released PolicyIE model (`forward`: its graph, `assistant.models.runtime`);
    `crf` gives the CRFs' transition scores (read when tagging: training changes them)."""

    def __init__(self, forward: Forward, type_i_tags: list[str], type_ii_tags: list[str],
                 crf: Callable[[], CRFScores] = lambda: None, max_length: int = 256) -> None:
        self.forward = forward
        self.type_i_tags = type_i_tags
        self.type_ii_tags = type_ii_tags
        self.crf = crf
        self.max_length = max_length

    @classmethod
    def load(cls, directory: Path = RELEASE_DIR) -> PolicyIETagger:
        state, config = load_release_arrays(directory)
        tags_i, tags_ii = config["type_i_tags"], config["type_ii_tags"]
        scores: CRFScores = None
        if config.get("crf", False):
            scores = (crf_scores(tags_i, state["crf_i.transitions"], state["crf_i.start"]),
                      crf_scores(tags_ii, state["crf_ii.transitions"], state["crf_ii.start"]))
        return cls(load_forward(POLICYIE.name, directory), tags_i, tags_ii, lambda: scores)

    @property
    def has_crf(self) -> bool:
        return self.crf() is not None

    def tag(self, token_lists: Sequence[Sequence[str]], batch_size: int = 32) -> list[TaggedSentence]:
        """Intent and tags for each token list (tokens past the length limit get `O`)."""
        results: list[TaggedSentence | None] = [None] * len(token_lists)
        scores = self.crf()
        decode_i = BIODecoder(self.type_i_tags, scores[0] if scores else None)
        decode_ii = BIODecoder(self.type_ii_tags, scores[1] if scores else None)
        order = sorted(range(len(token_lists)), key=lambda i: len(token_lists[i]))
        for start in range(0, len(order), batch_size):
            rows = order[start : start + batch_size]
            batch = encode_words([token_lists[i] or ["."] for i in rows], self.max_length)
            intent, type_i, type_ii = self.forward(batch.feeds(POLICYIE.inputs))
            intents = intent.argmax(-1)
            if scores is None:  # a softmax tagger: decode its log-probabilities
                type_i, type_ii = _log_softmax(type_i), _log_softmax(type_ii)
            for row, i in enumerate(rows):
                firsts = first_pieces(batch.encodings[row].word_ids)[: len(token_lists[i])]
                padding = ["O"] * (len(token_lists[i]) - len(firsts))
                results[i] = TaggedSentence(INTENTS[int(intents[row])],
                                            decode_i.best(type_i[row, firsts]) + padding,
                                            decode_ii.best(type_ii[row, firsts]) + padding)
        return results  # type: ignore[return-value]

    def facts(self, sentences: Sequence[str]) -> list[Facts]:
        """Intent and slots with character offsets into each sentence."""
        tokenised = [words(s) for s in sentences]
        tagged = self.tag([[w for w, _, _ in t] for t in tokenised])
        return [
            Facts(t.intent, tuple(_slots(sentence, tokens, t.type_i) + _slots(sentence, tokens, t.type_ii)))
            for sentence, tokens, t in zip(sentences, tokenised, tagged)
        ]


def _slots(sentence: str, tokens: list[tuple[str, int, int]], tags: list[str]) -> list[Slot]:
    slots, current = [], None
    for (_, start, end), tag in zip(tokens, tags):
        if tag.startswith("B-") or tag == "O":
            if current:
                slots.append(current)
            current = [tag[2:], start, end] if tag.startswith("B-") else None
        elif current is not None:
            current[2] = end
    if current:
        slots.append(current)
    return [Slot(label, sentence[start:end], start, end) for label, start, end in slots]


def _log_softmax(scores: np.ndarray) -> np.ndarray:
    shifted = scores - scores.max(-1, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(-1, keepdims=True))
