"""The one pass over a policy's sentences: each sentence is tokenised once and read once by the shared layers
(`graph.py`), giving its retriever vector, its OPP-115 practice probabilities and its PolicyIE facts together.

The practice tagger's lexical half and thresholds, and PolicyIE's CRFs, are read from their own releases (`PARTS`);
their graphs are not loaded. The graph is exported (torch) into the releases' folder on first use and run by ONNX
Runtime.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from assistant.foundation.inference import Forward, OnnxForward
from assistant.foundation.tokenization import encode_words
from assistant.foundation.types import Facts
from assistant.models.graphs import export
from assistant.models.policyie.model import PolicyIETagger, TaggedSentence, read_facts, words
from assistant.models.practices.model import PracticeClassifier
from assistant.models.retriever.model import DIMENSION, MAX_LENGTH
from lab.one_pass.graph import DIRECTORY, PARTS, one_pass_spec


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
    def load(cls, directory: Path = DIRECTORY, precision: str = "int8") -> OnePassReader:
        """The graph of the releases under `directory` at `precision` ("int8": the task branches only)."""
        spec = one_pass_spec(directory)
        forward = OnnxForward(export(spec, directory, directory / "onnx", precision))
        return cls(forward, PracticeClassifier.load(directory / PARTS["practices"], graph=False),
                   PolicyIETagger.load(directory / PARTS["policyie"], graph=False))

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
            embedding, practice_logits, *policyie_scores = self.forward(batch.feeds(one_pass_spec().inputs))
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
