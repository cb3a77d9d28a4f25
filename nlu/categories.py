"""OPP-115 practice categories for policy text (12 labels, multi-label).

Trained on the PrivacyGLUE OPP-115 majority-label split (segments), applied at ingest to every
sentence. Model: frozen all-MiniLM-L6-v2 + LoRA adapter + a linear head over the mean-pooled
tokens; one decision threshold per category, tuned on the validation split.

    assistant train categories      # reproduces weights/practice_categories/
    assistant eval categories --split test
"""
from __future__ import annotations

import collections
import csv
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch

from nlu.encoder import HIDDEN_SIZE, LoraSettings, load_encoder, load_tokenizer, mean_pool
from nlu.release import WEIGHTS_DIR, load_release, save_release, sha256_of
from nlu.training import TrainSettings, train, trainable_state

RELEASE_DIR = WEIGHTS_DIR / "practice_categories"
MAX_LENGTH = 128
SPLITS = {"train": "train_dataset.csv", "validation": "validation_dataset.csv", "test": "test_dataset.csv"}


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


class CategoryModel(torch.nn.Module):
    def __init__(self, n_labels: int, lora: LoraSettings) -> None:
        super().__init__()
        self.encoder = load_encoder(lora)
        self.head = torch.nn.Linear(HIDDEN_SIZE, n_labels)

    def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        hidden = self.encoder(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state
        return self.head(mean_pool(hidden, attention_mask))


class PracticeClassifier:
    """Predicts OPP-115 practice categories for sentences or segments."""

    def __init__(self, model: CategoryModel, labels: list[str], thresholds: list[float], max_length: int) -> None:
        self.model = model.eval()
        self.labels = labels
        self.thresholds = np.array(thresholds)
        self.max_length = max_length
        self.tokenizer = load_tokenizer()

    @classmethod
    def load(cls, directory: Path = RELEASE_DIR) -> "PracticeClassifier":
        state, config = load_release(directory)
        model = CategoryModel(len(config["labels"]), LoraSettings(**config["lora"]))
        model.load_state_dict(state, strict=False)
        model.encoder = model.encoder.merge_and_unload()  # plain BERT at inference: faster
        return cls(model, config["labels"], config["thresholds"], config["max_length"])

    @torch.inference_mode()
    def probabilities(self, texts: Sequence[str], batch_size: int = 64) -> np.ndarray:
        """(len(texts), n_labels) sigmoid probabilities, batched by length."""
        out = np.zeros((len(texts), len(self.labels)), dtype=np.float32)
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        for start in range(0, len(order), batch_size):
            rows = order[start : start + batch_size]
            batch = self.tokenizer([texts[i] for i in rows], padding=True, truncation=True,
                                   max_length=self.max_length, return_tensors="pt")
            out[rows] = torch.sigmoid(self.model(batch["input_ids"], batch["attention_mask"])).numpy()
        return out

    def predict(self, texts: Sequence[str]) -> list[list[str]]:
        """Categories above their thresholds, for each text."""
        decisions = self.probabilities(texts) >= self.thresholds
        return [[label for label, on in zip(self.labels, row) if on] for row in decisions]


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


def train_release(settings: TrainSettings, work_dir: Path, log=print) -> dict:
    """Train on `train`, tune thresholds on `validation`, write the release; returns validation scores."""
    torch.manual_seed(settings.seed)
    examples = load_split("train")
    labels = sorted({label for example in examples for label in example.labels})
    lora = LoraSettings()
    model = CategoryModel(len(labels), lora)
    tokenizer = load_tokenizer()
    encoded = tokenizer([e.text for e in examples], truncation=True, max_length=MAX_LENGTH)
    targets = torch.tensor([[label in e.labels for label in labels] for e in examples], dtype=torch.float32)
    loss_fn = torch.nn.BCEWithLogitsLoss()

    def loss_for(batch: list[int]) -> torch.Tensor:
        padded = tokenizer.pad({"input_ids": [encoded["input_ids"][i] for i in batch],
                                "attention_mask": [encoded["attention_mask"][i] for i in batch]},
                               return_tensors="pt")
        return loss_fn(model(padded["input_ids"], padded["attention_mask"]), targets[batch])

    work_dir.mkdir(parents=True, exist_ok=True)
    lengths = [len(ids) for ids in encoded["input_ids"]]
    train(model, lengths, loss_for, settings, work_dir / "practice_categories.ckpt", log=log)

    classifier = PracticeClassifier(model, labels, [0.5] * len(labels), MAX_LENGTH)
    validation = load_split("validation")
    probabilities = classifier.probabilities([e.text for e in validation])
    gold = np.array([[label in e.labels for label in labels] for e in validation])
    classifier.thresholds = np.array(tune_thresholds(probabilities, gold))
    metrics = {"validation": scores([e.labels for e in validation], classifier.predict([e.text for e in validation]),
                                    labels)}
    config = {"labels": labels, "thresholds": classifier.thresholds.tolist(), "max_length": MAX_LENGTH,
              "lora": lora.to_dict()}
    data = {"corpus": "OPP-115 majority split (PrivacyGLUE / Polisis_Benchmark)", "train": len(examples),
            "validation": len(validation), "sha256": sha256_of([split_file("train"), split_file("validation")])}
    command = (f"assistant train categories --epochs {settings.epochs} --batch-size {settings.batch_size} "
               f"--learning-rate {settings.learning_rate:g}")
    save_release(RELEASE_DIR, trainable_state(model), config, data, command, metrics)
    return metrics


def evaluate(split: str, directory: Path = RELEASE_DIR) -> dict:
    classifier = PracticeClassifier.load(directory)
    examples = load_split(split)
    predicted = classifier.predict([e.text for e in examples])
    return {"split": split, "segments": len(examples), **scores([e.labels for e in examples], predicted,
                                                                 classifier.labels)}
