"""What the fine-tuning loops share: length-bucketed batches, AdamW with warm-up and linear decay,
resumable checkpoints."""
from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import torch


@dataclass(frozen=True)
class EncoderTrainConfig:
    """Settings every encoder fine-tune has; each model's subclass sets its own defaults."""

    trainable_layers: int = 3  # top transformer layers trained (see assistant.foundation.encoder)
    epochs: int = 1
    batch_size: int = 16
    encoder_learning_rate: float = 1e-4
    head_learning_rate: float = 1e-3  # new heads start from random weights: they need a higher rate
    max_length: int = 256  # word pieces
    seed: int = 13


def length_bucketed_batches(lengths: Sequence[int], batch_size: int, seed: int) -> list[list[int]]:
    """Indices grouped into batches of similar length (little padding), the batches in a shuffled order."""
    order = sorted(range(len(lengths)), key=lambda i: lengths[i])
    batches = [order[i : i + batch_size] for i in range(0, len(order), batch_size)]
    random.Random(seed).shuffle(batches)
    return batches


def optimizer_with_schedule(
    groups: Sequence[tuple[list[torch.nn.Parameter], float]], total_steps: int, warmup_steps: int,
    restart: tuple[int, float] | None = None,
) -> tuple[torch.optim.Optimizer, torch.optim.lr_scheduler.LambdaLR]:
    """AdamW over (parameters, learning rate) groups; linear warm-up, then linear decay to 0.

    `restart=(step, scale)` ends the first cycle at `step` and runs a second, smaller one (peak
    `scale` × the rates, same warm-up share) up to `total_steps`: a warm restart that fine-tunes
    further from the first cycle's end without changing any of its steps."""
    optimizer = torch.optim.AdamW([{"params": p, "lr": lr} for p, lr in groups if p], weight_decay=0.01)
    first = restart[0] if restart else total_steps

    def cycle(step: int, length: int, warmup: float) -> float:
        return min(1.0, (step + 1) / max(1.0, warmup)) * max(0.0, 1 - step / length)

    def rate(step: int) -> float:
        if restart is None or step < first:
            return cycle(step, first, warmup_steps)
        second = total_steps - first
        return restart[1] * cycle(step - first, second, warmup_steps * second / first)

    return optimizer, torch.optim.lr_scheduler.LambdaLR(optimizer, rate)


def descend(loss: torch.Tensor, optimizer: torch.optim.Optimizer, schedule, params: list[torch.nn.Parameter]) -> float:
    """One optimisation step on `loss` (gradients clipped to norm 1); returns the loss value."""
    optimizer.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_norm_(params, 1.0)
    optimizer.step()
    schedule.step()
    return loss.item()


class Checkpoint:
    """One resumable checkpoint file; a checkpoint written with other settings (`key`) is ignored."""

    def __init__(self, directory: Path, key: dict) -> None:
        self.path = directory / "checkpoint.pt"
        self.key = key

    def load(self, optimizer, schedule) -> dict | None:
        """Restore the optimizer and schedule and return the saved payload, or None to start afresh."""
        if not self.path.exists():
            return None
        saved = torch.load(self.path, weights_only=False)
        if saved.get("key") != self.key:
            return None
        optimizer.load_state_dict(saved["optimizer"])
        schedule.load_state_dict(saved["schedule"])
        return saved["payload"]

    def resume_epochs(self, model: torch.nn.Module, optimizer, schedule, log) -> tuple[int, dict]:
        """For loops that checkpoint once per epoch: restore the model and return (epochs done, the
        best epoch's record so far), or (0, no best yet) to start afresh."""
        saved = self.load(optimizer, schedule)
        if not saved:
            return 0, {"score": -1.0}
        model.load_state_dict(saved["model"], strict=False)
        log(f"resumed after epoch {saved['epoch']}")
        return saved["epoch"], saved["best"]

    def resume_steps(self, module: torch.nn.Module, state_key: str, optimizer, schedule, log) -> int:
        """For loops that checkpoint every few steps: restore `module` from the payload's `state_key`
        and return the steps done, or 0 to start afresh."""
        saved = self.load(optimizer, schedule)
        if not saved:
            return 0
        module.load_state_dict(saved[state_key], strict=False)
        log(f"resumed at step {saved['step']}")
        return saved["step"]

    def save(self, optimizer, schedule, **payload) -> None:
        """Write atomically (temporary file, then rename): a kill mid-save keeps the previous one."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        temporary = self.path.with_suffix(".tmp")
        torch.save({"key": self.key, "optimizer": optimizer.state_dict(), "schedule": schedule.state_dict(),
                    "payload": payload}, temporary)
        temporary.replace(self.path)
