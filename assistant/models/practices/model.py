"""OPP-115 practice categories for policy text (12 labels, multi-label): the classifier and its inference.

all-MiniLM-L6-v2 fine-tuned (all six layers, see `assistant.foundation.encoder`) with a linear head over the
mean-pooled tokens, trained in two stages on the PrivacyGLUE OPP-115 majority-label split
(`assistant.corpora.practice_segments`): first its segments (paragraphs), then its segments together with
their sentences labelled from the annotators' highlighted spans (`assistant.corpora.practice_sentences`;
soft targets: the share of annotators), since ingest tags single sentences. One decision threshold per
category tuned on the validation segments, each stage's epoch chosen on them; applied at ingest to every
sentence.

Its probabilities are mixed half and half with a TF-IDF logistic regression trained on the same
segments and sentences (`assistant.models.practices.lexical`), and the thresholds are tuned for the mix.
Training: `assistant.models.practices.train`; scores: `assistant.models.practices.evaluate`.

    assistant train categories      # reproduces weights/practice_categories/ (resumes per epoch)
    assistant train categories --lexical-only   # refits only the lexical half (about a minute)
    assistant eval categories --split test [--sentences]
"""
from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import torch

from assistant.foundation.encoder import load_base_encoder, load_task_state, mean_pool
from assistant.foundation.releases import WEIGHTS_DIR, load_release
from assistant.models.practices.lexical import LexicalCategoryModel

RELEASE_DIR = WEIGHTS_DIR / "practice_categories"


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
