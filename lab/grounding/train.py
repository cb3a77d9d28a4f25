"""Fine-tuning the grounding verifier on labelled question/sentence pairs (`pairs.py`), and writing its release into
.train/grounding/release/ (not shipped). Training pairs come from the yes/no sets on sixteen facets; the thresholds
are chosen on the validation pairs (freedev: questions of every type, worded freely), where the metrics are measured.
Resumes from .train/grounding/checkpoint.pt.
"""
from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import torch

from assistant.foundation.encoder import freeze_below, load_base_encoder, top_layer_prefixes, trained_state
from assistant.foundation.releases import save_release
from assistant.foundation.resources import checkpoint_dir
from assistant.foundation.training import (
    Checkpoint,
    EncoderTrainConfig,
    descend,
    length_bucketed_batches,
    optimizer_with_schedule,
)
from assistant.models.graph_spec import PAIR
from assistant.models.graphs import TorchForward
from lab.grounding.model import MAX_LENGTH, GroundingVerifier, pair_text
from lab.grounding.network import STANCES, GroundingModel

CHECKPOINT_DIR = checkpoint_dir("grounding")
RELEASE_DIR = CHECKPOINT_DIR / "release"


@dataclass(frozen=True)
class GroundingPair:
    """A question and one policy sentence, and whether readers labelled the sentence as stating the answer."""

    answers_set: str  # the answers set it comes from
    item: str  # the policy file and question it was labelled for
    question: str
    section: str
    sentence: str
    positive: bool
    verdict: str = ""  # the item's gold verdict (yes, no, only_if, not_stated; "answered" for other types)


@dataclass(frozen=True)
class TrainConfig(EncoderTrainConfig):
    trainable_layers: int = 3
    epochs: int = 1
    batch_size: int = 16
    max_length: int = MAX_LENGTH
    checkpoint_every: int = 100


def train(pairs: Sequence[GroundingPair], config: TrainConfig = TrainConfig(), checkpoint_dir: Path = CHECKPOINT_DIR,
          log: Callable[[str], None] = print) -> GroundingVerifier:
    """Fine-tune on `pairs` (class-weighted binary cross-entropy); checkpoints every `checkpoint_every` steps and
    resumes."""
    torch.manual_seed(config.seed)
    bert, tokenizer = load_base_encoder()
    model = GroundingModel(bert)
    encoder_params = freeze_below(bert, config.trainable_layers)
    head_params = list(model.score.parameters())
    lengths = [len(p.question) + len(p.sentence) for p in pairs]
    per_epoch = length_bucketed_batches(lengths, config.batch_size, config.seed)
    total = len(per_epoch) * config.epochs
    optimizer, schedule = optimizer_with_schedule(
        [(encoder_params, config.encoder_learning_rate), (head_params, config.head_learning_rate)],
        total, round(0.06 * total))
    positives = sum(p.positive for p in pairs)
    checkpoint = Checkpoint(checkpoint_dir, {"config": asdict(config), "pairs": len(pairs), "positives": positives})
    step = checkpoint.resume_steps(model, "model", optimizer, schedule, log)
    loss_fn = torch.nn.BCEWithLogitsLoss(pos_weight=torch.tensor((len(pairs) - positives) / max(1, positives)))
    stance_fn = torch.nn.CrossEntropyLoss()
    model.train()
    started, first_step, losses = time.perf_counter(), step, []
    while step < total:
        epoch, index = divmod(step, len(per_epoch))
        chosen = [pairs[i] for i in length_bucketed_batches(lengths, config.batch_size, config.seed + epoch)[index]]
        batch = tokenizer([p.question for p in chosen], [pair_text(p.sentence, p.section) for p in chosen],
                          truncation="only_second", max_length=config.max_length, padding=True, return_tensors="pt")
        logits, stance_logits = model(**batch)
        loss = loss_fn(logits, torch.tensor([float(p.positive) for p in chosen]))
        stated = [row for row, p in enumerate(chosen) if p.positive and p.verdict in STANCES]
        if stated:  # the stance is learned from the sentences that answer a yes/no question
            loss = loss + stance_fn(stance_logits[stated], torch.tensor([STANCES.index(chosen[r].verdict) for r in stated]))
        losses.append(descend(loss, optimizer, schedule, encoder_params + head_params))
        step += 1
        if step % config.checkpoint_every == 0 or step == total:
            checkpoint.save(optimizer, schedule, step=step, model=_release_state(model, config))
            rate = (time.perf_counter() - started) / (step - first_step)
            log(f"step {step}/{total} loss {np.mean(losses[-config.checkpoint_every:]):.3f} ({rate:.2f} s/step)")
    model.eval()
    return GroundingVerifier(TorchForward(model, PAIR))


def _release_state(model: GroundingModel, config: TrainConfig) -> dict[str, torch.Tensor]:
    state = {f"bert.{k}": v for k, v in trained_state(model.bert, config.trainable_layers).items()}
    heads = ("score.", "stance.")
    return state | {k: v.detach().clone() for k, v in model.state_dict().items() if k.startswith(heads)}


def pair_scores(verifier: GroundingVerifier, pairs: Sequence[GroundingPair]) -> tuple[np.ndarray, np.ndarray]:
    """The verifier's probability for each pair and its stance probabilities (questions scored with their own
    sentences, in batches)."""
    grounded = np.zeros(len(pairs), dtype=np.float32)
    stances = np.zeros((len(pairs), len(STANCES)), dtype=np.float32)
    by_question: dict[str, list[int]] = {}
    for i, pair in enumerate(pairs):
        by_question.setdefault(pair.question, []).append(i)
    for question, rows in by_question.items():
        grounded[rows], stances[rows] = verifier.read(question, [(pairs[i].sentence, pairs[i].section) for i in rows])
    return grounded, stances


def stance_accuracy(pairs: Sequence[GroundingPair], stances: np.ndarray) -> dict:
    """On the labelled sentences of yes/no items: how often the stance head says the item's gold verdict."""
    rows = [i for i, p in enumerate(pairs) if p.positive and p.verdict in STANCES]
    right = [STANCES[int(np.argmax(stances[i]))] == pairs[i].verdict for i in rows]
    return {"sentences": len(rows), "accuracy": round(100 * float(np.mean(right)), 1) if rows else None,
            "by_gold": {v: sum(pairs[i].verdict == v for i in rows) for v in STANCES}}


def measure(pairs: Sequence[GroundingPair], scores: np.ndarray, threshold: float) -> dict:
    """Pair-level ROC AUC, precision / recall / F1 of "states the answer" at `threshold`, and per item: how often the
    best-scored sentence is a labelled one (items the policy answers) and how often no sentence passes (items it
    does not)."""
    from sklearn.metrics import roc_auc_score  # training only

    gold = np.array([p.positive for p in pairs])
    said = scores >= threshold
    tp, fp, fn = int((said & gold).sum()), int((said & ~gold).sum()), int((~said & gold).sum())
    items: dict[str, list[int]] = {}
    for i, pair in enumerate(pairs):
        items.setdefault(pair.item, []).append(i)
    answered = [rows for rows in items.values() if gold[rows].any()]
    silent = [rows for rows in items.values() if not gold[rows].any()]
    return {
        "pairs": len(pairs), "positive": int(gold.sum()),
        "auc": round(100 * float(roc_auc_score(gold, scores)), 1) if 0 < gold.sum() < len(gold) else None,
        "precision": round(100 * tp / max(1, tp + fp), 1), "recall": round(100 * tp / max(1, tp + fn), 1),
        "f1": round(100 * 2 * tp / max(1, 2 * tp + fp + fn), 1),
        "answered_items": len(answered),
        "best_is_labelled": round(100 * float(np.mean([gold[rows][np.argmax(scores[rows])] for rows in answered])), 1)
        if answered else None,
        "answered_passes": round(100 * float(np.mean([scores[rows].max() >= threshold for rows in answered])), 1)
        if answered else None,
        "silent_items": len(silent),
        "silent_refused": round(100 * float(np.mean([scores[rows].max() < threshold for rows in silent])), 1)
        if silent else None,
    }


def choose_threshold(pairs: Sequence[GroundingPair], scores: np.ndarray) -> float:
    """The threshold that best separates the items the policy answers (their best sentence passes) from those it
    does not (none passes), balanced: the mean of the two rates, on a grid."""
    items: dict[str, list[int]] = {}
    for i, pair in enumerate(pairs):
        items.setdefault(pair.item, []).append(i)
    gold = np.array([p.positive for p in pairs])
    best = np.array([scores[rows].max() for rows in items.values()])
    answers = np.array([gold[rows].any() for rows in items.values()])
    if answers.all() or not answers.any():
        raise ValueError("choosing a threshold needs items the policy answers and items it does not")
    grid = np.linspace(0.05, 0.95, 37)
    balanced = [((best[answers] >= t).mean() + (best[~answers] < t).mean()) / 2 for t in grid]
    return float(round(grid[int(np.argmax(balanced))], 3))


def choose_only_if_threshold(pairs: Sequence[GroundingPair], stances: np.ndarray) -> float:
    """The stance head's "only if" probability from which a "yes" is said as "only if": on the labelled sentences of
    items whose gold is yes or only if, the grid point with the best balanced accuracy of the two."""
    rows = [i for i, p in enumerate(pairs) if p.positive and p.verdict in ("yes", "only_if")]
    gold = np.array([pairs[i].verdict == "only_if" for i in rows])
    if gold.all() or not gold.any():
        raise ValueError("choosing the only-if threshold needs labelled sentences of both yes and only-if items")
    said = stances[rows, STANCES.index("only_if")]
    grid = np.linspace(0.05, 0.95, 37)
    balanced = [((said[gold] >= t).mean() + (said[~gold] < t).mean()) / 2 for t in grid]
    return float(round(grid[int(np.argmax(balanced))], 3))


def train_release(training: Sequence[GroundingPair], validation: Sequence[GroundingPair],
                  config: TrainConfig = TrainConfig(), log: Callable[[str], None] = print,
                  directory: Path = RELEASE_DIR, checkpoint_dir: Path = CHECKPOINT_DIR) -> dict:
    """Train on `training`, choose the threshold and measure on `validation`, write the release with its manifest."""
    verifier = train(training, config, checkpoint_dir=checkpoint_dir, log=log)
    scores, stances = pair_scores(verifier, validation)
    threshold = choose_threshold(validation, scores)
    only_if_threshold = choose_only_if_threshold(validation, stances)
    metrics = {"validation": measure(validation, scores, threshold) | {"stance": stance_accuracy(validation, stances)},
               "threshold": threshold, "only_if_threshold": only_if_threshold}
    sets = sorted({p.answers_set for p in training})
    data = {"training_sets": sets, "training_pairs": len(training),
            "training_positive": sum(p.positive for p in training),
            "validation_sets": sorted({p.answers_set for p in validation}), "validation_pairs": len(validation),
            "pairs": "lab/grounding/pairs.py (the engine's 10 best candidates and the labelled sentences)"}
    model_config = {"train": asdict(config), "trainable": top_layer_prefixes(verifier.forward.module.bert,
                                                                             config.trainable_layers),
                    "threshold": threshold, "only_if_threshold": only_if_threshold}
    save_release(directory, _release_state(verifier.forward.module, config), model_config, data,
                 "python -m lab.grounding.probe", metrics)
    log(str(metrics))
    return metrics
