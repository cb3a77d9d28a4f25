"""A linear-chain CRF over BIO tags (torch, for training): learned tag transitions on top of a tagger's scores.

Decoding is torch-free, in `assistant.models.policyie.bio` (re-exported here).
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import torch

from assistant.models.policyie.bio import FORBIDDEN, BIODecoder, allowed_transitions

__all__ = ["FORBIDDEN", "BIODecoder", "LinearChainCRF", "allowed_transitions"]


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

    def decoder_scores(self) -> tuple[np.ndarray, np.ndarray]:
        """(transitions, start) as numpy arrays, for `BIODecoder`."""
        transitions, start = self.scores()
        return transitions.detach().numpy(), start.detach().numpy()
