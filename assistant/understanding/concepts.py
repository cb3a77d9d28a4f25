"""The concepts a question can ask about — kinds of data, recipients, purposes, actions — read from
`lang/concepts.toml`, and where a text names them.

Generic code over data: what each concept's words are, which concepts are narrower than which, and which actions
imply which, all live in the TOML file with the sentences each must and must not match (run as tests)."""
from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import cache, cached_property
from importlib import resources

DATA, RECIPIENT, PURPOSE, TOPIC, PLACE, SAFEGUARD, ACTION = (
    "data", "recipient", "purpose", "topic", "place", "safeguard", "action")
KINDS = (DATA, RECIPIENT, PURPOSE, TOPIC, PLACE, SAFEGUARD, ACTION)


@dataclass(frozen=True)
class Concept:
    """One thing a question can name, with the words that name it."""

    name: str
    kind: str  # data | recipient | purpose | topic | place | safeguard | action
    terms: tuple[str, ...]
    label: str = ""  # how an answer names it ("biometric data")
    facets: tuple[str, ...] = ()  # facets whose word rules already decide whether a statement speaks of it
    generic: bool = False  # "your personal information": in the graph, never a condition a question puts
    not_terms: tuple[str, ...] = ()  # phrases containing a term that name something else
    narrower: tuple[str, ...] = ()  # concepts that are kinds of this one
    implied_by: tuple[str, ...] = ()  # actions only: the actions that imply this one
    match: tuple[str, ...] = ()  # example sentences it must be found in
    no_match: tuple[str, ...] = ()  # and must not
    permission: bool = False  # reached only through a permission the person grants on the device

    def __post_init__(self) -> None:
        object.__setattr__(self, "label", self.label or self.name.replace("_", " "))

    @cached_property
    def pattern(self) -> re.Pattern:
        """The terms as one pattern, compiled on first use (a question needs few of the concepts' patterns)."""
        return _compile(self.terms)

    @cached_property
    def exclusion(self) -> re.Pattern | None:
        return _compile(self.not_terms) if self.not_terms else None

    @cached_property
    def anchors(self) -> tuple[str, ...] | None:
        """A word of each term that any text naming it contains (lower case): a text with none of them cannot name
        the concept, and its pattern need not be compiled. None when a term is a regular expression."""
        words = []
        for term in self.terms:
            if "(" in term:
                return None
            plain = [w for w in re.findall(r"[a-z0-9]+", term.lower().replace("\\w*", " ")) if len(w) >= 2]
            if not plain:
                return None
            words.append(max(plain, key=len)[:5])
        return tuple(dict.fromkeys(words))

    def named_in(self, text: str) -> bool:
        """Whether `text` names this concept itself (not a narrower one): a term outside every `not` phrase."""
        return bool(self.places(text))

    def places(self, text: str) -> list[int]:
        """Where in `text` a term names this concept (each match's start), outside every `not` phrase."""
        return [m.start() for m in self.matches(text)]

    def matches(self, text: str) -> list[re.Match]:
        """Each term naming this concept in `text`, outside every `not` phrase: its words as the text writes them."""
        if self.anchors is not None:
            lowered = text.lower()
            if not any(anchor in lowered for anchor in self.anchors):
                return []
        excluded = [m.span() for m in self.exclusion.finditer(text)] if self.exclusion else []
        return [m for m in self.pattern.finditer(text)
                if not any(start <= m.start() and m.end() <= end for start, end in excluded)]


def _compile(terms: tuple[str, ...]) -> re.Pattern:
    """One case-insensitive pattern for `terms`: each at word boundaries, spaces as any whitespace, a plural ending
    allowed after the last word; `\\w*` and groups in a term are kept as written. (One boundary around all the terms:
    the pattern compiles in a fraction of the time of one per term, at every start.)"""
    plural, exact = [], []
    for term in terms:
        if "(" in term:  # a group: the term is a regular expression as written
            exact.append(term)
            continue
        parts = [p if "\\" in p else re.sub(r"['’]", "['’]", re.escape(p)) for p in term.split()]
        body = r"[\s\-]+".join(parts)
        (exact if term.endswith(("*", "s")) else plural).append(body)
    alternatives = ([f"(?:{'|'.join(plural)})(?:s|es)?"] if plural else []) + exact
    return re.compile(rf"(?<![\w-])(?:{'|'.join(alternatives)})(?![\w])", re.IGNORECASE)


class Vocabulary:
    """Every concept, by name, and what a text names."""

    def __init__(self, concepts: list[Concept]) -> None:
        self.concepts = {c.name: c for c in concepts}
        unknown = {n for c in concepts for n in (*c.narrower, *c.implied_by) if n not in self.concepts}
        if unknown:
            raise ValueError(f"concepts.toml names unknown concepts: {', '.join(sorted(unknown))}")

    def named_in(self, text: str, kinds: tuple[str, ...] = KINDS) -> list[str]:
        """The concepts `text` names, of the given kinds, most specific first: a concept is left out when a
        narrower concept it contains is named too ("precise location" names location and precise_location:
        precise_location is what is asked)."""
        found = [c.name for c in self.concepts.values() if c.kind in kinds and c.named_in(text)]
        return [n for n in found if not any(n != other and other in self.below(n) for other in found)]

    def below(self, name: str) -> set[str]:
        """`name`'s narrower concepts, at any depth."""
        seen: set[str] = set()
        todo = list(self.concepts[name].narrower)
        while todo:
            narrower = todo.pop()
            if narrower not in seen:
                seen.add(narrower)
                todo.extend(self.concepts[narrower].narrower)
        return seen

    def states(self, text: str, name: str) -> bool:
        """Whether `text` names concept `name` or a narrower one (a narrower statement answers the broader
        question; a broader one never answers the narrower)."""
        return any(self.concepts[n].named_in(text) for n in (name, *self.below(name)))

    def actions_in(self, text: str) -> set[str]:
        """The actions `text` names."""
        return {c.name for c in self.concepts.values() if c.kind == ACTION and c.named_in(text)}

    def answers_action(self, asked: str, actions: set[str]) -> bool:
        """Whether a statement of `actions` speaks of the `asked` action: the action itself or one implying it
        ("we share X" says they collect X)."""
        return asked in actions or bool(actions & set(self.concepts[asked].implied_by))


def load(text: str) -> Vocabulary:
    """A vocabulary from the TOML text of a concepts file."""
    table = tomllib.loads(text)
    concepts = []
    for name, entry in table.items():
        if entry.get("kind") not in KINDS:
            raise ValueError(f"concepts.toml: {name} has no kind of {', '.join(KINDS)}")
        concepts.append(Concept(name, entry["kind"], tuple(entry["terms"]), entry.get("label", ""),
                                tuple(entry.get("facets", ())), bool(entry.get("generic", False)),
                                tuple(entry.get("not", ())),
                                tuple(entry.get("narrower", ())), tuple(entry.get("implied_by", ())),
                                tuple(entry.get("match", ())), tuple(entry.get("no_match", ())),
                                bool(entry.get("permission", False))))
    return Vocabulary(concepts)


@cache
def vocabulary() -> Vocabulary:
    """The shipped vocabulary (`lang/concepts.toml`), read once per process."""
    return load(resources.files("assistant.understanding").joinpath("lang/concepts.toml").read_text("utf-8"))
