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
