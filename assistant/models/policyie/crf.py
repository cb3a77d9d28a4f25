"""BIO tag sequences: which transitions are valid, a linear-chain CRF over them, Viterbi decoding.

A BIO tagger scores each word on its own; reading the tags back per word (argmax) breaks a long
purpose or condition span into fragments wherever one word inside it is mistagged. `BIODecoder`
instead finds the best sequence in which `I-x` only follows `B-x` or `I-x`, optionally adding the
transition scores a `LinearChainCRF` learned in training.
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import torch

FORBIDDEN = -1e4  # the score of a transition BIO rules out (finite, so gradients stay defined)


def allowed_transitions(tags: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """(previous × next) transitions and first tags that valid BIO allows."""
    inside = [t[2:] if t.startswith("I-") else None for t in tags]
    allowed = np.array([[inside[j] is None or (p[:2] in ("B-", "I-") and p[2:] == inside[j])
                         for j in range(len(tags))] for p in tags])
    return allowed, np.array([name is None for name in inside])


class LinearChainCRF(torch.nn.Module):
    """Learned transition and start scores over BIO tags; transitions BIO rules out stay forbidden."""

    def __init__(self, tags: Sequence[str]) -> None:
        super().__init__()
        allowed, first = allowed_transitions(tags)
        self.register_buffer("allowed", torch.tensor(allowed), persistent=False)
        self.register_buffer("first", torch.tensor(first), persistent=False)
        self.transitions = torch.nn.Parameter(torch.zeros(len(tags), len(tags)))
        self.start = torch.nn.Parameter(torch.zeros(len(tags)))

    def scores(self) -> tuple[torch.Tensor, torch.Tensor]:
        """(transitions, start) with the forbidden ones set to FORBIDDEN."""
        return (self.transitions.masked_fill(~self.allowed, FORBIDDEN),
                self.start.masked_fill(~self.first, FORBIDDEN))

    def neg_log_likelihood(self, emissions: torch.Tensor, tags: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """−log p(tags | emissions) per sequence: emissions (batch, words, tags), tags (batch, words),
        mask (batch, words) true on each sequence's words (a prefix, at least one word)."""
        transitions, start = self.scores()
        batch = torch.arange(len(tags))
        gold = start[tags[:, 0]] + emissions[batch, 0, tags[:, 0]]
        alpha = start + emissions[:, 0]
        for k in range(1, tags.shape[1]):
            step = transitions[tags[:, k - 1], tags[:, k]] + emissions[batch, k, tags[:, k]]
            gold = gold + step * mask[:, k]
            following = torch.logsumexp(alpha.unsqueeze(2) + transitions, dim=1) + emissions[:, k]
            alpha = torch.where(mask[:, k].unsqueeze(1), following, alpha)
        return torch.logsumexp(alpha, dim=1) - gold


class BIODecoder:
    """The best valid BIO sequence for per-word scores (Viterbi), with a CRF's learned transition
    scores when given."""

    def __init__(self, tags: Sequence[str], crf: LinearChainCRF | None = None) -> None:
        self.tags = list(tags)
        allowed, first = allowed_transitions(self.tags)
        self._transition = np.where(allowed, 0.0, -np.inf)
        self._start = np.where(first, 0.0, -np.inf)
        if crf is not None:
            transitions, start = (s.detach().numpy() for s in crf.scores())
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
