"""Probe: does an in-domain cross-encoder help evidence selection on the PrivacyQA dev file?

Fine-tunes a cross-encoder (all-MiniLM-L6-v2, top 3 layers, a linear head over the mean-pooled
tokens) on the PolicyQA pairs rebuilt from OPP-115 (`retrieval.pairs`): each question with its
answering sentence and 3 sentences of the same policy that do not answer it (2 hard ones, from the
fine-tuned retriever's top 30, and 1 at random), softmax over the 4. Then scores every (question,
sentence) pair of `privacyqa_lb_dev.json` and compares, with the engine's default selection
settings (`Settings`, evidence cap 15): the shipped retriever alone, the cross-encoder alone, and
the retriever's relevance logit plus `w` × the cross-encoder's logit. Nothing is shipped; the
numbers go to docs/results.md. One CPU core: about 2 s per step, plus a few minutes of scoring.

    .venv/bin/python scripts/probe_cross_encoder.py [--steps 500]
"""
from __future__ import annotations

import argparse
import dataclasses
import random
import time

import numpy as np
import torch
from tune_selection import dev_rows, select  # scripts/ is on sys.path when this script runs

from assistant.config import DEFAULT_MAX_EVIDENCE, Settings
from assistant.corpora import corpus_dir
from assistant.evaluation.metrics import mean_score, question_score
from assistant.evaluation.privacyqa import load_privacyqa
from assistant.selection import NO_MATCH_LOGIT, topic_scores
from nlu.encoder import freeze_below, load_base_encoder, mean_pool
from nlu.policyqa_data import rebuild_train
from nlu.training import descend, optimizer_with_schedule
from retrieval.embedder import Embedder
from retrieval.pairs import build_pairs

QUESTIONS_PER_STEP, LIST_SIZE, MAX_LENGTH = 8, 4, 96


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
    encoder_params, head_params = freeze_below(bert, 3), list(model.head.parameters())
    pairs = build_pairs(rebuild_train()[0])
    embedder = Embedder()
    queries = sorted({(p.policy, p.triple, p.question) for p in pairs.pairs})
    sentence_vectors = {policy: embedder.encode(texts) for policy, texts in pairs.sentences.items()}
    hard = {}
    for query, vector in zip(queries, embedder.encode([q[2] for q in queries])):
        texts, relevant = pairs.sentences[query[0]], pairs.relevant[query[:2]]
        ranked = np.argsort(-(sentence_vectors[query[0]] @ vector))[:30]
        hard[query] = [texts[i] for i in ranked if texts[i] not in relevant]
    optimizer, schedule = optimizer_with_schedule([(encoder_params, 1e-4), (head_params, 1e-3)], steps, 60)
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
            negatives = rng.sample(pool, min(2, len(pool)))
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
        if (step + 1) % 100 == 0:
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


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=500)
    steps = parser.parse_args().steps
    dataset = load_privacyqa(corpus_dir("privacyqa") / "privacyqa_lb_dev.json")
    model, tokenizer = train(steps)
    rows = dev_rows(dataset)
    cross = [cross_scores(model, tokenizer, q.question, dataset.policies[q.policy_id]) for q, *_ in rows]
    for name, key in (("retriever", lambda z, c: z), ("cross-encoder", lambda z, c: c)):
        recall, first = [], []
        for row, scores in zip(rows, cross):
            reference = row.question.references[0]
            if reference:
                ranked = [int(i) for i in np.argsort(-key(row.relevance, scores))]
                recall.append(len(set(ranked[:10]) & reference) / len(reference))
                first.append(ranked[0] in reference)
        print(f"{name} alone: recall@10 {100 * np.mean(recall):.1f}, precision@1 {100 * np.mean(first):.1f}")
    settings = Settings.from_env()
    for weight in (0.0, 0.1, 0.2, 0.3, 0.5):
        predictions = []
        for row, scores in zip(rows, cross):
            mixed = np.where(row.relevance > NO_MATCH_LOGIT, row.relevance + weight * scores, NO_MATCH_LOGIT)
            topic = topic_scores(row.on_topic, row.match, settings.category_bonus, settings.practice_match_weight)
            predictions.append(select(dataclasses.replace(row, relevance=mixed), topic, settings.context_weight,
                                      settings.evidence_margin, DEFAULT_MAX_EVIDENCE, settings.silence_threshold))
        score = mean_score(question_score(p, row.question.references) for p, row in zip(predictions, rows))
        print(f"relevance + {weight:g} x cross-encoder: P {100 * score.precision:.1f} R {100 * score.recall:.1f} "
              f"F1 {100 * score.f1:.1f}")


if __name__ == "__main__":
    main()
