"""OPP-115 practice categories for policy text (12 labels, multi-label).

all-MiniLM-L6-v2 fine-tuned (all six layers, see `assistant.foundation.encoder`) with a linear head over the
mean-pooled tokens, trained in two stages on the PrivacyGLUE OPP-115 majority-label split: first
its segments (paragraphs), then its segments together with their sentences labelled from the
annotators' highlighted spans (`assistant.corpora.practice_sentences`; soft targets: the share of annotators),
since ingest tags single sentences. One decision threshold per category tuned on the validation
segments, each stage's epoch chosen on them; applied at ingest to every sentence.

Its probabilities are mixed half and half with a TF-IDF logistic regression trained on the same
segments and sentences (`assistant.models.practices.lexical`), and the thresholds are tuned for the mix.

    assistant train categories      # reproduces weights/practice_categories/ (resumes per epoch)
    assistant train categories --lexical-only   # refits only the lexical half (about a minute)
    assistant eval categories --split test [--sentences]
"""
from __future__ import annotations

import collections
import csv
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path

import numpy as np
import torch

from assistant.foundation.encoder import (
    freeze_below,
    load_base_encoder,
    load_task_state,
    mean_pool,
    top_layer_prefixes,
    trained_state,
)
from assistant.foundation.releases import WEIGHTS_DIR, amend_release, load_release, save_release, sha256_of
from assistant.foundation.resources import checkpoint_dir
from assistant.foundation.training import (
    Checkpoint,
    EncoderTrainConfig,
    descend,
    length_bucketed_batches,
    optimizer_with_schedule,
)
from assistant.models.practices.lexical import LexicalCategoryModel

RELEASE_DIR = WEIGHTS_DIR / "practice_categories"
# The lexical model's share of the mixed probability: chosen on random halves of the validation
# segments (thresholds tuned on one half, scored on the other), docs/results.md.
LEXICAL_WEIGHT = 0.5
LEXICAL_MIN_DF, LEXICAL_C = 2, 32.0  # the lexical half's recipe, chosen the same way
CHECKPOINT_DIR = checkpoint_dir("practice_categories")
SPLITS = {"train": "train_dataset.csv", "validation": "validation_dataset.csv", "test": "test_dataset.csv"}


@dataclass(frozen=True)
class TrainConfig(EncoderTrainConfig):
    trainable_layers: int = 6
    epochs: int = 6
    sentences: bool = False  # also train on the train split's sentences, labelled from annotators' spans
    start_from: str | None = None  # a release directory to continue from (default: the base encoder)


@dataclass(frozen=True)
class Example:
    text: str
    labels: frozenset[str]


def split_file(split: str) -> Path:
    from assistant.corpora import corpus_dir

    return corpus_dir("opp115") / "majority_split" / SPLITS[split]


def load_split(split: str) -> list[Example]:
    """One example per segment: PrivacyGLUE's rows are (segment, category), grouped by text."""
    groups: dict[str, set[str]] = collections.defaultdict(set)
    with open(split_file(split), newline="", encoding="utf-8") as handle:
        for text, label in csv.reader(handle):
            if text != "#NAME?":  # a spreadsheet artefact in the train split
                groups[text].add(label)
    return [Example(text, frozenset(labels)) for text, labels in groups.items()]


class PracticeModel(torch.nn.Module):
    """The encoder with one logit per category over its mean-pooled tokens."""

    def __init__(self, bert, n_labels: int, dropout: float = 0.1) -> None:
        super().__init__()
        self.bert = bert
        self.dropout = torch.nn.Dropout(dropout)
        self.classify = torch.nn.Linear(bert.config.hidden_size, n_labels)

    def forward(self, input_ids, attention_mask, token_type_ids=None):
        states = self.bert(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state
        return self.classify(self.dropout(mean_pool(states, attention_mask)))

    def head_state(self) -> dict[str, torch.Tensor]:
        return {k: v.detach().clone() for k, v in self.state_dict().items() if k.startswith("classify.")}


class PracticeClassifier:
    """Predicts the OPP-115 practice categories of policy texts (sentences or segments)."""

    def __init__(self, model: PracticeModel, tokenizer, labels: list[str], thresholds: Sequence[float],
                 max_length: int = 256, lexical: LexicalCategoryModel | None = None,
                 lexical_weight: float = 0.0) -> None:
        self.model = model.eval()
        self.tokenizer = tokenizer
        self.labels = labels
        self.thresholds = np.asarray(thresholds)
        self.max_length = max_length
        self.lexical = lexical
        self.lexical_weight = lexical_weight if lexical is not None else 0.0

    @classmethod
    def load(cls, directory: Path = RELEASE_DIR, lexical: bool = True) -> PracticeClassifier:
        """The release in `directory`; with `lexical=False` its encoder alone (for refitting the
        lexical half or probing the encoder: the stored thresholds are tuned for the mix)."""
        state, config = load_release(directory)
        bert, tokenizer = load_base_encoder()
        model = PracticeModel(bert, len(config["labels"]))
        load_task_state(model, state, directory)
        lexical_weight = config.get("lexical_weight", 0.0) if lexical else 0.0
        return cls(model, tokenizer, config["labels"], config["thresholds"], lexical_weight=lexical_weight,
                   lexical=LexicalCategoryModel.load(directory) if lexical_weight else None)

    def probabilities(self, texts: Sequence[str], batch_size: int = 32) -> np.ndarray:
        """(n, n_labels) probabilities: the encoder's, mixed with the lexical model's when there is one."""
        encoder = self.encoder_probabilities(texts, batch_size)
        if self.lexical is None:
            return encoder
        return (1 - self.lexical_weight) * encoder + self.lexical_weight * self.lexical.probabilities(texts)

    @torch.inference_mode()
    def encoder_probabilities(self, texts: Sequence[str], batch_size: int = 32) -> np.ndarray:
        """(n, n_labels) sigmoid probabilities of the fine-tuned encoder alone."""
        result = np.zeros((len(texts), len(self.labels)), dtype=np.float32)
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        for first in range(0, len(order), batch_size):
            rows = order[first : first + batch_size]
            batch = self.tokenizer([texts[i] for i in rows], truncation=True, max_length=self.max_length,
                                   padding=True, return_tensors="pt")
            result[rows] = torch.sigmoid(self.model(batch["input_ids"], batch["attention_mask"])).numpy()
        return result

    def predict(self, texts: Sequence[str]) -> list[list[str]]:
        """The categories above their thresholds, for each text."""
        return self.decide(self.probabilities(texts))

    def decide(self, probabilities: np.ndarray) -> list[list[str]]:
        """The categories above their thresholds, for each row of `probabilities()`."""
        return [[label for label, on in zip(self.labels, row) if on] for row in probabilities >= self.thresholds]


def scores(gold: list[frozenset[str]], predicted: list[list[str]], labels: list[str]) -> dict[str, float]:
    """Macro and micro F1 (in %) over the labels, as PrivacyGLUE reports them."""
    from sklearn.metrics import f1_score

    y_true = np.array([[label in g for label in labels] for g in gold])
    y_pred = np.array([[label in p for label in labels] for p in predicted])
    return {
        "macro_f1": round(100 * f1_score(y_true, y_pred, average="macro", zero_division=0), 1),
        "micro_f1": round(100 * f1_score(y_true, y_pred, average="micro", zero_division=0), 1),
    }


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


def _label_matrix(examples: Sequence[Example], labels: list[str]) -> np.ndarray:
    return np.array([[label in e.labels for label in labels] for e in examples], dtype=bool)


def _target_matrix(sentences: Sequence, labels: list[str]) -> np.ndarray:
    """Soft targets of labelled sentences: each category's share of the annotators."""
    return np.array([[s.targets.get(label, 0.0) for label in labels] for s in sentences], dtype=np.float32)


def train(config: TrainConfig = TrainConfig(), checkpoint_dir: Path = CHECKPOINT_DIR,
          log: Callable[[str], None] = print, limit: int | None = None) -> PracticeClassifier:
    """Fine-tune on `train` (resuming per epoch); returns the classifier of the best validation epoch,
    its thresholds tuned on validation."""
    torch.manual_seed(config.seed)
    bert, tokenizer = load_base_encoder()
    train_set, validation = load_split("train")[:limit], load_split("validation")[:limit]
    labels = sorted({label for example in load_split("train") for label in example.labels})
    model = PracticeModel(bert, len(labels))
    if config.start_from:
        load_task_state(model, load_release(Path(config.start_from))[0], config.start_from)
    texts = [e.text for e in train_set]
    targets = _label_matrix(train_set, labels).astype(np.float32)
    if config.sentences:
        from assistant.corpora.practice_sentences import load_sentence_split

        sentences = load_sentence_split("train", limit)
        texts += [s.text for s in sentences]
        targets = np.concatenate([targets, _target_matrix(sentences, labels)])
    encoder_params = freeze_below(bert, config.trainable_layers)
    head_params = list(model.classify.parameters())
    per_epoch = len(range(0, len(texts), config.batch_size))
    optimizer, schedule = optimizer_with_schedule(
        [(encoder_params, config.encoder_learning_rate), (head_params, config.head_learning_rate)],
        per_epoch * config.epochs, round(0.06 * per_epoch * config.epochs))
    classifier = PracticeClassifier(model, tokenizer, labels, [0.5] * len(labels), config.max_length)
    checkpoint = Checkpoint(checkpoint_dir, {"config": asdict(config), "limit": limit})
    first_epoch, best = checkpoint.resume_epochs(model, optimizer, schedule, log)
    y_train = torch.tensor(targets)
    gold = _label_matrix(validation, labels)
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
    classifier.best = best  # type: ignore[attr-defined]
    return classifier


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
        classifier = train(config, checkpoint_dir=checkpoint_dir / f"stage{number}", log=log, limit=limit)
        best = classifier.best  # type: ignore[attr-defined]
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
    from assistant.corpora.practice_sentences import load_sentence_split

    classifier = PracticeClassifier.load(directory, lexical=False)
    labels = classifier.labels
    segments, sentences = load_split("train")[:limit], load_sentence_split("train", limit)
    texts = [e.text for e in segments] + [s.text for s in sentences]
    targets = np.concatenate([_label_matrix(segments, labels), _target_matrix(sentences, labels) >= 0.5])
    lexical = LexicalCategoryModel.fit(texts, targets, LEXICAL_MIN_DF, LEXICAL_C)
    validation = load_split("validation")[:limit]
    classifier.lexical, classifier.lexical_weight = lexical, LEXICAL_WEIGHT
    probabilities = classifier.probabilities([e.text for e in validation])
    classifier.thresholds = np.asarray(tune_thresholds(probabilities, _label_matrix(validation, labels)))
    result = scores([e.labels for e in validation], classifier.decide(probabilities), labels)
    log(f"lexical half fitted on {len(texts)} texts; validation with the mix {result}")
    lexical.save(directory)
    amend_release(
        directory,
        config={"thresholds": classifier.thresholds.tolist(), "lexical_weight": LEXICAL_WEIGHT},
        data={"lexical": f"TF-IDF word 1-2 grams + logistic regression per category (nlu/lexical.py) "
                         f"on {len(segments)} train segments and {len(sentences)} train sentences"},
        metrics={"validation": result, "validation_of": "the encoder mixed with the lexical half "
                                                         "(the encoder alone: the last of `stages`)"},
    )
    return {"validation": result, "texts": len(texts)}


def _save(classifier: PracticeClassifier, config: TrainConfig, best: dict, stages: Sequence[TrainConfig],
          history: list[dict], limit: int | None, directory: Path) -> None:
    state = {f"bert.{k}": v for k, v in best["encoder"].items()} | best["heads"]
    model_config = {"labels": classifier.labels, "thresholds": best["thresholds"],
                    "train": [asdict(stage) for stage in stages],
                    "trainable": top_layer_prefixes(classifier.model.bert, config.trainable_layers)}
    data = {"corpus": "OPP-115 majority split (PrivacyGLUE / Polisis_Benchmark)",
            "train_segments": len(load_split("train")[:limit]),
            "validation_segments": len(load_split("validation")[:limit]),
            "sha256": sha256_of([split_file("train"), split_file("validation")])}
    if any(stage.sentences for stage in stages):
        from assistant.corpora import CORPORA_DIR
        from assistant.corpora.practice_sentences import load_sentence_split

        data["train_sentences"] = len(load_sentence_split("train", limit))
        data["sentences_from"] = "OPP-115 annotators' spans over the train split's segments (nlu/practice_sentences.py)"
        data["sha256"] = sha256_of([split_file("train"), split_file("validation"), CORPORA_DIR / "opp115.tar.xz"])
    metrics = {"validation": best["validation"], "best_epoch": best["epoch"], "stages": history}
    save_release(directory, state, model_config, data, "assistant train categories", metrics)


def evaluate(split: str, limit: int | None = None, directory: Path = RELEASE_DIR, sentences: bool = False) -> dict:
    """Scores of the shipped classifier on an OPP-115 majority split: its segments (macro/micro F1,
    as PrivacyGLUE reports them), or with `sentences` its sentences labelled from the annotators'
    spans (a category is gold when at least half the annotators marked it): macro F1 at the
    thresholds and macro average precision, over the categories with a gold sentence."""
    classifier = PracticeClassifier.load(directory)
    if not sentences:
        examples = load_split(split)[:limit]
        predicted = classifier.predict([e.text for e in examples])
        return {"split": split, "segments": len(examples),
                **scores([e.labels for e in examples], predicted, classifier.labels)}
    from sklearn.metrics import average_precision_score, f1_score

    from assistant.corpora.practice_sentences import load_sentence_split

    rows = load_sentence_split(split, limit)
    gold = _target_matrix(rows, classifier.labels) >= 0.5
    probabilities = classifier.probabilities([r.text for r in rows])
    present = gold.any(axis=0)
    average_precision = [average_precision_score(gold[:, j], probabilities[:, j]) for j in np.flatnonzero(present)]
    macro_f1 = f1_score(gold[:, present], probabilities[:, present] >= classifier.thresholds[present],
                        average="macro", zero_division=0)
    return {"split": split, "sentences": len(rows), "macro_f1": round(100 * float(macro_f1), 1),
            "macro_average_precision": round(100 * float(np.mean(average_precision)), 1)}
