"""Probe: does matching OPP-115 attribute values (finer than the 12 practices) help evidence selection?

The practice match tells a sharing question from a retention question, but not "do you share my
location?" from "do you share my email?". OPP-115 annotators also highlighted attribute values
(Personal Information Type = Location, Purpose = Advertising, Third Party Entity = Named third
party, Retention Period, Choice Type, Security Measure, ...). This probe labels every sentence of the
PolicyQA-train OPP-115 policies (`nlu.policyqa_data.train_policies`: none of PolicyQA dev/test)
with the values whose highlight overlaps it (values seen on at least 40 sentences; Unspecified and
Other left out), fits `nlu.lexical.LexicalCategoryModel` on them (TF-IDF + one logistic regression
per value), and runs it on the PrivacyQA dev file's questions and sentences. The attribute match
of a sentence (its value probabilities against the question's: a weighted mean, "dot", or the
cosine) times a weight is added to the topic score, and the selection settings are swept as in
`scripts/tune_selection.py` (no context weight: the file has no sentence order), with its
leave-one-policy-out check. Nothing is shipped; the numbers go to docs/results.md.

    .venv/bin/python scripts/probe_attribute_match.py
"""
from __future__ import annotations

import collections

import numpy as np
from tune_selection import dev_rows, leave_one_policy_out, sweep_added_score  # scripts/ is on sys.path

from assistant.config import Settings
from assistant.corpora import corpus_dir
from assistant.evaluation.privacyqa import load_privacyqa
from assistant.sentences import split_sentences
from nlu.lexical import LexicalCategoryModel
from nlu.policyqa_data import annotated_policy, opp115_policies, train_policies

ATTRIBUTES = {"Personal Information Type", "Purpose", "Third Party Entity", "Retention Period", "Retention Purpose",
              "Choice Type", "Choice Scope", "Access Type", "Access Scope", "Security Measure", "User Type",
              "Action First-Party", "Action Third Party", "Audience Type", "Identifiability"}
NOT_A_VALUE = {"Unspecified", "Other", "not-selected", "null", ""}
MIN_SENTENCES = 40
WEIGHTS = {"dot": (0.0, 2.0, 4.0, 8.0), "cos": (2.0, 4.0, 8.0)}
GRID = {"match_weight": (4.0, 6.0, 8.0), "margin": (3.0, 4.0, 5.0, 6.0), "cap": (15, 20, 30)}


def labelled_sentences() -> tuple[list[str], list[set[str]]]:
    """Every sentence of the PolicyQA-train OPP-115 policies with the attribute values highlighted in it."""
    paths = opp115_policies()
    texts, labels = [], []
    for name in train_policies():
        segments, rows = annotated_policy(paths[name])
        spans = [list(split_sentences(segment)) for segment in segments]
        marks: dict[tuple[int, int], set[str]] = collections.defaultdict(set)
        for row in rows:
            for attribute, value, text in row.highlights():
                if attribute not in ATTRIBUTES or value.get("value") in NOT_A_VALUE:
                    continue
                start = value["startIndexInSegment"]
                end = value.get("endIndexInSegment", start + len(text))
                for k, (first, last) in enumerate(spans[row.segment_id]):
                    if first < end and start < last:
                        marks[(row.segment_id, k)].add(f"{attribute}={value['value']}")
        for segment_id, segment in enumerate(segments):
            for k, (first, last) in enumerate(spans[segment_id]):
                if segment[first:last].strip():
                    texts.append(segment[first:last].strip())
                    labels.append(marks.get((segment_id, k), set()))
    return texts, labels


def attribute_match(question: np.ndarray, sentences: np.ndarray, kind: str) -> np.ndarray:
    if kind == "dot":
        return sentences @ question / max(float(question.sum()), 1e-6)
    return sentences @ question / (np.linalg.norm(sentences, axis=1) * np.linalg.norm(question) + 1e-6)


def main() -> None:
    texts, labels = labelled_sentences()
    counts = collections.Counter(value for label in labels for value in label)
    values = sorted(v for v, n in counts.items() if n >= MIN_SENTENCES)
    print(f"{len(texts)} sentences, {len(values)} attribute values")
    model = LexicalCategoryModel.fit(texts, np.array([[v in label for v in values] for label in labels]),
                                     min_df=2, c=4.0)
    dataset = load_privacyqa(corpus_dir("privacyqa") / "privacyqa_lb_dev.json")
    rows = dev_rows(dataset)
    sentence_values = {p: model.probabilities(s) for p, s in dataset.policies.items()}
    question_values = model.probabilities([row.question.question for row in rows])
    silence = Settings.from_env().silence_threshold
    results = []  # ((kind, weight, match weight, margin, cap), per-question F1, score)
    for kind, weights in WEIGHTS.items():
        matches = [attribute_match(q, sentence_values[row.question.policy_id], kind)
                   for row, q in zip(rows, question_values)]
        results += [((kind, *cell), f1, score) for cell, f1, score in sweep_added_score(
            rows, matches, weights, GRID["match_weight"], GRID["margin"], GRID["cap"], silence)]
    for kind, weight in sorted({r[0][:2] for r in results}):
        best = max((r for r in results if r[0][:2] == (kind, weight)), key=lambda r: r[2].f1)
        print(f"{kind} x {weight:g}: best cell (match, margin, cap) {best[0][2:]} F1 {100 * best[2].f1:.1f}")
    alone = [r for r in results if r[0][1] == 0.0]
    print(f"leave-one-policy-out F1: without {100 * leave_one_policy_out(rows, alone):.1f}, "
          f"with the dot match swept {100 * leave_one_policy_out(rows, [r for r in results if r[0][0] == 'dot']):.1f}, "
          f"with either {100 * leave_one_policy_out(rows, results):.1f}")


if __name__ == "__main__":
    main()
