"""Scoring the retriever: ranking quality (MRR@10, recall@10) on PolicyQA-style examples."""
from __future__ import annotations

import random

import numpy as np

from assistant.models.retriever.pairs import build_pairs


def retrieval_scores(model, examples, limit: int | None = None, seed: int = 0) -> dict[str, float]:
    """Ranking quality on PolicyQA-style examples: each question ranks all sentences of its policy.

    Reports MRR@10 of the first relevant sentence and recall@10 of the relevant set, in %.
    """
    pair_set = build_pairs(examples)
    queries = sorted({(p.policy, p.triple, p.question) for p in pair_set.pairs})
    if limit:
        queries = random.Random(seed).sample(queries, min(limit, len(queries)))
    sentence_vectors = {
        policy: model.encode(texts, batch_size=64, normalize_embeddings=True, convert_to_numpy=True)
        for policy, texts in pair_set.sentences.items()
    }
    question_vectors = model.encode([q[2] for q in queries], batch_size=64, normalize_embeddings=True)
    mrr, recall = [], []
    for (policy, triple, _), vector in zip(queries, question_vectors):
        texts = pair_set.sentences[policy]
        relevant = pair_set.relevant[(policy, triple)]
        top = np.argsort(-(sentence_vectors[policy] @ vector))[:10]
        hits = [rank for rank, i in enumerate(top) if texts[i] in relevant]
        mrr.append(1 / (hits[0] + 1) if hits else 0.0)
        recall.append(len(hits) / len(relevant))
    return {"questions": len(queries), "mrr_at_10": round(100 * float(np.mean(mrr)), 1),
            "recall_at_10": round(100 * float(np.mean(recall)), 1)}
