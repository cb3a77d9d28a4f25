"""Plain dataclasses for what flows between the assistant's components."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

# (stage, completed, total): lets a front end draw progress without the engine knowing how.
ProgressCallback = Callable[[str, int, int], None]


@dataclass(frozen=True)
class Block:
    """A paragraph, list item or heading of a parsed document, in reading order."""

    text: str
    section_path: tuple[str, ...]  # headings above this block, outermost first
    is_heading: bool = False
    # PDF: (offset into text, page number) where the text of each page begins, first at offset 0
    pages: tuple[tuple[int, int], ...] = ()

    def page_at(self, offset: int) -> int | None:
        """The page the character at `offset` is printed on (None for documents without pages)."""
        page = None
        for start, number in self.pages:
            if start > offset:
                break
            page = number
        return page


@dataclass(frozen=True)
class DroppedBlock:
    """A piece of a web page left out of the policy on purpose, and why (for a human to check)."""

    text: str  # its text, shortened
    words: int
    reason: str  # "navigation", "cookie banner", "table of contents", "duplicate", ...


@dataclass(frozen=True)
class Extraction:
    """How much of a web page's visible text the parsed policy kept (the loss check of every HTML ingest).

    `visible_words` counts every text node outside script/style/template/head/noscript/iframe, computed apart
    from the extraction; `dropped_blocks` lists what was left out on purpose, largest first."""

    kept_words: int
    visible_words: int
    dropped_blocks: tuple[DroppedBlock, ...] = ()
    duplicates_dropped: int = 0  # exact repeats of an earlier paragraph

    @property
    def kept_share(self) -> float:
        return self.kept_words / self.visible_words if self.visible_words else 1.0

    @property
    def unexplained_words(self) -> int:
        """Visible words neither kept nor in a listed dropped block (hidden bits, buttons, form fields)."""
        return max(self.visible_words - self.kept_words - sum(b.words for b in self.dropped_blocks), 0)


@dataclass(frozen=True)
class Document:
    """A policy file turned into structured, cleaned text."""

    title: str | None
    blocks: list[Block]
    extraction: Extraction | None = None  # web pages only: what was kept of the visible text


@dataclass(frozen=True)
class Slot:
    """A PolicyIE slot in a sentence: its label (e.g. `data-shared.data-contact`) and character span."""

    slot: str
    text: str  # verbatim: sentence_text[start:end]
    start: int
    end: int


@dataclass(frozen=True)
class Facts:
    """What the PolicyIE model read in a sentence: its intent and its type-I / type-II slots."""

    intent: str
    slots: tuple[Slot, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"intent": self.intent, "slots": [asdict(s) for s in self.slots]}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Facts:
        return cls(data["intent"], tuple(Slot(**s) for s in data["slots"]))


@dataclass(frozen=True)
class Sentence:
    """One sentence of a stored policy version."""

    ordinal: int  # 1-based position in the policy version; citations say "sentence {ordinal}"
    text: str  # verbatim: equals policy_text[start:end]
    start: int
    end: int
    section: str  # section path joined with " > " ("" when the sentence is above any heading)
    categories: tuple[str, ...] = ()  # OPP-115 practice categories predicted at ingest
    facts: Facts | None = None  # PolicyIE intent and slots predicted at ingest
    # the practice tagger's probability for each OPP-115 category ({} for versions ingested before)
    practice_scores: dict[str, float] = field(default_factory=dict, hash=False)
    page: int | None = None  # the page its first character is printed on (PDFs only)


@dataclass(frozen=True)
class ParsedPolicy:
    """The cleaned text of a policy and its sentences, ready to store."""

    title: str | None
    text: str
    sections: list[str]
    sentences: list[Sentence]


@dataclass(frozen=True)
class PolicyVersion:
    """A stored version of a policy (the metadata, not the sentences)."""

    id: int
    name: str
    version: int
    source_path: str
    sha256: str
    ingested_at: str
    n_sections: int
    n_sentences: int
    index_file: str
    title: str | None = None
    requested_url: str | None = None  # fetched policies: the URL asked for (source_path is the final one)
    fetched_at: str | None = None  # fetched policies: when, ISO 8601 UTC
    language: str | None = None  # ISO 639-1 code screening detected (None: stored before screening)
    kept_words: int | None = None  # web pages: words kept as the policy, of
    visible_words: int | None = None  # the page's visible words (the loss check)


@dataclass(frozen=True)
class Provenance:
    """Where a version came from, beyond its source path: the fetch, the language, the loss check."""

    requested_url: str | None = None
    fetched_at: str | None = None
    language: str | None = None
    kept_words: int | None = None
    visible_words: int | None = None


@dataclass(frozen=True)
class FacetSentence:
    """A sentence that addresses a facet in the privacy profile: its stance and the value it states."""

    ordinal: int
    stance: str  # yes (does) | no (does not) | conditional (only under a condition)
    value: str | None = None  # verbatim: a period, a link or address, a minimum age, data types (None: none)


@dataclass(frozen=True)
class FacetProfile:
    """One facet of a policy version's privacy profile: the verdict on its plain question, the sentence that
    supports it, and every sentence that addresses it."""

    facet: str
    question: str
    verdict: str  # yes | no | conditional | not_stated
    headline: str
    sentence_id: int | None  # the supporting sentence (None when not stated)
    quote: str | None  # that sentence, verbatim
    value: str | None = None  # the value the supporting sentence (else the first addressing one) states
    sentences: tuple[FacetSentence, ...] = ()
    # what the OPP-115 attribute heads read in the supporting sentence ("Retention Period: Stated Period")
    described: str | None = None


@dataclass(frozen=True)
class PolicyProfile:
    """A version's privacy profile, one row per facet in label order; `rules` names the rules that made it."""

    rules: str
    facets: tuple[FacetProfile, ...]


@dataclass(frozen=True)
class Evidence:
    """A policy sentence offered as support for an answer."""

    sentence_id: int
    section: str
    text: str
    score: float
    page: int | None = None  # the page it is printed on (PDFs only)

    def citation(self) -> str:
        """Human citation such as '§ Information We Collect › Cookies, sentence 12' (', p. 4' for a PDF)."""
        section = self.section.replace(" > ", " › ") if self.section else "(top of policy)"
        return f"§ {section}, sentence {self.sentence_id}" + (f", p. {self.page}" if self.page else "")


@dataclass(frozen=True)
class EvidenceFacts:
    """The structured facts of one evidence sentence (Answer.facts)."""

    sentence_id: int
    intent: str
    slots: list[Slot]


@dataclass(frozen=True)
class AnswerSpan:
    """The short answer inside the best evidence sentence (offsets into that sentence's text)."""

    sentence_id: int
    start: int
    end: int
    text: str  # verbatim: sentence_text[start:end]


@dataclass
class Answer:
    """What the engine returns for a question. `to_dict` gives the stable JSON form."""

    question: str
    policy: str
    version: int
    answerable: bool
    reason: str | None
    answer: str | None
    confidence: float
    evidence: list[Evidence] = field(default_factory=list)
    facts: list[EvidenceFacts] = field(default_factory=list)
    span: AnswerSpan | None = None
    verdict: str | None = None  # yes | no | conditional; not_stated when the policy does not address the
    # question (of any type); None for a question that is not yes/no, or one refused
    headline: str = ""  # one complete sentence that answers; the first evidence sentence supports it
    facet: str | None = None  # what the question is about (assistant.understanding.facets), when known
    question_type: str | None = None  # yes_no, how_long, how_to, what, who, where, other

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Answer:
        """The answer back from its JSON form (`to_dict`), e.g. as `assistant serve` sent it."""
        span = data.get("span")
        return cls(**{
            **data,
            "evidence": [Evidence(**item) for item in data["evidence"]],
            "facts": [EvidenceFacts(f["sentence_id"], f["intent"], [Slot(**s) for s in f["slots"]])
                      for f in data["facts"]],
            "span": AnswerSpan(**span) if span else None,
        })
