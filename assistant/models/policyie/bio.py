"""BIO tag sequences without torch: which transitions are valid and Viterbi decoding over them.

A BIO tagger scores each word on its own; reading the tags back per word (argmax) breaks a long
purpose or condition span into fragments wherever one word inside it is mistagged. `BIODecoder`
instead finds the best sequence in which `I-x` only follows `B-x` or `I-x`, optionally adding the
transition scores a CRF learned in training (`assistant.models.policyie.crf`).
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

FORBIDDEN = -1e4  # the score of a transition BIO rules out (finite, so gradients stay defined)


def allowed_transitions(tags: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """(previous × next) transitions and first tags that valid BIO allows."""
    inside = [t[2:] if t.startswith("I-") else None for t in tags]
    allowed = np.array([[inside[j] is None or (p[:2] in ("B-", "I-") and p[2:] == inside[j])
                         for j in range(len(tags))] for p in tags])
    return allowed, np.array([name is None for name in inside])


def crf_scores(tags: Sequence[str], transitions: np.ndarray, start: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A CRF's learned (transitions, start) scores with the ones BIO rules out set to FORBIDDEN."""
    allowed, first = allowed_transitions(tags)
    return np.where(allowed, transitions, FORBIDDEN), np.where(first, start, FORBIDDEN)


class BIODecoder:
    """The best valid BIO sequence for per-word scores (Viterbi), with a CRF's learned transition
    scores when given."""

    def __init__(self, tags: Sequence[str], crf: tuple[np.ndarray, np.ndarray] | None = None) -> None:
        """`crf`: learned (transitions, start) scores, as `crf_scores` gives them."""
        self.tags = list(tags)
        allowed, first = allowed_transitions(self.tags)
        self._transition = np.where(allowed, 0.0, -np.inf)
        self._start = np.where(first, 0.0, -np.inf)
        if crf is not None:
            transitions, start = crf
            self._transition, self._start = self._transition + transitions, self._start + start

    def best(self, scores: np.ndarray) -> list[str]:
        """Tags for an (n_words, n_tags) array of scores (log-probabilities or CRF emissions)."""
        if len(scores) == 0:
            return []
        score = scores[0] + self._start
        back = np.zeros(scores.shape, dtype=int)
        for k in range(1, len(scores)):
            candidates = score[:, None] + self._transition
            back[k] = candidates.argmax(0)
            score = candidates.max(0) + scores[k]
        path = [int(score.argmax())]
        for k in range(len(scores) - 1, 0, -1):
            path.append(int(back[k, path[-1]]))
        return [self.tags[i] for i in reversed(path)]

    def best_of_batch(self, scores: np.ndarray, lengths: Sequence[int]) -> list[list[str]]:
        """`best` for each row of a (rows, words, n_tags) array whose row i has `lengths[i]` words (the rest is
        padding): one Viterbi over the whole batch, the same tags as `best` row by row."""
        rows, width = len(lengths), max(lengths, default=0)
        if width == 0:
            return [[] for _ in lengths]
        lengths_ = np.asarray(lengths)
        score = scores[:, 0] + self._start  # (rows, tags)
        back = np.zeros((rows, width, scores.shape[-1]), dtype=int)
        for k in range(1, width):
            candidates = score[:, :, None] + self._transition  # (rows, previous, next)
            step = candidates.max(1) + scores[:, k]
            back[:, k] = candidates.argmax(1)
            going = (lengths_ > k)[:, None]
            score = np.where(going, step, score)  # a finished row keeps its last scores
        paths = []
        for row, length in enumerate(lengths):
            if length == 0:
                paths.append([])
                continue
            path = [int(score[row].argmax())]
            for k in range(length - 1, 0, -1):
                path.append(int(back[row, k, path[-1]]))
            paths.append([self.tags[i] for i in reversed(path)])
        return paths
