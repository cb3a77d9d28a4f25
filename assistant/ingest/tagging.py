"""Embed and tag a policy's sentences: the retriever's vectors, OPP-115 practices and PolicyIE facts."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from assistant.foundation.base_model import EMBEDDER_NAME
from assistant.foundation.limits import Deadline
from assistant.foundation.types import ParsedPolicy, ProgressCallback
from assistant.models.policyie.model import PolicyIETagger
from assistant.models.practices.model import PracticeClassifier
from assistant.models.retriever.model import Embedder

# What tagging computes for every sentence. Stored with each version: identical content ingested
# by an older pipeline (e.g. before sentences were tagged with practices) becomes a new version.
TAGGING_PIPELINE = (f"{EMBEDDER_NAME}; "
                    "OPP-115 practice tagger v4 (segments, then sentences; mixed with TF-IDF; scores kept); "
                    "retriever fine-tuned on PolicyQA v1; PolicyIE v3 (CRF)")


@dataclass(frozen=True)
class TaggedPolicy:
    """A parsed policy whose sentences carry their practices and facts, with one vector per sentence."""

    policy: ParsedPolicy
    vectors: np.ndarray  # (n_sentences, dim), L2-normalised, in sentence order


class SentenceTagging:
    """Stage: `ParsedPolicy` → `TaggedPolicy`."""

    def __init__(self, retriever: Embedder, practices: PracticeClassifier, policyie: PolicyIETagger) -> None:
        self.retriever = retriever
        self.practices = practices
        self.policyie = policyie

    def run(self, policy: ParsedPolicy, progress: ProgressCallback | None = None,
            deadline: Deadline | None = None) -> TaggedPolicy:
        """`deadline` is checked after every embedding batch and between the stages."""
        texts = [s.text for s in policy.sentences]
        done = 0
        check = deadline.check if deadline else lambda stage: None

        def on_batch(n: int) -> None:
            nonlocal done
            done += n
            if progress:
                progress("embedding", done, len(texts))
            check("embedding sentences")

        vectors = self.retriever.encode(texts, on_batch=on_batch)
        if progress:
            progress("tagging practices", 0, len(texts))
        probabilities = self.practices.probabilities(texts)
        categories = self.practices.decide(probabilities)
        labels = self.practices.labels
        check("tagging practices")
        if progress:
            progress("reading facts", 0, len(texts))
        facts = self.policyie.facts(texts)
        tagged = [
            dataclasses.replace(s, categories=tuple(c), facts=f,
                                practice_scores={label: round(float(v), 4) for label, v in zip(labels, p)})
            for s, c, f, p in zip(policy.sentences, categories, facts, probabilities, strict=True)
        ]
        return TaggedPolicy(dataclasses.replace(policy, sentences=tagged), vectors)
