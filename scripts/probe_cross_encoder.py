"""Probe: does an in-domain cross-encoder help evidence selection on the PrivacyQA dev file?

Fine-tunes a cross-encoder (all-MiniLM-L6-v2, top 4 layers, a linear head over the mean-pooled
tokens of the pair) on the PolicyQA pairs rebuilt from OPP-115 (`retrieval.pairs`): each question
with its answering sentence and 3 sentences of the same policy that do not answer it (1 hard one,
from the fine-tuned retriever's top 20, and 2 at random), softmax over the 4. Then scores, for
every question of `privacyqa_lb_dev.json`, the 60 best sentences by the engine's relevance plus
practice match, adds `w` × the cross-encoder's logit (standardised over those 60; the others sink
by 3 × w) to the relevance logit, and sweeps the selection settings as `scripts/tune_selection.py`
does (a smaller grid; the context weight only where the file keeps its sentence order), with its
leave-one-policy-out check. Nothing is shipped; the numbers go to docs/results.md. About 2.4 s
per step on one core, plus 10–20 minutes of scoring.

    .venv/bin/python scripts/probe_cross_encoder.py [--steps 600] [--seed 13]
"""
from __future__ import annotations

import argparse
import dataclasses
import itertools
import random
import time

import numpy as np
import torch
from tune_selection import (  # scripts/ is on sys.path when this script runs
    DevRow,
    _sigmoid,
    dev_rows,
    leave_one_policy_out,
    select,
)

from assistant.config import Settings
from assistant.corpora import corpus_dir
from assistant.evaluation.metrics import mean_score, question_score
from assistant.evaluation.privacyqa import load_privacyqa
from assistant.selection import NO_MATCH_LOGIT, topic_scores
from nlu.encoder import freeze_below, load_base_encoder, mean_pool
from nlu.policyqa_data import rebuild_train
from nlu.release import WEIGHTS_DIR
from nlu.training import descend, optimizer_with_schedule
from retrieval.embedder import Embedder
from retrieval.pairs import build_pairs

RETRIEVER_DIR = WEIGHTS_DIR / "retriever"
SILENCE = Settings.from_env().silence_threshold
QUESTIONS_PER_STEP, LIST_SIZE, MAX_LENGTH, CANDIDATES = 8, 4, 96, 60
WEIGHTS = (0.5, 1.0, 2.0, 3.0)
GRID = {"match_weight": (4.0, 6.0, 8.0), "context_weight": (0.5, 0.7), "margin": (4.0, 5.0, 6.0),
        "cap": (15, 20)}


class CrossEncoder(torch.nn.Module):
    def __init__(self, bert) -> None:
        super().__init__()
        self.bert = bert
        self.head = torch.nn.Linear(bert.config.hidden_size, 1)

    def forward(self, **batch) -> torch.Tensor:
        states = self.bert(**batch).last_hidden_state
        return self.head(mean_pool(states, batch["attention_mask"])).squeeze(-1)


def train(steps: int, seed: int = 13) -> tuple[CrossEncoder, object]:
    torch.manual_seed(seed)
    bert, tokenizer = load_base_encoder()
    model = CrossEncoder(bert)
    encoder_params, head_params = freeze_below(bert, 4), list(model.head.parameters())
    pairs = build_pairs(rebuild_train()[0])
    embedder = Embedder(release=RETRIEVER_DIR)  # the fine-tuned retriever: its near misses are the hard negatives
    queries = sorted({(p.policy, p.triple, p.question) for p in pairs.pairs})
    sentence_vectors = {policy: embedder.encode(texts) for policy, texts in pairs.sentences.items()}
    hard = {}
    for query, vector in zip(queries, embedder.encode([q[2] for q in queries])):
        texts, relevant = pairs.sentences[query[0]], pairs.relevant[query[:2]]
        ranked = np.argsort(-(sentence_vectors[query[0]] @ vector))[:20]
        hard[query] = [texts[i] for i in ranked if texts[i] not in relevant]
    optimizer, schedule = optimizer_with_schedule([(encoder_params, 5e-5), (head_params, 1e-3)], steps, 30)
    rng = random.Random(seed)
    order = list(range(len(pairs.pairs)))
    rng.shuffle(order)
    model.train()
    started, losses = time.perf_counter(), []
    for step in range(steps):
        questions, sentences = [], []
        for j in range(QUESTIONS_PER_STEP):
            pair = pairs.pairs[order[(step * QUESTIONS_PER_STEP + j) % len(order)]]
            relevant = pairs.relevant[(pair.policy, pair.triple)]
            pool = hard[(pair.policy, pair.triple, pair.question)]
            negatives = rng.sample(pool, min(1, len(pool)))
            others = [s for s in pairs.sentences[pair.policy] if s not in relevant]
            while len(negatives) < LIST_SIZE - 1:
                negatives.append(rng.choice(others))
            questions += [pair.question] * LIST_SIZE
            sentences += [pair.positive] + negatives
        batch = tokenizer(questions, sentences, truncation="only_second", max_length=MAX_LENGTH, padding=True,
                          return_tensors="pt")
        logits = model(**batch).view(QUESTIONS_PER_STEP, LIST_SIZE)
        loss = torch.nn.functional.cross_entropy(logits, torch.zeros(QUESTIONS_PER_STEP, dtype=torch.long))
        losses.append(descend(loss, optimizer, schedule, encoder_params + head_params))
        if (step + 1) % 100 == 0 or step + 1 == steps:
            rate = (time.perf_counter() - started) / (step + 1)
            print(f"step {step + 1}/{steps} loss {np.mean(losses[-100:]):.3f} ({rate:.2f} s/step)", flush=True)
    return model.eval(), tokenizer


@torch.inference_mode()
def cross_scores(model: CrossEncoder, tokenizer, question: str, sentences: list[str]) -> np.ndarray:
    scores = np.zeros(len(sentences))
    order = sorted(range(len(sentences)), key=lambda i: len(sentences[i]))
    for first in range(0, len(order), 64):
        rows = order[first : first + 64]
        batch = tokenizer([question] * len(rows), [sentences[i] for i in rows], truncation="only_second",
                          max_length=MAX_LENGTH, padding=True, return_tensors="pt")
        scores[rows] = model(**batch).numpy()
    return scores


def mixed_relevance(row: DevRow, cross: np.ndarray, weight: float) -> np.ndarray:
    """The row's relevance logits plus `weight` × the cross-encoder's standardised logit (NaN: not
    scored, sinks by 3 × weight)."""
    scored = ~np.isnan(cross)
    z = np.full(len(cross), -3.0)
    if scored.sum() > 1 and cross[scored].std() > 0:
        z[scored] = (cross[scored] - cross[scored].mean()) / cross[scored].std()
    return np.where(row.relevance > NO_MATCH_LOGIT, row.relevance + weight * z, row.relevance)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=600)
    parser.add_argument("--seed", type=int, default=13)
    arguments = parser.parse_args()
    dataset = load_privacyqa(corpus_dir("privacyqa") / "privacyqa_lb_dev.json")
    model, tokenizer = train(arguments.steps, arguments.seed)
    rows = dev_rows(dataset)
    cross = []
    for row in rows:
        scores = np.full(len(row.relevance), np.nan)
        if row.reason is None:
            candidates = [int(i) for i in np.argsort(-(row.relevance + 6.0 * row.match))[:CANDIDATES]
                          if row.relevance[i] > NO_MATCH_LOGIT]
            sentences = dataset.policies[row.question.policy_id]
            texts = [sentences[i] for i in candidates]
            scores[candidates] = cross_scores(model, tokenizer, row.question.question, texts)
        cross.append(scores)
    grid = GRID if dataset.ordered else {**GRID, "context_weight": (0.0,)}  # no order, no neighbours
    variants = {0.0: [row.relevance for row in rows]}
    variants |= {w: [mixed_relevance(row, c, w) for row, c in zip(rows, cross)] for w in WEIGHTS}
    results = []  # ((cross weight, match weight, context, margin, cap), per-question F1, mean score)
    for weight, relevance in variants.items():
        for match_weight, context, margin, cap in itertools.product(*grid.values()):
            predictions = []
            for row, mixed in zip(rows, relevance):
                if row.reason is not None or _sigmoid(row.relevance.max()) < SILENCE:  # silence on the retriever alone
                    predictions.append(frozenset())
                    continue
                topic = topic_scores(row.on_topic, row.match, 0.0, match_weight)
                predictions.append(select(dataclasses.replace(row, relevance=mixed), topic, context, margin, cap, 0.0))
            scores = [question_score(p, row.question.references) for p, row in zip(predictions, rows)]
            results.append(((weight, match_weight, context, margin, cap), np.array([s.f1 for s in scores]),
                            mean_score(scores)))
    for weight in variants:
        best = max((r for r in results if r[0][0] == weight), key=lambda r: r[2].f1)
        print(f"relevance + {weight:g} x cross-encoder: best cell {best[0][1:]} P {100 * best[2].precision:.1f} "
              f"R {100 * best[2].recall:.1f} F1 {100 * best[2].f1:.1f}")
    alone = [r for r in results if r[0][0] == 0.0]
    for label, pool in (("retriever alone", alone), ("with the cross-encoder", results)):
        print(f"leave-one-policy-out F1, {label}: {100 * leave_one_policy_out(rows, pool):.1f}")


if __name__ == "__main__":
    main()
