"""The privacy profile of a policy version: for each facet, the verdict on its plain question ("Do they sell
my personal information?") decided by the same stages as `ask`, with the sentence that supports it, and every
sentence that addresses the facet with its stance (does / does not / only under a condition) and the value it
states (a period, a link or address, a minimum age, data types).

Two in-domain models add to the supporting sentence: the PI-Extract tagger (`models/piextract`) marks the
data types it says are shared / collected — or, for a "no", not shared / not collected — and those spans,
verbatim, are the value of the data facets; the OPP-115 attribute heads (`models/attributes`, over the
sentence's stored vector) name what kind of statement it is ("Retention Period: Stated Period", "Choice
Type: Opt-out link"), only where the practice tagger put the sentence in that attribute's practice.

Computed at ingest, inside the transaction that stores the version, and stored (`Store.profile`); `label`,
`compare` and `diff` read it. `profile_rules` keys the rules that made it: a stored profile with another key
(written by older code) is computed again on first read and stored in its place.
"""
from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable
from dataclasses import asdict, replace
from functools import cache

import numpy as np

from assistant.answering.label import GlanceRow
from assistant.answering.pipeline import AnswerPipeline
from assistant.answering.selection import SelectionParameters
from assistant.answering.verdict import NOT_STATED
from assistant.foundation.resources import package_path
from assistant.foundation.types import FacetProfile, FacetSentence, PolicyProfile, PolicyVersion, Sentence
from assistant.models.attributes.model import AttributeClassifier
from assistant.models.piextract.model import PIExtractTagger
from assistant.understanding.facets import BY_NAME, GLANCE_QUESTIONS
from assistant.understanding.statements import AGE, PERIOD, UNTYPED, attribute, informative, kind, role, stance

# What the profile's verdicts depend on, besides the stored sentences: the answering and understanding rules,
# the retrieval's calibration, the selection parameters and the question models' releases. Any change to one
# of these files changes `profile_rules`, and stored profiles are computed again when next read.
_RULE_SOURCES = ("answering", "understanding", "retrieval")
_RULE_WEIGHTS = ("selection.json", "question_classifier/manifest.json", "facets/manifest.json", "retriever/manifest.json",
                 "retriever/config.json", "attributes/manifest.json", "piextract/manifest.json")

_LINK = re.compile(r"\bhttps?://[^\s<>\"')\]]+[^\s<>\"')\].,;:!?]|\bwww\.[^\s<>\"')\]]+[^\s<>\"')\].,;:!?]|"
                   r"\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b", re.IGNORECASE)
_DATA_ROLES = {"data-collected", "data-shared", "data-retained", "data-protected"}
# Which value a facet's sentences state, when any.
_LINK_FACETS = frozenset({"opt_out_ads", "deletion", "access_correction", "contact_dpo"})
_DATA_FACETS = frozenset({"sale", "sharing_advertisers", "sharing_third_parties", "law_enforcement",
                          "collection_location", "international_transfer", "ai_training"})
# The PI-Extract layer whose spans are a data facet's value: what is shared (or collected), by the verdict.
_PI_LAYERS = {**dict.fromkeys(("sale", "sharing_advertisers", "sharing_third_parties", "law_enforcement",
                                "international_transfer"), ("SHARE", "NOT_SHARE")),
              "collection_location": ("COLLECT", "NOT_COLLECT")}
# The OPP-115 attribute that says what kind of statement a facet's supporting sentence is.
FACET_ATTRIBUTES = {"retention": "Retention Period", "opt_out_ads": "Choice Type", "deletion": "Access Type",
                    "access_correction": "Access Type", "security": "Security Measure",
                    "sale": "Third Party Entity", "sharing_advertisers": "Third Party Entity",
                    "sharing_third_parties": "Third Party Entity", "cookies_tracking": "Purpose",
                    "collection_location": "Purpose", "children": "Audience Type"}


@cache
def _static_rules() -> str:
    digest = hashlib.sha256()
    package = package_path()
    for folder in _RULE_SOURCES:
        for path in sorted([*(package / folder).glob("*.py"), *(package / folder).glob("lang/*.toml")]):
            digest.update(path.name.encode() + b"\0" + path.read_bytes())
    for name in _RULE_WEIGHTS:
        path = package / "weights" / name
        digest.update(name.encode() + b"\0" + (path.read_bytes() if path.is_file() else b""))
    digest.update(json.dumps(GLANCE_QUESTIONS).encode())
    return digest.hexdigest()


def profile_rules(parameters: SelectionParameters) -> str:
    """The key of the rules a profile is computed by: the rule sources, the weights and the selection
    parameters (read without loading any model)."""
    tuned = json.dumps(asdict(parameters), sort_keys=True)
    return "profile v1 " + hashlib.sha256((_static_rules() + tuned).encode()).hexdigest()[:16]


def prepare(pipeline: AnswerPipeline) -> None:
    """Understand and embed the profile's fixed questions now (the pipeline keeps them for the process)."""
    for question in GLANCE_QUESTIONS.values():
        pipeline.search.query_vector(pipeline.understanding.run(question).text)


def compute_profile(pipeline: AnswerPipeline, version: PolicyVersion, attributes: AttributeClassifier | None = None,
                    piextract: PIExtractTagger | None = None) -> PolicyProfile:
    """The version's profile: one row per facet, in label order (each facet's plain question decided by the
    answering stages), with the sentences that address the facet; with the attribute heads and the PI-Extract
    tagger, what they read in each supporting sentence."""
    sentences = pipeline.search.sentences(version)
    rows = _decided_rows(pipeline, version, sentences)
    if attributes is not None:
        rows = _described(rows, attributes, pipeline.search.vectors(version), sentences)
    if piextract is not None:
        rows = _data_types(rows, piextract)
    return PolicyProfile(profile_rules(pipeline.parameters), tuple(rows))


def _decided_rows(pipeline: AnswerPipeline, version: PolicyVersion, sentences: list[Sentence]) -> list[FacetProfile]:
    rows = []
    for facet_name, question in GLANCE_QUESTIONS.items():
        ranking, verdict = pipeline.decide(question, version)
        support = ranking.ranked[verdict.support].sentence if verdict.support is not None else None
        facet = BY_NAME[facet_name]
        addressing = tuple(FacetSentence(s.ordinal, stance(s, facet), stated_value(facet_name, s))
                           for s in sentences if facet.addressed_by(s.text))
        value = stated_value(facet_name, support) if support else None
        if value is None and verdict.verdict != NOT_STATED:
            value = next((s.value for s in addressing if s.value), None)
        rows.append(FacetProfile(facet_name, question, verdict.verdict or NOT_STATED, verdict.headline,
                                 support.ordinal if support else None, support.text if support else None, value,
                                 addressing))
    return rows


def _described(rows: list[FacetProfile], attributes: AttributeClassifier, vectors: np.ndarray,
               sentences: list[Sentence]) -> list[FacetProfile]:
    """Each supported row with the most probable value of its facet's OPP-115 attribute in the supporting
    sentence (none where the practice tagger did not put the sentence in that attribute's practice)."""
    wanted = [r for r in rows if r.sentence_id is not None and r.facet in FACET_ATTRIBUTES]
    if not wanted:
        return rows
    supports = [sentences[r.sentence_id - 1] for r in wanted]
    predicted = attributes.predict(vectors[[r.sentence_id - 1 for r in wanted]],
                                   categories=[s.categories for s in supports])
    described = {}
    for row, found in zip(wanted, predicted, strict=True):
        values = found.get(FACET_ATTRIBUTES[row.facet])
        if values:
            described[row.facet] = plain_attribute(FACET_ATTRIBUTES[row.facet], values[0][0])
    return [replace(r, described=described.get(r.facet)) for r in rows]


# OPP-115's attribute names in the words a label reader uses (its values are lower-cased, "/" read as "or").
_PLAIN_ATTRIBUTES = {"Retention Period": "How long", "Choice Type": "Your choice", "Access Type": "What you can do",
                     "Security Measure": "How it is protected", "Third Party Entity": "Who receives it",
                     "Purpose": "Why", "Audience Type": "For whom"}


def plain_attribute(name: str, value: str) -> str:
    """"Third Party Entity: Unnamed third party" → "Who receives it: an unnamed third party"-like plain words."""
    said = value.replace("/", " or ").replace("_", " ").strip()
    said = said[:1].lower() + said[1:] if said[:2] != said[:2].upper() else said
    return f"{_PLAIN_ATTRIBUTES.get(name, name)}: {said}"


# Words that alone name no kind of data: a PI-Extract span made only of them ("your", "other information") is not
# shown.
_GENERIC_WORDS = frozenset("a an the your our their its other such this that these those any all certain some "
                           "information info data personal details and or of".split())


def _names_data(span: str) -> bool:
    return any(w.strip(".,;:()'\"“”").lower() not in _GENERIC_WORDS for w in span.split())


def _data_types(rows: list[FacetProfile], piextract: PIExtractTagger) -> list[FacetProfile]:
    """Each supported data facet's value as the data types PI-Extract marks in its supporting sentence, verbatim,
    on the layer that agrees with the verdict (shared for a "yes", not shared for a "no"); PolicyIE's type names
    stay where it marks none, except under a "no"."""
    wanted = [r for r in rows if r.quote and r.facet in _PI_LAYERS and r.verdict != NOT_STATED]
    if not wanted:
        return rows
    found = {}
    for row, spans in zip(wanted, piextract.tag([r.quote for r in wanted]), strict=True):
        layer = _PI_LAYERS[row.facet][1 if row.verdict == "no" else 0]
        texts = dict.fromkeys(span.text for span in spans if span.label == layer and _names_data(span.text))
        if texts:
            found[row.facet] = ", ".join(texts)
    # a "no" keeps only what PI-Extract marks as not shared: PolicyIE's type names carry no polarity
    return [replace(r, value=found.get(r.facet, None if r.verdict == "no" else r.value)) if r in wanted else r
            for r in rows]


def stated_value(facet: str, sentence: Sentence) -> str | None:
    """What a sentence states for the facet, verbatim: a period (retention), a link or e-mail address (opt-out,
    deletion, access, contact), a minimum age (children), the data types PolicyIE read (sale, sharing,
    collection …); None when it states none."""
    text = sentence.text
    if facet == "retention":
        found = PERIOD.search(text)
    elif facet in _LINK_FACETS:
        found = _LINK.search(text)
    elif facet == "children":
        found = AGE.search(text)
    elif facet in _DATA_FACETS and sentence.facts is not None:
        types = dict.fromkeys(attribute(s) for s in sentence.facts.slots
                              if role(s) in _DATA_ROLES and informative(s) and kind(s) not in UNTYPED)
        return ", ".join(types) or None
    else:
        return None
    return found.group() if found else None


def glance_rows(profile: PolicyProfile, facets: Iterable[str] | None = None) -> list[GlanceRow]:
    """The label's at-a-glance rows from a profile (only `facets`, when given), in label order."""
    wanted = None if facets is None else set(facets)
    return [GlanceRow(f.facet, f.question, f.verdict, f.headline, f.sentence_id, f.quote, f.value, f.described)
            for f in profile.facets if wanted is None or f.facet in wanted]


def glance(pipeline: AnswerPipeline, version: PolicyVersion, facets: Iterable[str] | None = None,
           attributes: AttributeClassifier | None = None, piextract: PIExtractTagger | None = None) -> list[GlanceRow]:
    """One row per facet, in label order (only `facets`, when given), computed now (not read from the store)."""
    return glance_rows(compute_profile(pipeline, version, attributes, piextract), facets)

