"""The ways a policy sentence gives to act on your data or reach the privacy team — e-mail addresses, links,
phone numbers, settings pages, forms, postal addresses — each as the policy writes it. The patterns are data
(`lang/channels.toml`, with the sentences each must and must not match, run as tests)."""
from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources

from assistant.foundation.types import Sentence


@dataclass(frozen=True)
class Channel:
    """One way the policy gives: its kind (`email`, `link` …), how an answer names it, and its text."""

    kind: str
    label: str  # "by e-mail"
    text: str  # verbatim from the sentence


@dataclass(frozen=True)
class ChannelKind:
    name: str
    label: str
    pattern: re.Pattern
    match: tuple[str, ...] = ()
    no_match: tuple[str, ...] = ()


def load(text: str) -> list[ChannelKind]:
    """The channel kinds of a channels file, in the order an answer shows them."""
    return [ChannelKind(name, entry["label"], re.compile(entry["pattern"], re.IGNORECASE),
                        tuple(entry.get("match", ())), tuple(entry.get("no_match", ())))
            for name, entry in tomllib.loads(text).items()]


@cache
def kinds() -> tuple[ChannelKind, ...]:
    """The shipped channel kinds (`lang/channels.toml`), read once per process."""
    return tuple(load(resources.files("assistant.understanding").joinpath("lang/channels.toml").read_text("utf-8")))


def channels_in(text: str) -> list[Channel]:
    """Every channel a sentence gives, each once, in the kinds' order (an e-mail address inside a link is the
    link's)."""
    found: list[Channel] = []
    taken: list[tuple[int, int]] = []
    for kind in kinds():
        for match in kind.pattern.finditer(text):
            span = match.span()
            if any(start < span[1] and span[0] < end for start, end in taken):
                continue
            way = match.groupdict().get("way")  # the channel within a longer match: "“Ads”" of "navigate to “Ads”"
            value = (way or match.group()).strip().rstrip(".,;:")
            if value and all(c.text != value for c in found):
                found.append(Channel(kind.name, kind.label, value))
                taken.append(span)
    return found


# A line of a postal address printed as a sentence of its own ("Attn: Consumer Care", "1301 Second Avenue",
# "Dublin 2, Ireland"): short, opening with a capital or a digit, and no clause (no "we", "you", "please", verb of
# a statement).
ADDRESS_LINE_WORDS = 8
_NOT_AN_ADDRESS = re.compile(r"\b(?:we|you|our|your|us|is|are|was|may|will|can|please|if|this|that|which)\b", re.IGNORECASE)


def address_line(text: str) -> bool:
    """Whether a sentence reads as one line of a postal address (not a label introducing one: "EU representative:")."""
    text = text.strip()
    return (0 < len(text.split()) <= ADDRESS_LINE_WORDS and text[:1].isalnum() and (text[:1].isupper() or text[:1].isdigit())
            and not _NOT_AN_ADDRESS.search(text) and not text.endswith(("?", "!", ":")))


def block_line(text: str) -> bool:
    """Whether a sentence can be one line of an address printed one line per sentence: an address line, or a line
    holding a postal address itself ("Samsung House, 2000 Hillswood Drive, Chertsey, Surrey KT16 0RS")."""
    return address_line(text) or (len(text.split()) <= 2 * ADDRESS_LINE_WORDS and not text.rstrip().endswith(":")
                                  and any(c.kind == "postal" for c in channels_in(text)))


def address_block(texts: list[str], index: int) -> list[int]:
    """The indexes of the postal address `texts[index]` belongs to, printed one line per sentence, in order: the
    block lines around it that hold at least one postal channel between them; just `index` when it is no such
    line. `texts` are consecutive sentences of one section, in document order."""
    if not block_line(texts[index]):
        return [index]
    start, end = index, index
    while start > 0 and block_line(texts[start - 1]):
        start -= 1
    while end + 1 < len(texts) and block_line(texts[end + 1]):
        end += 1
    block = list(range(start, end + 1))
    postal = any(c.kind == "postal" for i in block for c in channels_in(texts[i]))
    return block if postal and len(block) > 1 else [index]


def block_of(sentences: list[Sentence], index: int) -> list[int]:
    """`address_block` for `sentences[index]` among its section's neighbours (positions in `sentences`, which are
    consecutive sentences in document order)."""
    section, lo, hi = sentences[index].section, index, index
    while lo > 0 and index - lo < ADDRESS_LINE_WORDS and sentences[lo - 1].section == section:
        lo -= 1
    while hi + 1 < len(sentences) and hi - index < ADDRESS_LINE_WORDS and sentences[hi + 1].section == section:
        hi += 1
    return [lo + k for k in address_block([s.text for s in sentences[lo:hi + 1]], index - lo)]
