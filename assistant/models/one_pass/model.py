"""Ingest's one pass over a policy's sentences: each sentence is tokenised once and read once by the shared layers
(`graph.py`), giving its retriever vector, its OPP-115 practice probabilities and its PolicyIE facts together.

The practice tagger's lexical half and thresholds, and PolicyIE's CRFs, are read from their own releases (the
`parts` of weights/one_pass/); their graphs are not loaded. Run by ONNX Runtime or torch
(`assistant.models.runtime`); no torch import.
"""
from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from assistant.foundation.inference import Forward
from assistant.foundation.releases import WEIGHTS_DIR, release_files
from assistant.foundation.tokenization import encode_words
from assistant.foundation.types import Facts
from assistant.models.one_pass.graph import ONE_PASS, RELEASE_DIR
from assistant.models.policyie.model import PolicyIETagger, TaggedSentence, read_facts, words
from assistant.models.practices.model import PracticeClassifier
from assistant.models.retriever.model import DIMENSION, MAX_LENGTH
from assistant.models.runtime import load_forward


@dataclass(frozen=True)
class SentenceReadings:
    """What one pass gives for a list of sentences, row by row in their order."""

    vectors: np.ndarray  # (n, 384) the retriever's L2-normalised vectors
    practice_probabilities: np.ndarray  # (n, categories) the practice tagger's mixed probabilities
    facts: list[Facts]  # PolicyIE's intent and slots


class OnePassReader:
    """Reads sentences once for the retriever, the practice tagger and PolicyIE."""

    def __init__(self, forward: Forward, practices: PracticeClassifier, policyie: PolicyIETagger,
                 batch_size: int = 32) -> None:
        self.forward = forward
        self.practices = practices
        self.policyie = policyie
        self.batch_size = batch_size

    @classmethod
    def load(cls, directory: Path = RELEASE_DIR) -> OnePassReader:
        release_files(directory)  # a clear error when a part is missing
        parts = json.loads((directory / "config.json").read_text())["parts"]
        return cls(load_forward(ONE_PASS.name, directory),
                   PracticeClassifier.load(WEIGHTS_DIR / parts["practices"], graph=False),
                   PolicyIETagger.load(WEIGHTS_DIR / parts["policyie"], graph=False))

    def read(self, texts: Sequence[str], on_batch: Callable[[int], None] | None = None) -> SentenceReadings:
        """Every sentence's readings; sentences are batched by length (less padding), `on_batch(n)` is called after
        each batch of n."""
        tokenised = [words(text) for text in texts]
        token_lists = [[word for word, _, _ in tokens] for tokens in tokenised]
        vectors = np.zeros((len(texts), DIMENSION), dtype=np.float32)
        logits = np.zeros((len(texts), len(self.practices.labels)), dtype=np.float32)
        tagged: list[TaggedSentence | None] = [None] * len(texts)
        order = sorted(range(len(texts)), key=lambda i: len(token_lists[i]))
        for start in range(0, len(order), self.batch_size):
            rows = order[start : start + self.batch_size]
            batch = encode_words([token_lists[i] for i in rows], MAX_LENGTH)
            embedding, practice_logits, *policyie_scores = self.forward(batch.feeds(ONE_PASS.inputs))
            vectors[rows], logits[rows] = embedding, practice_logits
            for i, sentence in zip(rows, self.policyie.decode(batch, policyie_scores,
                                                              [len(tokenised[i]) for i in rows]), strict=True):
                tagged[i] = sentence
            if on_batch:
                on_batch(len(rows))
        return SentenceReadings(vectors, self.practices.probabilities_from_logits(logits, texts),
                                read_facts(texts, tokenised, tagged))  # type: ignore[arg-type]

    def practice_classifier(self) -> PracticeClassifier:
        """The practice tagger as this graph reads it (its other outputs unused): what ingest tags with, to score."""
        practices = self.practices
        return PracticeClassifier(lambda feeds: [self.forward(feeds)[1]], practices.labels, practices.thresholds,
                                  practices.max_length, practices.lexical, practices.lexical_weight)

    def policyie_tagger(self) -> PolicyIETagger:
        """PolicyIE as this graph reads it (its other outputs unused): what ingest reads facts with, to score."""
        return PolicyIETagger(lambda feeds: self.forward(feeds)[2:], self.policyie.type_i_tags,
                              self.policyie.type_ii_tags, self.policyie.crf, self.policyie.max_length)
