"""Fine-tuning the PolicyIE model on the train split (best epoch on valid) and writing its release.

    assistant train policyie         # reproduces weights/policyie/ (resumes from .train/policyie/)
"""
from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import torch

from assistant.corpora.policyie import corpus_file, load_split, tag_inventory
from assistant.foundation.encoder import (
    apply_trunk,
    freeze_below,
    load_base_encoder,
    top_layer_prefixes,
    trained_state,
)
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
from assistant.models.policyie.crf import LinearChainCRF
from assistant.models.policyie.evaluate import score
from assistant.models.policyie.graph import POLICYIE
from assistant.models.policyie.model import INTENTS, RELEASE_DIR, CRFScores, PolicyIETagger
from assistant.models.policyie.network import PolicyIEModel, _encode

CHECKPOINT_DIR = checkpoint_dir("policyie")


@dataclass(frozen=True)
class TrainConfig(EncoderTrainConfig):
    trainable_layers: int = 6
    epochs: int = 8
    # the release whose encoder the layers below `trainable_layers` are (None: the base model's; "retriever": the
    # one-pass study in lab/one_pass)
    trunk: str | None = None
    max_length: int = 128
    slot_tag_weight: float = 1.0  # loss weight of slot tags relative to `O` (slots are sparse)
    crf: bool = True  # a linear-chain CRF on each tagger's scores (test type-II F1 29.8 -> 41.3 over softmax)


@dataclass(frozen=True)
class TrainResult:
    """The tagger with the best valid epoch's weights loaded, and that epoch's record (score, epoch,
    valid scores, encoder and head states)."""

    tagger: PolicyIETagger
    best: dict


def _targets(word_ids, tags: Sequence[str], index: dict[str, int], length: int) -> list[int]:
    target = [-100] * length
    for word, position in enumerate(first_pieces(word_ids)):
        target[position] = index.get(tags[word], 0)
    return target


def _crf_loss(crf: LinearChainCRF, scores: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    """The CRF's mean per-word negative log-likelihood of the gold tags, read on the first word
    pieces (where `targets` is not -100) of each sentence."""
    first = targets != -100
    words = first.sum(1)
    width = int(words.max())
    positions = torch.zeros((len(targets), width), dtype=torch.long)
    mask = torch.arange(width)[None, :] < words[:, None]
    positions[mask] = first.nonzero()[:, 1]
    emissions = scores.gather(1, positions.unsqueeze(-1).expand(-1, -1, scores.shape[-1]))
    tags = targets.gather(1, positions).masked_fill(~mask, 0)
    return (crf.neg_log_likelihood(emissions, tags, mask) / words.clamp(min=1)).mean()


def _tagger(model: PolicyIEModel, type_i_tags: list[str], type_ii_tags: list[str]) -> PolicyIETagger:
    """A tagger over the model in training (its evaluation), reading its CRFs' current transitions."""

    def scores() -> CRFScores:
        return None if model.crf_i is None else (model.crf_i.decoder_scores(), model.crf_ii.decoder_scores())

    return PolicyIETagger(TorchForward(model, POLICYIE.inputs), type_i_tags, type_ii_tags, scores)


def train(config: TrainConfig = TrainConfig(), checkpoint_dir: Path = CHECKPOINT_DIR,
          log: Callable[[str], None] = print, limit: int | None = None) -> TrainResult:
    """Fine-tune on the train split (resuming per epoch); returns the tagger of the best valid epoch."""
    torch.manual_seed(config.seed)
    bert, tokenizer = load_base_encoder()
    apply_trunk(bert, config.trunk)
    type_i_tags, type_ii_tags = tag_inventory("type_I"), tag_inventory("type_II")
    index_i, index_ii = {t: i for i, t in enumerate(type_i_tags)}, {t: i for i, t in enumerate(type_ii_tags)}
    model = PolicyIEModel(bert, type_i_tags, type_ii_tags, crf=config.crf)
    encoder_params = freeze_below(bert, config.trainable_layers)
    head_params = [p for n, p in model.named_parameters() if not n.startswith("bert.")]
    train_set = load_split("train")[:limit]
    total = len(range(0, len(train_set), config.batch_size)) * config.epochs
    optimizer, schedule = optimizer_with_schedule(
        [(encoder_params, config.encoder_learning_rate), (head_params, config.head_learning_rate)],
        total, round(0.06 * total))
    valid = load_split("valid")
    tagger = _tagger(model, type_i_tags, type_ii_tags)
    checkpoint = Checkpoint(checkpoint_dir, {"config": asdict(config), "limit": limit})
    first_epoch, best = checkpoint.resume_epochs(model, optimizer, schedule, log)
    loss_fn = torch.nn.CrossEntropyLoss(ignore_index=-100)
    tag_loss_i, tag_loss_ii = (
        torch.nn.CrossEntropyLoss(ignore_index=-100, weight=torch.tensor(
            [1.0] + [config.slot_tag_weight] * (len(tags) - 1)))
        for tags in (type_i_tags, type_ii_tags)
    )
    for epoch in range(first_epoch, config.epochs):
        model.train()
        started, losses = time.perf_counter(), []
        for rows in length_bucketed_batches([len(e.tokens) for e in train_set], config.batch_size,
                                            config.seed + epoch):
            examples = [train_set[i] for i in rows]
            batch, word_ids = _encode(tokenizer, [e.tokens for e in examples], config.max_length)
            length = batch["input_ids"].shape[1]
            y_intent = torch.tensor([INTENTS.index(e.intent) for e in examples])
            y_i = torch.tensor([_targets(w, e.type_i, index_i, length) for w, e in zip(word_ids, examples)])
            y_ii = torch.tensor([_targets(w, e.type_ii, index_ii, length) for w, e in zip(word_ids, examples)])
            intent, type_i, type_ii = model(batch["input_ids"], batch["attention_mask"])
            if config.crf:
                loss = (loss_fn(intent, y_intent) + _crf_loss(model.crf_i, type_i, y_i)
                        + _crf_loss(model.crf_ii, type_ii, y_ii))
            else:
                loss = (loss_fn(intent, y_intent) + tag_loss_i(type_i.flatten(0, 1), y_i.flatten())
                        + tag_loss_ii(type_ii.flatten(0, 1), y_ii.flatten()))
            losses.append(descend(loss, optimizer, schedule, encoder_params + head_params))
        model.eval()
        scores = score(valid, tagger.tag([e.tokens for e in valid]))
        selection = scores["intent_f1"] + scores["type_i_f1"] + scores["type_ii_f1"]
        log(f"epoch {epoch + 1}/{config.epochs} loss {np.mean(losses):.3f} "
            f"({time.perf_counter() - started:.0f} s) valid {scores}")
        if selection > best["score"]:
            best = {"score": selection, "epoch": epoch + 1, "valid": scores,
                    "encoder": trained_state(bert, config.trainable_layers), "heads": model.head_state()}
        checkpoint.save(optimizer, schedule, model=model.state_dict(), epoch=epoch + 1, best=best)
    model.bert.load_state_dict(best["encoder"], strict=False)
    model.load_state_dict(best["heads"], strict=False)
    return TrainResult(tagger, best)


def train_release(config: TrainConfig = TrainConfig(), log: Callable[[str], None] = print,
                  limit: int | None = None, directory: Path = RELEASE_DIR,
                  checkpoint_dir: Path = CHECKPOINT_DIR) -> dict:
    """Train, keep the best epoch on valid, write the release with its manifest."""
    result = train(config, checkpoint_dir=checkpoint_dir, log=log, limit=limit)
    tagger, best = result.tagger, result.best
    state = {f"bert.{k}": v for k, v in best["encoder"].items()} | best["heads"]
    files = [corpus_file(k, s) for k in ("intent_classification", "type_I_slot_filling", "type_II_slot_filling")
             for s in ("train", "valid")]
    data = {"corpus": "PolicyIE (Ahmad et al. 2021), PLUE json", "train_sentences": len(load_split("train")[:limit]),
            "valid_sentences": 100, "sha256": sha256_of(files)}
    model_config = {"type_i_tags": tagger.type_i_tags, "type_ii_tags": tagger.type_ii_tags, "crf": config.crf, "trunk": config.trunk,
                    "intents": list(INTENTS), "train": asdict(config),
                    "trainable": top_layer_prefixes(tagger.forward.module.bert, config.trainable_layers)}
    metrics = {"valid": best["valid"], "best_epoch": best["epoch"]}
    save_release(directory, state, model_config, data, "assistant train policyie", metrics)
    return metrics
