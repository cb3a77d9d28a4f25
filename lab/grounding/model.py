"""A grounding verifier, measured and not shipped (docs/lab/notebook.md, "A learned grounding step"): does this policy
sentence state what the question asks? A cross-encoder (all-MiniLM-L6-v2, its top three layers fine-tuned) reads the
question and one sentence together and gives the probability that a reader would quote the sentence as the answer,
and a stance head (yes, no, only if). Trained on the answers sets' labelled sentences (`train.py`, pairs from
`pairs.py`); run on torch from its release folder.

    .venv/bin/python -m lab.grounding.probe      # pairs, training, and the measurements the notebook reports
"""
from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from assistant.foundation.encoder import load_base_encoder
from assistant.foundation.inference import Forward
from assistant.foundation.maths import sigmoid, softmax
from assistant.foundation.tokenization import encode_pairs
from assistant.models.graph_spec import PAIR
from assistant.models.graphs import TorchForward
from lab.grounding.network import STANCES, build

MAX_LENGTH = 128  # word pieces of question and sentence together
SECTION_CHARS = 80  # the section heading read after the sentence, cut to this


def pair_text(sentence: str, section: str) -> str:
    """The second segment: the sentence, then its section heading (truncation cuts the heading first)."""
    section = section.strip()[:SECTION_CHARS]
    return f"{sentence} (§ {section})" if section else sentence


class GroundingVerifier:
    """Scores question/sentence pairs with a released verifier; `threshold`: the probability from which a sentence
    counts as stating the answer; `only_if_threshold`: the stance head's "only if" probability from which a "yes" is
    "only if"; both chosen on the validation set (`config.json`)."""

    def __init__(self, forward: Forward, threshold: float | None = None, only_if_threshold: float | None = None) -> None:
        self.forward = forward
        self.threshold = threshold
        self.only_if_threshold = only_if_threshold

    @classmethod
    def load(cls, directory: Path) -> GroundingVerifier:
        config = json.loads((directory / "config.json").read_text())
        forward = TorchForward(build(load_base_encoder()[0], directory), PAIR)
        return cls(forward, config.get("threshold"), config.get("only_if_threshold"))

    def read(self, question: str, sentences: Sequence[tuple[str, str]], batch_size: int = 16,
             ) -> tuple[np.ndarray, np.ndarray]:
        """For each (sentence, section): the probability that it states what `question` asks, and its stance
        probabilities (n, 3: `STANCES`) were it to answer."""
        grounded, stances = [], []
        for first in range(0, len(sentences), batch_size):
            rows = sentences[first:first + batch_size]
            batch = encode_pairs([question] * len(rows), [pair_text(s, h) for s, h in rows], MAX_LENGTH)
            logit, stance = self.forward(batch.feeds(PAIR))
            grounded.append(np.asarray(logit, dtype=np.float32).reshape(-1))
            stances.append(softmax(np.asarray(stance, dtype=np.float32).reshape(len(rows), len(STANCES))))
        if not grounded:
            return np.zeros(0, dtype=np.float32), np.zeros((0, len(STANCES)), dtype=np.float32)
        return sigmoid(np.concatenate(grounded)), np.concatenate(stances)

    def probabilities(self, question: str, sentences: Sequence[tuple[str, str]]) -> np.ndarray:
        return self.read(question, sentences)[0]
