"""The engine every front end calls: ingest policies, list and remove them, answer questions.

A thin facade over two pipelines of typed stages (`assistant.ingest.pipeline`,
`assistant.answering.pipeline`). Models load lazily, once, on first use.
"""
from __future__ import annotations

from functools import cached_property
from pathlib import Path

from assistant.answering.label import PrivacyLabel, build_label
from assistant.answering.pipeline import AnswerPipeline
from assistant.answering.profile import glance
from assistant.answering.ranking import EvidenceRanking
from assistant.answering.selection import SelectionParameters
from assistant.foundation.settings import Settings
from assistant.foundation.types import Answer, ParsedPolicy, PolicyVersion, ProgressCallback
from assistant.ingest.pipeline import IngestPipeline, IngestResult
from assistant.ingest.tagging import SentenceTagging
from assistant.models.policyie.model import PolicyIETagger
from assistant.models.practices.model import PracticeClassifier
from assistant.models.questions.model import QuestionClassifier
from assistant.models.reader.model import SpanReader
from assistant.models.retriever.model import Embedder
from assistant.retrieval.search import SentenceSearch
from assistant.store.database import PolicySummary, Store
from assistant.understanding.question import QuestionUnderstanding, validate_question
from assistant.understanding.span import SpanReading

__all__ = ["Assistant", "IngestResult"]


class Assistant:
    """Ingests policies into the store and answers questions over them."""

    def __init__(
        self,
        settings: Settings | None = None,
        embedder: Embedder | None = None,
        retriever: Embedder | None = None,
        policyie: PolicyIETagger | None = None,
        reader: SpanReader | None = None,
        parameters: SelectionParameters | None = None,
    ) -> None:
        """Models passed in are shared (e.g. by tests or a server); missing ones load on first use.
        `parameters`: evidence selection (default: the shipped `weights/selection.json`)."""
        self.settings = settings or Settings.from_env()
        self.parameters = parameters or SelectionParameters.load()
        for name, model in (("embedder", embedder), ("retriever", retriever), ("policyie", policyie),
                            ("reader", reader)):
            if model is not None:
                setattr(self, name, model)

    # -- parts, each built on first use ----------------------------------------------------

    @cached_property
    def store(self) -> Store:
        return Store(self.settings.home)

    @cached_property
    def embedder(self) -> Embedder:
        """The base all-MiniLM-L6-v2: embeds questions for the question classifier."""
        return Embedder()

    @cached_property
    def retriever(self) -> Embedder:
        """The bi-encoder fine-tuned in-domain (weights/retriever/): it builds and searches the index."""
        return Embedder.load_retriever()

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

    @cached_property
    def ingest_pipeline(self) -> IngestPipeline:
        return IngestPipeline(self.store, lambda: self._tagging, self.settings.max_bytes, self.settings.limits)

    @cached_property
    def _tagging(self) -> SentenceTagging:
        return SentenceTagging(self.retriever, self.practice_classifier, self.policyie)

    @cached_property
    def search(self) -> SentenceSearch:
        return SentenceSearch(self.store, self.retriever)

    @cached_property
    def answer_pipeline(self) -> AnswerPipeline:
        understanding = QuestionUnderstanding(self.embedder, self.question_classifier,
                                              self.parameters.category_confidence)
        return AnswerPipeline(understanding, self.search, SpanReading(lambda: self.reader), self.parameters)

    # -- policies ---------------------------------------------------------------------------

    def ingest(self, path: Path, name: str | None = None, progress: ProgressCallback | None = None) -> IngestResult:
        """Parse, split, embed and store a policy file as a new version of `name` (default: file stem)."""
        return self.ingest_pipeline.run(path, name, progress)

    def store_policy(self, policy: ParsedPolicy, name: str, source: str, sha256: str,
                     progress: ProgressCallback | None = None) -> PolicyVersion:
        """Tag, embed and store an already parsed policy as the next version of `name`."""
        return self.ingest_pipeline.store_policy(policy, name, source, sha256, progress)

    def policies(self) -> list[PolicySummary]:
        return self.store.list_policies()

    def policy_names(self) -> list[str]:
        return self.store.policy_names()

    def version(self, policy: str, version: int | None = None) -> PolicyVersion:
        """A stored version of `policy` (the latest by default)."""
        return self.store.get_version(policy, version)

    def sections(self, policy: str, version: int | None = None) -> list[str]:
        """The section paths of a stored policy version, in document order."""
        return self.store.sections(self.version(policy, version).id)

    def remove(self, name: str) -> int:
        """Delete a policy with all its versions; returns the number of versions removed."""
        removed = self.store.remove(name)
        if "search" in self.__dict__:
            self.search.forget()
        return removed

    def label(self, policy: str, version: int | None = None) -> PrivacyLabel:
        """The privacy label of a stored policy version: each facet at a glance (the verdict on its
        plain question) and the facts read at ingest, by section."""
        stored = self.version(policy, version)
        label = build_label(stored.name, stored.version, self.store.sentences(stored.id))
        label.glance = glance(self.answer_pipeline, stored)
        return label

    # -- questions --------------------------------------------------------------------------

    def ask(self, question: str, policy: str, version: int | None = None, top_k: int = 3) -> Answer:
        """Answer `question` from the policy's sentences, with at most `top_k` evidence sentences
        (`assistant.answering.pipeline`)."""
        validate_question(question)  # a bad question is refused before the policy is looked up
        return self.answer_pipeline.run(question, self.version(policy, version), top_k)

    def rank_evidence(self, question: str, policy: str, version: int | None = None) -> EvidenceRanking:
        """The policy's candidate sentences for `question`, best first, or why there are none."""
        validate_question(question)
        return self.answer_pipeline.rank(question, self.version(policy, version))
