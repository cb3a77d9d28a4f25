"""What a yes/no question asks the company to do, as a headline says it: "Do they record customer support calls?" →
"records customer support calls" / "does not record customer support calls".

For questions no facet's words say (`Facet.does`) and whose frame names nothing a headline can word: the headline
then answers in the question's own words instead of "the policy says so". Only a question whose subject is the
company ("they", "you", "it", "the app", the policy's own name) and whose verb follows "do", "does" or a modal is
said; any other shape gets None (the headline stays generic). The words are data: `lang/claims.toml`.
"""
from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources

from assistant.understanding.frame import without_own_name


@dataclass(frozen=True)
class Claim:
    """The question's claim about the company, as "it …" continues it."""

    does: str  # "records customer support calls"
    does_not: str  # "does not record customer support calls"


@dataclass(frozen=True)
class ClaimWords:
    subjects: re.Pattern  # the company as a question's subject
    modals: frozenset[str]  # "will", "can" …: kept before the verb
    not_verbs: frozenset[str]  # words after the subject that are no verb ("ever", "guys")
    irregular: dict[str, str]  # base form → third person ("have" → "has")
    of_asker: dict[str, str]  # the asker's words, as the headline says them ("my" → "your")
    of_company: dict[str, dict[str, str]]  # the company's own words by the subject that names it ("your" → "its")


@cache
def claim_words() -> ClaimWords:
    data = tomllib.loads(resources.files("assistant.understanding").joinpath("lang/claims.toml").read_text("utf-8"))
    return ClaimWords(re.compile(r"(?:" + "|".join(data["subjects"]) + r")\b", re.IGNORECASE),
                      frozenset(data["modals"]), frozenset(data["not_verbs"]), dict(data["irregular"]),
                      dict(data["of_asker"]), {subject: dict(mapping) for subject, mapping in data["of_company"].items()})


_QUESTION = re.compile(r"^\s*(?P<aux>\w+)\s+(?P<words>[^?]*?)\s*\?*\s*$")
_WORD = re.compile(r"[A-Za-z’']+")
MAX_SUBJECT_WORDS = 3  # "the app", "Hugging Face", "you guys"


def claim_of(question: str, policy: str = "") -> Claim | None:
    """The claim a yes/no question makes of the company, or None when its shape is not one said here."""
    words = claim_words()
    found = _QUESTION.match(question)
    if found is None or not (found["aux"].lower() in ("do", "does") or found["aux"].lower() in words.modals):
        return None
    aux, tokens = found["aux"].lower(), found["words"].split()
    for size in range(min(MAX_SUBJECT_WORDS, len(tokens) - 1), 0, -1):  # the longest subject first: "Hugging Face"
        subject = " ".join(tokens[:size])
        own = bool(policy) and without_own_name(subject, policy) in ("it", "its")
        if not (own or words.subjects.fullmatch(subject)) or tokens[size][:1].isupper():
            continue  # not the company, or a name goes on ("Hugging" of "Hugging Face")
        verb, rest = tokens[size].lower(), tokens[size + 1:]
        if verb in words.not_verbs or not verb.isalpha():
            return None
        pronouns = {**words.of_asker, **words.of_company.get("it" if own else subject.lower(), {})}
        said = " ".join(_WORD.sub(lambda w, said_as=pronouns: said_as.get(w.group().lower(), w.group()), word)
                        for word in rest)
        said = (" " + said).rstrip(" .!") if said else ""
        if aux in words.modals:
            return Claim(f"{aux} {verb}{said}", f"{aux} not {verb}{said}")
        return Claim(f"{third_person(verb, words)}{said}", f"does not {verb}{said}")
    return None


def third_person(verb: str, words: ClaimWords | None = None) -> str:
    """"record" → "records", "watch" → "watches", "copy" → "copies", "have" → "has"."""
    irregular = (words or claim_words()).irregular
    if verb in irregular:
        return irregular[verb]
    if re.search(r"(?:s|sh|ch|x|z|o)$", verb):
        return verb + "es"
    if re.search(r"[^aeiou]y$", verb):
        return verb[:-1] + "ies"
    return verb + "s"
