"""The engine every front end calls: ingest policies, list and remove them, answer questions."""
from __future__ import annotations

import dataclasses
import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import numpy as np

from assistant.config import MAX_QUESTION_CHARS, Settings
from assistant.errors import InputFileError, InvalidQuestionError, UnknownPolicyError
from assistant.facts import PrivacyLabel, build_label
from assistant.models import Answer, AnswerSpan, Evidence, EvidenceFacts, ParsedPolicy, PolicyVersion, Sentence
from assistant.parsing import load_document
from assistant.selection import NO_MATCH_LOGIT, practice_match, selection_logits, topic_scores, within_margin
from assistant.sentences import build_policy
from assistant.store import PolicySummary, Store
from nlu.categories import PracticeClassifier
from nlu.policyie import PolicyIETagger
from nlu.question_data import ANSWERABLE
from nlu.questions import QuestionClassifier
from nlu.reader import SpanReader
from retrieval.embedder import EMBEDDER_NAME, Embedder
from retrieval.finetune import RELEASE_DIR as RETRIEVER_DIR
from retrieval.index import SentenceIndex
from retrieval.reranker import CrossEncoderReranker, sigmoid

# (stage, completed, total): lets a front end draw progress without the engine knowing how.
ProgressCallback = Callable[[str, int, int], None]

POLICY_SILENT = "policy_silent"
# What ingest computes for every sentence. Stored with each version: identical content ingested
# by an older pipeline (e.g. before sentences were tagged with practices) becomes a new version.
INGEST_PIPELINE = (f"{EMBEDDER_NAME}; "
                   "OPP-115 practice tagger v4 (segments, then sentences; mixed with TF-IDF; scores kept); "
                   "retriever fine-tuned on PolicyQA v1; PolicyIE v3 (CRF)")
MAX_NAME_CHARS = 100


@dataclass(frozen=True)
class ScoredSentence:
    """A candidate sentence with its relevance probability and its ranking score."""

    sentence: Sentence
    relevance: float  # the scorer's probability alone: does this sentence answer the question?
    selection_logit: float  # relevance, topic score, neighbours' share: ranks and selects evidence
    on_topic: bool = False  # tagged with one of the question's confident practice categories
    practice_match: float = 0.0  # how well its practices match the question's (assistant.selection)

    @property
    def score(self) -> float:
        """The selection logit as a probability (what an answer shows for each evidence sentence)."""
        return float(sigmoid(self.selection_logit))


@dataclass(frozen=True)
class EvidenceRanking:
    """The policy's candidate sentences for a question, best first, or why there are none."""

    question: str  # normalised
    version: PolicyVersion
    reason: str | None  # set when the question classifier or the categories rule it out
    confidence: float  # the classifier's probability for `reason`
    ranked: list[ScoredSentence]  # the answer sentence first, then the rest by score


@dataclass(frozen=True)
class IngestResult:
    """What `ingest` did: `unchanged` is True when identical content was already stored."""

    version: PolicyVersion
    unchanged: bool
    seconds: float


class Assistant:
    """Ingests policies into the store and answers questions over them. Models load lazily, once."""

    def __init__(
        self,
        settings: Settings | None = None,
        embedder: Embedder | None = None,
        reranker: CrossEncoderReranker | None = None,
        retriever: Embedder | None = None,
        policyie: PolicyIETagger | None = None,
        reader: SpanReader | None = None,
    ) -> None:
        """Models passed in are shared (e.g. by tests or a server); missing ones load on first use."""
        self.settings = settings or Settings.from_env()
        for name, model in (("embedder", embedder), ("reranker", reranker), ("retriever", retriever),
                            ("policyie", policyie), ("reader", reader)):
            if model is not None:
                setattr(self, name, model)
        # Per policy version, keyed by its index file name (a UUID: never reused, unlike row ids).
        self._indexes: dict[str, SentenceIndex] = {}
        self._sentences: dict[str, list[Sentence]] = {}

    @cached_property
    def store(self) -> Store:
        return Store(self.settings.home)

    @cached_property
    def embedder(self) -> Embedder:
        return Embedder()

    @cached_property
    def retriever(self) -> Embedder:
        """The bi-encoder fine-tuned in-domain (weights/retriever/): it builds and searches the index."""
        return Embedder(release=RETRIEVER_DIR)

    @cached_property
    def reranker(self) -> CrossEncoderReranker:
        return CrossEncoderReranker()

    @cached_property
    def question_classifier(self) -> QuestionClassifier:
        return QuestionClassifier.load()

    @cached_property
    def practice_classifier(self) -> PracticeClassifier:
        return PracticeClassifier.load()

    @cached_property
    def reader(self) -> SpanReader:
        return SpanReader.load()

    @cached_property
    def policyie(self) -> PolicyIETagger:
        return PolicyIETagger.load()

    # -- policies ------------------------------------------------------------------------

    def ingest(self, path: Path, name: str | None = None, progress: ProgressCallback | None = None) -> IngestResult:
        """Parse, split, embed and store a policy file as a new version of `name` (default: file stem)."""
        started = time.perf_counter()
        name = _validate_name(name if name is not None else path.stem)
        document = load_document(path, self.settings.max_bytes)
        sha256 = hashlib.sha256(path.read_bytes()).hexdigest()
        existing = self._latest_or_none(name)
        if existing and existing.sha256 == sha256 and self.store.pipeline(existing) == INGEST_PIPELINE:
            return IngestResult(existing, unchanged=True, seconds=time.perf_counter() - started)

        policy = build_policy(document)
        if not policy.sentences:
            raise InputFileError(f"{path}: no sentences found in the visible text.")
        version = self.store_policy(policy, name, str(path.resolve()), sha256, progress)
        return IngestResult(version, unchanged=False, seconds=time.perf_counter() - started)

    def store_policy(
        self, policy: ParsedPolicy, name: str, source: str, sha256: str, progress: ProgressCallback | None = None
    ) -> PolicyVersion:
        """Tag, embed and store an already parsed policy as the next version of `name`."""
        texts = [s.text for s in policy.sentences]
        done = 0

        def on_batch(n: int) -> None:
            nonlocal done
            done += n
            if progress:
                progress("embedding", done, len(texts))

        vectors = self.retriever.encode(texts, on_batch=on_batch)
        if progress:
            progress("tagging practices", 0, len(texts))
        practices = self.practice_classifier.probabilities(texts)
        categories = self.practice_classifier.decide(practices)
        labels = self.practice_classifier.labels
        if progress:
            progress("reading facts", 0, len(texts))
        facts = self.policyie.facts(texts)
        tagged = [
            dataclasses.replace(s, categories=tuple(c), facts=f,
                                practice_scores={label: round(float(v), 4) for label, v in zip(labels, p)})
            for s, c, f, p in zip(policy.sentences, categories, facts, practices, strict=True)
        ]
        policy = dataclasses.replace(policy, sentences=tagged)
        return self.store.add_version(name, source, sha256, policy, SentenceIndex.build(vectors), INGEST_PIPELINE)

    def policies(self) -> list[PolicySummary]:
        return self.store.list_policies()

    def remove(self, name: str) -> int:
        """Delete a policy with all its versions; returns the number of versions removed."""
        removed = self.store.remove(name)
        self._indexes.clear()
        self._sentences.clear()
        return removed

    def label(self, policy: str, version: int | None = None) -> PrivacyLabel:
        """The privacy label of a stored policy version, built from its stored facts."""
        stored = self.store.get_version(policy, version)
        return build_label(stored.name, stored.version, self.store.sentences(stored.id))

    def _latest_or_none(self, name: str) -> PolicyVersion | None:
        try:
            return self.store.get_version(name)
        except UnknownPolicyError:
            return None

    # -- questions -----------------------------------------------------------------------

    def ask(self, question: str, policy: str, version: int | None = None, top_k: int = 3) -> Answer:
        """Answer `question` from the policy's sentences (see `rank_evidence`, then select).

        The answer is the sentence that matches best on its own (relevance and topic score); the
        evidence adds further sentences, best selection score first, whose selection logit comes
        within `evidence_margin` of the answer's (at most `top_k` in all). The policy is silent
        when no candidate's relevance probability alone reaches `silence_threshold`. The span
        reader marks the short answer inside the best sentence (`span`; None when it finds none).
        """
        ranking = self.rank_evidence(question, policy, version)
        best = max((r.relevance for r in ranking.ranked), default=0.0)
        reason = ranking.reason or (None if best >= self.settings.silence_threshold else POLICY_SILENT)
        positions = within_margin([r.selection_logit for r in ranking.ranked], self.settings.evidence_margin,
                                  max(top_k, 1))
        selected = [ranking.ranked[i] for i in positions]
        evidence = [
            Evidence(r.sentence.ordinal, r.sentence.section, r.sentence.text, _round(r.score)) for r in selected
        ]
        facts = [
            EvidenceFacts(r.sentence.ordinal, r.sentence.facts.intent, list(r.sentence.facts.slots))
            for r in selected if r.sentence.facts is not None
        ]
        return Answer(
            question=ranking.question,
            policy=ranking.version.name,
            version=ranking.version.version,
            answerable=reason is None,
            reason=reason,
            answer=evidence[0].text if reason is None else None,
            confidence=_round(_confidence(ranking, reason, best)),
            evidence=evidence if ranking.reason is None else [],
            facts=facts if reason is None else [],
            span=self._span(ranking.question, ranking.version, selected[0].sentence) if reason is None else None,
        )

    def _span(self, question: str, stored: PolicyVersion, sentence: Sentence) -> AnswerSpan | None:
        """The reader's answer span inside `sentence`, read with one sentence of context either side."""
        sentences = self._policy_sentences(stored)
        before = sentences[sentence.ordinal - 2].text if sentence.ordinal > 1 else ""
        after = sentences[sentence.ordinal].text if sentence.ordinal < len(sentences) else ""
        offset = len(before) + 1 if before else 0
        context = " ".join(text for text in (before, sentence.text, after) if text)
        [prediction] = self.reader.read([question], [context], [(offset, offset + len(sentence.text))])
        if not prediction.found:
            return None
        start, end = prediction.start - offset, prediction.end - offset
        return AnswerSpan(sentence.ordinal, start, end, sentence.text[start:end])

    def rank_evidence(self, question: str, policy: str, version: int | None = None) -> EvidenceRanking:
        """Classify the question, then rank the policy's sentences for it, best first.

        1. The question classifier decides whether policies answer this kind of question (if
           not, `reason` says why and nothing is ranked).
        2. The fine-tuned retriever's FAISS search gives the nearest sentences, scored by its
           calibrated cosine (or, with `rerank_top` > 0, the best of them by the cross-encoder).
        3. If the question is confidently about practice categories the policy does not cover (no
           sentence with a tagger probability of `coverage_threshold` for them), the policy is
           silent — unless a sentence matches the question strongly anyway (relevance ≥
           `category_override`: the practice tagger missed it).
        4. Every sentence's logit gets its topic score (`practice_match_weight` × how well its
           practices match the question's, plus `category_bonus` when tagged with one of the
           question's confident categories) and a share of its neighbours' (`assistant.selection`);
           the best `candidates` by that score are ranked, the one that matches best on its own first.
        """
        question = _validate_question(question)
        stored = self.store.get_version(policy, version)
        analysis = self.question_classifier.analyse(self.embedder.encode([question])[0])
        if analysis.label != ANSWERABLE:
            return EvidenceRanking(question, stored, analysis.label, analysis.label_probability, [])
        focus = {c for c, p in analysis.categories.items() if p >= self.settings.category_confidence}
        sentences = self._policy_sentences(stored)
        relevance = self._relevance_logits(stored, self.retriever.encode([question])[0])
        if focus and not focus & self._covered_categories(stored) and (
            sigmoid(relevance.max()) < self.settings.category_override
        ):
            # e.g. a retention question against a policy with no retention sentence at all
            return EvidenceRanking(question, stored, POLICY_SILENT, 0.0, [])
        on_topic = np.array([bool(focus & set(s.categories)) for s in sentences], dtype=np.float32)
        match = practice_match(analysis.category_probabilities, [s.practice_scores for s in sentences])
        topic = topic_scores(on_topic, match, self.settings.category_bonus, self.settings.practice_match_weight)
        scores = selection_logits(relevance, topic, self.settings.context_weight)
        order = [int(i) for i in np.argsort(-scores, kind="stable")[: self.settings.candidates]
                 if relevance[i] > NO_MATCH_LOGIT]
        if self.settings.rerank_top > 0:
            order = order[: self.settings.rerank_top]
            relevance = relevance.copy()
            relevance[order] = self.reranker.score(question, [sentences[i].text for i in order])
            scores = relevance + topic
            order.sort(key=lambda i: -scores[i])
        # The answer is the sentence that matches best on its own; the neighbours' share ranks the rest.
        if order:
            own = relevance + topic
            first = max(order, key=lambda i: own[i])
            order = [first] + [i for i in order if i != first]
        ranked = [ScoredSentence(sentences[i], float(sigmoid(relevance[i])), float(scores[i]), bool(on_topic[i]),
                                 float(match[i])) for i in order]
        return EvidenceRanking(question, stored, None, 0.0, ranked)

    def _covered_categories(self, stored: PolicyVersion) -> set[str]:
        """The practice categories at least one sentence of the policy version was tagged with, or
        has a tagger probability of at least `coverage_threshold` for."""
        floor = self.settings.coverage_threshold
        return {c for sentence in self._policy_sentences(stored) for c in sentence.categories} | {
            c for sentence in self._policy_sentences(stored)
            for c, probability in sentence.practice_scores.items() if probability >= floor}

    def _policy_sentences(self, stored: PolicyVersion) -> list[Sentence]:
        """The version's sentences in document order (with its index, cached together)."""
        key = stored.index_file
        if key not in self._indexes:
            self._indexes[key] = self.store.load_index(stored)
            self._sentences[key] = self.store.sentences(stored.id)
        return self._sentences[key]

    def _relevance_logits(self, stored: PolicyVersion, query: np.ndarray) -> np.ndarray:
        """Every sentence's relevance logit for the question, in document order: the retriever's
        cosine (exact FAISS search over all of them) through its logistic calibration.

        Sentences that are themselves questions (tables of contents, FAQ headings) never answer
        anything: they get NO_MATCH_LOGIT.
        """
        sentences = self._policy_sentences(stored)
        calibration = self.retriever.config["calibration"]
        logits = np.full(len(sentences), NO_MATCH_LOGIT)
        for ordinal, cosine in self._indexes[stored.index_file].search(query, len(sentences)):
            if not _is_question(sentences[ordinal - 1].text):
                logits[ordinal - 1] = calibration["slope"] * cosine + calibration["intercept"]
        return logits


def _confidence(ranking: EvidenceRanking, reason: str | None, best_relevance: float) -> float:
    """The classifier's probability for a refusal reason; the answer sentence's relevance probability
    for an answer; the best relevance (below the silence threshold) when the policy is silent."""
    if ranking.reason:
        return ranking.confidence
    return ranking.ranked[0].relevance if reason is None else best_relevance


def _round(value: float) -> float:
    return float(f"{value:.4g}")


def _is_question(text: str) -> bool:
    return text.rstrip(" \"'”’)").endswith("?")


def _validate_question(question: str) -> str:
    question = " ".join(question.split())
    if not question:
        raise InvalidQuestionError("The question is empty: ask something about the policy.")
    if len(question) > MAX_QUESTION_CHARS:
        raise InvalidQuestionError(
            f"The question is {len(question)} characters long; the limit is {MAX_QUESTION_CHARS}."
        )
    return question


def _validate_name(name: str) -> str:
    name = " ".join(name.split())
    if not name:
        raise InputFileError("The policy name is empty: pass --name NAME.")
    if len(name) > MAX_NAME_CHARS:
        raise InputFileError(f"The policy name is over {MAX_NAME_CHARS} characters: pass a shorter --name.")
    return name
