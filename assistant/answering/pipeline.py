"""The answering pipeline: understand the question → retrieve → rank → select → decide the verdict →
read the span → compose."""
from __future__ import annotations

from assistant.answering.compose import compose
from assistant.answering.ranking import EvidenceRanking, rank_evidence
from assistant.answering.selection import Selection, SelectionParameters, select
from assistant.answering.verdict import Verdict, decide
from assistant.foundation.types import Answer, PolicyVersion
from assistant.models.answer_sentences.model import AnswerSentenceScorer
from assistant.retrieval.search import SentenceSearch
from assistant.understanding.question import QuestionUnderstanding
from assistant.understanding.span import SpanReading


class AnswerPipeline:
    """Answers a question from one stored policy version; each stage is its own module. The question is taken
    as validated (`Assistant` checks it once, `understanding.validation`)."""

    def __init__(self, understanding: QuestionUnderstanding, search: SentenceSearch, reading: SpanReading,
                 parameters: SelectionParameters, answer_scorer: AnswerSentenceScorer | None = None) -> None:
        """`answer_scorer`: which of the facet's sentences to quote first (none: the ranking's order)."""
        self.understanding = understanding
        self.search = search
        self.reading = reading
        self.parameters = parameters
        self.answer_scorer = answer_scorer

    def rank(self, question: str, version: PolicyVersion) -> EvidenceRanking:
        """The version's candidate sentences for `question`, best first (or why there are none)."""
        understood = self.understanding.run(question, version.name)
        sentences = self.search.sentences(version) if understood.reason is None else []
        relevance = self.search.run(version, understood.text) if understood.reason is None else None
        answer_scores = None if relevance is None or self.answer_scorer is None or understood.facet is None else (
            self.answer_scorer.scores(understood.facet, self.search.vectors(version)))
        return rank_evidence(understood, version, sentences, relevance, self.parameters, answer_scores)

    def decide(self, question: str, version: PolicyVersion, top_k: int = 3) -> tuple[EvidenceRanking, Verdict]:
        """The ranking and the verdict decided on it, without reading a span."""
        ranking, _, verdict = self._decide(question, version, top_k)
        return ranking, verdict

    def _decide(self, question: str, version: PolicyVersion, top_k: int) -> tuple[EvidenceRanking, Selection, Verdict]:
        ranking = self.rank(question, version)
        selection = select([r.selection_logit for r in ranking.ranked], [r.relevance for r in ranking.ranked],
                           self.parameters, top_k)
        return ranking, selection, decide(ranking, selection)

    def run(self, question: str, version: PolicyVersion, top_k: int = 3) -> Answer:
        """The answer: the best candidate, then the others within the evidence margin (at most `top_k`);
        the span reader marks the short answer inside the best sentence."""
        ranking, selection, verdict = self._decide(question, version, top_k)
        span = None
        if ranking.reason is None and verdict.support is not None:
            best = ranking.ranked[verdict.support].sentence
            span = self.reading.run(ranking.question, self.search.sentences(version), best)
        return compose(ranking, selection, verdict, span)
