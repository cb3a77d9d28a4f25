"""Sentence splitting tuned for legal text, with character offsets into the source text.

English is split by pysbd and repaired by the rules below; German abbreviations ("z. B.", "d. h.", "bzw.",
dates such as "4. Dezember") never end a sentence, and Japanese and Chinese text is also split after
"。", "！" and "？" (with their closing brackets), which pysbd's English rules do not see as ends.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from functools import lru_cache

import pysbd

from assistant.foundation.errors import IngestLimitError
from assistant.foundation.limits import DEFAULT_MAX_PARAGRAPH_CHARS
from assistant.foundation.text import without_controls
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
# German abbreviations after which a sentence never ends ("z. B." and the like are handled as pairs).
_GERMAN_ALWAYS_JOIN = frozenset(
    "bzw. ggf. nr. vgl. sog. evtl. inkl. bspw. insb. zzgl. ziff. abs. lit. gem. z.b. d.h. u.a. u.u. "
    "o.ä. s.o. s.u. i.d.r. u.ä.".split()
)
# A German abbreviation written as two letters with a space ("z. B."), as (first, second) lowercase.
_GERMAN_PAIRS = frozenset({("z.", "b."), ("d.", "h."), ("u.", "a."), ("u.", "u."), ("o.", "ä."), ("s.", "o."),
                           ("s.", "u."), ("u.", "ä."), ("i.", "d."), ("d.", "r."), ("i.", "s.")})
_GERMAN_MONTH = re.compile(
    r"(?:Januar|Jänner|Februar|März|April|Mai|Juni|Juli|August|September|Oktober|November|Dezember)\b")
_ORDINAL = re.compile(r"\d{1,2}\.")
_ABBREVIATION_START = re.compile(r"\w{1,2}\.")
_TERMINALS = tuple(".!?…。！？")
_CLOSERS = "\"'”’)]」』）】〉》"
# A fragment that goes on with a closing bracket or a comma belongs to the one before ("…か？" + "」と聞く").
_CJK_CONTINUATION = re.compile(r"[」』）】〉》、，]")
# Where Japanese and Chinese sentences end: "。", "！" or "？" and any closing brackets, unless a quotation
# goes on ("「…ですか？」と聞く", "…？」，").
_CJK_END = re.compile(r"[。！？]+[」』）】〉》”’\"']*(?![」』）】〉》”’\"'とっ、，])")
_TAIL_CHARS = 64  # a fragment's last word, if it is an abbreviation, and its closing quotes fit in this
_ENUMERATOR_MAX_CHARS = 8
_ENUMERATOR_ONLY = re.compile(
    r"(?:\(?(?:\d{1,3}|[A-Za-z]|[ivxlcIVXLC]{1,6})[.)]|\((?:\d{1,3}|[A-Za-z]|[ivxlcIVXLC]{1,6})\)|[-*•·‣◦▪])"
)
# A multi-level section number ("7.4.1.", "10. 1."): it belongs to the clause that follows it.
_SECTION_NUMBER = re.compile(r"\d{1,3}(?:\.\s?\d{1,3}){1,4}\.?")
_SECTION_NUMBER_MAX_CHARS = 20
_CONTINUATION = re.compile(r"[a-z0-9,;:)\]]")
# No sentence starts with a colon, semicolon or comma ("Collected?" + ": YES — Disclosed?: YES"), nor with
# the next "— Header: cell" pair of a table row read as a sentence.
_PUNCTUATION_START = re.compile(r"[:;,]|— [^.!—]{1,80}?:")
# A lowercase word cannot start a sentence ("... the Which Information Can I Access? section."),
# unless it is a brand name such as iPhone or eBay.
_LOWERCASE_WORD = re.compile(r"[a-z]+(?:[^A-Za-z]|$)")
_LOWERCASE_ENUMERATOR = re.compile(r"(?:[ivxlc]{1,6}|[a-z])[.)](?:\s|$)")
_WORD_CHAR = re.compile(r"\w")
_MIN_WORD_CHARS = 3
# Where a long paragraph may be cut: after a sentence's final punctuation (and closing quotes) and space.
_PIECE_END = re.compile(r"[.!?…][\"'”’)\]]*\s+|[。！？][」』）】〉》”’\"']*\s*")
_SPACE = re.compile(r"\s+")


@lru_cache(maxsize=1)
def _segmenter() -> pysbd.Segmenter:
    """The shared pysbd segmenter (built on first use; not thread-safe)."""
    return pysbd.Segmenter(language="en", clean=False, char_span=True)


def split_sentences(text: str, max_chars: int = DEFAULT_MAX_PARAGRAPH_CHARS, stop_above: int | None = None
                    ) -> list[Span]:
    """Split `text` into sentence spans (start, end), stripped, covering every non-space character once.

    Linear in the length of `text`: pysbd's cost grows with the square of what it is given, so a text
    longer than `max_chars` is split piece by piece (`_pieces`), and no sentence is longer than that.
    With `stop_above`, stops after the first piece by which more than that many sentences are certain,
    and returns only the sentences complete so far (more than `stop_above`, and none beyond that piece).
    """
    merged: list[Span] = []
    words: list[int] = []  # word characters in each merged span
    for piece_start, piece_end in _pieces(text, max_chars):
        starts = [piece_start + start for start in _sentence_starts(text[piece_start:piece_end])]
        ends = [*starts[1:], piece_end] if starts else []
        _merge_into(text, merged, words, max_chars, (_strip(text, *span) for span in zip(starts, ends, strict=True)))
        # All but the last merged span are final, and the last join (`_join_short_tail`) removes at most one.
        if stop_above is not None and len(merged) - 1 > stop_above:
            return merged[:-1]
    _join_short_tail(merged, words, max_chars)
    return merged


def _pieces(text: str, max_chars: int) -> Iterator[Span]:
    """Cut `text` into consecutive pieces of at most `max_chars`: after the last likely sentence end
    in the second half of the window, else at the last whitespace, else (one huge word) at the limit."""
    start = 0
    while len(text) - start > max_chars:
        limit = start + max_chars
        cut = _last_end(_PIECE_END, text, start + max_chars // 2, limit) or _last_end(_SPACE, text, start + 1, limit)
        cut = cut or limit
        yield start, cut
        start = cut
    yield start, len(text)


def _last_end(pattern: re.Pattern[str], text: str, start: int, end: int) -> int | None:
    """The end of the last match of `pattern` within text[start:end], if any."""
    ends = [match.end() for match in pattern.finditer(text, start, end)]
    return ends[-1] if ends else None


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
    return _with_cjk_starts(text, starts)


def _with_cjk_starts(text: str, starts: list[int]) -> list[int]:
    """`starts` plus the starts of sentences after each Japanese or Chinese sentence end in `text`."""
    if not any(mark in text for mark in "。！？"):
        return starts
    found = set(starts)
    for match in _CJK_END.finditer(text):
        start = match.end()
        while start < len(text) and text[start].isspace():
            start += 1
        if start < len(text):
            found.add(start)
    return sorted(found)


def _merge_into(text: str, merged: list[Span], words: list[int], max_chars: int, spans: Iterable[Span]) -> None:
    """Append `spans` to `merged`, joining fragments that pysbd split wrongly (abbreviations, enumerators,
    tiny pieces), never into a sentence longer than `max_chars`; `words` holds each merged span's word
    characters. Linear: each test reads only the ends of the two fragments, so it can run piece by piece."""
    for span in spans:
        count = len(_WORD_CHAR.findall(text, *span))
        if merged and span[1] - merged[-1][0] <= max_chars and _joins_next(text, merged[-1], words[-1], span):
            merged[-1] = (merged[-1][0], span[1])
            words[-1] += count
        else:
            merged.append(span)
            words.append(count)


def _join_short_tail(merged: list[Span], words: list[int], max_chars: int) -> None:
    """Join the text's last sentence to the one before if it has too few word characters to stand alone."""
    if len(merged) > 1 and words[-1] < _MIN_WORD_CHARS and merged[-1][1] - merged[-2][0] <= max_chars:
        merged[-2:] = [(merged[-2][0], merged[-1][1])]
        words[-2:] = [words[-2] + words[-1]]


def _joins_next(text: str, fragment: Span, fragment_words: int, following: Span) -> bool:
    """Whether `fragment` (with `fragment_words` word characters) must be joined with `following`."""
    start, end = fragment
    tail = text[max(start, end - _TAIL_CHARS):end]  # enough for the last word and closing quotes
    tail_words = tail.lower().split()
    last_word = tail_words[-1].lstrip("([\"'“") if tail_words else ""
    return (
        fragment_words < _MIN_WORD_CHARS
        or (end - start <= _ENUMERATOR_MAX_CHARS and _ENUMERATOR_ONLY.fullmatch(text, start, end) is not None)
        or (end - start <= _SECTION_NUMBER_MAX_CHARS and _SECTION_NUMBER.fullmatch(text, start, end) is not None)
        or not tail.rstrip(_CLOSERS).endswith(_TERMINALS)
        or last_word in _ALWAYS_JOIN
        or (last_word in _JOIN_IF_CONTINUED and _CONTINUATION.match(text, *following) is not None)
        or _german_abbreviation_ends(text, tail_words, last_word, following)
        or _CJK_CONTINUATION.match(text, *following) is not None
        or _PUNCTUATION_START.match(text, following[0]) is not None  # (may read past the fragment)
        or (_LOWERCASE_WORD.match(text, *following) is not None
            and _LOWERCASE_ENUMERATOR.match(text, *following) is None)
    )


def _german_abbreviation_ends(text: str, tail_words: list[str], last_word: str, following: Span) -> bool:
    """Whether the fragment ends inside a German abbreviation or a date ("wie z." + "B. Ihre",
    "d. h." + "das", "bzw." + "die", "am 4." + "Dezember")."""
    if last_word in _GERMAN_ALWAYS_JOIN:
        return True
    if len(tail_words) > 1 and (tail_words[-2].lstrip("([\"'“"), last_word) in _GERMAN_PAIRS:
        return True
    next_word = _ABBREVIATION_START.match(text, *following)
    if next_word and (last_word, next_word.group().lower()) in _GERMAN_PAIRS:
        return True
    return _ORDINAL.fullmatch(last_word) is not None and _GERMAN_MONTH.match(text, *following) is not None


def policy_from_sentences(sentences: list[str], title: str | None = None) -> ParsedPolicy:
    """A policy whose sentences are given already split (e.g. PrivacyQA's), one per paragraph."""
    blocks = [Block(" ".join(without_controls(text).split()), ()) for text in sentences]
    texts, parsed, offset = [], [], 0
    for ordinal, block in enumerate(blocks, start=1):
        parsed.append(Sentence(ordinal, block.text, offset, offset + len(block.text), ""))
        texts.append(block.text)
        offset += len(block.text) + 2
    return ParsedPolicy(title=title, text="\n\n".join(texts), sections=[], sentences=parsed)


def build_policy(document: Document, max_sentences: int | None = None,
                 max_paragraph_chars: int = DEFAULT_MAX_PARAGRAPH_CHARS) -> ParsedPolicy:
    """Join blocks into the cleaned policy text and split non-heading blocks into sentences.

    Control characters (`assistant.foundation.text`) become spaces first, so the stored text never
    holds one and every sentence is text[start:end]. Refuses a policy of more than `max_sentences`
    sentences as soon as it has counted them, before anything costly is done with them.
    """
    texts: list[str] = []
    sentences: list[Sentence] = []
    sections: dict[str, None] = {}
    offset = 0
    for block in document.blocks:
        if texts:
            offset += 2  # the "\n\n" separator
        text = without_controls(block.text)
        section = without_controls(" > ".join(block.section_path))
        if section:
            sections.setdefault(section)
        if not block.is_heading:
            remaining = None if max_sentences is None else max_sentences - len(sentences)
            for start, end in split_sentences(text, max_paragraph_chars, stop_above=remaining):
                sentences.append(Sentence(len(sentences) + 1, text[start:end], offset + start, offset + end, section,
                                          page=block.page_at(start)))
            if max_sentences is not None and len(sentences) > max_sentences:
                raise IngestLimitError(
                    f"The policy has more than {max_sentences} sentences, the most one ingest accepts "
                    "(raise the limit with the ASSISTANT_MAX_SENTENCES environment variable)."
                )
        texts.append(text)
        offset += len(text)
    title = without_controls(document.title) if document.title is not None else None
    return ParsedPolicy(title=title, text="\n\n".join(texts), sections=list(sections), sentences=sentences)
