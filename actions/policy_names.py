"""Match what a user typed ("amazon", "Amazon.com", "amazn", "steam") to the loaded policy names."""
from __future__ import annotations

import difflib
import re
from collections.abc import Sequence

_WORD = re.compile(r"[a-z0-9]+")
_DOMAIN_PARTS = {"www", "com", "org", "net", "co", "uk", "io", "de", "fr", "html", "htm", "md", "txt"}
_FILLER = {
    "the", "a", "an", "policy", "policies", "privacy", "notice", "use", "switch", "to", "change", "choose",
    "pick", "select", "open", "load", "please", "one", "lets", "let", "s", "talk", "about", "look", "at",
    "i", "want", "would", "like", "ask", "questions", "question", "on", "for", "of", "go", "with", "now",
    "ok", "okay", "how", "what", "instead", "do", "is",
}
MIN_SIMILARITY = 0.75
MIN_PREFIX = 4


def normalize(name: str) -> str:
    """'www.Amazon.com' -> 'amazon', 'Steam Powered' -> 'steampowered'."""
    words = _WORD.findall(name.lower())
    core = [w for w in words if w not in _DOMAIN_PARTS]
    return "".join(core or words)


def resolve(typed: str, names: Sequence[str]) -> list[str]:
    """The loaded policy names that `typed` designates, best first: one name when it is clear,
    several when it is ambiguous, none when nothing is close."""
    if not typed.strip() or not names:
        return []
    lowered = {name.lower(): name for name in names}
    if typed.strip().lower() in lowered:
        return [lowered[typed.strip().lower()]]
    keys = {name: normalize(name) for name in names}
    candidates = [normalize(typed)] + [w for w in _WORD.findall(typed.lower()) if w not in _FILLER | _DOMAIN_PARTS]
    for candidate in filter(None, candidates):
        exact = [name for name, key in keys.items() if key == candidate]
        if exact:
            return exact
    for candidate in filter(None, candidates):
        if len(candidate) >= MIN_PREFIX:
            prefixed = [name for name, key in keys.items() if key.startswith(candidate) or candidate.startswith(key)]
            if prefixed:
                return prefixed
    scored = []
    for name, key in keys.items():
        best = max((difflib.SequenceMatcher(None, c, key).ratio() for c in candidates if len(c) >= 3), default=0.0)
        if best >= MIN_SIMILARITY:
            scored.append((best, name))
    scored.sort(key=lambda pair: -pair[0])
    if len(scored) > 1 and scored[0][0] - scored[1][0] >= 0.1:
        return [scored[0][1]]
    return [name for _, name in scored]


def mentioned(text: str, names: Sequence[str]) -> list[str]:
    """Every loaded policy the words of `text` name, in the order they appear ("compare amazon and
    instagram" -> ["amazon.com", "instagram.com"]); exact names and prefixes only, no near misses."""
    keys = {name: normalize(name) for name in names}
    found: list[str] = []
    for word in _WORD.findall(text.lower()):
        if word in _FILLER or word in _DOMAIN_PARTS or len(word) < 3:
            continue
        for name, key in keys.items():
            if name not in found and (key == word or (len(word) >= MIN_PREFIX and key.startswith(word))):
                found.append(name)
    return found


# Words that choose a policy without asking anything ("switch to the amazon policy please").
_CHOOSING = _FILLER | {"yes", "yeah", "sure", "please", "thanks", "thank", "you", "hey", "hi", "then", "it",
                       "that", "this", "other", "different", "same", "back", "start", "using", "try", "which", "one"}


def question_beyond_name(text: str, typed: str | None) -> bool:
    """Whether a message that names a policy also asks something ("has amazon been hacked?"), beyond
    choosing it ("switch to amazon please", "how about instagram?")."""
    named = set(_WORD.findall((typed or "").lower()))
    rest = [w for w in _WORD.findall(text.lower())
            if w not in named and w not in _CHOOSING and w not in _DOMAIN_PARTS and normalize(w) not in named]
    return len(rest) >= 2
