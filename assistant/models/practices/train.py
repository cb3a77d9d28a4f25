"""Training of the OPP-115 practice tagger: the two-stage fine-tuning, the lexical half, threshold tuning
and writing the release with its manifest (`assistant train categories`)."""
from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path

import numpy as np
import torch

from assistant.corpora import CORPORA_DIR
from assistant.corpora.practice_segments import label_matrix, load_split, split_file
from assistant.corpora.practice_sentences import load_sentence_split, target_matrix
from assistant.foundation.encoder import (
    apply_trunk,
    freeze_below,
    load_base_encoder,
    load_task_state,
    top_layer_prefixes,
    trained_state,
)
from assistant.foundation.releases import amend_release, load_release, save_release, sha256_of
from assistant.foundation.resources import checkpoint_dir
from assistant.foundation.training import (
    Checkpoint,
    EncoderTrainConfig,
    descend,
    length_bucketed_batches,
    optimizer_with_schedule,
)
from assistant.models.graphs import TorchForward
from assistant.models.practices.evaluate import scores
from assistant.models.practices.graph import PRACTICES
from assistant.models.practices.lexical import LexicalCategoryModel
from assistant.models.practices.model import RELEASE_DIR, PracticeClassifier
from assistant.models.practices.network import PracticeModel

# The lexical model's share of the mixed probability: chosen on random halves of the validation
# segments (thresholds tuned on one half, scored on the other), docs/results.md.
LEXICAL_WEIGHT = 0.5
LEXICAL_MIN_DF, LEXICAL_C = 2, 32.0  # the lexical half's recipe, chosen the same way
CHECKPOINT_DIR = checkpoint_dir("practice_categories")


@dataclass(frozen=True)
class TrainConfig(EncoderTrainConfig):
    trainable_layers: int = 6
    epochs: int = 6
    # the release whose encoder the layers below `trainable_layers` are (None: the base model's; "retriever": the
    # one-pass study in lab/one_pass)
    trunk: str | None = None
    sentences: bool = False  # also train on the train split's sentences, labelled from annotators' spans
    start_from: str | None = None  # a release directory to continue from (default: the base encoder)


@dataclass
class TrainResult:
    """What `train` returns: the classifier at its best validation epoch, and that epoch's record
    (score, epoch, validation scores, thresholds, encoder and head weights)."""

    classifier: PracticeClassifier
    best: dict


def tune_thresholds(probabilities: np.ndarray, gold: np.ndarray) -> list[float]:
    """Per-label threshold that maximises that label's F1 on the given (validation) data."""
    grid = np.linspace(0.05, 0.95, 19)
    thresholds = []
    for j in range(gold.shape[1]):
        f1s = []
        for t in grid:
            predicted = probabilities[:, j] >= t
            tp = float((predicted & gold[:, j]).sum())
            f1s.append(2 * tp / max(1.0, predicted.sum() + gold[:, j].sum()))
        thresholds.append(float(grid[int(np.argmax(f1s))]))
    return thresholds


def train(config: TrainConfig = TrainConfig(), checkpoint_dir: Path = CHECKPOINT_DIR,
          log: Callable[[str], None] = print, limit: int | None = None) -> TrainResult:
    """Fine-tune on `train` (resuming per epoch); returns the classifier of the best validation epoch,
    its thresholds tuned on validation, with that epoch's record."""
    torch.manual_seed(config.seed)
    bert, tokenizer = load_base_encoder()
    apply_trunk(bert, config.trunk)
    train_set, validation = load_split("train")[:limit], load_split("validation")[:limit]
    labels = sorted({label for example in load_split("train") for label in example.labels})
    model = PracticeModel(bert, len(labels))
    if config.start_from:
        load_task_state(model, load_release(Path(config.start_from))[0], config.start_from)
    texts = [e.text for e in train_set]
    targets = label_matrix(train_set, labels).astype(np.float32)
    if config.sentences:
        sentences = load_sentence_split("train", limit)
        texts += [s.text for s in sentences]
        targets = np.concatenate([targets, target_matrix(sentences, labels)])
    encoder_params = freeze_below(bert, config.trainable_layers)
    head_params = list(model.classify.parameters())
    per_epoch = len(range(0, len(texts), config.batch_size))
    optimizer, schedule = optimizer_with_schedule(
        [(encoder_params, config.encoder_learning_rate), (head_params, config.head_learning_rate)],
        per_epoch * config.epochs, round(0.06 * per_epoch * config.epochs))
    classifier = PracticeClassifier(TorchForward(model, PRACTICES.inputs), labels, [0.5] * len(labels),
                                    config.max_length)
    checkpoint = Checkpoint(checkpoint_dir, {"config": asdict(config), "limit": limit})
    first_epoch, best = checkpoint.resume_epochs(model, optimizer, schedule, log)
    y_train = torch.tensor(targets)
    gold = label_matrix(validation, labels)
    loss_fn = torch.nn.BCEWithLogitsLoss()
    for epoch in range(first_epoch, config.epochs):
        model.train()
        started, losses = time.perf_counter(), []
        lengths = [len(text) for text in texts]
        for rows in length_bucketed_batches(lengths, config.batch_size, config.seed + epoch):
            batch = tokenizer([texts[i] for i in rows], truncation=True, max_length=config.max_length,
                              padding=True, return_tensors="pt")
            loss = loss_fn(model(batch["input_ids"], batch["attention_mask"]), y_train[rows])
            losses.append(descend(loss, optimizer, schedule, encoder_params + head_params))
        model.eval()
        probabilities = classifier.probabilities([e.text for e in validation])
        classifier.thresholds = np.asarray(tune_thresholds(probabilities, gold))
        result = scores([e.labels for e in validation], classifier.predict([e.text for e in validation]), labels)
        log(f"epoch {epoch + 1}/{config.epochs} loss {np.mean(losses):.4f} "
            f"({time.perf_counter() - started:.0f} s) validation {result}")
        if result["macro_f1"] > best["score"]:
            best = {"score": result["macro_f1"], "epoch": epoch + 1, "validation": result,
                    "thresholds": classifier.thresholds.tolist(),
                    "encoder": trained_state(bert, config.trainable_layers), "heads": model.head_state()}
        checkpoint.save(optimizer, schedule, model=model.state_dict(), epoch=epoch + 1, best=best)
    bert.load_state_dict(best["encoder"], strict=False)
    model.load_state_dict(best["heads"], strict=False)
    classifier.thresholds = np.asarray(best["thresholds"])
    return TrainResult(classifier, best)


SEGMENT_STAGE = TrainConfig()
SENTENCE_STAGE = TrainConfig(epochs=2, sentences=True, encoder_learning_rate=5e-5, head_learning_rate=5e-4)
STAGES = (SEGMENT_STAGE, SENTENCE_STAGE)


def train_release(stages: Sequence[TrainConfig] = STAGES, log: Callable[[str], None] = print,
                  limit: int | None = None, directory: Path = RELEASE_DIR,
                  checkpoint_dir: Path = CHECKPOINT_DIR) -> dict:
    """Train stage by stage (each continues from the previous stage's best epoch, kept as a release
    under `checkpoint_dir`), then write the last stage's model as the release, with its manifest.

    The shipped recipe: segments only from the base encoder, then segments and the annotators'
    sentences together at a lower rate (`STAGES`)."""
    start_from, history = None, []
    for number, config in enumerate(stages, 1):
        config = replace(config, start_from=start_from) if start_from else config
        log(f"stage {number}/{len(stages)}: {asdict(config)}")
        trained = train(config, checkpoint_dir=checkpoint_dir / f"stage{number}", log=log, limit=limit)
        classifier, best = trained.classifier, trained.best
        history.append({"validation": best["validation"], "best_epoch": best["epoch"]})
        stage_directory = directory if number == len(stages) else checkpoint_dir / f"stage{number}-release"
        _save(classifier, config, best, stages, history, limit, stage_directory)
        start_from = str(stage_directory)
    lexical = fit_lexical(directory, limit=limit, log=log)
    return {"validation": lexical["validation"], "encoder_validation": history[-1]["validation"],
            "best_epoch": history[-1]["best_epoch"], "stages": history}


def fit_lexical(directory: Path = RELEASE_DIR, limit: int | None = None,
                log: Callable[[str], None] = print) -> dict:
    """Fit the lexical half (`assistant.models.practices.lexical`) on the train segments and the train sentences
    (a category counts when at least half the annotators marked the sentence), mix it into the
    release in `directory` with weight `LEXICAL_WEIGHT`, and tune the thresholds for the mix on the
    validation segments. Rewrites the release's config and manifest; the encoder is untouched."""
    classifier = PracticeClassifier.load(directory, lexical=False)
    labels = classifier.labels
    segments, sentences = load_split("train")[:limit], load_sentence_split("train", limit)
    texts = [e.text for e in segments] + [s.text for s in sentences]
    targets = np.concatenate([label_matrix(segments, labels), target_matrix(sentences, labels) >= 0.5])
    lexical = LexicalCategoryModel.fit(texts, targets, LEXICAL_MIN_DF, LEXICAL_C)
    validation = load_split("validation")[:limit]
    classifier.lexical, classifier.lexical_weight = lexical, LEXICAL_WEIGHT
    probabilities = classifier.probabilities([e.text for e in validation])
    classifier.thresholds = np.asarray(tune_thresholds(probabilities, label_matrix(validation, labels)))
    result = scores([e.labels for e in validation], classifier.decide(probabilities), labels)
    log(f"lexical half fitted on {len(texts)} texts; validation with the mix {result}")
    lexical.save(directory)
    amend_release(
        directory,
        config={"thresholds": classifier.thresholds.tolist(), "lexical_weight": LEXICAL_WEIGHT},
        data={"lexical": f"TF-IDF word 1-2 grams + logistic regression per category "
                         f"(assistant/models/practices/lexical.py) "
                         f"on {len(segments)} train segments and {len(sentences)} train sentences"},
        metrics={"validation": result, "validation_of": "the encoder mixed with the lexical half "
                                                         "(the encoder alone: the last of `stages`)"},
    )
    return {"validation": result, "texts": len(texts)}


def _save(classifier: PracticeClassifier, config: TrainConfig, best: dict, stages: Sequence[TrainConfig],
          history: list[dict], limit: int | None, directory: Path) -> None:
    state = {f"bert.{k}": v for k, v in best["encoder"].items()} | best["heads"]
    model_config = {"labels": classifier.labels, "thresholds": best["thresholds"], "trunk": config.trunk,
                    "train": [asdict(stage) for stage in stages],
                    "trainable": top_layer_prefixes(classifier.forward.module.bert, config.trainable_layers)}
    data = {"corpus": "OPP-115 majority split (PrivacyGLUE / Polisis_Benchmark)",
            "train_segments": len(load_split("train")[:limit]),
            "validation_segments": len(load_split("validation")[:limit]),
            "sha256": sha256_of([split_file("train"), split_file("validation")])}
    if any(stage.sentences for stage in stages):
        data["train_sentences"] = len(load_sentence_split("train", limit))
        data["sentences_from"] = ("OPP-115 annotators' spans over the train split's segments "
                                  "(assistant/corpora/practice_sentences.py)")
        data["sha256"] = sha256_of([split_file("train"), split_file("validation"), CORPORA_DIR / "opp115.tar.xz"])
    metrics = {"validation": best["validation"], "best_epoch": best["epoch"], "stages": history}
    save_release(directory, state, model_config, data, "assistant train categories", metrics)
