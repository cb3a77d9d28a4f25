"""Probe: does fine-tuning the retriever on the PrivacyQA dev file's own labels help on other policies?

The file's notion of "relevant" is broader than PolicyQA's answer spans (about 14 sentences per
question), so training on it might teach the retriever that notion. With 4 policies the only honest
way to measure that is cross-fitting: for each policy P, start from the shipped retriever
(weights/retriever/), train its top 3 layers on the other three policies' labels, and score only
P's questions. Loss: for each question of a batch (8 questions of one policy) against 48 of that
policy's sentences (their relevant ones first, then others), each relevant sentence against all
non-relevant ones (multi-positive InfoNCE, cosine × 20).

P's questions are scored two ways: with the shipped selection cell (the shipped cosine calibration,
practice match 6, margin 5, cap 20), and with the cell (calibration slope, match weight, bonus,
margin, cap) that is best on the three training policies. Whether a question is answered at all is
left to the shipped engine (its refusals and silence stand), so only the ranking and the set
change. Nothing is shipped; the numbers go to docs/results.md. About 3 min per policy at 100 steps.

    .venv/bin/python scripts/probe_crossfit_retriever.py [--steps 100] [--learning-rate 3e-5]
"""
from __future__ import annotations

import argparse
import itertools
import math
import random

import numpy as np
import torch
from tune_selection import CAPS, MARGINS, DevRow, dev_rows, select  # scripts/ is on sys.path

from assistant.config import DEFAULT_MAX_EVIDENCE, Settings
from assistant.corpora import corpus_dir
from assistant.evaluation.metrics import mean_score, question_score
from assistant.evaluation.privacyqa import load_privacyqa
from assistant.selection import NO_MATCH_LOGIT, topic_scores
from nlu.release import WEIGHTS_DIR
from retrieval.embedder import apply_release, load_base_model

QUESTIONS_PER_BATCH, SENTENCES_PER_BATCH, SCALE, TRAIN_LENGTH = 8, 48, 20.0, 64
SHIPPED = Settings.from_env()  # the engine's settings: the shipped selection cell
SILENCE = SHIPPED.silence_threshold
SLOPES = (8.0, 12.0, 16.0, 20.0, 25.0)
GRID = list(itertools.product(SLOPES, (0.0, 2.0, 4.0, 6.0, 8.0), (0.0, 1.0), MARGINS, CAPS))


def shipped_retriever():
    """The shipped retriever with its fine-tuned layers trainable; returns (model, params, calibration)."""
    model = load_base_model("cpu")
    config = apply_release(model, WEIGHTS_DIR / "retriever")
    params = []
    for name, param in model[0].auto_model.named_parameters():
        param.requires_grad = any(name.startswith(prefix) for prefix in config["trainable"])
        if param.requires_grad:
            params.append(param)
    return model, params, config["calibration"]


def fine_tune(dataset, rows: list[DevRow], policies: list[str], steps: int, learning_rate: float, seed: int):
    """The shipped retriever trained on `policies`' questions of the dev file (see the module docstring)."""
    torch.manual_seed(seed)
    rng = random.Random(seed)
    model, params, _ = shipped_retriever()
    inference_length, model.max_seq_length = model.max_seq_length, TRAIN_LENGTH
    optimizer = torch.optim.AdamW(params, lr=learning_rate, weight_decay=0.01)
    by_policy = {p: [r for r in rows if r.question.policy_id == p and r.question.references[0]] for p in policies}
    model.train()
    losses = []
    for step in range(steps):
        policy = rng.choice(policies)
        batch = rng.sample(by_policy[policy], min(QUESTIONS_PER_BATCH, len(by_policy[policy])))
        relevant = sorted({j for row in batch for j in row.question.references[0]})
        rng.shuffle(relevant)
        chosen = relevant[: SENTENCES_PER_BATCH // 2]
        known = set(relevant)
        others = [j for j in range(len(dataset.policies[policy])) if j not in known]
        chosen += rng.sample(others, min(len(others), SENTENCES_PER_BATCH - len(chosen)))
        questions = _embed(model, [row.question.question for row in batch])
        sentences = _embed(model, [dataset.policies[policy][j] for j in chosen])
        logits = SCALE * questions @ sentences.T
        loss = torch.zeros(())
        for a, row in enumerate(batch):
            positive = torch.tensor([j in row.question.references[0] for j in chosen])
            if positive.any():
                negatives = torch.logsumexp(logits[a][~positive], 0)
                loss = loss - (logits[a][positive] - torch.logaddexp(logits[a][positive], negatives)).mean()
        loss = loss / len(batch)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
        if (step + 1) % 25 == 0:
            print(f"    step {step + 1}/{steps} loss {np.mean(losses[-25:]):.3f}", flush=True)
    model.eval()
    model.max_seq_length = inference_length
    return model


def _embed(model, texts: list[str]) -> torch.Tensor:
    return model(model.preprocess(texts))["sentence_embedding"]


def cosines(model, dataset) -> list[np.ndarray]:
    """Cosine of every dev question with every sentence of its policy."""
    with torch.no_grad():
        vectors = {p: model.encode(s, batch_size=64, normalize_embeddings=True) for p, s in dataset.policies.items()}
        questions = model.encode([q.question for q in dataset.questions], batch_size=64, normalize_embeddings=True)
    return [vectors[q.policy_id] @ v for q, v in zip(dataset.questions, questions)]


def scores(rows: list[DevRow], cosine: list[np.ndarray], indices: list[int], cell: tuple,
           silence_cosine: float) -> list:
    """Per-question scores of `indices` with relevance = slope × (cosine − silence_cosine) + logit(SILENCE),
    which keeps the shipped engine's silence point; the shipped engine's refusals stand."""
    slope, match_weight, bonus, margin, cap = cell
    out = []
    for i in indices:
        row = rows[i]
        refused = row.reason is not None or row.relevance.max() < _logit(SILENCE)
        relevance = np.where(row.relevance > NO_MATCH_LOGIT, slope * (cosine[i] - silence_cosine) + _logit(SILENCE),
                             NO_MATCH_LOGIT)
        tuned = DevRow(row.question, row.reason, relevance, row.on_topic, row.match)
        predicted = frozenset() if refused else select(
            tuned, topic_scores(row.on_topic, row.match, bonus, match_weight), 0.0, margin, cap, 0.0)
        out.append(question_score(predicted, row.question.references))
    return out


def _logit(p: float) -> float:
    return math.log(p / (1 - p))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=100)
    parser.add_argument("--learning-rate", type=float, default=3e-5)
    parser.add_argument("--seed", type=int, default=13)
    arguments = parser.parse_args()
    torch.set_num_threads(2)
    dataset = load_privacyqa(corpus_dir("privacyqa") / "privacyqa_lb_dev.json")
    rows = dev_rows(dataset)
    _, _, calibration = shipped_retriever()
    silence_cosine = (_logit(SILENCE) - calibration["intercept"]) / calibration["slope"]
    shipped_cell = (calibration["slope"], SHIPPED.practice_match_weight, SHIPPED.category_bonus,
                    SHIPPED.evidence_margin, DEFAULT_MAX_EVIDENCE)
    policies = sorted(dataset.policies)
    columns = {"shipped retriever": [], "fine-tuned, shipped cell": [], "fine-tuned, cell chosen in-fold": []}
    for held_out in policies:
        train_policies = [p for p in policies if p != held_out]
        inside = [i for i, r in enumerate(rows) if r.question.policy_id != held_out]
        outside = [i for i, r in enumerate(rows) if r.question.policy_id == held_out]
        print(f"fold {held_out}: training on {len(inside)} questions of {', '.join(train_policies)}", flush=True)
        model = fine_tune(dataset, rows, train_policies, arguments.steps, arguments.learning_rate, arguments.seed)
        cosine = cosines(model, dataset)
        chosen = max(GRID, key=lambda c: mean_score(scores(rows, cosine, inside, c, silence_cosine)).f1)
        shipped = [question_score(select(rows[i], topic_scores(rows[i].on_topic, rows[i].match, SHIPPED.category_bonus,
                                                               SHIPPED.practice_match_weight), 0.0,
                                         SHIPPED.evidence_margin, DEFAULT_MAX_EVIDENCE, SILENCE),
                                  rows[i].question.references) for i in outside]
        fold = {"shipped retriever": shipped,
                "fine-tuned, shipped cell": scores(rows, cosine, outside, shipped_cell, silence_cosine),
                "fine-tuned, cell chosen in-fold": scores(rows, cosine, outside, chosen, silence_cosine)}
        for name, values in fold.items():
            columns[name].extend(values)
        print("  held-out F1: " + ", ".join(f"{name} {100 * mean_score(v).f1:.1f}" for name, v in fold.items())
              + f" (in-fold cell {chosen})", flush=True)
    for name, values in columns.items():
        total = mean_score(values)
        print(f"cross-fitted, {name}: P {100 * total.precision:.1f} R {100 * total.recall:.1f} F1 {100 * total.f1:.1f}")


if __name__ == "__main__":
    main()
