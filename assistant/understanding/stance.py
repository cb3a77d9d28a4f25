"""Whether a policy sentence *denies* a data practice ("We do not sell your data"), by word rules.

PolicyIE's `polarity` slot often misses the negation, and a fact that drops it says the opposite
of the policy. `denies(text)` reads the sentence's words with a few plain rules, each one line
below; it prefers precision, since a false denial inverts a fact as badly as a missed one.

A denial is a negation word that governs a practice verb (sell, share, collect, use …) a few words
later, whose subject is not the user, and that is not a scope phrase ("not limited to"), the
"Do Not Track" signal, or a contrastive aside ("(but not your query)").

    assistant eval stance --split validation     # precision / recall / F1 on OPP-115 "Does Not"
"""
from __future__ import annotations

import re

_TOKEN = re.compile(r"[a-z]+(?:['’][a-z]+)?|[^\w\s]")

# The practice verbs: base forms; their -s / -ed / -ing forms are derived below, irregulars added.
_PRACTICE_BASES = (
    "sell rent lease trade share disclose transfer provide give collect gather track store retain keep use "
    "process receive request ask obtain access monitor pass release reveal distribute send transmit "
    "exchange barter license publish report record save capture solicit seek sync combine associate link tie "
    "post read tell allow permit require contain include"
).split()
_IRREGULAR = "sold given gave kept sent sought made".split()

# Words allowed between the negation and its verb: auxiliaries, adverbs, "to", verb lists ("sell or rent").
_AUXILIARIES = frozenset(
    "be been being is are was were will would shall should can could may might must do does did have has had "
    "to or and ever otherwise currently generally actively knowingly intentionally directly typically "
    "routinely normally necessarily automatically ordinarily voluntarily specifically further also even "
    "then usually intend plan seek attempt try permitted allowed authorized we".split()
)
# Words after which a negation belongs to the user, not the policy's author: "you do not", "users may not".
_USER = frozenset("you user users visitor visitors member members customer customers parent parents".split())
_USER_GAP = frozenset(
    "do does did have has had can could may might must should will would shall feel choose chooses chose decide decides "
    "prefer prefers wish wishes want wants elect elects opt opts to also still always rather who".split()
)
_CLAUSE_BREAKS = frozenset(list(",;:.()") + ["—", "–"])
# "but not …", "and not …", "(not …": the negation names an exception inside a positive statement.
_CONTRAST = frozenset(["but", "and", "or", "(", "if", "where", "when", "whether", "unless", "though", "although"])
WINDOW = 6  # at most this many words from the negation to its practice verb


def _forms(base: str) -> set[str]:
    stem = base.removesuffix("e")
    double = base + base[-1] if re.fullmatch(r".*[^aeiou][aeiou][ptdgbn]", base) and len(base) <= 4 else base
    return {base, base + "s", base + "es", stem + "ed", stem + "ing", double + "ed", double + "ing"}


PRACTICE_VERBS = frozenset(w for base in _PRACTICE_BASES for w in _forms(base)) | frozenset(_IRREGULAR)


# The Do Not Track signal: written in capitals ("Do Not Track", "DO-NOT-TRACK"), in quotes, or followed by
# a word such as "signal"; a lowercase "we do not track your location" stays a denial.
_DNT = re.compile(r"\bDo[ -]Not[ -]Track\b|\bDO[ -]NOT[ -]TRACK\b|[\"'“‘]do[ -]not[ -]track|"
                  r"\bdo[ -]not[ -]track(?=[\"'”’]?\s*(?:\(dnt\)\s*)?(?:signals?|requests?|settings?|headers?|"
                  r"preferences?|features?|options?|mechanisms?|browsers?|laws?|standards?|technolog))")


_BUSINESS_OF = re.compile(r"\bin the business of\b", re.IGNORECASE)


def tokens(text: str) -> list[str]:
    """Lowercase word and punctuation tokens; "don't" → "do", "n't"; "cannot" → "can", "not";
    the Do Not Track signal → "dnt"."""
    out: list[str] = []
    text = _DNT.sub(" dnt ", text)
    text = _BUSINESS_OF.sub(" ", text)  # "not in the business of selling" reads as "not selling"
    for token in _TOKEN.findall(text.lower().replace("’", "'")):
        if token.endswith("n't") and len(token) > 3:  # don't, doesn't, won't, can't
            out.extend([{"wo": "will", "ca": "can", "sha": "shall"}.get(token[:-3], token[:-3]), "not"])
        elif token in ("dont", "doesnt", "wont", "didnt", "cannot"):  # typed without the apostrophe
            out.extend([{"wont": "will", "cannot": "can"}.get(token, token.removesuffix("nt")), "not"])
        else:
            out.append(token)
    return out


# Scope phrases ("not limited to", "whether or not"), and "not" + an adjective ("not personally identifiable").
_SCOPE_PHRASES = (
    r"not only", r"not limited to", r"not be limited to", r"whether or not", r"may or may not", r"if not",
    r"not personally identif\w*", r"not identif\w*", r"not necessarily",
    (r"not (?:be )?(?:considered|deemed|responsible|liable|intended|directed|targeted|required|applicable|"
     r"able|available|sensitive|public|anonymous)\w*"),
)


def _masked(words: list[str]) -> list[str]:
    """The tokens with scope phrases blanked out, so their "not" is never read as a negation."""
    text = " ".join(words)
    for phrase in _SCOPE_PHRASES:
        text = re.sub(rf"\b{phrase}\b", lambda m: " ".join("_" for _ in m.group().split()), text)
    return text.split(" ")


_NEGATIONS = frozenset(["not", "never", "neither", "nor"])
_PROHIBITED = frozenset(["prohibited", "restricted", "prevented", "barred", "forbidden"])


def _is_negation(words: list[str], i: int) -> bool:
    """not / n't / never / neither / nor; "no longer"; "in no event", "under no circumstances", "at no
    time"; the "from" of "prohibited / restricted from (collecting)"."""
    word, before = words[i], words[i - 1] if i else ""
    if word in _NEGATIONS or (word == "longer" and before == "no"):
        return True
    if word in ("event", "circumstances", "time", "case") and before == "no":
        return i >= 2 and words[i - 2] in ("in", "under", "at")
    return word == "from" and before in _PROHIBITED


def _negations(words: list[str]) -> list[int]:
    """Positions of the negations in the tokens."""
    return [i for i in range(len(words)) if _is_negation(words, i)]


def _no_passive(words: list[str]) -> bool:
    """'No personal information is collected', 'None of the information … is sold', 'have no access to'."""
    for i, word in enumerate(words):
        if word not in ("no", "none") or (i + 1 < len(words) and words[i + 1] == "longer"):
            continue
        if i + 1 < len(words) and words[i + 1] in ("access", "sharing", "collection", "disclosure"):
            return True  # "no access to your contact information"
        if word == "no" and _user_subject(words, i):
            continue
        for j in range(i + 1, min(i + 12, len(words) - 1)):
            if words[j] in (";", ":", ".", "what", "which", "how", "whether") or (words[j] == "," and j > i + 6):
                break  # "we have no control over what information is collected": another clause
            if words[j] in ("is", "are", "was", "were", "be") and words[j + 1] in PRACTICE_VERBS:
                return True
    return False


_UNCOUNTED = frozenset([",", '"', "'", "“", "”", "‘"])  # between a negation and its verb


def _governs_practice(words: list[str], at: int) -> bool:
    """A practice verb within WINDOW words after the negation, with only auxiliaries and adverbs between (commas
    and quotation marks not counted: "we do not intend to, or knowingly, collect", "we don’t “sell”")."""
    counted = 0
    for word in words[at + 1:]:
        if word in PRACTICE_VERBS:
            return True
        if word in _UNCOUNTED:
            continue
        counted += 1
        if counted >= WINDOW or not (word in _AUXILIARIES or word.endswith("ly") or word in ("nor", "not")):
            return False  # "do not knowingly collect", "will not be passed", "do not sell, rent or share"
    return False


def _user_subject(words: list[str], at: int) -> bool:
    """'you do not …', 'if you choose not to …', 'users may not …', 'please do not …', 'Do not …' (imperative)."""
    j = at - 1
    while j >= 0 and words[j] in _USER_GAP:
        j -= 1
    if j >= 0 and words[j] in _USER:
        return True
    start_of_clause = j < 0 or words[j] in _CLAUSE_BREAKS or words[j] == "please"
    return start_of_clause and words[at - 1:at] == ["do"]  # "Do not send us …" addresses the user


def _contrastive(words: list[str], at: int) -> bool:
    """'(but not your search query)', 'and not …', 'where not …': an exception, not the statement;
    'cannot', 'could not': what is impossible ('cannot be used to identify you'), not a practice denied."""
    return at > 0 and (words[at - 1] in _CONTRAST or words[at - 1] in ("can", "could")) and words[at] == "not"


def _not_ours(words: list[str], at: int) -> bool:
    """A negation that states no practice of the policy's author: a choice ('the option not to
    receive', 'to not share'), a request ('request that we not share', 'ask us not to'), or what
    cannot be promised ('we cannot guarantee that they will not disclose')."""
    if words[at - 1:at] == ["to"] or words[at + 1:at + 2] == ["to"] and words[at] == "not":
        return True
    back = words[max(0, at - 4):at]
    if any(w in ("request", "requests", "prefer", "asked", "ask", "instruct", "direct", "wish") for w in back):
        return True
    return "guarantee" in words[max(0, at - 10):at] or "ensure" in words[max(0, at - 10):at]


def negations_read_otherwise(text: str) -> bool:
    """Whether every negation in the sentence is one these rules read as no denial of a practice: part of a scope
    phrase ("may not be able to modify … in all circumstances") or the user's ("if you haven't received a
    response"). A tagger's polarity slot on such a sentence is then not taken as a denial."""
    words = tokens(text)
    masked = _masked(words)
    at = _negations(words)
    return bool(at) and all(masked[i] == "_" or _user_subject(words, i) for i in at)


def denies(text: str) -> bool:
    """Whether the sentence says a data practice is *not* done ("We do not sell your data")."""
    words = _masked(tokens(text))
    return _no_passive(words) or any(
        _governs_practice(words, at) and not _user_subject(words, at) and not _contrastive(words, at)
        and not _not_ours(words, at)
        for at in _negations(words)
    )

