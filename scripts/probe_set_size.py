"""Probe: where evidence selection loses F1 on the PrivacyQA dev file, and two order-free ideas.

Scores every dev question once (`scripts/tune_selection.py`'s `dev_rows`: the engine's relevance
logits and practice match, the file's sentences in the harness's shuffled order), then prints:

1. **Ceilings** of the engine's ranking (relevance + 6 × practice match): the top |reference|
   sentences (the reference size known; "no silence" also knows which questions have none), the
   best prefix of the ranking per question, and a fixed top k.
2. **Expected-F1 set size**: a logistic regression maps (relevance logit, practice match, on-topic)
   to P(a sentence is in the reference), fitted on the answerable questions; the evidence is the
   prefix of the ranking by that probability that maximises 2 Σ p / (k + α Σ_all p), the expected
   F1 if the probabilities are right. Scored in-sample and leave-one-policy-out (fitted on three
   policies, scored on the fourth).
3. **Semantic neighbours**: each sentence's relevance gets w × the mean score of its k most
   similar sentences of the policy (cosine of the fine-tuned retriever's embeddings), the
   order-free analogue of the neighbours' share; swept with the selection settings, with the
   leave-one-policy-out check.

Nothing is shipped; the numbers go to docs/results.md.

    .venv/bin/python scripts/probe_set_size.py
"""
from __future__ import annotations

import dataclasses
import itertools

import numpy as np
from sklearn.linear_model import LogisticRegression
from tune_selection import DevRow, _sigmoid, dev_rows, leave_one_policy_out, select  # scripts/ is on sys.path

from assistant.config import Settings
from assistant.corpora import corpus_dir
from assistant.evaluation.metrics import Score, mean_score, question_score
from assistant.evaluation.privacyqa import load_privacyqa
from assistant.selection import NO_MATCH_LOGIT, topic_scores
from nlu.release import WEIGHTS_DIR
from retrieval.embedder import Embedder

SETTINGS = Settings.from_env()


def _score(predictions, rows: list[DevRow]) -> Score:
    return mean_score(question_score(p, row.question.references) for p, row in zip(predictions, rows))


def _silent(row: DevRow) -> bool:
    return row.reason is not None or _sigmoid(row.relevance.max()) < SETTINGS.silence_threshold


def _ranking(row: DevRow) -> list[int]:
    scores = row.relevance + topic_scores(row.on_topic, row.match, 0.0, SETTINGS.practice_match_weight)
    return [int(i) for i in np.argsort(-scores, kind="stable") if row.relevance[i] > NO_MATCH_LOGIT]


def ceilings(rows: list[DevRow]) -> None:
    def best_prefix(row: DevRow) -> frozenset[int]:
        order = _ranking(row)
        k = max(range(1, 41), key=lambda k: question_score(frozenset(order[:k]), row.question.references).f1)
        return frozenset(order[:k])

    lines = {
        "top |reference| (no silence)": [frozenset(_ranking(r)[: len(r.question.references[0])]) for r in rows],
        "top |reference| (engine's silence)": [
            frozenset() if _silent(r) else frozenset(_ranking(r)[: max(1, len(r.question.references[0]))])
            for r in rows],
        "best prefix per question (engine's silence)": [frozenset() if _silent(r) else best_prefix(r) for r in rows],
    } | {f"fixed top {k}": [frozenset() if _silent(r) else frozenset(_ranking(r)[:k]) for r in rows]
         for k in (5, 10, 15, 20, 25)}
    for label, predictions in lines.items():
        score = _score(predictions, rows)
        print(f"ceiling, {label}: P {100 * score.precision:.1f} R {100 * score.recall:.1f} F1 {100 * score.f1:.1f}")


def _features(row: DevRow) -> tuple[np.ndarray, np.ndarray]:
    usable = row.relevance > NO_MATCH_LOGIT
    return np.stack([np.where(usable, row.relevance, NO_MATCH_LOGIT), row.match, row.on_topic], 1), usable


def _fit(rows: list[DevRow]) -> LogisticRegression:
    features, labels = [], []
    for row in rows:
        if row.reason is None and row.question.answerable:
            x, usable = _features(row)
            reference = row.question.references[0]
            features.append(x[usable])
            labels.append(np.array([i in reference for i in np.flatnonzero(usable)]))
    return LogisticRegression(max_iter=1000).fit(np.concatenate(features), np.concatenate(labels))


def _expected_f1_set(row: DevRow, model: LogisticRegression, alpha: float, cap: int = 40) -> frozenset[int]:
    if _silent(row):
        return frozenset()
    x, usable = _features(row)
    p = np.where(usable, model.predict_proba(x)[:, 1], 0.0)
    order = np.argsort(-p, kind="stable")
    cumulative = np.cumsum(p[order])[:cap]
    expected = 2 * cumulative / (np.arange(1, len(cumulative) + 1) + alpha * p.sum())
    return frozenset(int(i) for i in order[: int(np.argmax(expected)) + 1])


def expected_f1(rows: list[DevRow]) -> None:
    policies = np.array([row.question.policy_id for row in rows])
    everything = _fit(rows)
    held_out_models = {p: _fit([r for r, q in zip(rows, policies) if q != p]) for p in sorted(set(policies))}
    for alpha in (0.8, 1.0, 1.2):
        in_sample = _score([_expected_f1_set(r, everything, alpha) for r in rows], rows)
        held_out = [_expected_f1_set(r, held_out_models[q], alpha) for r, q in zip(rows, policies)]
        print(f"expected-F1 size, alpha {alpha:g}: in-sample P {100 * in_sample.precision:.1f} "
              f"R {100 * in_sample.recall:.1f} F1 {100 * in_sample.f1:.1f}; leave-one-policy-out F1 "
              f"{100 * _score(held_out, rows).f1:.1f}, mean size {np.mean([len(p) for p in held_out]):.1f}")


def semantic_neighbours(rows: list[DevRow], dataset) -> None:
    embedder = Embedder(release=WEIGHTS_DIR / "retriever")
    similarity = {}
    for policy, sentences in dataset.policies.items():
        vectors = embedder.encode(sentences)
        similarity[policy] = vectors @ vectors.T
        np.fill_diagonal(similarity[policy], -2.0)
    results = []  # ((match weight, k, w, margin, cap), per-question F1, score)
    for match_weight, k, weight in itertools.product((4.0, 6.0, 8.0), (3, 5, 10), (0.0, 0.2, 0.4, 0.7)):
        if weight == 0.0 and k != 3:
            continue
        smoothed = []
        for row in rows:
            topic = topic_scores(row.on_topic, row.match, 0.0, match_weight)
            usable = row.relevance > NO_MATCH_LOGIT
            scores = np.where(usable, row.relevance + topic, -50.0)
            nearest = np.argsort(-np.where(usable[None, :], similarity[row.question.policy_id], -2.0), axis=1)[:, :k]
            relevance = np.where(usable, row.relevance + weight * scores[nearest].mean(1), row.relevance)
            smoothed.append((dataclasses.replace(row, relevance=relevance), topic))
        for margin, cap in itertools.product((3.0, 4.0, 5.0, 6.0), (15, 20, 30)):
            scores = [question_score(select(r, t, 0.0, margin, cap, SETTINGS.silence_threshold), r.question.references)
                      for r, t in smoothed]
            results.append(((match_weight, k, weight, margin, cap), np.array([s.f1 for s in scores]),
                            mean_score(scores)))
    for weight in (0.0, 0.2, 0.4, 0.7):
        best = max((r for r in results if r[0][2] == weight), key=lambda r: r[2].f1)
        print(f"semantic neighbours, w {weight:g}: best cell (match, k, w, margin, cap) {best[0]} "
              f"F1 {100 * best[2].f1:.1f}")
    alone = [r for r in results if r[0][2] == 0.0]
    print(f"leave-one-policy-out F1: without {100 * leave_one_policy_out(rows, alone):.1f}, "
          f"with the weight swept too {100 * leave_one_policy_out(rows, results):.1f}")


def main() -> None:
    dataset = load_privacyqa(corpus_dir("privacyqa") / "privacyqa_lb_dev.json")
    rows = dev_rows(dataset)
    ceilings(rows)
    expected_f1(rows)
    semantic_neighbours(rows, dataset)


if __name__ == "__main__":
    main()
