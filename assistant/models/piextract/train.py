"""Fine-tuning the PI-Extract tagger on 90% of train (best epoch on the other 10%) and writing its release.

    assistant train piextract        # reproduces weights/piextract/ (resumes from .train/piextract/)
"""
from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import torch

from assistant.corpora.piextract import TUNING_SEED, corpus_file, load
from assistant.foundation.encoder import freeze_below, load_base_encoder, top_layer_prefixes, trained_state
from assistant.foundation.releases import save_release, sha256_of
from assistant.foundation.resources import checkpoint_dir
from assistant.foundation.tokenization import first_pieces
from assistant.foundation.training import (
    Checkpoint,
    EncoderTrainConfig,
    descend,
    length_bucketed_batches,
    optimizer_with_schedule,
)
from assistant.models.graphs import TorchForward
from assistant.models.piextract.evaluate import score
from assistant.models.piextract.graph import PIEXTRACT
from assistant.models.piextract.model import LAYERS, RELEASE_DIR, TAGS, PIExtractTagger
from assistant.models.piextract.network import PIExtractModel, encode

CHECKPOINT_DIR = checkpoint_dir("piextract")


@dataclass(frozen=True)
class TrainConfig(EncoderTrainConfig):
    trainable_layers: int = 6
    epochs: int = 5
    batch_size: int = 16
    max_length: int = 96  # word pieces in training (CPU time); inference reads up to 256
    entity_tag_weight: float = 2.0  # loss weight of B/I relative to O (PI spans are sparse)


@dataclass(frozen=True)
class TrainResult:
    """The tagger with the best dev epoch's weights loaded, and that epoch's record."""

    tagger: PIExtractTagger
    best: dict


def _targets(word_ids, tags: dict[str, Sequence[str]], length: int) -> list[list[int]]:
    """(word pieces × layers) tag indices: O/B/I on each word's first piece, -100 (ignored) elsewhere."""
    target = [[-100] * len(LAYERS) for _ in range(length)]
    for word, position in enumerate(first_pieces(word_ids)):
        target[position] = [TAGS.index(tags[layer][word][0]) for layer in LAYERS]
    return target


def train(config: TrainConfig = TrainConfig(), checkpoint_dir: Path = CHECKPOINT_DIR,
          log: Callable[[str], None] = print, limit: int | None = None) -> TrainResult:
    """Fine-tune on the fit split (resuming per epoch); returns the tagger of the best dev epoch
    (dev micro + macro F1)."""
    torch.manual_seed(config.seed)
    bert, tokenizer = load_base_encoder()
    model = PIExtractModel(bert)
    encoder_params = freeze_below(bert, config.trainable_layers)
    head_params = [p for n, p in model.named_parameters() if not n.startswith("bert.")]
    fit, dev = load("fit")[:limit], load("dev")[:limit]
    total = len(range(0, len(fit), config.batch_size)) * config.epochs
    optimizer, schedule = optimizer_with_schedule(
        [(encoder_params, config.encoder_learning_rate), (head_params, config.head_learning_rate)],
        total, round(0.06 * total))
    tagger = PIExtractTagger(TorchForward(model, PIEXTRACT.inputs))
    checkpoint = Checkpoint(checkpoint_dir, {"config": asdict(config), "limit": limit})
    first_epoch, best = checkpoint.resume_epochs(model, optimizer, schedule, log)
    loss_fn = torch.nn.CrossEntropyLoss(ignore_index=-100, weight=torch.tensor(
        [1.0, config.entity_tag_weight, config.entity_tag_weight]))
    for epoch in range(first_epoch, config.epochs):
        model.train()
        started, losses = time.perf_counter(), []
        for rows in length_bucketed_batches([len(s.tokens) for s in fit], config.batch_size, config.seed + epoch):
            examples = [fit[i] for i in rows]
            batch, word_ids = encode(tokenizer, [s.tokens for s in examples], config.max_length)
            length = batch["input_ids"].shape[1]
            targets = torch.tensor([_targets(w, s.tags, length) for w, s in zip(word_ids, examples)])
            scores = model(batch["input_ids"], batch["attention_mask"])
            loss = loss_fn(scores.reshape(-1, len(TAGS)), targets.reshape(-1))
            losses.append(descend(loss, optimizer, schedule, encoder_params + head_params))
        model.eval()
        scores = score(dev, tagger.tag_tokens([s.tokens for s in dev]))
        selection = scores["micro_f1"] + scores["macro_f1"]
        log(f"epoch {epoch + 1}/{config.epochs} loss {np.mean(losses):.4f} ({time.perf_counter() - started:.0f} s) "
            f"dev micro F1 {scores['micro_f1']} macro F1 {scores['macro_f1']} "
            + " ".join(f"{layer} {scores[layer]['f1']}" for layer in LAYERS))
        if selection > best["score"]:
            best = {"score": selection, "epoch": epoch + 1, "dev": scores,
                    "encoder": trained_state(bert, config.trainable_layers), "heads": model.head_state()}
        checkpoint.save(optimizer, schedule, model=model.state_dict(), epoch=epoch + 1, best=best)
    model.bert.load_state_dict(best["encoder"], strict=False)
    model.load_state_dict(best["heads"], strict=False)
    return TrainResult(tagger, best)


def train_release(config: TrainConfig = TrainConfig(), log: Callable[[str], None] = print,
                  limit: int | None = None, directory: Path = RELEASE_DIR,
                  checkpoint_dir: Path = CHECKPOINT_DIR) -> dict:
    """Train, keep the best epoch on dev, write the release with its manifest."""
    result = train(config, checkpoint_dir=checkpoint_dir, log=log, limit=limit)
    best = result.best
    state = {f"bert.{k}": v for k, v in best["encoder"].items()} | best["heads"]
    data = {"corpus": "PI-Extract (Bui et al. 2021), PLUE CoNLL files",
            "fit_sentences": len(load("fit")[:limit]), "dev_sentences": len(load("dev")[:limit]),
            "split": f"train shuffled with seed {TUNING_SEED}, 90% fit / 10% dev",
            "sha256": sha256_of([corpus_file(layer, "train") for layer in LAYERS])}
    model_config = {"layers": list(LAYERS), "tags": list(TAGS), "train": asdict(config),
                    "trainable": top_layer_prefixes(result.tagger.forward.module.bert, config.trainable_layers)}
    metrics = {"dev": best["dev"], "best_epoch": best["epoch"]}
    save_release(directory, state, model_config, data, "assistant train piextract", metrics)
    return metrics
