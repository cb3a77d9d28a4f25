"""A question about several policies at once, asked of each one: "which policies sell my data?" is
"Do they sell my data?" asked of every stored policy (so each answer gets a yes / no verdict)."""
from __future__ import annotations

import re

_GROUP = (r"(?:policies|policy|companies|company|services?|sites?|websites?|apps?|ones?|of\s+(?:them|these|those|"
          r"the\s+(?:policies|companies|services|apps|sites)))")
_WHICH = re.compile(rf"^(?:so\s+|and\s+)?(?:which|what)\s+{_GROUP}(?:\s+(?:here|loaded|stored|you\s+have))?\s+"
                    r"(?P<rest>.+)$", re.IGNORECASE)
_ANY = re.compile(rf"^(?:do|does|will|can)\s+(?:any|all|each)\s+(?:of\s+)?(?:the\s+|these\s+|those\s+|them\s*)?"
                  rf"(?:{_GROUP})?\s*(?P<rest>.+)$", re.IGNORECASE)
_ACROSS = re.compile(r"^(?:across|in|for)\s+(?:all|every|each)\s+(?:the\s+)?(?:policies|policy|companies)\s*,?\s*"
                     r"(?P<rest>.+)$", re.IGNORECASE)
_AUX = re.compile(r"^(?:do|does|will|would|can|could|may|might)\s+(?:(?P<neg>not)\s+)?", re.IGNORECASE)
_BE = re.compile(r"^(?:are|is)\s+", re.IGNORECASE)
_ABOUT_THE_LIST = re.compile(r"^(?:(?:do|can|could|will|am|are|have)\s+(?:i|you|we)\b|am\b|(?:are|is)\s+(?:there|"
                             r"available|loaded|stored|selected|chosen)\b|(?:are|is)\s+(?:we|you|i)\b)", re.IGNORECASE)
_HAVE = re.compile(r"^(?:have|has)\b", re.IGNORECASE)


def question_for_each_policy(text: str) -> str | None:
    """The question to ask each policy ("Do they sell my data?"), or None when `text` is not a question
    about several policies ("do they sell my data?")."""
    text = " ".join(text.split()).rstrip(" ?.!")
    across = _ACROSS.match(text)
    if across:
        return _question(across.group("rest"))
    match = _WHICH.match(text) or _ANY.match(text)
    if match is None or not match.group("rest").strip():
        return None
    rest = match.group("rest").strip()
    if _ABOUT_THE_LIST.match(rest):
        return None  # "which policies do you have?", "what policies are available?": the list, not a question
    aux = _AUX.match(rest)
    if aux:
        return _question(("they not " if aux.group("neg") else "they ") + rest[aux.end():], "Do")
    if _BE.match(rest):
        return _question("they " + rest[_BE.match(rest).end():], "Are")
    if _HAVE.match(rest):
        return _question("they have" + rest[4 if rest[:4].lower() == "have" else 3:], "Do")
    verb, _, tail = rest.partition(" ")
    return _question(f"they {_base_form(verb)} {tail}".rstrip(), "Do")


def _question(rest: str, opening: str = "") -> str:
    rest = rest.strip().rstrip(" ?.!")
    text = f"{opening} {rest}" if opening else rest
    return text[:1].upper() + text[1:] + "?"


def _base_form(verb: str) -> str:
    """'sells' -> 'sell', 'shares' -> 'share', 'does' -> 'do', 'processes' -> 'process', 'sell' -> 'sell'."""
    lowered = verb.lower()
    irregular = {"does": "do", "has": "have", "is": "are", "says": "say"}
    if lowered in irregular:
        return irregular[lowered]
    if lowered.endswith(("sses", "shes", "ches", "xes", "zzes")):
        return verb[:-2]
    if lowered.endswith("ies") and len(lowered) > 4:
        return verb[:-3] + "y"
    if lowered.endswith("s") and not lowered.endswith(("ss", "us", "is")):
        return verb[:-1]
    return verb
