"""The ways a policy sentence gives to act on your data or reach the privacy team — e-mail addresses, links,
phone numbers, settings pages, forms, postal addresses — each as the policy writes it. The patterns are data
(`lang/channels.toml`, with the sentences each must and must not match, run as tests)."""
from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources


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
            value = match.group().strip().rstrip(".,;:")
            if value and all(c.text != value for c in found):
                found.append(Channel(kind.name, kind.label, value))
                taken.append(span)
    return found
