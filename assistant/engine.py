"""The engine every front end calls: ingest policies, list and remove them, answer questions.

A thin facade over two pipelines of typed stages (`assistant.ingest.pipeline`,
`assistant.answering.pipeline`). Models load lazily, once, on first use, and so are their modules
imported: torch takes seconds to import, and listing policies or refusing a bad input must answer at once.
"""
from __future__ import annotations

from collections.abc import Callable
from functools import cached_property, partial
from pathlib import Path
from typing import TYPE_CHECKING

from assistant.answering.label import PrivacyLabel, build_label
from assistant.foundation.errors import AssistantError, DamagedIndexError, UnknownPolicyError
from assistant.foundation.settings import MAX_QUESTION_CHARS, Settings
from assistant.foundation.types import Answer, ParsedPolicy, PolicyProfile, PolicyVersion, ProgressCallback
from assistant.ingest.fetch import CONNECT_TIMEOUT, FetchLimits, looks_like_url, site_url
from assistant.store.database import PolicySummary, Store, damage_message
from assistant.understanding.graph import Statement, policy_graph
from assistant.understanding.validation import require_utf8, validate_question

if TYPE_CHECKING:  # the pipelines and models import torch (seconds): each loads on first use below
    from assistant.answering.across import AnswersAcross
    from assistant.answering.alignment import IssueAlignment
    from assistant.answering.changes import PolicyDiff
    from assistant.answering.compare import Comparison
    from assistant.answering.pipeline import AnswerPipeline
    from assistant.answering.ranking import EvidenceRanking
    from assistant.answering.selection import SelectionParameters
    from assistant.ingest.pipeline import IngestPipeline, IngestResult
    from assistant.ingest.repair import RepairReport, StoreHealth
    from assistant.ingest.tagging import SentenceTagging
    from assistant.models.answer_sentences.model import AnswerSentenceScorer
    from assistant.models.attributes.model import AttributeClassifier
    from assistant.models.facets.model import FacetClassifier
    from assistant.models.piextract.model import PIExtractTagger
    from assistant.models.policyie.model import PolicyIETagger
    from assistant.models.practices.model import PracticeClassifier
    from assistant.models.questions.model import QuestionClassifier
    from assistant.models.reader.model import SpanReader
    from assistant.models.retriever.model import Embedder
    from assistant.retrieval.across import SearchResults
    from assistant.retrieval.search import SentenceSearch
    from assistant.understanding.facets import Facet
    from assistant.understanding.followups import Followup
    from assistant.understanding.question import QuestionUnderstanding

__all__ = ["Assistant"]
# What `Assistant.twin` shares: the models and tuned parameters, which hold no per-engine state.
_SHARED_PARTS = ("parameters", "embedder", "retriever", "question_classifier", "facet_classifier", "answer_scorer",
                 "practice_classifier", "reader", "attribute_heads", "piextract", "policyie")


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
        if parameters is not None:
            self.parameters = parameters
        for name, model in (("embedder", embedder), ("retriever", retriever), ("policyie", policyie),
                            ("reader", reader)):
            if model is not None:
                setattr(self, name, model)

    # -- parts, each built on first use ----------------------------------------------------

    @cached_property
    def parameters(self) -> SelectionParameters:
        from assistant.answering.selection import SelectionParameters  # lazy: see the module docstring

        return SelectionParameters.load()

    @cached_property
    def store(self) -> Store:
        return Store(self.settings.home)

    @cached_property
    def embedder(self) -> Embedder:
        """The base all-MiniLM-L6-v2: embeds questions for the question classifier."""
        from assistant.models.retriever.model import Embedder  # lazy: see the module docstring

        return Embedder()

    @cached_property
    def retriever(self) -> Embedder:
        """The bi-encoder fine-tuned in-domain (weights/retriever/): it builds and searches the index."""
        from assistant.models.retriever.model import Embedder  # lazy: see the module docstring

        return Embedder.load_retriever()

    @cached_property
    def question_classifier(self) -> QuestionClassifier:
        from assistant.models.questions.model import QuestionClassifier  # lazy: see the module docstring

        return QuestionClassifier.load()

    @cached_property
    def facet_classifier(self) -> FacetClassifier:
        from assistant.models.facets.model import FacetClassifier  # lazy: see the module docstring

        return FacetClassifier.load()

    @cached_property
    def answer_scorer(self) -> AnswerSentenceScorer:
        """Which of a facet's sentences a reader would quote first (weights/answer_sentences/)."""
        from assistant.models.answer_sentences.model import AnswerSentenceScorer  # lazy: see the module docstring

        return AnswerSentenceScorer.load()

    @cached_property
    def practice_classifier(self) -> PracticeClassifier:
        from assistant.models.practices.model import PracticeClassifier  # lazy: see the module docstring

        return PracticeClassifier.load()

    @cached_property
    def reader(self) -> SpanReader:
        from assistant.models.reader.model import SpanReader  # lazy: see the module docstring

        return SpanReader.load()

    @cached_property
    def attribute_heads(self) -> AttributeClassifier:
        """OPP-115 attribute heads over the stored sentence vectors (numpy; what the profile's rows are described as)."""
        from assistant.models.attributes.model import AttributeClassifier  # lazy: see the module docstring

        return AttributeClassifier.load()

    @cached_property
    def piextract(self) -> PIExtractTagger:
        """The PI-Extract tagger: the data types a supporting sentence says are (not) shared or collected."""
        from assistant.models.piextract.model import PIExtractTagger  # lazy: see the module docstring

        return PIExtractTagger.load()

    @cached_property
    def policyie(self) -> PolicyIETagger:
        from assistant.models.policyie.model import PolicyIETagger  # lazy: see the module docstring

        return PolicyIETagger.load()

    @cached_property
    def ingest_pipeline(self) -> IngestPipeline:
        from assistant.ingest.pipeline import IngestPipeline  # lazy: see the module docstring

        timeout = self.settings.fetch_timeout
        limits = FetchLimits(self.settings.max_bytes, connect_timeout=min(CONNECT_TIMEOUT, timeout),
                             total_timeout=timeout, allow_private=self.settings.allow_private)
        return IngestPipeline(self.store, lambda: self._tagging, self.settings.max_bytes, limits,
                              self.settings.limits, lambda: self._profile_maker)

    @cached_property
    def _tagging(self) -> SentenceTagging:
        from assistant.ingest.tagging import SentenceTagging  # lazy: see the module docstring

        return SentenceTagging(self.retriever, self.practice_classifier, self.policyie)

    @cached_property
    def search(self) -> SentenceSearch:
        from assistant.retrieval.search import SentenceSearch  # lazy: see the module docstring
        from assistant.understanding.facets import GLANCE_QUESTIONS  # lazy: see the module docstring

        return SentenceSearch(self.store, self.retriever, GLANCE_QUESTIONS.values())  # the profile's, embedded once

    @cached_property
    def understanding(self) -> QuestionUnderstanding:
        """The question stage: its type, facet, and whether the policy can answer it at all."""
        from assistant.understanding.facets import GLANCE_QUESTIONS  # lazy: see the module docstring
        from assistant.understanding.question import QuestionUnderstanding  # lazy: see the module docstring

        return QuestionUnderstanding(self.embedder, self.question_classifier, self.facet_classifier,
                                     self.parameters.category_confidence, GLANCE_QUESTIONS.values())

    @cached_property
    def answer_pipeline(self) -> AnswerPipeline:
        from assistant.answering.pipeline import AnswerPipeline  # lazy: see the module docstring
        from assistant.understanding.span import SpanReading  # lazy: see the module docstring

        return AnswerPipeline(self.understanding, self.search, SpanReading(lambda: self.reader), self.parameters,
                              self.answer_scorer)

    def load_models(self) -> None:
        """Load every model and build both pipelines now rather than on first use (a server, before it listens)."""
        for part in ("embedder", "retriever", "question_classifier", "facet_classifier", "answer_scorer",
                     "practice_classifier", "reader", "policyie", "ingest_pipeline", "answer_pipeline"):
            getattr(self, part)

    def twin(self) -> Assistant:
        """Another engine over the same store and settings, sharing every model this one has loaded (their
        sessions run from several threads) but with its own store connection, pipelines and caches: a
        server's ingest thread works on it while this one answers."""
        other = Assistant(self.settings)
        for part in _SHARED_PARTS:
            if part in self.__dict__:
                other.__dict__[part] = self.__dict__[part]
        return other

    # -- policies ---------------------------------------------------------------------------

    def ingest(self, source: Path | str, name: str | None = None,
               progress: ProgressCallback | None = None, force: bool = False) -> IngestResult:
        """Parse, screen, split, embed and store a policy file, or a page fetched from a `scheme://` URL, as a
        new version of `name` (default: the file's stem; for a URL, the policy already fetched from it, else the
        organisation its title names or its host, never the name of another document: `ingest.naming`). A document that
        is not an English privacy policy is refused with the reason unless `force`."""
        if isinstance(source, str) and looks_like_url(source):
            return self.ingest_pipeline.run_url(source, name, progress, force)
        if isinstance(source, str) and not Path(source).exists() and (site := site_url(source)):
            return self.ingest_pipeline.run_url(site, name, progress, force)  # "duolingo.com": its home page first
        return self.ingest_pipeline.run(Path(source), name, progress, force)

    def ingest_url(self, url: str, name: str | None = None, progress: ProgressCallback | None = None,
                   force: bool = False) -> IngestResult:
        """Fetch an http(s) URL and store it, as `ingest` does; any other scheme is refused (`FetchError`)."""
        return self.ingest_pipeline.run_url(url, name, progress, force)

    def ingest_upload(self, content: bytes, filename: str, name: str | None = None,
                      progress: ProgressCallback | None = None, force: bool = False) -> IngestResult:
        """Store an uploaded file's bytes as `ingest` stores a file; `filename` (as the client sent it) gives
        only its kind and default name: nothing is opened by it."""
        return self.ingest_pipeline.run_upload(content, filename, name, progress, force)

    def store_policy(self, policy: ParsedPolicy, name: str, source: str, sha256: str,
                     progress: ProgressCallback | None = None) -> PolicyVersion:
        """Tag, embed and store an already parsed policy as the next version of `name`."""
        return self.ingest_pipeline.store_policy(policy, name, source, sha256, progress)

    def policies(self) -> list[PolicySummary]:
        return self.store.list_policies()

    def policy_names(self) -> list[str]:
        return self.store.policy_names()

    def choose_policy(self, policy: str | None) -> str:
        """`policy`, or the only stored policy when none is named (else a one-line error)."""
        if policy:
            return policy
        names = self.policy_names()
        if len(names) == 1:
            return names[0]
        if not names:
            raise UnknownPolicyError("No policies stored yet: add one with `assistant ingest PATH`.")
        raise AssistantError(f"Several policies are stored; choose one with --policy: {', '.join(names)}.")

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

    def doctor(self) -> StoreHealth:
        """Check the store: SQLite's integrity check and every version's index (`assistant doctor`)."""
        from assistant.ingest.repair import check_store  # lazy: see the module docstring

        return check_store(self.store)

    def repair(self) -> RepairReport:
        """Rebuild every missing or mismatched index from the stored sentences (`assistant repair`)."""
        from assistant.ingest.repair import repair_store  # lazy: see the module docstring

        report = repair_store(self.store, lambda: self.retriever)
        if report.rebuilt and "search" in self.__dict__:
            self.search.forget()
        return report

    @cached_property
    def _profile_maker(self) -> Callable[[PolicyVersion], PolicyProfile]:
        """What computes a version's privacy profile (at ingest: inside the transaction that stores it), its
        models loaded and its fixed questions understood and embedded now, before any transaction."""
        from assistant.answering.profile import compute_profile, prepare  # lazy: see the module docstring

        prepare(self.answer_pipeline)
        return partial(compute_profile, self.answer_pipeline, attributes=self.attribute_heads, piextract=self.piextract)

    def profile(self, version: PolicyVersion) -> PolicyProfile:
        """The version's privacy profile as stored at ingest. A version stored without one (by older code) or
        by other rules (`profile.profile_rules`) gets it computed now and stored for the next read (best
        effort: a read-only store still answers, from the profile computed). A damaged index is refused, naming
        `assistant repair`, as `ask` refuses it (the header is read, 45 bytes)."""
        from assistant.answering.profile import profile_rules  # lazy: see the module docstring

        problem = self.store.index_problem(version)  # as when the rows were decided from the index: one line
        if problem:
            raise DamagedIndexError(damage_message(version, problem))
        stored = self.store.profile(version)
        if stored is not None and stored.rules == profile_rules(self.parameters):
            return stored
        computed = self._profile_maker(version)
        self.store.save_profile(version, computed)
        return computed

    def graph(self, policy: str, version: int | None = None) -> list[Statement]:
        """The policy graph of a stored version: each sentence's statement about your data (actions, kinds of data,
        recipients, purposes, polarity, condition, scope), read from the stored sentences; no model loads."""
        stored = self.version(policy, version)
        return policy_graph(self.store.sentences(stored.id))

    def label(self, policy: str, version: int | None = None) -> PrivacyLabel:
        """The privacy label of a stored policy version: each facet at a glance (the verdict on its
        plain question, from the stored profile) and the facts read at ingest, by section."""
        from assistant.answering.profile import glance_rows  # lazy: see the module docstring

        stored = self.version(policy, version)
        label = build_label(stored.name, stored.version, self.store.sentences(stored.id))
        label.glance = glance_rows(self.profile(stored))
        return label

    def compare(self, policies: list[str], facet: str | None = None) -> Comparison:
        """The latest versions of `policies` side by side, facet by facet (only `facet`, when given): each
        one's glance, the facets where they differ first."""
        from assistant.answering.compare import PolicyGlance, check_facet, compare  # lazy: see the module docstring
        from assistant.answering.profile import glance_rows  # lazy: see the module docstring

        check_facet(facet)
        versions = [self.version(name) for name in dict.fromkeys(policies)]  # every name checked before any model
        facets = None if facet is None else [facet]
        return compare([PolicyGlance(v.name, v.version, glance_rows(self.profile(v), facets)) for v in versions])

    def align(self, policies: list[str] | None = None, issue: str | None = None) -> list[IssueAlignment]:
        """The latest versions of `policies` (default: every stored policy) aligned by issue: for each facet and
        OPP-115 practice (only `issue`, a facet, a practice or words naming one), each policy's sentences on it.
        Read from the store (the tags of ingest and the facets' word rules): no model loads."""
        from assistant.answering.alignment import ISSUES, align, resolve_issue  # lazy: see the module docstring

        issues = ISSUES if issue is None else (resolve_issue(issue),)
        names = list(dict.fromkeys(policies)) if policies is not None else self.policy_names()
        versions = [self.version(name) for name in names]
        return align([(v, self.store.sentences(v.id)) for v in versions], issues)

    def diff(self, policy: str, from_version: int | None = None, to_version: int | None = None) -> PolicyDiff:
        """What changed between two versions of `policy` (default: the previous version to the latest):
        sentences added, removed and reworded by issue, and the facets whose verdict changed."""
        from assistant.answering.changes import diff_versions  # lazy: see the module docstring
        from assistant.answering.profile import glance_rows  # lazy: see the module docstring

        new = self.version(policy, to_version)
        if from_version is None and new.version == 1:
            raise AssistantError(f"Policy '{new.name}' has only version 1 stored: there is nothing to compare it with.")
        old = self.version(policy, new.version - 1 if from_version is None else from_version)
        if old.version == new.version:
            raise AssistantError(f"Both versions are {new.version}: choose two different versions with --from and --to.")
        return diff_versions(new.name, old.version, new.version, self.store.sentences(old.id),
                             self.store.sentences(new.id), glance_rows(self.profile(old)),
                             glance_rows(self.profile(new)))

    # -- questions --------------------------------------------------------------------------

    def ask(self, question: str, policy: str, version: int | None = None, top_k: int = 3) -> Answer:
        """Answer `question` from the policy's sentences, with at most `top_k` evidence sentences
        (`assistant.answering.pipeline`)."""
        text = validate_question(question)  # the one check: before the policy is looked up; the stages trust it
        return self.answer_pipeline.run(text, self.version(policy, version), top_k)

    def rank_evidence(self, question: str, policy: str, version: int | None = None) -> EvidenceRanking:
        """The policy's candidate sentences for `question`, best first, or why there are none."""
        text = validate_question(question)
        return self.answer_pipeline.rank(text, self.version(policy, version))

    def ask_across(self, question: str, policies: list[str] | None = None) -> AnswersAcross:
        """Answer `question` from the latest version of each of `policies` (default: every stored policy),
        the policies that answer first (`assistant.answering.across`)."""
        from assistant.answering.across import order_answers  # lazy: see the module docstring

        text = validate_question(question)
        names = list(dict.fromkeys(policies)) if policies is not None else self.policy_names()
        if not names:
            raise AssistantError("No policies stored yet: add one with `assistant ingest PATH`.")
        versions = [self.version(name) for name in names]  # every name checked before any model loads
        return order_answers(question, [self.answer_pipeline.run(text, v) for v in versions])

    def search_sentences(self, text: str, policy: str | None = None, top: int = 10) -> SearchResults:
        """The `top` stored sentences closest to `text` (the retriever's cosine): across the latest version of
        every policy (the store's cross-policy index), or in `policy`'s latest version."""
        from assistant.retrieval.across import CrossSearch  # lazy: see the module docstring

        text = " ".join((require_utf8(text, "search text") or "").split())
        if not text:
            raise AssistantError("The search text is empty: give some words to look for.")
        if len(text) > MAX_QUESTION_CHARS:
            raise AssistantError(f"The search text is {len(text)} characters long; the limit is {MAX_QUESTION_CHARS}.")
        version = self.version(policy) if policy is not None else None  # checked before any model loads
        if policy is None and not self.policy_names():
            raise AssistantError("No policies stored yet: add one with `assistant ingest PATH`.")
        return CrossSearch(self.store, self.retriever).run(text, top, version)

    # -- reading a chat message (the chat's actions call these, never `assistant.understanding` itself) -------

    def facet_of(self, question: str) -> Facet | None:
        """The privacy facet the question's words name (the word rules of `understanding.facets`), or None."""
        from assistant.understanding.facets import facet_of  # lazy: see the module docstring

        return facet_of(question)

    def resolve_followup(self, previous: str | None, message: str) -> Followup:
        """The question to ask for `message` given the conversation's `previous` question (None: none yet):
        "what about advertisers?" or "how long do they keep it?" completed from it (`understanding.followups`)."""
        from assistant.understanding.followups import resolve_followup  # lazy: see the module docstring

        return resolve_followup(previous, message)

    def question_for_each_policy(self, text: str) -> str | None:
        """The question a message asks of every stored policy ("which policies sell my data?" → "Do they sell
        my data?"), or None when it asks none that way (`understanding.across_question`)."""
        from assistant.understanding.across_question import question_for_each_policy  # lazy: see the module docstring

        return question_for_each_policy(text)

    def foreign_language(self, text: str) -> str | None:
        """The name of a message's language when it is clearly not English, else None (`understanding.language`)."""
        from assistant.understanding.language import foreign_language  # lazy: see the module docstring

        return foreign_language(text)
