"""A question's frame — the action it asks about and the things it names (kinds of data, recipients, purposes) —
and whether a policy statement speaks of that frame.

"Do you collect biometric information?" → action `collect`, objects (`biometric`). A statement answers it only if
it names biometric data or a narrower kind of it (a fingerprint, face geometry) and speaks of an action that
implies collecting; "We collect Personal Data that you provide …, such as your date of birth" does not, however
close the retriever ranks it. The words are data (`lang/concepts.toml`, read by `understanding.concepts`).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from assistant.understanding.concepts import DATA, PLACE, PURPOSE, RECIPIENT, TOPIC, Vocabulary, vocabulary
from assistant.understanding.facets import BY_NAME

# The action a question asks about, from its verb: the first of these found, in this order (a question that says
# "sell or share" asks about selling first; "collect and use" about collecting).
_QUESTION_ACTIONS = (
    ("sell", r"\b(?:sell|sells|sold|selling|sale|rent|rents|rented|renting|monetiz\w*|monetis\w*)\b"),
    ("share", (r"\b(?:share[sd]?|sharing|disclos\w*|give|gives|giving|pass(?:es|ed)?|send|sends|sent|"
              r"hand(?:s|ed)? over|provide[sd]? to|have access|get access)\b")),
    ("transfer", (r"\b(?:transfer\w*|stored (?:in|outside|abroad)|store (?:it |my \w+ )?(?:in|outside|abroad)|"
                 r"leave (?:the|my) (?:country|EU|EEA|UK|US)|abroad|overseas|outside (?:the|my) (?:country|EU|EEA|UK|"
                 r"US|United|European)|which countr\w*|what countr\w*)\b")),
    ("keep", (r"\b(?:(?:keep|keeps|kept)(?!\s+(?:a\s+)?(?:track|tabs|an eye)\b)|retain\w*|store|stores|stored|storing|hold|holds|held|delete[sd]?|deleting|"
             r"erase[sd]?|remove[sd]?)\b")),
    ("use", (r"\b(?:use|uses|used|using|train|trains|trained|training|analy[sz]e\w*|profil\w*|target\w*|"
            r"personali[sz]\w*)\b")),
    ("protect", r"\b(?:encrypt\w*|protect\w*|secure\w*|safe|safely|hash\w*)\b"),
    ("collect", (r"\b(?:collect\w*|keeps? (?:a )?track|kept track|gather\w*|obtain\w*|track\w*|record\w*|monitor\w*|scan\w*|capture\w*|log|logs|"
                r"logged|logging|access|accesses|listen\w*|know|knows|ask for|need|require\w*|have|has|get|gets)\b")),
)
_QUESTION_ACTION_PATTERNS = tuple((name, re.compile(pattern, re.IGNORECASE)) for name, pattern in _QUESTION_ACTIONS)
OBJECT_KINDS = (DATA, RECIPIENT, PURPOSE, TOPIC, PLACE)
# A purpose a question names is asked of the data only when said as one ("for ads", "to train AI", "used for
# marketing"): "if I subscribe to a newsletter" names no purpose.
_PURPOSE_CUE = re.compile(r"\b(?:for|purposes? of|in order to|(?:used?|using|uses) (?:it |them |this |that )?to|to (?:train|show|"
                          r"serve|target|personali[sz]e|market|advertise|improve|build|develop|research|profile|make|"
                          r"send|decide))\b(?:\W+\w+){0,3}\W*$", re.IGNORECASE)
# A name in a question (a company, a country, a programme: "SNAP", "Swiss", "United States") that no concept
# covers must be named by the statement too. Capitalised words after the first, and acronyms.
_NAME = re.compile(r"(?<!^)(?<![.?!]\s)\b(?:[A-Z][a-z]+(?:\s+[A-Z][a-z]+)*|[A-Z]{2,}\b)")
_OR_OTHER = re.compile(r"\b(?:or|and|&) (?:any |some )?(?:other|similar)\b", re.IGNORECASE)
_NOT_NAMES = frozenset({"I", "I'm", "I've", "OK", "AI", "ID", "IDs", "IP", "GPS", "DM", "DMs", "FAQ", "PDF", "TV",
                        "URL", "App", "Internet", "Do", "Does", "Can", "Will", "Is", "Are", "If", "What", "How",
                        "Who", "Where", "When", "Why", "Which"})


@dataclass(frozen=True)
class Frame:
    """What a question asks about: an action and the concepts and names it names (most specific first)."""

    action: str | None = None
    objects: tuple[str, ...] = ()  # data types, recipients, purposes, topics, places: concepts of `lang/concepts.toml`
    names: tuple[str, ...] = ()  # names no concept covers ("SNAP", "Trustpilot"), as written in the question

    @property
    def specific(self) -> bool:
        """Whether the question names something a statement must name too (beyond "my data")."""
        return bool(self.objects or self.names)


ASKS_NOTHING = Frame()  # a question that names no action and nothing specific


def frame_of(question: str, words: Vocabulary | None = None, policy: str = "") -> Frame:
    """The frame of a question: its action (from its verb), the concepts it names, and the names no concept covers
    (not the policy's own: `policy`). The policy's own name is who is asked, not what is asked about: "Does LinkedIn
    import my contacts?" asked of LinkedIn's policy names no recipient (`without_own_name`)."""
    words = words or vocabulary()
    # the action and the concepts from the question without the policy's name; the names from the question as
    # written, where a product's name keeps its company's ("Apple Intelligence": the policy's own, as a whole)
    scan = without_own_name(question, policy)
    action = next((name for name, pattern in _QUESTION_ACTION_PATTERNS if pattern.search(scan)), None)
    objects = tuple(o for o in words.named_in(scan, OBJECT_KINDS) if not words.concepts[o].generic and (
        words.concepts[o].kind != PURPOSE or any(_PURPOSE_CUE.search(scan[:at])
                                                 for at in words.concepts[o].places(scan))))
    # "… with Bending Spoons or other affiliated companies": the names are examples of the kind asked, not conditions
    names = () if _OR_OTHER.search(question) else tuple(dict.fromkeys(
        n for n in (m.group() for m in _NAME.finditer(question))
        if n not in _NOT_NAMES and not _is_policy(n, policy) and not words.named_in(n, OBJECT_KINDS)
        and not words.actions_in(n)))
    # a question naming who gets the data asks whether it is shared with them, whatever its verb ("Can employees
    # read my messages?", "Do insurers get my driving data?")
    if action in (None, "collect", "use") and any(words.concepts[o].kind == RECIPIENT for o in objects):
        action = "share"
    # a question about a topic alone ("Do you honour Do Not Track?", "Will you tell me of a breach?") asks no action
    # of the data; its verbs are the topic's own words ("track")
    if objects and all(words.concepts[o].kind == TOPIC for o in objects):
        action = None
    return Frame(action, objects, names)


OWN_NAME_SHARE = 0.02  # a name in this share of a policy's sentences (or more) is the company's or a product's own


def under_facet(frame: Frame, facet: str | None, words: Vocabulary | None = None) -> Frame:
    """The frame asked under one of the assistant's facets: without the concepts that facet's word rules already
    decide (`facets` in `lang/concepts.toml`: the police under law_enforcement, cookies under cookies_tracking), and
    without the names that are the facet's own question words."""
    if facet is None or not frame.specific:
        return frame
    words = words or vocabulary()
    objects = tuple(o for o in frame.objects if facet not in words.concepts[o].facets)
    # a name that is one of the facet's own question words ("DPO" for the privacy contact, "COPPA" for children)
    asked = BY_NAME.get(facet)
    names = tuple(n for n in frame.names if asked is None or not asked.question.search(n))
    return frame if (objects, names) == (frame.objects, frame.names) else Frame(frame.action, objects, names)


def in_policy(frame: Frame, policy: str, sentences: list[str]) -> Frame:
    """The frame asked of one policy: without the names that are the policy's own — its stored name, or a name
    its sentences use often ("Comcast" in Xfinity's policy) — which every statement need not repeat."""
    def own(name: str) -> bool:
        pattern = re.compile(rf"(?<!\w){re.escape(name)}(?!\w)", re.IGNORECASE)
        uses = sum(bool(pattern.search(text)) for text in sentences)
        return _is_policy(name, policy) or uses >= max(3, OWN_NAME_SHARE * len(sentences))
    names = tuple(n for n in frame.names if not own(n))
    return frame if names == frame.names else Frame(frame.action, frame.objects, names)


# A word as a question writes a name: with a domain ("Booking.com"), a possessive ("LinkedIn's"), an ampersand.
_WORD = re.compile(r"[\w&]+(?:[.'’-][\w&]+)*(?:['’]s?)?")
_POSSESSIVE = re.compile(r"['’]s?$")
MIN_OWN_NAME = 4  # characters: a shorter word is never read as the policy's name ("in" of "linkedin")


def without_own_name(question: str, policy: str) -> str:
    """The question with the policy's own name put as "it" ("its"): its stored name, without its domain, or,
    capitalised, the first half of it at least ("Booking" for "booking.com", "Proton" for "protonmail"; not "linked"
    for "linkedin"), in one word or two ("Hugging Face"). The asked company is the first party: a company that is a recipient in other policies ("LinkedIn",
    "Google", "Experian" in `lang/concepts.toml`) is none in its own."""
    own = re.sub(r"\W", "", policy.lower())
    if len(own) < MIN_OWN_NAME:
        return question

    def is_own(words: str) -> bool:
        plain = re.sub(r"\W", "", _POSSESSIVE.sub("", words).lower())
        return len(plain) >= MIN_OWN_NAME and (
            plain == own or (own.startswith(plain) and 2 * len(plain) >= len(own) and words[:1].isupper())
            or re.fullmatch(rf"{re.escape(plain)}(?:com|net|org|io|co|app|ai)", own) is not None)

    words = list(_WORD.finditer(question))
    parts, at, n = [], 0, 0
    while n < len(words):
        pair = question[words[n].start():words[n + 1].end()] if n + 1 < len(words) else ""
        span = 2 if pair and is_own(pair) and " " in pair and pair.count(" ") == 1 else 1 if is_own(words[n].group()) else 0
        if span:
            last = words[n + span - 1]
            parts += [question[at:words[n].start()], "its" if _POSSESSIVE.search(last.group()) else "it"]
            at = last.end()
        n += span or 1
    return "".join(parts) + question[at:]


def _is_policy(name: str, policy: str) -> bool:
    """Whether a name in a question is the policy's own ("Proton" for the policy stored as "protonmail")."""
    plain, own = re.sub(r"\W", "", name.lower()), re.sub(r"\W", "", policy.lower())
    return bool(plain and own) and (plain in own or own in plain)


def states_objects(frame: Frame, text: str, section: str = "", words: Vocabulary | None = None) -> bool:
    """Whether a statement names what the question names, in its own words or its section heading's (under "AI
    features", "not used for training purposes" speaks of training AI): of each kind the question names (data,
    recipients, purposes …) one concept or a narrower one — a question naming "my selfie / face scan" is answered
    by a statement about either — and every name no concept covers."""
    words = words or vocabulary()
    context = f"{text} {section}"
    by_kind: dict[str, list[str]] = {}
    for name in frame.objects:
        by_kind.setdefault(words.concepts[name].kind, []).append(name)
    return all(any(words.states(text, n) or (section and words.states(section, n)) for n in names)
               for names in by_kind.values()) and all(
        re.search(rf"(?<!\w){re.escape(name)}s?(?!\w)", context, re.IGNORECASE) for name in frame.names)


def speaks_of_action(frame: Frame, text: str, section: str = "", words: Vocabulary | None = None,
                     exactly: bool = False) -> bool:
    """Whether a statement speaks of the question's action: it names the action (or, unless `exactly`, one that
    implies it); a statement naming no action is read under its section heading ("Information we collect"). One
    under no such heading (a list item, a table cell) answers only whether they collect what it names: a policy
    lists what it processes, not what it sells or shares."""
    words = words or vocabulary()
    if frame.action is None:
        return True
    actions = words.actions_in(text) or words.actions_in(section)
    if not actions:
        return frame.action == "collect" and not exactly
    return frame.action in actions if exactly else words.answers_action(frame.action, actions)


def grounded(frame: Frame, text: str, section: str = "", words: Vocabulary | None = None) -> bool:
    """Whether a statement can answer the question: it names what the question names and speaks of its action."""
    return states_objects(frame, text, section, words) and speaks_of_action(frame, text, section, words)

