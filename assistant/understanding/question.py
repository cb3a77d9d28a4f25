"""Understand the question: is it one a privacy policy can answer (and if not, why), and which
OPP-115 practices is it about?"""
from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from assistant.models.facets.model import FacetClassifier
from assistant.models.questions.model import ANSWERABLE, QuestionClassifier
from assistant.models.retriever.model import Embedder
from assistant.understanding.concepts import TOPIC, vocabulary
from assistant.understanding.facets import ACTION_FACETS, FACET_ACTIONS, WHERE_INSTEAD, facet_of, question_type
from assistant.understanding.frame import ASKS_NOTHING, Frame, frame_of, under_facet, without_own_name

BEYOND_POLICY = "beyond_policy"
INCOMPREHENSIBLE = "incomprehensible"
# Facets specific enough that a question on them is one a policy answers, whatever the classifier's
# "beyond the policy" says ("Do they use my data to train AI?"). Not the broad ones: "has it been
# hacked?" (security) is beyond any policy.
POLICY_FACETS = frozenset({"ai_training", "sale", "children", "children_use", "international_transfer", "retention",
                           "deletion", "opt_out_ads", "collection_location", "policy_changes"})

# Facets whose words alone make a question one a policy answers, whatever the classifier reads ("How old do I have
# to be to use it?", "How do I delete my account?" read as out of scope: the policy states the age and your rights).
RULE_ANSWERABLE = frozenset({"children_use", "deletion", "access_correction", "opt_out_ads", "do_not_track",
                             "privacy_signal"})


@dataclass(frozen=True)
class UnderstoodQuestion:
    """A validated question and what the question classifier read in it."""

    text: str  # as validated (whitespace-normalised: `understanding.validation.validate_question`)
    reason: str | None  # None when answerable; else why not (out_of_scope, vague, …)
    reason_probability: float  # the classifier's probability for `reason` (0.0 when answerable)
    focus: frozenset[str] = frozenset()  # OPP-115 categories it is confidently about
    category_probabilities: dict[str, float] = field(default_factory=dict)  # every category the classifier knows
    question_type: str = "other"  # yes_no, how_long, how_to, what, who, where, other
    facet: str | None = None  # the privacy facet it asks about (assistant.understanding.facets), when known
    frame: Frame = ASKS_NOTHING  # the action and the kinds of data, recipients, purposes it names (understanding.frame)


class QuestionUnderstanding:
    """Stage: question text → `UnderstoodQuestion` (base-model embedding, then the linear classifiers; the
    facet from the facet classifier where it is confident, else from the word rules).

    The text is taken as validated: `Assistant` checks a question once, with `validate_question`, before it
    looks the policy up, and hands on the normalised text; the profile's fixed questions need no check."""

    def __init__(self, embedder: Embedder, classifier: QuestionClassifier, facets: FacetClassifier,
                 category_confidence: float, remember: Iterable[str] = ()) -> None:
        """The questions in `remember` (the privacy profile's fixed ones) are understood once per process."""
        self.embedder = embedder
        self.classifier = classifier
        self.facets = facets
        self.category_confidence = category_confidence
        self._remember = frozenset(remember)
        self._remembered: dict[str, UnderstoodQuestion] = {}

    def run(self, question: str, policy: str = "") -> UnderstoodQuestion:
        """The question understood; asked of `policy` (its stored name), the policy's own name in it is who is asked,
        not a recipient (`understanding.frame.without_own_name`)."""
        if policy and without_own_name(question, policy) != question:
            return self._understand(question, policy)
        if question in self._remembered:
            return self._remembered[question]
        understood = self._understand(question)
        if question in self._remember:
            self._remembered[question] = understood
        return understood

    def _understand(self, text: str, policy: str = "") -> UnderstoodQuestion:
        embedding = self.embedder.encode([text])[0]
        rule_facet = facet_of(text)
        rule_name = rule_facet.name if rule_facet else None
        kind, facet_name = question_type(text), self.facets.decide(embedding, rule_facet and (rule_facet.refines or rule_name))
        if rule_facet is not None and (rule_facet.refines == facet_name or rule_facet.decisive):
            facet_name = rule_name  # the rules' narrower question within it, or a topic their words name beyond doubt
        asked = frame_of(text, policy=policy)
        facet_name = practice_asked(facet_name, rule_name, asked.action) or facet_name
        if kind == "where":
            facet_name = WHERE_INSTEAD.get(facet_name, facet_name)
        if facet_name == ACCESS_RIGHT and ACCESSED_BY_OTHERS.search(text) and not ASKED_BY_THE_PERSON.search(text):
            facet_name = None  # "Does the app access my contacts?": what they do with the data, not your right
        analysis = self.classifier.analyse(embedding)
        masked = without_own_name(text, policy) if policy else text
        if analysis.label == INCOMPREHENSIBLE and masked != text:
            # a brand name the classifier never saw is no sign of a question it cannot make sense of ("How do I reach
            # Grammarly's data protection officer?"): read again with the asked company as "it", for that refusal only
            # (a question about the company beyond its policy stays one: "Has Amazon ever been hacked?")
            again = self.classifier.analyse(self.embedder.encode([masked])[0])
            analysis = again if again.label == ANSWERABLE else analysis
        frame = under_facet(asked, facet_name)
        # a question naming a kind of data, a recipient, a purpose or a topic policies state ("Will you tell me of a
        # data breach?", "Does BeReal give my data to the police?") is one for the policy, whatever the classifier's
        # "beyond the policy" says — also a data type, recipient or purpose the facet's own words decide (the police,
        # for the authorities; not a topic such as a breach: "Has it had a data breach?" is about the past)
        names_practice = analysis.label == BEYOND_POLICY and (bool(frame.objects) or any(
            vocabulary().concepts[o].kind != TOPIC for o in asked.objects))
        if analysis.label != ANSWERABLE and not (facet_name in POLICY_FACETS and analysis.label == BEYOND_POLICY) and not (
                facet_name in RULE_ANSWERABLE and rule_name == facet_name) and not names_practice:
            return UnderstoodQuestion(text, analysis.label, analysis.label_probability, question_type=kind,
                                      facet=facet_name, frame=frame)
        focus = frozenset(c for c, p in analysis.categories.items() if p >= self.category_confidence)
        return UnderstoodQuestion(text, None, 0.0, focus, analysis.category_probabilities, kind, facet_name, frame)


COLLECT = "collect"


ACCESS_RIGHT = "access_correction"
# Someone else reaching the data — the company, its app or staff, other users: "Does the app access my contacts?",
# "Can moderators see my IP address?", "Do shoppers see my home address?" — asks a practice, not your right to see
# your data ("Can I access my data?", "How do I see what they hold about me?"). Measured on the 29 such questions of the
# answers sets' readers that the facet classifier had read as the right.
ACCESSED_BY_OTHERS = re.compile(r"\b(?:can|could|does|do|did|will|would|may|might|is|are)\s+(?:[\w'’/-]+\s+){1,5}?"
                                r"(?:access|see|read|scan|view|look at|listen to|get access to)\b", re.IGNORECASE)
ASKED_BY_THE_PERSON = re.compile(r"\b(?:I|me|myself)\b|\bI['’](?:m|ve|d)\b")


def practice_asked(facet: str | None, rule_facet: str | None, action: str | None) -> str | None:
    """The facet of the practice the question's verb asks, where `facet` is about collecting the data it names: "Do
    they sell my location data?" is about selling, not about collecting a location (`FACET_ACTIONS`); None where
    `facet` stands. Facets of other practices stand: their verbs overlap ("sent to other countries" is a transfer)."""
    if action in (None, COLLECT) or FACET_ACTIONS.get(facet) != COLLECT:
        return None
    return rule_facet if FACET_ACTIONS.get(rule_facet) == action else ACTION_FACETS.get(action)
