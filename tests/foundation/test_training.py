"""The shared fine-tuning pieces: batches and the learning-rate schedule."""
import itertools

import torch

from assistant.foundation.training import length_bucketed_batches, optimizer_with_schedule


def _rates(total: int, warmup: int, restart=None) -> list[float]:
    parameter = torch.nn.Parameter(torch.zeros(1))
    optimizer, schedule = optimizer_with_schedule([([parameter], 1.0)], total, warmup, restart=restart)
    rates = []
    for _ in range(total):
        rates.append(optimizer.param_groups[0]["lr"])
        optimizer.step()
        schedule.step()
    return rates


def test_schedule_warms_up_then_decays_to_zero():
    rates = _rates(100, 10)
    assert rates[0] < rates[5] < rates[9]
    assert max(rates) == rates[9]
    assert all(a >= b for a, b in itertools.pairwise(rates[9:]))
    assert rates[-1] < 0.02


def test_restart_keeps_the_first_cycle_and_adds_a_smaller_second_one():
    plain = _rates(60, 6)
    restarted = _rates(90, 6, restart=(60, 0.3))
    assert restarted[:60] == plain  # the first cycle's steps are unchanged
    second = restarted[60:]
    assert second[0] < max(second)  # warms up again
    assert 0.25 < max(second) <= 0.3  # to the smaller peak (decay has begun by then)
    assert second[-1] < 0.02


def test_length_bucketed_batches_cover_every_index_once():
    lengths = [5, 1, 9, 3, 7, 2, 8]
    batches = length_bucketed_batches(lengths, 3, seed=1)
    assert sorted(i for batch in batches for i in batch) == list(range(len(lengths)))
    for batch in batches:  # each batch holds neighbours in length order
        spread = sorted(lengths[i] for i in batch)
        assert spread[-1] - spread[0] <= 3
