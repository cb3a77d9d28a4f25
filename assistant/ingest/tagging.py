"""Embed and tag a policy's sentences in one pass: the retriever's vectors, OPP-115 practices and PolicyIE facts."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from assistant.foundation.base_model import EMBEDDER_NAME
from assistant.foundation.limits import Deadline
from assistant.foundation.types import ParsedPolicy, ProgressCallback
from assistant.models.one_pass.model import OnePassReader

# What tagging computes for every sentence. Stored with each version: identical content ingested
# by an older pipeline (e.g. before sentences were tagged with practices) becomes a new version.
TAGGING_PIPELINE = (f"{EMBEDDER_NAME}; one pass: "
                    "retriever fine-tuned on PolicyQA v1; "
                    "OPP-115 practice tagger v5 (its top layer on the retriever's; segments, then sentences; "
                    "mixed with TF-IDF; scores kept); PolicyIE v4 (its top layer on the retriever's; CRF)")


@dataclass(frozen=True)
class TaggedPolicy:
    """A parsed policy whose sentences carry their practices and facts, with one vector per sentence."""

    policy: ParsedPolicy
    vectors: np.ndarray  # (n_sentences, dim), L2-normalised, in sentence order


class SentenceTagging:
    """Stage: `ParsedPolicy` → `TaggedPolicy`."""

    def __init__(self, reader: OnePassReader) -> None:
        self.reader = reader

    def run(self, policy: ParsedPolicy, progress: ProgressCallback | None = None,
            deadline: Deadline | None = None) -> TaggedPolicy:
        """`deadline` is checked after every batch."""
        texts = [s.text for s in policy.sentences]
        done = 0

        def on_batch(n: int) -> None:
            nonlocal done
            done += n
            if progress:
                progress("embedding", done, len(texts))
            if deadline:
                deadline.check("embedding sentences")

        readings = self.reader.read(texts, on_batch=on_batch)
        labels = self.reader.practices.labels
        categories = self.reader.practices.decide(readings.practice_probabilities)
        tagged = [
            dataclasses.replace(s, categories=tuple(c), facts=f,
                                practice_scores={label: round(float(v), 4) for label, v in zip(labels, p)})
            for s, c, f, p in zip(policy.sentences, categories, readings.facts, readings.practice_probabilities,
                                  strict=True)
        ]
        return TaggedPolicy(dataclasses.replace(policy, sentences=tagged), readings.vectors)
