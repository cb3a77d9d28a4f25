"""Follow-up questions in a conversation: carry the previous question's subject into a message that
refers back to it.

    resolve_followup(previous, message) -> Followup

"Do they share my purchase history with third parties?" then "and how long do they keep it?" asks
"how long do they keep my purchase history?". A message refers back when it uses "it", "that",
"this" (or "them" for a plural subject) instead of naming what it is about, or when it only names a
new thing to put in the previous question ("what about my location?", "and cookies?", "what about
advertisers?"). A message that names its own subject is asked as it is. Word rules written from the
phrasings in data/nlu.yml and issue 19; pure Python, no model.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

# Words that end a noun phrase ("my purchase history | with third parties").
_STOP = frozenset("""
with to for from by if when whenever after before once while on in at about into onto over under without
through across via as than like is are was were be been being will would can could should shall may might
must do does did have has had get gets got and or but so that which who whom whose where there here then
it its it's them they their i me you we us he she his her this these those what why how
safe secure private public optional required mandatory necessary possible anonymous visible
""".split())
_PRONOUNS = frozenset({"it", "that", "this", "them", "those", "these"})
# Things that hold a person's data without being data: what a data verb does to "it" is done to their data.
_HOLDERS = frozenset({"account", "accounts", "subscription", "subscriptions", "membership", "memberships",
                      "device", "devices", "car", "vehicle", "app", "phone"})
_DATA_VERB_ON_IT = re.compile(r"\b(?:share|shares|sell|sells|keep|keeps|store|stores|use|uses|collect|collects|"
                              r"disclose|discloses|transfer|transfers|give|gives|send|sends|retain|retains)\s+it\b",
                              re.IGNORECASE)
_OPENING = re.compile(r"^(?:and|so|but|also|ok|okay|then|well)\b[\s,]*", re.IGNORECASE)
# Verbs whose object is the data a question is about ("do they use cookies?").
_DATA_VERBS = (r"collect|collects|share|shares|sell|sells|keep|keeps|store|stores|use|uses|track|tracks|delete|"
               r"retain|retains|log|logs|record|records|read|reads|scan|scans|access|disclose|discloses|"
               r"transfer|transfers|encrypt|encrypts|protect|protects|see|remove|erase|download|gather|gathers|"
               r"save|saves|analy[sz]e|analy[sz]es|monitor|monitors")
_POSSESSIVE = re.compile(r"\b(?:my|your|our)\s+[\w'-]+", re.IGNORECASE)
_VERB_OBJECT = re.compile(rf"\b(?:{_DATA_VERBS})\s+(?:the\s+|any\s+|all\s+)?([\w'-]+)", re.IGNORECASE)
_WHAT_NOUN = re.compile(r"^(?:what|which)\s+(?:kinds?\s+of\s+|types?\s+of\s+|sorts?\s+of\s+)?([\w'-]+)\s+"
                        r"(?:do|does|did|is|are|will|would|can)\b", re.IGNORECASE)
_WHAT_ABOUT = re.compile(r"^(?:and\s+)?(?:what|how)\s+about\s+(?P<thing>.+?)[\s?.!]*$", re.IGNORECASE)
_AND_THING = re.compile(r"^(?:and|also|or|plus)\s+(?P<thing>.+?)[\s?.!]*$", re.IGNORECASE)
_QUESTION_WORD = re.compile(r"^(?:do|does|did|is|are|was|were|can|could|will|would|should|may|might|have|has|"
                            r"how|what|who|when|where|why|which|whom)\b", re.IGNORECASE)
# Words of the things people's data is (a "what about X" that names one replaces the subject).
_DATA_WORDS = re.compile(
    r"\b(?:data|information|info|details?|history|address(?:es)?|numbers?|location|contacts?|photos?|pictures?|"
    r"images?|videos?|messages?|posts?|e-?mails?|names?|age|birthday|birth|payments?|credit|cards?|voice|"
    r"recordings?|searches|purchases|orders?|ip|device|cookies?|profiles?|accounts?|biometrics?|health|"
    r"fingerprints?|face|camera|microphone|calendar|files?|documents?|chats?|comments?|likes|friends|"
    r"browsing|activity|usage|passwords?|identity|ssn|social security|records?|reviews?|listening|viewing|"
    r"watch|content|uploads?|beacons?|pixels?|tags?)\b", re.IGNORECASE)
# The people data goes to ("what about advertisers?" replaces "third parties").
_PARTY = (r"(?:(?:other|outside|external)\s+)?(?:third[- ]part(?:y|ies)|advertis\w*(?:\s+(?:partners?|networks?|"
          r"companies))?|marketers?|marketing\s+(?:partners?|companies)|partners?|affiliates?|government\w*|police|"
          r"law\s+enforcement|authorities|data\s+brokers?|service\s+providers?|companies|google|facebook|meta|"
          r"amazon|apple|microsoft|insurers?|employers?|researchers?|other\s+users)")
_PARTY_ONLY = re.compile(rf"^(?:the\s+|to\s+|with\s+)?{_PARTY}$", re.IGNORECASE)
_PARTY_IN = re.compile(rf"\b(?:with|to)\s+((?:the\s+|other\s+|any\s+)?{_PARTY}(?:\s+(?:and|or)\s+{_PARTY})?)\b",
                       re.IGNORECASE)
# Words that refer back, in the order they are tried: "it" before a bare "that" (often a conjunction).
_REFERRING = (
    re.compile(r"\bit's\b|\bit\b", re.IGNORECASE),
    re.compile(r"\b(?:that|this|those|these|the\s+same)\s+(?:data|information|info|stuff)\b", re.IGNORECASE),
    re.compile(r"\b(?:them|those|these)\b", re.IGNORECASE),
    re.compile(r"\b(?:that|this)\b(?=\s*(?:[?.!,]|$|(?:with|to|for|from|by|in|on|at|about|off|away|out|"
               r"optional|required|mandatory|safe|secure|true|legal|allowed)\b))", re.IGNORECASE),
)
_OBJECT_OF_PERSON = re.compile(r"\b(?:contact|ask|email|e-mail|call|tell|reach|write\s+to|sue|complain\s+to|"
                               r"trust|pay|give)\s+them\b", re.IGNORECASE)
MAX_THING_WORDS = 6
REFERENCE = "reference"
REPLACEMENT = "replacement"


@dataclass(frozen=True)
class Followup:
    """The question to ask for a message, and what was carried over from the previous question."""

    question: str  # what the engine is asked
    message: str  # what the user typed
    referent: str | None = None  # the words taken to refer back ("it"), or the whole "what about …" message
    subject: str | None = None  # what was carried or replaced ("my purchase history"); None: nothing carried
    kind: str | None = None  # "reference" ("it" taken as the subject) or "replacement" (the previous question
    # with its subject or party replaced); None when nothing was carried

    @property
    def carried(self) -> bool:
        return self.kind is not None


def resolve_followup(previous: str | None, message: str) -> Followup:
    """The question to ask for `message`, given the conversation's `previous` question (None: none yet)."""
    message = " ".join(message.split())
    unchanged = Followup(message, message)
    if not previous or not message:
        return unchanged
    previous = " ".join(previous.split())
    subject = subject_of(previous)
    replaced = _what_about(previous, subject, message)
    if replaced is not None:
        return replaced
    if subject is None or subject_of(message) is not None:
        return unchanged  # nothing to carry, or the message names its own subject
    reference = _reference(message, subject)
    if reference is None:
        return unchanged
    start, end, words = reference
    said = subject + " is" if words.lower() == "it's" else subject
    if _holder_of_data(subject) and _DATA_VERB_ON_IT.search(message):
        said = f"{subject} data"  # "delete my account?" then "do they share it?": the account's data is shared
    if words.lower() in {"that", "this"}:
        said = _practice(previous, subject) or subject  # "can I stop that?": stop *tracking* my location
    question = _OPENING.sub("", message[:start] + said + message[end:]) if start else said + message[end:]
    return Followup(_capitalised(question), message, words, said.removesuffix(" is"), REFERENCE)


def subject_of(question: str) -> str | None:
    """What a question is about, as its words say it: "my purchase history", "cookies"; None when it
    names nothing ("and how long do they keep it?")."""
    text = question.strip(" ?!.")
    for match in _POSSESSIVE.finditer(text):
        phrase = _noun_phrase(text, match.start(), skip=1)
        if phrase:
            return phrase
    match = _WHAT_NOUN.match(text)
    if match and match.group(1).lower() not in _STOP | {"policy", "policies", "rights", "choices", "happens"}:
        return match.group(1)
    for match in _VERB_OBJECT.finditer(text):
        if match.group(1).lower() not in _STOP and match.group(1).lower() not in {"my", "your", "our"}:
            phrase = _noun_phrase(text, match.start(1), skip=0)
            if phrase:
                return phrase
    return None


def _noun_phrase(text: str, start: int, skip: int) -> str | None:
    """The words from `start`: `skip` leading words (a possessive), then up to four words up to the
    first stop word ("my purchase history" of "my purchase history with third parties")."""
    words = text[start:].split()
    taken = words[:skip]
    for index, word in enumerate(words[skip:], start=skip):
        bare = word.strip(",;:?!.\"'").lower()
        joins = bare in {"and", "or"} and len(taken) > skip and index + 1 < len(words) and bool(
            re.match(r"(?:my|your)\b", words[index + 1], re.IGNORECASE) or _DATA_WORDS.match(words[index + 1]))
        if not bare or (bare in _STOP and not joins) or (len(taken) > skip and bare.endswith("ed")) \
                or len(taken) - skip >= 5:
            break
        taken.append(word.strip(",;:?!.\"'"))
        if word[-1:] in ",;:?!.":
            break
    if len(taken) <= skip:
        return None
    return " ".join(taken)


def _reference(message: str, subject: str) -> tuple[int, int, str] | None:
    """Where the message refers back to the subject: (start, end, the words), or None."""
    for pattern in _REFERRING:
        match = pattern.search(message)
        if match is None:
            continue
        words = match.group(0)
        if words.lower() in {"them", "those", "these"} and not _plural(subject):
            continue
        if words.lower() == "them" and _OBJECT_OF_PERSON.search(message):
            continue  # "can I contact them?": the company
        return match.start(), match.end(), words
    return None


def _what_about(previous: str, subject: str | None, message: str) -> Followup | None:
    """"what about my location?" / "and cookies?" / "what about advertisers?": the previous question
    with its subject (or the party it names) replaced; None when the message is not of that kind."""
    match = _WHAT_ABOUT.match(message) or _AND_THING.match(message)
    if match is None:
        return None
    thing = match.group("thing").strip(" ,")
    if (not thing or len(thing.split()) > MAX_THING_WORDS or _QUESTION_WORD.match(thing)
            or any(pattern.search(thing) for pattern in _REFERRING)):
        return None
    if _PARTY_ONLY.match(thing):
        party = _PARTY_IN.search(previous)
        thing = re.sub(r"^(?:to|with)\s+", "", thing, flags=re.IGNORECASE)
        if party is not None:
            question = previous[: party.start(1)] + thing + previous[party.end(1):]
            return Followup(_capitalised(question), message, message, party.group(1), REPLACEMENT)
        preposition = "with" if re.search(r"\bshar", previous, re.IGNORECASE) else \
            "to" if re.search(r"\b(?:sell|give|disclos|transfer|pass|send|provid)", previous, re.IGNORECASE) else None
        if preposition is None:
            return None
        question = previous.rstrip(" ?.!") + f" {preposition} {thing}?"
        return Followup(_capitalised(question), message, message, thing, REPLACEMENT)
    if subject is None or not _DATA_WORDS.search(thing):
        return None
    position = previous.find(subject)
    question = previous[:position] + thing + previous[position + len(subject):]
    return Followup(_capitalised(question), message, message, subject, REPLACEMENT)


def _practice(previous: str, subject: str) -> str | None:
    """"sharing my purchase history" from "Do they share my purchase history …?"; None without a verb."""
    match = re.search(rf"\b({_DATA_VERBS})\s+(?:the\s+|any\s+|all\s+)?{re.escape(subject)}", previous, re.IGNORECASE)
    if match is None:
        return None
    verb = match.group(1).lower()
    verb = verb[:-1] if verb.endswith("s") and not verb.endswith("ss") and verb not in {"access"} else verb
    gerund = _GERUNDS.get(verb) or (verb[:-1] + "ing" if verb.endswith("e") and not verb.endswith("ee") else verb + "ing")
    return f"{gerund} {subject}"


_GERUNDS = {"log": "logging", "scan": "scanning", "see": "seeing"}


def _holder_of_data(subject: str) -> bool:
    """Whether `subject` names something that holds data rather than data ("my account", "my subscription")."""
    return subject.split()[-1].lower() in _HOLDERS


def _plural(subject: str) -> bool:
    last = subject.split()[-1].lower()
    return (" and " in subject or " or " in subject
            or (last.endswith("s") and not last.endswith(("ss", "us", "is", "ics"))))


def _capitalised(question: str) -> str:
    question = question.strip()
    return question[:1].upper() + question[1:]
