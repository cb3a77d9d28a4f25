"""Retrieve: every sentence's relevance to the question, by the fine-tuned retriever over the
policy version's FAISS index."""
from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from assistant.foundation.types import PolicyVersion, Sentence
from assistant.models.retriever.model import Embedder
from assistant.store.database import Store
from assistant.store.index import SentenceIndex

NO_MATCH_LOGIT = -20.0  # the relevance of a sentence that cannot be evidence (e.g. itself a question)


class SentenceSearch:
    """Stage: (policy version, question) → relevance logits of all its sentences, in document order.

    Each version's sentences and index are read from the store once and kept; the store checks
    that they match (a damaged index is a one-line error that names `assistant repair`).
    """

    def __init__(self, store: Store, retriever: Embedder, remember: Iterable[str] = ()) -> None:
        """The questions in `remember` (the privacy profile's fixed ones) are embedded once per process."""
        self.store = store
        self.retriever = retriever
        self._remember = frozenset(remember)
        self._queries: dict[str, np.ndarray] = {}
        # Per policy version, keyed by its index file name (a UUID: never reused, unlike row ids).
        self._indexes: dict[str, SentenceIndex] = {}
        self._sentences: dict[str, list[Sentence]] = {}

    def sentences(self, version: PolicyVersion) -> list[Sentence]:
        """The version's sentences in document order."""
        key = version.index_file
        if key not in self._indexes:
            self._indexes[key], self._sentences[key] = self.store.read_version(version)
        return self._sentences[key]

    def vectors(self, version: PolicyVersion) -> np.ndarray:
        """The version's stored sentence vectors, (sentences, dimension), row i = sentence i + 1."""
        self.sentences(version)
        return self._indexes[version.index_file].vectors()

    def forget(self) -> None:
        """Drop what was read (after policies are removed)."""
        self._indexes.clear()
        self._sentences.clear()

    def run(self, version: PolicyVersion, question: str) -> np.ndarray:
        """The retriever's cosine for every sentence (exact FAISS search over all of them) through
        its logistic calibration.

        Sentences that are themselves questions (tables of contents, FAQ headings) never answer
        anything: they get NO_MATCH_LOGIT.
        """
        sentences = self.sentences(version)
        query = self.query_vector(question)
        calibration = self.retriever.config["calibration"]
        logits = np.full(len(sentences), NO_MATCH_LOGIT)
        for ordinal, cosine in self._indexes[version.index_file].search(query, len(sentences)):
            if not is_question(sentences[ordinal - 1].text):
                logits[ordinal - 1] = calibration["slope"] * cosine + calibration["intercept"]
        return logits


    def query_vector(self, question: str) -> np.ndarray:
        """The retriever's embedding of `question` (kept when it is one to remember)."""
        if question in self._queries:
            return self._queries[question]
        query = self.retriever.encode([question])[0]
        if question in self._remember:
            self._queries[question] = query
        return query


def is_question(text: str) -> bool:
    return text.rstrip(" \"'”’)").endswith("?")
