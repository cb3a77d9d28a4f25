"""Settings read from the environment, with documented defaults."""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from platformdirs import user_data_dir

from assistant.errors import AssistantError

DEFAULT_MAX_BYTES = 10 * 1024 * 1024
MAX_QUESTION_CHARS = 1000

# Relevance probability (the fine-tuned retriever's calibrated cosine, without the category bonus)
# below which the best evidence is too weak to quote: the answer becomes `answerable: false,
# reason: policy_silent`. Tuned with the other selection settings on the PrivacyQA dev file by
# scripts/tune_selection.py (docs/results.md).
DEFAULT_SILENCE_THRESHOLD = 0.05

# Evidence beyond the answer sentence is kept while its selection logit (relevance, topic score and
# the neighbours' share, see assistant/selection.py) comes within this margin of the answer's (at
# most --top sentences), so the evidence set's size follows the scores. Tuned with
# scripts/tune_selection.py.
DEFAULT_EVIDENCE_MARGIN = 5.0
# The cap on evidence sentences when the whole evidence set is wanted (`assistant eval privacyqa`;
# `ask` shows --top, 3 by default). Tuned with the margin.
DEFAULT_MAX_EVIDENCE = 20

# Question categories (OPP-115) predicted with at least this probability steer retrieval: a policy
# with no sentence of those categories is `policy_silent`, and candidate sentences tagged with one
# of them may get `category_bonus` added to their relevance logit (0: the softer match below does
# better on the PrivacyQA dev file).
DEFAULT_CATEGORY_CONFIDENCE = 0.9
DEFAULT_CATEGORY_BONUS = 0.0
# A policy covers a category when one of its sentences has at least this tagger probability for it
# (or was tagged with it). Below the tagger's decision thresholds on purpose: calling a policy
# silent is a strong claim, and the tagger's sentence probabilities are shares of annotators (a
# sentence one annotator in three would mark is trained towards 0.33).
DEFAULT_COVERAGE_THRESHOLD = 0.2
# ...and a sentence whose relevance probability (without the bonus) reaches this value answers the
# question even when the policy does not cover the question's categories: the tagger misses some
# paraphrases ("Purchase history: kept for seven years.").
DEFAULT_CATEGORY_OVERRIDE = 0.5
# Every sentence's logit gets this weight × its practice match: the practice tagger's probabilities
# for the categories the question asks about, weighted by the question classifier's probabilities
# (assistant/selection.py). Tuned on the PrivacyQA dev file.
DEFAULT_PRACTICE_MATCH_WEIGHT = 6.0

# A sentence's selection logit may add this share of the mean of its two neighbours' logits
# (assistant/selection.py). Off: the 0.7 once tuned on the PrivacyQA dev file only scored on that
# file's label-leaking sentence order, and where the order is real (PolicyQA dev, in document
# order: scripts/tune_context.py) any share ranks worse (docs/results.md).
DEFAULT_CONTEXT_WEIGHT = 0.0

# How many of the best-scored sentences are ranked, and how many of the best of them the MS MARCO
# cross-encoder re-scores (0: none, the fine-tuned retriever's calibrated score ranks them: it
# scored higher on the PrivacyQA dev file, 32.9 vs 31.4 F1 before the neighbours' share, at a
# fraction of the cost).
DEFAULT_CANDIDATES = 50
DEFAULT_RERANK_TOP = 0


@dataclass(frozen=True)
class Settings:
    home: Path
    max_bytes: int = DEFAULT_MAX_BYTES
    silence_threshold: float = DEFAULT_SILENCE_THRESHOLD
    evidence_margin: float = DEFAULT_EVIDENCE_MARGIN
    category_confidence: float = DEFAULT_CATEGORY_CONFIDENCE
    category_bonus: float = DEFAULT_CATEGORY_BONUS
    practice_match_weight: float = DEFAULT_PRACTICE_MATCH_WEIGHT
    category_override: float = DEFAULT_CATEGORY_OVERRIDE
    coverage_threshold: float = DEFAULT_COVERAGE_THRESHOLD
    context_weight: float = DEFAULT_CONTEXT_WEIGHT
    candidates: int = DEFAULT_CANDIDATES
    rerank_top: int = DEFAULT_RERANK_TOP

    @property
    def database_path(self) -> Path:
        return self.home / "assistant.sqlite3"

    @property
    def index_dir(self) -> Path:
        return self.home / "indexes"

    @classmethod
    def from_env(cls) -> Settings:
        """`ASSISTANT_HOME`, `ASSISTANT_MAX_BYTES`, `ASSISTANT_SILENCE_THRESHOLD`,
        `ASSISTANT_EVIDENCE_MARGIN`, `ASSISTANT_CATEGORY_CONFIDENCE`, `ASSISTANT_CATEGORY_BONUS`,
        `ASSISTANT_PRACTICE_MATCH_WEIGHT`, `ASSISTANT_CATEGORY_OVERRIDE`, `ASSISTANT_COVERAGE_THRESHOLD`,
        `ASSISTANT_CONTEXT_WEIGHT`, `ASSISTANT_CANDIDATES` and `ASSISTANT_RERANK_TOP` override the defaults."""
        home = Path(os.environ.get("ASSISTANT_HOME") or user_data_dir("privacy-assistant", appauthor=False))
        return cls(
            home=home.expanduser(),
            max_bytes=_env_int("ASSISTANT_MAX_BYTES", DEFAULT_MAX_BYTES),
            silence_threshold=_env_float("ASSISTANT_SILENCE_THRESHOLD", DEFAULT_SILENCE_THRESHOLD),
            evidence_margin=_env_float("ASSISTANT_EVIDENCE_MARGIN", DEFAULT_EVIDENCE_MARGIN),
            category_confidence=_env_float("ASSISTANT_CATEGORY_CONFIDENCE", DEFAULT_CATEGORY_CONFIDENCE),
            category_bonus=_env_float("ASSISTANT_CATEGORY_BONUS", DEFAULT_CATEGORY_BONUS),
            practice_match_weight=_env_float("ASSISTANT_PRACTICE_MATCH_WEIGHT", DEFAULT_PRACTICE_MATCH_WEIGHT),
            category_override=_env_float("ASSISTANT_CATEGORY_OVERRIDE", DEFAULT_CATEGORY_OVERRIDE),
            coverage_threshold=_env_float("ASSISTANT_COVERAGE_THRESHOLD", DEFAULT_COVERAGE_THRESHOLD),
            context_weight=_env_float("ASSISTANT_CONTEXT_WEIGHT", DEFAULT_CONTEXT_WEIGHT),
            candidates=_env_int("ASSISTANT_CANDIDATES", DEFAULT_CANDIDATES),
            rerank_top=_env_int("ASSISTANT_RERANK_TOP", DEFAULT_RERANK_TOP),
        )


def _env_int(name: str, default: int) -> int:
    return int(_env_number(name, default, int))


def _env_float(name: str, default: float) -> float:
    return float(_env_number(name, default, float))


def _env_number(name: str, default: float, kind: type) -> float:
    raw = os.environ.get(name)
    if not raw:
        return default
    try:
        return kind(raw)
    except ValueError:
        raise AssistantError(f"{name}={raw!r} is not a valid {kind.__name__}.") from None
