"""Fine-tuning the span reader on the PolicyQA train split rebuilt from OPP-115, and writing its release
(measured on PolicyQA dev).

    assistant train reader           # reproduces weights/reader/ (resumes from .train/reader/)
"""
from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import torch

from assistant.corpora import CORPORA_DIR
from assistant.corpora.policyqa import QAExample, load_split, rebuild_train
from assistant.foundation.encoder import freeze_below, load_base_encoder, top_layer_prefixes, trained_state
from assistant.foundation.releases import save_release, sha256_of
from assistant.foundation.resources import checkpoint_dir
from assistant.foundation.training import (
    Checkpoint,
    EncoderTrainConfig,
    descend,
    length_bucketed_batches,
    optimizer_with_schedule,
)
from assistant.models.graphs import TorchForward
from assistant.models.reader.evaluate import predict_answers, squad_scores
from assistant.models.reader.graph import READER
from assistant.models.reader.model import MAX_ANSWER_TOKENS, RELEASE_DIR, SpanReader
from assistant.models.reader.network import ReaderModel, _encode

CHECKPOINT_DIR = checkpoint_dir("reader")


@dataclass(frozen=True)
class TrainConfig(EncoderTrainConfig):
    trainable_layers: int = 6  # all six: top-3 for one epoch reached only 43.6 dev F1
    epochs: int = 2
    # then one more epoch as a second, smaller warm-up/decay cycle (peak 0.3 × the rates): dev F1 56.1
    # after two epochs, 57.0 after the third; the restart leaves the first two epochs' steps as they were
    restart_epochs: int = 1
    restart_scale: float = 0.3
    checkpoint_every: int = 100


def _targets(batch, examples: Sequence[QAExample]) -> tuple[torch.Tensor, torch.Tensor]:
    """Token positions of each example's first answer; [CLS] (0) when truncation cut it off."""
    starts, ends = [], []
    for row, example in enumerate(examples):
        text, char_start = example.answers[0]
        char_end = char_start + len(text)
        offsets, sequence_ids = batch["offset_mapping"][row].tolist(), batch.sequence_ids(row)
        tokens = [i for i, sid in enumerate(sequence_ids) if sid == 1]
        start = next((i for i in tokens if offsets[i][0] <= char_start < offsets[i][1] or offsets[i][0] >= char_start),
                     None)
        end = next((i for i in reversed(tokens) if offsets[i][0] < char_end), None)
        if start is None or end is None or end < start or offsets[tokens[-1]][1] < char_end:
            start = end = 0
        starts.append(start)
        ends.append(end)
    return torch.tensor(starts), torch.tensor(ends)


def train(config: TrainConfig = TrainConfig(), checkpoint_dir: Path = CHECKPOINT_DIR,
          log: Callable[[str], None] = print, limit: int | None = None) -> SpanReader:
    """Fine-tune on the rebuilt train split; checkpoints every `checkpoint_every` steps and resumes."""
    torch.manual_seed(config.seed)
    bert, tokenizer = load_base_encoder()
    model = ReaderModel(bert)
    encoder_params = freeze_below(bert, config.trainable_layers)
    head_params = list(model.span.parameters())
    examples = rebuild_train()[0][:limit]
    lengths = [len(e.question) + len(e.context) for e in examples]
    per_epoch = length_bucketed_batches(lengths, config.batch_size, config.seed)
    first_cycle = len(per_epoch) * config.epochs
    total = first_cycle + len(per_epoch) * config.restart_epochs
    optimizer, schedule = optimizer_with_schedule(
        [(encoder_params, config.encoder_learning_rate), (head_params, config.head_learning_rate)],
        total, round(0.06 * first_cycle), restart=(first_cycle, config.restart_scale) if config.restart_epochs else None)
    checkpoint = Checkpoint(checkpoint_dir, {"config": asdict(config), "limit": limit})
    step = checkpoint.resume_steps(model, "model", optimizer, schedule, log)
    loss_fn = torch.nn.CrossEntropyLoss()
    model.train()
    started, first_step, losses = time.perf_counter(), step, []
    while step < total:
        epoch, index = divmod(step, len(per_epoch))
        rows = length_bucketed_batches(lengths, config.batch_size, config.seed + epoch)[index]
        chosen = [examples[i] for i in rows]
        batch = _encode(tokenizer, [e.question for e in chosen], [e.context for e in chosen], config.max_length)
        start_target, end_target = _targets(batch, chosen)
        batch.pop("offset_mapping")
        start_logits, end_logits = model(**batch)
        loss = (loss_fn(start_logits, start_target) + loss_fn(end_logits, end_target)) / 2
        losses.append(descend(loss, optimizer, schedule, encoder_params + head_params))
        step += 1
        if step % config.checkpoint_every == 0 or step == total:
            trained = {f"bert.{k}": v for k, v in trained_state(bert, config.trainable_layers).items()}
            checkpoint.save(optimizer, schedule, step=step,
                            model=trained | {k: v for k, v in model.state_dict().items() if k.startswith("span.")})
            rate = (time.perf_counter() - started) / (step - first_step)
            log(f"step {step}/{total} loss {np.mean(losses[-config.checkpoint_every:]):.3f} ({rate:.2f} s/step)")
    model.eval()
    return SpanReader(TorchForward(model, READER.inputs))


def train_release(config: TrainConfig = TrainConfig(), log: Callable[[str], None] = print,
                  limit: int | None = None, directory: Path = RELEASE_DIR,
                  checkpoint_dir: Path = CHECKPOINT_DIR, dev_limit: int | None = None) -> dict:
    """Train, measure on PolicyQA dev, write the release with its manifest."""
    reader = train(config, checkpoint_dir=checkpoint_dir, log=log, limit=limit)
    dev = load_split("dev")[:dev_limit]
    metrics = {"policyqa_dev": squad_scores(dev, predict_answers(reader, dev))}
    model = reader.forward.module
    bert = model.bert
    state = {f"bert.{k}": v for k, v in trained_state(bert, config.trainable_layers).items()}
    state |= {k: v for k, v in model.state_dict().items() if k.startswith("span.")}
    _, counts = rebuild_train()
    data = {"corpus": "PolicyQA train rebuilt from OPP-115 (assistant/corpora/policyqa.py); selection on PolicyQA dev",
            "examples": min(counts.examples, limit or counts.examples),
            "sha256": sha256_of([CORPORA_DIR / "opp115.tar.xz", CORPORA_DIR / "policyqa.tar.xz"])}
    model_config = {"train": asdict(config), "trainable": top_layer_prefixes(bert, config.trainable_layers),
                    "max_answer_tokens": MAX_ANSWER_TOKENS}
    save_release(directory, state, model_config, data, "assistant train reader", metrics)
    log(str(metrics))
    return metrics
