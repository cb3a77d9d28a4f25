"""PolicyIE: intent classification and type-I / type-II slot filling for policy sentences.

One model: the all-MiniLM-L6-v2 encoder (top layers fine-tuned, see `assistant.foundation.encoder`) with three
heads: the sentence's intent (5 classes, from the mean-pooled tokens) and two BIO taggers, one
for type-I slots (who, what data, to whom, retention, storage, security…) and one for type-II
slots (purpose, condition, polarity, protection method), which may overlap type-I spans. Tags are
predicted on each word's first word piece.

This module holds the model and its inference; training is in `train.py`, scoring in `evaluate.py`.

    assistant train policyie         # reproduces weights/policyie/ (resumes from .train/policyie/)
    assistant eval policyie --split test
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import torch

from assistant.foundation.encoder import load_base_encoder, load_task_state, mean_pool
from assistant.foundation.releases import WEIGHTS_DIR, load_release
from assistant.foundation.types import Facts, Slot
from assistant.models.policyie.crf import BIODecoder, LinearChainCRF

RELEASE_DIR = WEIGHTS_DIR / "policyie"
INTENTS = (
    "data-collection-usage", "data-sharing-disclosure", "data-storage-retention-deletion",
    "data-security-protection", "Other",
)
_WORD = re.compile(r"\w+(?:[.'’@&/-]\w+)*|[^\w\s]")


@dataclass(frozen=True)
class TaggedSentence:
    """The model's reading of one sentence: its intent and its tags, one per token."""

    intent: str
    type_i: list[str]
    type_ii: list[str]


def words(text: str) -> list[tuple[str, int, int]]:
    """PolicyIE-style tokens of raw text (words, with punctuation apart) and their offsets."""
    return [(m.group(), m.start(), m.end()) for m in _WORD.finditer(text)]


class PolicyIEModel(torch.nn.Module):
    """The encoder with an intent head and two taggers (per word-piece tag scores); with `crf`, each
    tagger also has a linear-chain CRF (learned tag transitions) trained on its scores."""

    def __init__(self, bert, type_i_tags: Sequence[str], type_ii_tags: Sequence[str], crf: bool = False,
                 dropout: float = 0.1) -> None:
        super().__init__()
        self.bert = bert
        hidden = bert.config.hidden_size
        self.dropout = torch.nn.Dropout(dropout)
        self.intent = torch.nn.Linear(hidden, len(INTENTS))
        self.type_i = torch.nn.Linear(hidden, len(type_i_tags))
        self.type_ii = torch.nn.Linear(hidden, len(type_ii_tags))
        self.crf_i = LinearChainCRF(type_i_tags) if crf else None
        self.crf_ii = LinearChainCRF(type_ii_tags) if crf else None

    def forward(self, input_ids, attention_mask, token_type_ids=None):
        states = self.dropout(self.bert(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state)
        return self.intent(mean_pool(states, attention_mask)), self.type_i(states), self.type_ii(states)

    def head_state(self) -> dict[str, torch.Tensor]:
        return {k: v.detach().clone() for k, v in self.state_dict().items() if not k.startswith("bert.")}


def _encode(tokenizer, token_lists: Sequence[Sequence[str]], max_length: int):
    batch = tokenizer([list(t) for t in token_lists], is_split_into_words=True, truncation=True,
                      max_length=max_length, padding=True, return_tensors="pt")
    word_ids = [batch.word_ids(i) for i in range(len(token_lists))]
    return batch, word_ids


def _first_pieces(word_ids: list[int | None]) -> list[int]:
    """Index of each word's first word piece, in word order (words cut by truncation are absent)."""
    seen, firsts = set(), []
    for position, word in enumerate(word_ids):
        if word is not None and word not in seen:
            seen.add(word)
            firsts.append(position)
    return firsts


class PolicyIETagger:
    """Loads the released PolicyIE model and reads sentences with it."""

    def __init__(self, model: PolicyIEModel, tokenizer, type_i_tags: list[str], type_ii_tags: list[str],
                 max_length: int = 256) -> None:
        self.model = model.eval()
        self.tokenizer = tokenizer
        self.type_i_tags = type_i_tags
        self.type_ii_tags = type_ii_tags
        self.max_length = max_length

    @classmethod
    def load(cls, directory: Path = RELEASE_DIR) -> PolicyIETagger:
        state, config = load_release(directory)
        bert, tokenizer = load_base_encoder()
        model = PolicyIEModel(bert, config["type_i_tags"], config["type_ii_tags"], crf=config.get("crf", False))
        load_task_state(model, state, directory)
        return cls(model, tokenizer, config["type_i_tags"], config["type_ii_tags"])

    @torch.inference_mode()
    def tag(self, token_lists: Sequence[Sequence[str]], batch_size: int = 32) -> list[TaggedSentence]:
        """Intent and tags for each token list (tokens past the length limit get `O`)."""
        results: list[TaggedSentence | None] = [None] * len(token_lists)
        decode_i = BIODecoder(self.type_i_tags, self.model.crf_i)
        decode_ii = BIODecoder(self.type_ii_tags, self.model.crf_ii)
        order = sorted(range(len(token_lists)), key=lambda i: len(token_lists[i]))
        for start in range(0, len(order), batch_size):
            rows = order[start : start + batch_size]
            batch, word_ids = _encode(self.tokenizer, [token_lists[i] or ["."] for i in rows], self.max_length)
            intent, type_i, type_ii = self.model(batch["input_ids"], batch["attention_mask"])
            intents = intent.argmax(-1)
            if self.model.crf_i is None:  # a softmax tagger: decode its log-probabilities
                type_i, type_ii = torch.log_softmax(type_i, -1), torch.log_softmax(type_ii, -1)
            type_i, type_ii = type_i.numpy(), type_ii.numpy()
            for row, i in enumerate(rows):
                firsts = _first_pieces(word_ids[row])[: len(token_lists[i])]
                padding = ["O"] * (len(token_lists[i]) - len(firsts))
                results[i] = TaggedSentence(INTENTS[int(intents[row])],
                                            decode_i.best(type_i[row, firsts]) + padding,
                                            decode_ii.best(type_ii[row, firsts]) + padding)
        return results  # type: ignore[return-value]

    def facts(self, sentences: Sequence[str]) -> list[Facts]:
        """Intent and slots with character offsets into each sentence."""
        tokenised = [words(s) for s in sentences]
        tagged = self.tag([[w for w, _, _ in t] for t in tokenised])
        return [
            Facts(t.intent, tuple(_slots(sentence, tokens, t.type_i) + _slots(sentence, tokens, t.type_ii)))
            for sentence, tokens, t in zip(sentences, tokenised, tagged)
        ]


def _slots(sentence: str, tokens: list[tuple[str, int, int]], tags: list[str]) -> list[Slot]:
    slots, current = [], None
    for (_, start, end), tag in zip(tokens, tags):
        if tag.startswith("B-") or tag == "O":
            if current:
                slots.append(current)
            current = [tag[2:], start, end] if tag.startswith("B-") else None
        elif current is not None:
            current[2] = end
    if current:
        slots.append(current)
    return [Slot(label, sentence[start:end], start, end) for label, start, end in slots]
