"""Rank: the policy's candidate sentences for an understood question, best first, or why there are none."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from assistant.answering.selection import (
    NO_MATCH_LOGIT,
    SelectionParameters,
    practice_match,
    rank_candidates,
    topic_scores,
)
from assistant.foundation.maths import sigmoid
from assistant.foundation.reasons import POLICY_SILENT
from assistant.foundation.types import PolicyVersion, Sentence
from assistant.understanding.channels import block_of, channels_in
from assistant.understanding.concepts import PLACE, SAFEGUARD, vocabulary
from assistant.understanding.facets import ASKS_CONTROLLER, BY_NAME, Facet
from assistant.understanding.frame import ASKS_NOTHING, Frame, in_policy, states_objects
from assistant.understanding.question import UnderstoodQuestion
from assistant.understanding.statements import NAMES_CONTROLLER, denied


@dataclass(frozen=True)
class ScoredSentence:
    """A candidate sentence with its relevance probability and its ranking score."""

    sentence: Sentence
    relevance: float  # the scorer's probability alone: does this sentence answer the question?
    selection_logit: float  # relevance plus topic score: ranks and selects evidence
    practice_match: float = 0.0  # how well its practices match the question's (assistant.answering.selection)
    # what the answer-sentence scorer adds when the first quote is chosen (assistant.models.answer_sentences)
    answer_score: float = 0.0

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
    ranked: list[ScoredSentence]  # best first
    question_type: str = "other"  # from the understood question
    facet: str | None = None
    frame: Frame = ASKS_NOTHING  # what the question names: a statement must name it too (`understanding.frame`)


def rank_evidence(question: UnderstoodQuestion, version: PolicyVersion, sentences: list[Sentence],
                  relevance: np.ndarray | None, parameters: SelectionParameters,
                  answer_scores: np.ndarray | None = None) -> EvidenceRanking:
    """Stage: rank the version's sentences (their relevance logits from retrieval) for the question.

    1. A question the classifier refused is ranked against nothing (`reason` says why).
    2. If the question is confidently about practice categories the policy does not cover (no
       sentence tagged with them or with a tagger probability of `coverage_threshold`), the policy
       is silent — unless a sentence matches strongly anyway (relevance ≥ `category_override`:
       the tagger missed it).
    3. Every sentence's logit gets its topic score (`practice_match_weight` × how well its
       practices match the question's); the best `candidates` are ranked by that selection logit,
       then every other sentence that uses the question's facet words (`facet_candidates`).
    4. Each candidate carries its answer score (`answer_scores`, in document order; none: 0), which only the
       choice of the first quote reads.
    """
    frame = in_policy(question.frame, version.name, [s.text for s in sentences]) if question.frame.names else question.frame
    kind = {"question_type": question.question_type, "facet": question.facet, "frame": frame}
    if question.reason is not None or relevance is None:
        return EvidenceRanking(question.text, version, question.reason, question.reason_probability, [], **kind)
    if question.focus and not question.focus & covered_categories(sentences, parameters.coverage_threshold) and (
        sigmoid(relevance.max()) < parameters.category_override
    ):
        # e.g. a retention question against a policy with no retention sentence at all
        return EvidenceRanking(question.text, version, POLICY_SILENT, 0.0, [], **kind)
    match = practice_match(question.category_probabilities, [s.practice_scores for s in sentences])
    topic = topic_scores(match, parameters.practice_match_weight)
    scores = relevance + topic
    positions = rank_candidates(relevance, topic, parameters.candidates)
    positions += facet_candidates(BY_NAME.get(question.facet), sentences, relevance, scores, set(positions))
    positions += frame_candidates(frame, sentences, scores, set(positions))
    if question.question_type == "how_to" or question.facet == CONTACT:  # the ways, wherever the retriever ranks them
        positions += way_candidates(sentences, relevance, scores, set(positions))
    if question.question_type in ("who", "what") and ASKS_CONTROLLER.search(question.text):  # who runs it
        positions += [i for i in sorted(range(len(sentences)), key=lambda i: -scores[i])
                      if i not in set(positions) and NAMES_CONTROLLER.search(sentences[i].text)]
    if question.question_type == "where":  # the places and safeguards named, wherever the retriever ranks them
        positions += place_candidates(sentences, relevance, scores, set(positions))
    answer = np.zeros(len(sentences)) if answer_scores is None else answer_scores
    ranked = [ScoredSentence(sentences[i], float(sigmoid(relevance[i])), float(scores[i]), float(match[i]),
                             float(answer[i])) for i in positions]
    return EvidenceRanking(question.text, version, None, 0.0, ranked, **kind)


def facet_candidates(facet: Facet | None, sentences: list[Sentence], relevance: np.ndarray, scores: np.ndarray,
                     taken: set[int]) -> list[int]:
    """The sentences outside the retriever's best that speak of the facet, best selection logit first, for a facet
    whose statements the retriever ranks too low:

    - `Facet.beyond_retriever` (AI training): every sentence with the facet's words (`Facet.addressed_by`). The
      retriever ranks "… not used for training purposes without your explicit consent" below fifty neighbours
      about AI features.
    - `Facet.preferred_anywhere` (the contact): only sentences with the facet's preferred words too ("questions
      about this policy", "Data Protection Officer", "privacy@"). Loose facet words far down a policy
      ("another online location") would make a silent policy look addressed.
    - `Facet.denials_first` (sale, advertisers, location, children): only sentences that deny the practice ("We do
      not “sell” your personal data as that term is defined …", ranked below fifty sentences about cookies).

    Ranked after the retriever's candidates, so they never move its evidence. (For every facet, with the facet's
    words alone, the answers set's not-stated recall fell 92.2 → 90.1.)"""
    if facet is None or not (facet.beyond_retriever or facet.preferred_anywhere or facet.denials_first):
        return []
    found = [i for i, sentence in enumerate(sentences) if i not in taken and relevance[i] > NO_MATCH_LOGIT
             and facet.addressed_by(sentence.text)
             and (facet.beyond_retriever or (facet.preferred_anywhere and facet.preferred.search(sentence.text))
                  or (facet.denials_first and denied(sentence.facts, sentence.text)))]
    return sorted(found, key=lambda i: -scores[i])


def frame_candidates(frame: Frame, sentences: list[Sentence], scores: np.ndarray, taken: set[int]) -> list[int]:
    """The sentences outside the candidates so far that name everything the question names ("biometric",
    "insurers"; `understanding.frame`), best selection logit first: a statement that names the asked kind of data
    is a candidate wherever the retriever ranks it. Ranked after the others, so they never move its evidence."""
    if not frame.specific:
        return []
    found = [i for i, sentence in enumerate(sentences) if i not in taken and states_objects(frame, sentence.text, sentence.section)]
    return sorted(found, key=lambda i: -scores[i])


CONTACT = "contact_dpo"


def way_candidates(sentences: list[Sentence], relevance: np.ndarray, scores: np.ndarray, taken: set[int]) -> list[int]:
    """The sentences outside the candidates so far that give a way to act (an e-mail address, a link, a phone
    number, a setting, a form: `understanding.channels`), best selection logit first: the answer to "how do I …"
    chooses among them (`answering.ways`)."""
    found = [i for i, sentence in enumerate(sentences) if i not in taken and relevance[i] > NO_MATCH_LOGIT
             and channels_in(sentence.text)]
    # the other lines of a postal address printed one line per sentence ("Seattle, WA 98101" after "Attn: …")
    lines = [j for i in found for j in block_of(sentences, i) if j not in taken]
    return sorted(dict.fromkeys(found + lines), key=lambda i: -scores[i])


def place_candidates(sentences: list[Sentence], relevance: np.ndarray, scores: np.ndarray,
                     taken: set[int]) -> list[int]:
    """The sentences outside the candidates so far that name a country or region or a safeguard for data sent
    abroad (`lang/concepts.toml`), best selection logit first: a "where" answer chooses among them
    (`answering.places`)."""
    words = vocabulary()
    kinds = (PLACE, SAFEGUARD)
    found = [i for i, sentence in enumerate(sentences) if i not in taken and relevance[i] > NO_MATCH_LOGIT
             and words.named_in(sentence.text, kinds)]
    return sorted(found, key=lambda i: -scores[i])


def covered_categories(sentences: list[Sentence], floor: float) -> set[str]:
    """The practice categories at least one sentence was tagged with, or has a tagger probability of
    at least `floor` for."""
    return {c for sentence in sentences for c in sentence.categories} | {
        c for sentence in sentences for c, probability in sentence.practice_scores.items() if probability >= floor}
