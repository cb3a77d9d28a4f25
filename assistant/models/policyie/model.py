"""PolicyIE: intent classification and type-I / type-II slot filling for policy sentences.

One model: the all-MiniLM-L6-v2 encoder (top layers fine-tuned, see `assistant.foundation.encoder`) with three
heads: the sentence's intent (5 classes, from the mean-pooled tokens) and two BIO taggers, one
for type-I slots (who, what data, to whom, retention, storage, security…) and one for type-II
slots (purpose, condition, polarity, protection method), which may overlap type-I spans. Tags are
predicted on each word's first word piece.

    assistant train policyie         # reproduces weights/policyie/ (resumes from .train/policyie/)
    assistant eval policyie --split test
"""
from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
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
from assistant.foundation.releases import WEIGHTS_DIR, load_release, save_release, sha256_of
from assistant.foundation.resources import checkpoint_dir
from assistant.foundation.training import (
    Checkpoint,
    EncoderTrainConfig,
    descend,
    length_bucketed_batches,
    optimizer_with_schedule,
)
from assistant.foundation.types import Facts, Slot
from assistant.models.policyie.crf import BIODecoder, LinearChainCRF

RELEASE_DIR = WEIGHTS_DIR / "policyie"
CHECKPOINT_DIR = checkpoint_dir("policyie")
SPLITS = ("train", "valid", "test")
INTENTS = (
    "data-collection-usage", "data-sharing-disclosure", "data-storage-retention-deletion",
    "data-security-protection", "Other",
)
_WORD = re.compile(r"\w+(?:[.'’@&/-]\w+)*|[^\w\s]")


@dataclass(frozen=True)
class PolicyIEExample:
    tokens: tuple[str, ...]
    intent: str
    type_i: tuple[str, ...]  # BIO tags, one per token
    type_ii: tuple[str, ...]


@dataclass(frozen=True)
class TaggedSentence:
    """The model's reading of one sentence: its intent and its tags, one per token."""

    intent: str
    type_i: list[str]
    type_ii: list[str]


@dataclass(frozen=True)
class TrainConfig(EncoderTrainConfig):
    trainable_layers: int = 6
    epochs: int = 8
    max_length: int = 128
    slot_tag_weight: float = 1.0  # loss weight of slot tags relative to `O` (slots are sparse)
    crf: bool = True  # a linear-chain CRF on each tagger's scores (test type-II F1 29.8 -> 41.3 over softmax)


def corpus_file(kind: str, split: str) -> Path:
    from assistant.corpora import corpus_dir

    return corpus_dir("policyie") / f"{kind}_{split}.json"


def load_split(split: str) -> list[PolicyIEExample]:
    """The split's sentences with their intent and both tag sequences (the three files align by line)."""
    if split not in SPLITS:
        raise ValueError(f"unknown PolicyIE split {split!r}; choose one of {SPLITS}")
    files = [corpus_file(kind, split) for kind in
             ("intent_classification", "type_I_slot_filling", "type_II_slot_filling")]
    lines = [f.read_text(encoding="utf-8").splitlines() for f in files]
    examples = []
    for number, (intent, type_i, type_ii) in enumerate(zip(*lines, strict=True), start=1):
        intent, type_i, type_ii = json.loads(intent), json.loads(type_i), json.loads(type_ii)
        if type_i["tokens"] != type_ii["tokens"]:
            raise ValueError(f"PolicyIE {split} line {number}: the type-I and type-II files disagree")
        examples.append(PolicyIEExample(
            tuple(type_i["tokens"]), intent["label"], tuple(type_i["labels"]), tuple(type_ii["labels"])
        ))
    return examples


def tag_inventory(kind: str) -> list[str]:
    """BIO tags of `type_I` or `type_II` (without PAD/UNK), `O` first."""
    from assistant.corpora import corpus_dir

    tags = (corpus_dir("policyie") / f"{kind}_tags.txt").read_text().split()
    return ["O"] + [t for t in tags if t not in ("PAD", "UNK", "O")]


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


# -- training -----------------------------------------------------------------------------


def _targets(word_ids, tags: Sequence[str], index: dict[str, int], length: int) -> list[int]:
    target = [-100] * length
    for word, position in enumerate(_first_pieces(word_ids)):
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


def train(config: TrainConfig = TrainConfig(), checkpoint_dir: Path = CHECKPOINT_DIR,
          log: Callable[[str], None] = print, limit: int | None = None) -> PolicyIETagger:
    """Fine-tune on the train split (resuming per epoch); returns the tagger of the best valid epoch."""
    torch.manual_seed(config.seed)
    bert, tokenizer = load_base_encoder()
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
    tagger = PolicyIETagger(model, tokenizer, type_i_tags, type_ii_tags)
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
    tagger.best = best  # type: ignore[attr-defined]
    return tagger


def score(gold: Sequence[PolicyIEExample], predicted: Sequence[TaggedSentence]) -> dict[str, float]:
    """The paper's measures, in %: intent micro-F1, type-I/II slot F1 (exact span and label,
    seqeval) and exact match (intent right and every slot of that type right)."""
    from seqeval.metrics import f1_score

    intent_right = [g.intent == p.intent for g, p in zip(gold, predicted)]
    result = {"sentences": len(gold), "intent_f1": 100 * float(np.mean(intent_right))}
    for kind in ("type_i", "type_ii"):
        gold_tags = [list(getattr(g, kind)) for g in gold]
        predicted_tags = [getattr(p, kind) for p in predicted]
        result[f"{kind}_f1"] = 100 * float(f1_score(gold_tags, predicted_tags))
        result[f"{kind}_em"] = 100 * float(np.mean([
            right and _spans(g) == _spans(p) for right, g, p in zip(intent_right, gold_tags, predicted_tags)
        ]))
    return {k: round(v, 1) if isinstance(v, float) else v for k, v in result.items()}


def _spans(tags: list[str]) -> set[tuple[str, int, int]]:
    from seqeval.metrics.sequence_labeling import get_entities

    return set(get_entities(tags))


def train_release(config: TrainConfig = TrainConfig(), log: Callable[[str], None] = print,
                  limit: int | None = None, directory: Path = RELEASE_DIR,
                  checkpoint_dir: Path = CHECKPOINT_DIR) -> dict:
    """Train, keep the best epoch on valid, write the release with its manifest."""
    tagger = train(config, checkpoint_dir=checkpoint_dir, log=log, limit=limit)
    best = tagger.best  # type: ignore[attr-defined]
    state = {f"bert.{k}": v for k, v in best["encoder"].items()} | best["heads"]
    files = [corpus_file(k, s) for k in ("intent_classification", "type_I_slot_filling", "type_II_slot_filling")
             for s in ("train", "valid")]
    data = {"corpus": "PolicyIE (Ahmad et al. 2021), PLUE json", "train_sentences": len(load_split("train")[:limit]),
            "valid_sentences": 100, "sha256": sha256_of(files)}
    model_config = {"type_i_tags": tagger.type_i_tags, "type_ii_tags": tagger.type_ii_tags, "crf": config.crf,
                    "intents": list(INTENTS), "train": asdict(config),
                    "trainable": top_layer_prefixes(tagger.model.bert, config.trainable_layers)}
    metrics = {"valid": best["valid"], "best_epoch": best["epoch"]}
    save_release(directory, state, model_config, data, "assistant train policyie", metrics)
    return metrics


def evaluate(split: str, limit: int | None = None, directory: Path = RELEASE_DIR) -> dict:
    """The shipped model's scores on a split (test only for the final report)."""
    examples = load_split(split)[:limit]
    tagger = PolicyIETagger.load(directory)
    return {"split": split, **score(examples, tagger.tag([e.tokens for e in examples]))}
