"""BIO decoding and the linear-chain CRF, checked against brute-force enumeration."""
from __future__ import annotations

import itertools

import numpy as np
import pytest
import torch

from assistant.models.policyie.crf import BIODecoder, LinearChainCRF, allowed_transitions

TAGS = ["O", "B-x", "I-x", "B-y", "I-y"]


def _log_probs(rows: list[dict[str, float]]) -> np.ndarray:
    rest = [(1 - sum(row.values())) / (len(TAGS) - len(row)) for row in rows]
    return np.log(np.array([[row.get(t, r) for t in TAGS] for row, r in zip(rows, rest)]))


def test_valid_transitions():
    allowed, first = allowed_transitions(TAGS)
    assert first.tolist() == [True, True, False, True, False]
    assert allowed[TAGS.index("B-x"), TAGS.index("I-x")] and allowed[TAGS.index("I-x"), TAGS.index("I-x")]
    assert not allowed[TAGS.index("O"), TAGS.index("I-x")] and not allowed[TAGS.index("I-y"), TAGS.index("I-x")]
    assert allowed[:, TAGS.index("O")].all() and allowed[:, TAGS.index("B-y")].all()


def test_decoding_keeps_a_span_whole_where_one_word_inside_is_mistagged():
    # per-word argmax: B-x, O, I-x (a span broken in two); the best valid sequence is B-x I-x I-x
    # (0.6 * 0.4 * 0.9 = 0.216 against 0.6 * 0.45 * 0.02 for B-x O B-x)
    rows = [{"B-x": 0.6}, {"O": 0.45, "I-x": 0.4}, {"I-x": 0.9, "B-x": 0.02}]
    assert BIODecoder(TAGS).best(_log_probs(rows)) == ["B-x", "I-x", "I-x"]


def test_decoding_never_starts_or_switches_a_span_with_inside_tags():
    rows = [{"I-x": 0.9, "O": 0.05}, {"I-y": 0.9, "O": 0.05}, {"I-y": 0.5, "O": 0.4}]
    # B-y gets the leftover 0.05 / 3: 0.0167 * 0.9 * 0.5 = 0.0075 against 0.05 * 0.05 * 0.4 for O O O
    assert BIODecoder(TAGS).best(_log_probs(rows)) == ["B-y", "I-y", "I-y"]
    assert BIODecoder(TAGS).best(np.zeros((0, len(TAGS)))) == []


def _brute_force(crf: LinearChainCRF, emissions: torch.Tensor, tags: list[int]) -> tuple[float, list[int]]:
    """−log p(tags) and the best sequence, by scoring every sequence of valid BIO tags."""
    transitions, start = (s.detach() for s in crf.scores())
    allowed, first = allowed_transitions(TAGS)

    def path_score(path):
        return float(start[path[0]] + sum(emissions[k, t] for k, t in enumerate(path))
                     + sum(transitions[a, b] for a, b in itertools.pairwise(path)))

    valid = [p for p in itertools.product(range(len(TAGS)), repeat=len(emissions))
             if first[p[0]] and all(allowed[a, b] for a, b in itertools.pairwise(p))]
    scores = np.array([path_score(p) for p in valid])
    log_partition = np.log(np.exp(scores - scores.max()).sum()) + scores.max()
    return log_partition - path_score(tags), list(valid[int(scores.argmax())])


def test_crf_likelihood_and_decoding_match_brute_force():
    torch.manual_seed(0)
    crf = LinearChainCRF(TAGS)
    with torch.no_grad():
        crf.transitions.normal_()
        crf.start.normal_()
    emissions = torch.randn(2, 4, len(TAGS))
    tags = torch.tensor([[1, 2, 0, 3], [3, 4, 4, 0]])
    mask = torch.tensor([[True] * 4, [True, True, True, False]])  # the second sentence has 3 words
    loss = crf.neg_log_likelihood(emissions, tags, mask).detach()
    for row, length in enumerate((4, 3)):
        expected, best = _brute_force(crf, emissions[row, :length], tags[row, :length].tolist())
        assert float(loss[row]) == pytest.approx(expected, abs=1e-4)
        decoded = BIODecoder(TAGS, crf.decoder_scores()).best(emissions[row, :length].numpy())
        assert decoded == [TAGS[i] for i in best]


def test_crf_keeps_forbidden_transitions_out_whatever_it_learns():
    crf = LinearChainCRF(TAGS)
    with torch.no_grad():
        crf.transitions.fill_(50.0)
    transitions, _ = crf.scores()
    assert transitions[TAGS.index("O"), TAGS.index("I-x")] < -1e3


@pytest.mark.parametrize("crf", [False, True], ids=["bio", "crf"])
def test_a_batch_decodes_to_the_same_tags_as_each_row_alone(crf):
    """The one-pass graph decodes a whole batch in one Viterbi: rows of other lengths, padding and empty rows
    must not change any row's tags."""
    rng = np.random.default_rng(7)
    transitions = (rng.normal(size=(len(TAGS), len(TAGS))), rng.normal(size=len(TAGS))) if crf else None
    decoder = BIODecoder(TAGS, transitions)
    lengths = [0, 1, 2, 7, 3, 12, 5]
    scores = rng.normal(size=(len(lengths), max(lengths), len(TAGS))) * 3
    batch = decoder.best_of_batch(scores, lengths)
    assert batch == [decoder.best(scores[row, :length]) for row, length in enumerate(lengths)]
    assert [len(tags) for tags in batch] == lengths
    assert decoder.best_of_batch(np.zeros((2, 0, len(TAGS))), [0, 0]) == [[], []]
