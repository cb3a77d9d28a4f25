"""Sentence splitting tuned for legal text, with character offsets into the source text."""
from __future__ import annotations

import re
from functools import lru_cache

import pysbd

from assistant.foundation.types import Block, Document, ParsedPolicy, Sentence

Span = tuple[int, int]

# Abbreviations after which a sentence never ends.
_ALWAYS_JOIN = frozenset(
    "e.g. i.e. cf. vs. v. viz. approx. esp. incl. mr. mrs. ms. dr. prof. sr. jr. sec. secs. art. "
    "para. paras. fig. pp. jan. feb. mar. apr. jun. jul. aug. sep. sept. oct. nov. dec.".split()
)
# Abbreviations that may end a sentence: joined only when the next fragment cannot start one.
_JOIN_IF_CONTINUED = frozenset(
    "etc. inc. ltd. co. corp. llc. l.l.c. plc. u.s. u.s.a. u.k. e.u. no. nos. st.".split()
)
_TERMINAL = re.compile(r"[.!?…][\"'”’)\]]*$")
_ENUMERATOR_ONLY = re.compile(
    r"(?:\(?(?:\d{1,3}|[A-Za-z]|[ivxlcIVXLC]{1,6})[.)]|\((?:\d{1,3}|[A-Za-z]|[ivxlcIVXLC]{1,6})\)|[-*•·‣◦▪])"
)
_CONTINUATION = re.compile(r"[a-z0-9,;:)\]]")
# A lowercase word cannot start a sentence ("... the Which Information Can I Access? section."),
# unless it is a brand name such as iPhone or eBay.
_LOWERCASE_WORD = re.compile(r"[a-z]+(?:[^A-Za-z]|$)")
_LOWERCASE_ENUMERATOR = re.compile(r"(?:[ivxlc]{1,6}|[a-z])[.)](?:\s|$)")
_WORD_CHAR = re.compile(r"\w")
_MIN_WORD_CHARS = 3


@lru_cache(maxsize=1)
def _segmenter() -> pysbd.Segmenter:
    """The shared pysbd segmenter (built on first use; not thread-safe)."""
    return pysbd.Segmenter(language="en", clean=False, char_span=True)


def split_sentences(text: str) -> list[Span]:
    """Split `text` into sentence spans (start, end), stripped, covering every non-space character once."""
    starts = _sentence_starts(text)
    if not starts:
        return []
    bounds = [*starts[1:], len(text)]
    return _merge(text, [_strip(text, start, end) for start, end in zip(starts, bounds, strict=True)])


def _strip(text: str, start: int, end: int) -> Span:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def _sentence_starts(text: str) -> list[int]:
    """Offsets where pysbd's sentences begin, verified against `text` (re-found by search if off)."""
    first = len(text) - len(text.lstrip())
    if first == len(text):
        return []
    starts = [first]
    cursor = first
    for span in _segmenter().segment(text):
        sentence = span.sent.strip()
        if not sentence:
            continue
        start = span.start + (len(span.sent) - len(span.sent.lstrip()))
        if text[start:start + len(sentence)] != sentence or start < cursor:
            start = text.find(sentence, cursor)
        if start < 0:
            continue  # not found verbatim: its text stays in the previous sentence
        if start > starts[-1]:
            starts.append(start)
        cursor = start + len(sentence)
    return starts


def _merge(text: str, spans: list[Span]) -> list[Span]:
    """Join fragments that pysbd split wrongly (abbreviations, enumerators, tiny pieces)."""
    merged: list[Span] = []
    for span in spans:
        if merged and _joins_next(text[slice(*merged[-1])], text[slice(*span)]):
            merged[-1] = (merged[-1][0], span[1])
        else:
            merged.append(span)
    if len(merged) > 1 and _is_tiny(text[slice(*merged[-1])]):
        merged[-2:] = [(merged[-2][0], merged[-1][1])]
    return merged


def _joins_next(fragment: str, following: str) -> bool:
    """Whether `fragment` must be joined with the fragment that follows it."""
    last_word = fragment.split()[-1].lstrip("([\"'“").lower()
    return (
        _is_tiny(fragment)
        or _ENUMERATOR_ONLY.fullmatch(fragment) is not None
        or _TERMINAL.search(fragment) is None
        or last_word in _ALWAYS_JOIN
        or (last_word in _JOIN_IF_CONTINUED and _CONTINUATION.match(following) is not None)
        or (_LOWERCASE_WORD.match(following) is not None and _LOWERCASE_ENUMERATOR.match(following) is None)
    )


def _is_tiny(fragment: str) -> bool:
    return len(_WORD_CHAR.findall(fragment)) < _MIN_WORD_CHARS


def policy_from_sentences(sentences: list[str], title: str | None = None) -> ParsedPolicy:
    """A policy whose sentences are given already split (e.g. PrivacyQA's), one per paragraph."""
    blocks = [Block(" ".join(text.split()), ()) for text in sentences]
    texts, parsed, offset = [], [], 0
    for ordinal, block in enumerate(blocks, start=1):
        parsed.append(Sentence(ordinal, block.text, offset, offset + len(block.text), ""))
        texts.append(block.text)
        offset += len(block.text) + 2
    return ParsedPolicy(title=title, text="\n\n".join(texts), sections=[], sentences=parsed)


def build_policy(document: Document) -> ParsedPolicy:
    """Join blocks into the cleaned policy text and split non-heading blocks into sentences."""
    texts: list[str] = []
    sentences: list[Sentence] = []
    sections: dict[str, None] = {}
    offset = 0
    for block in document.blocks:
        if texts:
            offset += 2  # the "\n\n" separator
        section = " > ".join(block.section_path)
        if section:
            sections.setdefault(section)
        if not block.is_heading:
            for start, end in split_sentences(block.text):
                sentences.append(
                    Sentence(len(sentences) + 1, block.text[start:end], offset + start, offset + end, section,
                             page=block.page_at(start))
                )
        texts.append(block.text)
        offset += len(block.text)
    return ParsedPolicy(title=document.title, text="\n\n".join(texts), sections=list(sections), sentences=sentences)
