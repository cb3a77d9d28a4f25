"""OPP-115 practice categories for policy text (12 labels, multi-label): the classifier and its inference.

all-MiniLM-L6-v2 fine-tuned (all six layers, see `assistant.foundation.encoder`) with a linear head over the
mean-pooled tokens, trained in two stages on the PrivacyGLUE OPP-115 majority-label split
(`assistant.corpora.practice_segments`): first its segments (paragraphs), then its segments together with
their sentences labelled from the annotators' highlighted spans (`assistant.corpora.practice_sentences`;
soft targets: the share of annotators), since ingest tags single sentences. One decision threshold per
category tuned on the validation segments, each stage's epoch chosen on them; applied at ingest to every
sentence.

Its probabilities are mixed half and half with a TF-IDF logistic regression trained on the same
segments and sentences (`assistant.models.practices.lexical`), and the thresholds are tuned for the mix.
Inference here (ONNX Runtime or torch, `assistant.models.runtime`; no torch import); its graph is declared in
`graph.py`, the torch module is in `network.py`. Training: `assistant.models.practices.train`; scores:
`assistant.models.practices.evaluate`.

    assistant train categories      # reproduces weights/practice_categories/ (resumes per epoch)
    assistant train categories --lexical-only   # refits only the lexical half (about a minute)
    assistant eval categories --split test [--sentences]
"""
from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from assistant.foundation.inference import Forward
from assistant.foundation.maths import sigmoid
from assistant.foundation.releases import release_files
from assistant.foundation.tokenization import encode_texts
from assistant.models.practices.graph import PRACTICES, RELEASE_DIR
from assistant.models.runtime import load_forward

if TYPE_CHECKING:  # scikit-learn: loaded with the TF-IDF half
    from assistant.models.practices.lexical import LexicalCategoryModel


class PracticeClassifier:
    """Predicts the OPP-115 practice categories of policy texts (sentences or segments)."""

    def __init__(self, forward: Forward | None, labels: list[str], thresholds: Sequence[float],
                 max_length: int = 256, lexical: LexicalCategoryModel | None = None,
                 lexical_weight: float = 0.0) -> None:
        """`forward`: the encoder's graph (`assistant.models.runtime`); None where the logits come from
        elsewhere (the one-pass graph in lab/one_pass, `probabilities_from_logits`)."""
        self.forward = forward
        self.labels = labels
        self.thresholds = np.asarray(thresholds)
        self.max_length = max_length
        self.lexical = lexical
        self.lexical_weight = lexical_weight if lexical is not None else 0.0

    @classmethod
    def load(cls, directory: Path = RELEASE_DIR, lexical: bool = True, graph: bool = True) -> PracticeClassifier:
        """The release in `directory`; with `lexical=False` its encoder alone (for refitting the
        lexical half or probing the encoder: the stored thresholds are tuned for the mix); with `graph=False`
        without its own graph (its logits come from the one-pass graph in lab/one_pass)."""
        release_files(directory)
        config = json.loads((directory / "config.json").read_text())
        lexical_weight = config.get("lexical_weight", 0.0) if lexical else 0.0
        lexical_model = None
        if lexical_weight:
            from assistant.models.practices.lexical import LexicalCategoryModel  # scikit-learn: TF-IDF half only

            lexical_model = LexicalCategoryModel.load(directory)
        return cls(load_forward(PRACTICES.name, directory) if graph else None, config["labels"], config["thresholds"],
                   lexical_weight=lexical_weight, lexical=lexical_model)

    def probabilities(self, texts: Sequence[str], batch_size: int = 32) -> np.ndarray:
        """(n, n_labels) probabilities: the encoder's, mixed with the lexical model's when there is one."""
        return self._mixed(self.encoder_probabilities(texts, batch_size), texts)

    def probabilities_from_logits(self, logits: np.ndarray, texts: Sequence[str]) -> np.ndarray:
        """`probabilities` of `texts` from their encoder logits, computed elsewhere (the one-pass graph in lab/one_pass)."""
        return self._mixed(sigmoid(logits), texts)

    def _mixed(self, encoder: np.ndarray, texts: Sequence[str]) -> np.ndarray:
        if self.lexical is None:
            return encoder
        return (1 - self.lexical_weight) * encoder + self.lexical_weight * self.lexical.probabilities(texts)

    def encoder_probabilities(self, texts: Sequence[str], batch_size: int = 32) -> np.ndarray:
        """(n, n_labels) sigmoid probabilities of the fine-tuned encoder alone."""
        if self.forward is None:
            raise ValueError("this practice classifier was loaded without its graph (graph=False)")
        result = np.zeros((len(texts), len(self.labels)), dtype=np.float32)
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        for first in range(0, len(order), batch_size):
            rows = order[first : first + batch_size]
            batch = encode_texts([texts[i] for i in rows], self.max_length)
            [logits] = self.forward(batch.feeds(PRACTICES.inputs))
            result[rows] = sigmoid(logits)
        return result

    def predict(self, texts: Sequence[str]) -> list[list[str]]:
        """The categories above their thresholds, for each text."""
        return self.decide(self.probabilities(texts))

    def decide(self, probabilities: np.ndarray) -> list[list[str]]:
        """The categories above their thresholds, for each row of `probabilities()`."""
        return [[label for label, on in zip(self.labels, row) if on] for row in probabilities >= self.thresholds]
