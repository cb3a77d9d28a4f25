"""Probe: do wider retriever positives help evidence selection on the PrivacyQA dev file?

PrivacyQA's annotators mark every sentence relevant to a question; the shipped retriever learns
only the sentences that hold a PolicyQA answer span. This probe adds, for each rebuilt PolicyQA
example, the sentences of the same segment that at least half of OPP-115's annotators marked with
the example's practice (`nlu.practice_sentences`) as positives (and never as negatives), then
trains the shipped recipe (`retrieval.finetune`, 700 steps) into `.train/runs/retriever-topical`.
Nothing is shipped. To score it, copy that release over `weights/retriever/` (keep a copy of the
shipped one), run `scripts/tune_selection.py`, and put the shipped one back. About 20 min on the
2 cores. The PolicyQA dev MRR it prints counts the wider positives as relevant too, so it is not
comparable with the release's.

    .venv/bin/python scripts/probe_retriever_topical.py
"""
from __future__ import annotations

import collections
from pathlib import Path

from nlu.policyqa_data import QAExample, opp115_policies
from nlu.practice_sentences import _policy_sentences
from retrieval import finetune
from retrieval.pairs import PairSet, RelevancePair, answer_sentences

MIN_SHARE = 0.5  # a sentence is on the practice when at least half the annotators marked it


def build_topical_pairs(examples: list[QAExample]) -> PairSet:
    """`retrieval.pairs.build_pairs`, with each example's on-practice segment sentences as positives
    too (except where that would leave a policy without negatives for the triple)."""
    paths = opp115_policies()
    shares: dict[str, dict[str, dict[str, float]]] = {}
    answering: dict[tuple[str, str], set[str]] = collections.defaultdict(set)
    relevant: dict[tuple[str, str], set[str]] = collections.defaultdict(set)
    sentences: dict[str, dict[str, None]] = collections.defaultdict(dict)
    pairs: dict[RelevancePair, None] = {}
    for example in examples:
        if example.policy not in shares:
            labelled = _policy_sentences(example.policy, paths[example.policy])
            shares[example.policy] = {s.text: s.targets for s in labelled}
        texts, positives = answer_sentences(example)
        practice = example.type.split("|||")[0]
        on_practice = {t for t in texts if shares[example.policy].get(t, {}).get(practice, 0.0) >= MIN_SHARE}
        key = (example.policy, example.type)
        answering[key].update(positives)
        relevant[key].update(positives | on_practice)
        sentences[example.policy].update(dict.fromkeys(texts))
        for positive in sorted(positives | on_practice):
            pairs[RelevancePair(example.question, positive, example.policy, example.type)] = None
    for key, texts in relevant.items():
        if len(texts) >= len(sentences[key[0]]) - 2:  # keep sentences to draw negatives from
            relevant[key] = set(answering[key])
    kept = [pair for pair in pairs if pair.positive in relevant[(pair.policy, pair.triple)]]
    print(f"{len(kept)} pairs")
    return PairSet(kept, {k: frozenset(v) for k, v in relevant.items()},
                   {policy: list(texts) for policy, texts in sentences.items()})


def main() -> None:
    finetune.build_pairs = build_topical_pairs  # train_release and its dev evaluation build pairs with it
    print(finetune.train_release(finetune.TrainConfig(), directory=Path(".train/runs/retriever-topical"),
                                 checkpoint_dir=Path(".train/retriever-topical")))


if __name__ == "__main__":
    main()
