"""What a yes/no question of no known topic asks, as word stems, and whether a sentence states it.

A question the facets and the concept vocabulary do not cover ("Do they record customer support calls?", "Does it
make automated decisions about me?") is answered by a sentence only when that sentence says what is asked: at least
`MIN_STATED` of the weight of the question's asked words (its words less English function words, the policy's own
name and the words every privacy question has, `lang/asked_words.toml`), compared as Snowball (Porter 2) stems and
each weighed by how few privacy policies use it (BM25's inverse document frequency over OPP-115's 115 policies,
`lang/stem_frequencies.tsv`, written by `scripts/stem_frequencies.py`): "sanctions" says more of what is asked than
"customers". "We collect some information automatically." states none of "make automated decisions": automat- is not
autom-. A question that offers alternatives ("crash reports or telemetry", "record or listen to my calls",
"sanctions / denied party lists") asks whether any of them holds: each alternative is read with the words it shares
with the others, and the sentence needs to say enough of one. The words are data; the examples are
tests/understanding/test_asked_words.py.
"""
from __future__ import annotations

import math
import re
import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources

import snowballstemmer

from assistant.understanding.frame import without_own_name

MIN_STATED = 0.5  # the share of the asked words a sentence must say (chosen on the development sets: notebook)
_WORD = re.compile(r"[a-z][a-z0-9]*(?:['’][a-z]+)?")


@cache
def _stemmer() -> snowballstemmer.stemmer:
    return snowballstemmer.stemmer("english")


@cache
def _words_of(*keys: str) -> frozenset[str]:
    data = tomllib.loads(resources.files("assistant.understanding").joinpath("lang/asked_words.toml").read_text("utf-8"))
    return frozenset(word for key in keys for word in data[key].split())


def _left_out() -> frozenset[str]:
    """Function words and the words every privacy question has."""
    return _words_of("function_words", "generic_nouns", "generic_verbs", "question_words")


@cache
def _policies_using() -> tuple[int, dict[str, int]]:
    """How many policies the frequencies were counted over, and how many of them use each stem."""
    lines = resources.files("assistant.understanding").joinpath("lang/stem_frequencies.tsv").read_text("utf-8").splitlines()
    total = int(lines[0].split("\t")[1])
    return total, {stem: int(n) for stem, n in (line.split("\t") for line in lines[1:])}


def weight(stem: str) -> float:
    """BM25's inverse document frequency of a stem over the counted policies (one no counted policy uses: the most)."""
    total, using = _policies_using()
    n = using.get(stem, 0)
    return math.log((total - n + 0.5) / (n + 0.5) + 1)


def _stems(text: str) -> set[str]:
    left_out = _left_out()
    words = [w.split("'")[0].split("’")[0] for w in _WORD.findall(text.lower())]
    return set(_stemmer().stemWords([w for w in words if w not in left_out and len(w) > 1]))


_ALTERNATIVE = re.compile(r"\s+or\s+|\s*/\s*", re.IGNORECASE)
MAX_ALTERNATIVES = 3  # "A or B" places in one question read as alternatives at most (2**3 readings)
MIN_LONE_WEIGHT = 2.0  # a reading of one word needs a word few policies use ("telemetry", not "profile": 50 of 115)


@dataclass(frozen=True)
class Asked:
    """What a question asks, as the stems of each of its readings (one, or one per choice among its alternatives)."""

    readings: tuple[frozenset[str], ...]

    def __bool__(self) -> bool:
        return any(self.readings)

    @property
    def stems(self) -> frozenset[str]:
        return frozenset().union(*self.readings)


def asked_words(question: str, policy: str = "") -> Asked:
    """The stems of the words a question asks about (none of the policy's own name: it is who is asked), one set
    per reading of its alternatives: "crash reports or telemetry" → {crash, report, …} and {telemetri, …}."""
    text = without_own_name(question, policy) if policy else question
    readings = {frozenset(_stems(text))}
    for found in list(_ALTERNATIVE.finditer(text))[:MAX_ALTERNATIVES]:
        left, right = _run_before(text[:found.start()]), _run_after(text[found.end():])
        if not (left and right):
            continue
        readings = {reading - side for reading in readings for side in (right, left)}
    kept = {r for r in readings if len(r) > 1 or any(weight(s) >= MIN_LONE_WEIGHT for s in r)}
    return Asked(tuple(sorted(kept or readings, key=sorted)))


def _run_before(text: str) -> frozenset[str]:
    """The stems of the content words right before an "or" (up to the function word before them)."""
    return _run(reversed(_WORD.findall(text.lower())))


def _run_after(text: str) -> frozenset[str]:
    return _run(_WORD.findall(text.lower()))


def _run(words) -> frozenset[str]:
    """The asked stems of the words up to the first function word ("profile me or …": a pronoun next to the "or" is
    passed over; a generic word inside the run is passed over and not counted)."""
    function, left_out, run = _words_of("function_words"), _left_out(), []
    for word in words:
        if word in function:
            if run or word not in _PRONOUNS:
                break
        elif word not in left_out and len(word) > 1:
            run.append(word)
    return frozenset(_stemmer().stemWords(run))


_PRONOUNS = frozenset("me my you your them their it its us our".split())


def share_stated(asked: Asked, sentence: str) -> float:
    """The share of the asked stems' weight the sentence says, by its best reading (0.0 when nothing is asked)."""
    said = _stems(sentence)
    return max((sum(weight(s) for s in reading & said) / sum(weight(s) for s in reading)
                for reading in asked.readings if reading), default=0.0)


def states_asked(asked: Asked, sentence: str) -> bool:
    """Whether the sentence says enough of what is asked to answer it."""
    return bool(asked) and share_stated(asked, sentence) >= MIN_STATED
