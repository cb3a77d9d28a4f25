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
from assistant.foundation.tokenization import TokenBatch, encode_words, first_pieces
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

    def __init__(self, forward: Forward | None, type_i_tags: list[str], type_ii_tags: list[str],
                 crf: Callable[[], CRFScores] = lambda: None, max_length: int = 256) -> None:
        """`forward`: None where the scores come from elsewhere (the one-pass graph in lab/one_pass, `decode`)."""
        self.forward = forward
        self.type_i_tags = type_i_tags
        self.type_ii_tags = type_ii_tags
        self.crf = crf
        self.max_length = max_length
        self._built: tuple[CRFScores, BIODecoder, BIODecoder] | None = None

    @classmethod
    def load(cls, directory: Path = RELEASE_DIR, graph: bool = True) -> PolicyIETagger:
        """The release in `directory`; with `graph=False` without its own graph (`decode` reads the one-pass
        ingest graph's scores)."""
        state, config = load_release_arrays(directory)
        tags_i, tags_ii = config["type_i_tags"], config["type_ii_tags"]
        scores: CRFScores = None
        if config.get("crf", False):
            scores = (crf_scores(tags_i, state["crf_i.transitions"], state["crf_i.start"]),
                      crf_scores(tags_ii, state["crf_ii.transitions"], state["crf_ii.start"]))
        return cls(load_forward(POLICYIE.name, directory) if graph else None, tags_i, tags_ii, lambda: scores)

    @property
    def has_crf(self) -> bool:
        return self.crf() is not None

    def tag(self, token_lists: Sequence[Sequence[str]], batch_size: int = 32) -> list[TaggedSentence]:
        """Intent and tags for each token list (tokens past the length limit get `O`)."""
        if self.forward is None:
            raise ValueError("this PolicyIE tagger was loaded without its graph (graph=False)")
        results: list[TaggedSentence | None] = [None] * len(token_lists)
        order = sorted(range(len(token_lists)), key=lambda i: len(token_lists[i]))
        for start in range(0, len(order), batch_size):
            rows = order[start : start + batch_size]
            batch = encode_words([token_lists[i] or ["."] for i in rows], self.max_length)
            tagged = self.decode(batch, self.forward(batch.feeds(POLICYIE.inputs)), [len(token_lists[i]) for i in rows])
            for i, sentence in zip(rows, tagged, strict=True):
                results[i] = sentence
        return results  # type: ignore[return-value]

    def decode(self, batch: TokenBatch, scores: Sequence[np.ndarray], lengths: Sequence[int]) -> list[TaggedSentence]:
        """The rows of an `encode_words` batch read from the graph's (intent logits, type-I, type-II tag scores);
        `lengths`: each row's number of words."""
        intent, type_i, type_ii = scores
        transitions = self.crf()
        decode_i, decode_ii = self._decoders(transitions)
        if transitions is None:  # a softmax tagger: decode its log-probabilities
            type_i, type_ii = _log_softmax(type_i), _log_softmax(type_ii)
        intents = intent.argmax(-1)
        firsts = [first_pieces(batch.encodings[row].word_ids)[:length] for row, length in enumerate(lengths)]
        read = [len(f) for f in firsts]  # words past the length limit are not read: they get `O`
        width = max(read, default=0)
        positions = np.array([f + [0] * (width - len(f)) for f in firsts], dtype=int).reshape(len(firsts), width)
        tags_i = decode_i.best_of_batch(np.take_along_axis(type_i, positions[:, :, None], 1), read)
        tags_ii = decode_ii.best_of_batch(np.take_along_axis(type_ii, positions[:, :, None], 1), read)
        return [TaggedSentence(INTENTS[int(intents[row])], tags_i[row] + ["O"] * (length - read[row]),
                               tags_ii[row] + ["O"] * (length - read[row]))
                for row, length in enumerate(lengths)]

    def _decoders(self, transitions: CRFScores) -> tuple[BIODecoder, BIODecoder]:
        """The two taggers' decoders for these CRF scores, built once for the same scores (training changes them)."""
        if self._built is None or self._built[0] is not transitions:
            self._built = (transitions, BIODecoder(self.type_i_tags, transitions[0] if transitions else None),
                           BIODecoder(self.type_ii_tags, transitions[1] if transitions else None))
        return self._built[1], self._built[2]

    def facts(self, sentences: Sequence[str]) -> list[Facts]:
        """Intent and slots with character offsets into each sentence."""
        tokenised = [words(s) for s in sentences]
        return read_facts(sentences, tokenised, self.tag([[w for w, _, _ in t] for t in tokenised]))


def read_facts(sentences: Sequence[str], tokenised: Sequence[list[tuple[str, int, int]]],
               tagged: Sequence[TaggedSentence]) -> list[Facts]:
    """Each sentence's intent and slots with character offsets, from its `words` and their tags."""
    return [
        Facts(t.intent, tuple(_slots(sentence, tokens, t.type_i) + _slots(sentence, tokens, t.type_ii)))
        for sentence, tokens, t in zip(sentences, tokenised, tagged, strict=True)
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
