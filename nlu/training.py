"""A small, resumable training loop for adapter + head models on CPU or GPU.

Batches are bucketed by length (little padding), checkpoints hold everything needed to resume
(trainable weights, optimiser, scheduler, position, RNG), so an interrupted run continues where it
stopped instead of restarting.
"""
from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import torch


@dataclass(frozen=True)
class TrainSettings:
    epochs: int = 5
    batch_size: int = 16
    learning_rate: float = 5e-4
    warmup_fraction: float = 0.06
    weight_decay: float = 0.01
    seed: int = 13
    checkpoint_every: int = 50  # optimisation steps


def length_bucketed_batches(lengths: Sequence[int], batch_size: int, rng: random.Random) -> list[list[int]]:
    """Shuffle, sort within windows of 50 batches by length, cut into batches, shuffle the batches."""
    order = list(range(len(lengths)))
    rng.shuffle(order)
    window = batch_size * 50
    batches = []
    for start in range(0, len(order), window):
        chunk = sorted(order[start : start + window], key=lambda i: lengths[i])
        batches.extend(chunk[i : i + batch_size] for i in range(0, len(chunk), batch_size))
    rng.shuffle(batches)
    return batches


def trainable_state(model: torch.nn.Module) -> dict[str, torch.Tensor]:
    """Only the parameters that train (adapter and head): what checkpoints and releases store."""
    names = {name for name, p in model.named_parameters() if p.requires_grad}
    return {k: v.detach().clone() for k, v in model.state_dict().items() if k in names}


def train(
    model: torch.nn.Module,
    lengths: Sequence[int],
    loss_for: Callable[[list[int]], torch.Tensor],
    settings: TrainSettings,
    checkpoint: Path,
    log: Callable[[str], None] = print,
) -> None:
    """Optimise `loss_for(batch_indices)` over all examples for `settings.epochs`, resuming from `checkpoint`."""
    params = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.AdamW(params, lr=settings.learning_rate, weight_decay=settings.weight_decay)
    steps_per_epoch = math.ceil(len(lengths) / settings.batch_size)
    total = steps_per_epoch * settings.epochs
    warmup = max(1, int(total * settings.warmup_fraction))
    scheduler = torch.optim.lr_scheduler.LambdaLR(
        optimizer, lambda step: min((step + 1) / warmup, max(0.0, (total - step) / max(1, total - warmup)))
    )
    epoch, position = 0, 0
    if checkpoint.exists():
        state = torch.load(checkpoint, weights_only=False)
        model.load_state_dict(state["model"], strict=False)
        optimizer.load_state_dict(state["optimizer"])
        scheduler.load_state_dict(state["scheduler"])
        epoch, position = state["epoch"], state["position"]
        log(f"resumed from {checkpoint}: epoch {epoch + 1}, batch {position}")

    def save() -> None:
        tmp = checkpoint.with_suffix(".tmp")
        torch.save({"model": trainable_state(model), "optimizer": optimizer.state_dict(),
                    "scheduler": scheduler.state_dict(), "epoch": epoch, "position": position}, tmp)
        tmp.replace(checkpoint)

    model.train()
    started, running = time.perf_counter(), 0.0
    while epoch < settings.epochs:
        batches = length_bucketed_batches(lengths, settings.batch_size, random.Random(settings.seed + epoch))
        while position < len(batches):
            loss = loss_for(batches[position])
            loss.backward()
            torch.nn.utils.clip_grad_norm_(params, 1.0)
            optimizer.step()
            scheduler.step()
            optimizer.zero_grad()
            position += 1
            running = 0.98 * running + 0.02 * loss.item() if running else loss.item()
            if position % settings.checkpoint_every == 0:
                save()
                log(f"epoch {epoch + 1} batch {position}/{len(batches)} loss {running:.4f} "
                    f"({time.perf_counter() - started:.0f} s)")
        epoch, position = epoch + 1, 0
        save()
    model.eval()
