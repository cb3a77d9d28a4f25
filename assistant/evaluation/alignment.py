"""Alignment of policy segments by privacy issue, scored as Liu, Ramanath, Sadeh & Smith (COLING 2014) score
theirs: pairwise precision, recall and F1 of "same issue" decisions between segments of different policies
(`assistant eval alignment`).

Data: the OPP-115 majority split that the practice tagger was trained and tested on (PrivacyGLUE:
weights/practice_categories/manifest.json). Its rows are segments, not policies: each segment is traced back
to the OPP-115 policy (or policies: identical boilerplate) whose sanitized file holds it, comparing letters and
digits only. Gold: a segment's majority categories (12 labels: the nine practices and three "Other" ones).

"Same issue" for multi-label segments: two segments address the same issue when their category sets share at
least one category (the gold, and the tagger's predicted sets); for a clustering, when they are in the same
cluster. A pair counts only when the two segments come from different policies (no policy in common).

Methods, none tuned on test: a bag-of-words baseline (TF-IDF + k-means), k-means on the retriever's
embeddings (k of both chosen on the validation split by pairwise F1), and the practice tagger's labels
(trained on the train split, thresholds on validation).
"""
from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from assistant.corpora.opp115 import opp115_policies, segment_text
from assistant.corpora.practice_segments import load_split

K_CHOICES = (6, 8, 10, 12, 15, 20, 25, 30, 40)
SEED = 0


@dataclass(frozen=True)
class PolicySegment:
    """A majority-split segment, the OPP-115 policies it appears in, and its gold categories."""

    text: str
    policies: frozenset[str]
    categories: frozenset[str]


@dataclass(frozen=True)
class PairScore:
    """Pairwise precision / recall / F1 (%) of one method's "same issue" decisions, with its setting."""

    method: str
    precision: float
    recall: float
    f1: float
    setting: str = ""  # e.g. "k=12 (chosen on validation)"


def _letters(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


@lru_cache(maxsize=1)
def _segment_policies() -> dict[str, frozenset[str]]:
    found: dict[str, set[str]] = {}
    for name, path in opp115_policies().items():
        for raw in path.read_text(encoding="utf-8").split("|||"):
            found.setdefault(_letters(segment_text(raw)), set()).add(name)
    return {key: frozenset(names) for key, names in found.items()}


def policy_segments(split: str, limit: int | None = None) -> list[PolicySegment]:
    """The split's segments with their policies (segments found in no policy are left out: none today)."""
    where = _segment_policies()
    segments = [PolicySegment(e.text, where.get(_letters(e.text), frozenset()), e.labels) for e in load_split(split)]
    return [s for s in segments if s.policies][:limit]


def cross_policy_pairs(segments: Sequence[PolicySegment]) -> np.ndarray:
    """(n, n) booleans: i < j and the two segments share no policy."""
    names = sorted({p for s in segments for p in s.policies})
    member = np.array([[p in s.policies for p in names] for s in segments], dtype=np.float32)
    return np.triu(member @ member.T == 0, k=1)


def same_issue(label_sets: Sequence[frozenset[str] | set[str]]) -> np.ndarray:
    """(n, n) booleans: the two items share at least one label (a cluster id is a one-label set)."""
    labels = sorted({label for labels in label_sets for label in labels})
    member = np.array([[label in s for label in labels] for s in label_sets], dtype=np.float32)
    return member @ member.T > 0


def pairwise_score(method: str, predicted: np.ndarray, gold: np.ndarray, pairs: np.ndarray, setting: str = ""
                   ) -> PairScore:
    """Precision, recall and F1 (%) of the predicted "same issue" pairs among `pairs`."""
    true_positive = float(np.sum(predicted & gold & pairs))
    predicted_positive, gold_positive = float(np.sum(predicted & pairs)), float(np.sum(gold & pairs))
    precision = true_positive / predicted_positive if predicted_positive else 0.0
    recall = true_positive / gold_positive if gold_positive else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return PairScore(method, round(100 * precision, 1), round(100 * recall, 1), round(100 * f1, 1), setting)


def kmeans_clusters(vectors, k: int) -> list[set[int]]:
    from sklearn.cluster import KMeans

    clusters = KMeans(n_clusters=k, n_init=10, random_state=SEED).fit_predict(vectors)
    return [{int(c)} for c in clusters]


def tfidf_vectors(texts: Sequence[str]):
    from sklearn.feature_extraction.text import TfidfVectorizer

    return TfidfVectorizer(ngram_range=(1, 2), min_df=2, sublinear_tf=True, stop_words="english").fit_transform(texts)


def choose_k(represent: Callable[[list[str]], object], segments: Sequence[PolicySegment]) -> tuple[int, float]:
    """The k of K_CHOICES (those below the number of segments) with the best pairwise F1 on `segments`."""
    vectors = represent([s.text for s in segments])
    gold, pairs = same_issue([s.categories for s in segments]), cross_policy_pairs(segments)
    scored = [(pairwise_score("", same_issue(kmeans_clusters(vectors, k)), gold, pairs).f1, k)
              for k in K_CHOICES if k < len(segments)]
    f1, k = max(scored)
    return k, f1


def evaluate(split: str = "test", limit: int | None = None, tune_split: str = "validation",
             progress: Callable[[str], None] | None = None) -> dict:
    """Pairwise scores of every method on `split` (k chosen on `tune_split`, never on `split`)."""
    if split == tune_split:
        raise ValueError("the split scored and the split k is chosen on must differ")
    say = progress or (lambda _: None)
    test, tune = policy_segments(split, limit), policy_segments(tune_split, limit)
    gold, pairs = same_issue([s.categories for s in test]), cross_policy_pairs(test)
    texts = [s.text for s in test]
    rows = [pairwise_score("every pair the same issue (base rate)", np.ones_like(gold), gold, pairs)]

    say("bag of words")
    k, _ = choose_k(tfidf_vectors, tune)
    rows.append(pairwise_score("TF-IDF + k-means (bag-of-words baseline)",
                               same_issue(kmeans_clusters(tfidf_vectors(texts), k)), gold, pairs,
                               f"k={k} (chosen on {tune_split})"))

    say("embeddings")
    from assistant.models.retriever.model import Embedder  # lazy: torch loads only when scoring

    retriever = Embedder.load_retriever()
    k, _ = choose_k(retriever.encode, tune)
    rows.append(pairwise_score("retriever embeddings + k-means", same_issue(kmeans_clusters(retriever.encode(texts), k)),
                               gold, pairs, f"k={k} (chosen on {tune_split})"))

    say("practice tagger")
    from assistant.models.practices.model import PracticeClassifier  # lazy: torch loads only when scoring

    predicted = [set(labels) for labels in PracticeClassifier.load().predict(texts)]
    rows.append(pairwise_score("practice tagger: share a predicted category (ours)", same_issue(predicted), gold,
                               pairs, "shipped thresholds"))
    return {"split": split, "segments": len(test), "policies": len({p for s in test for p in s.policies}),
            "cross_policy_pairs": int(pairs.sum()), "same_issue_pairs": int((gold & pairs).sum()),
            "tuned_on": {"split": tune_split, "segments": len(tune)},
            "same_issue": "the two segments' category sets share at least one category; pairs from different "
                          "policies only",
            "methods": [row.__dict__ for row in rows]}
