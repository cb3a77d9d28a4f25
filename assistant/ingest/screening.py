"""Screening: is a text a privacy policy the assistant can read? Its language (py3langid, offline
and deterministic), its length in words, and the policy detector's verdict
(`assistant.models.policy_detector`).

    screen(text) -> Screening   # accepted, or refused with a one-line reason

The checks run in this order, and the first that fails gives the reason: enough words (a page
with fewer than `MIN_WORDS` usually needs JavaScript to show its text), English, a privacy policy.
`text` is the document's visible text (`visible_text(document)` for a parsed file).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from assistant.foundation.types import Document

if TYPE_CHECKING:  # scikit-learn takes ~1 s to import: a bad file is refused before that
    from assistant.models.policy_detector.model import PolicyDetector

MIN_WORDS = 100  # JavaScript shells and error pages have fewer; the shortest current policy has 150 (docs/results.md)
ACCEPTED_LANGUAGES = frozenset({"en"})
# Each CJK character counts as a word (those scripts do not separate words with spaces).
_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_WORDS = re.compile(rf"[{_CJK}]|[^\W{_CJK}]+")
KIND_REASONS = {
    "terms": "this looks like terms of service, not a privacy policy",
    "cookies": "this looks like a cookie notice, not a privacy policy",
    "other": "this does not look like a privacy policy (it reads like an article, a README or another kind of page)",
}

# English names of the ISO 639-1 languages py3langid can answer (its other labels are mapped in `_ALIASES`).
LANGUAGE_NAMES = {
    "af": "Afrikaans", "am": "Amharic", "an": "Aragonese", "ar": "Arabic", "as": "Assamese", "az": "Azerbaijani",
    "ba": "Bashkir", "be": "Belarusian", "bg": "Bulgarian", "bn": "Bengali", "br": "Breton", "bs": "Bosnian",
    "ca": "Catalan", "cs": "Czech", "cy": "Welsh", "da": "Danish", "de": "German", "dz": "Dzongkha",
    "el": "Greek", "en": "English", "eo": "Esperanto", "es": "Spanish", "et": "Estonian", "eu": "Basque",
    "fa": "Persian", "fi": "Finnish", "fo": "Faroese", "fr": "French", "fy": "Western Frisian", "ga": "Irish", "gn": "Guarani",
    "gd": "Scottish Gaelic", "gl": "Galician", "gu": "Gujarati", "ha": "Hausa", "he": "Hebrew", "hi": "Hindi",
    "hr": "Croatian", "ht": "Haitian Creole", "hu": "Hungarian", "hy": "Armenian", "id": "Indonesian",
    "ig": "Igbo", "is": "Icelandic", "it": "Italian", "ja": "Japanese", "jv": "Javanese", "ka": "Georgian",
    "kk": "Kazakh", "km": "Khmer", "kn": "Kannada", "ko": "Korean", "ku": "Kurdish", "ky": "Kyrgyz",
    "la": "Latin", "lb": "Luxembourgish", "lg": "Ganda", "ln": "Lingala", "lo": "Lao", "lt": "Lithuanian",
    "lv": "Latvian", "mg": "Malagasy", "mk": "Macedonian", "ml": "Malayalam", "mn": "Mongolian", "mr": "Marathi",
    "ms": "Malay", "mt": "Maltese", "my": "Burmese", "ne": "Nepali", "nl": "Dutch", "nn": "Norwegian Nynorsk",
    "no": "Norwegian", "oc": "Occitan", "om": "Oromo", "or": "Odia", "pa": "Punjabi", "pl": "Polish",
    "ps": "Pashto", "pt": "Portuguese", "qu": "Quechua", "ro": "Romanian", "ru": "Russian", "rw": "Kinyarwanda",
    "sa": "Sanskrit", "se": "Northern Sami", "si": "Sinhala", "sk": "Slovak", "sl": "Slovenian", "sn": "Shona",
    "so": "Somali", "sq": "Albanian", "sr": "Serbian", "st": "Southern Sotho", "sv": "Swedish", "sw": "Swahili",
    "ta": "Tamil", "te": "Telugu", "tg": "Tajik", "th": "Thai", "tk": "Turkmen", "tl": "Tagalog",
    "tr": "Turkish", "tt": "Tatar", "ug": "Uyghur", "uk": "Ukrainian", "ur": "Urdu", "uz": "Uzbek",
    "vi": "Vietnamese", "vo": "Volapük", "wa": "Walloon", "xh": "Xhosa", "yo": "Yoruba", "zh": "Chinese",
    "zu": "Zulu",
}
# py3langid labels without an ISO 639-1 code, as the ISO 639-1 language they belong to.
_ALIASES = {"ary": "ar", "arz": "ar", "uzs": "uz", "wuu": "zh", "yue": "zh", "gug": "gn"}


@dataclass(frozen=True)
class Screening:
    """What screening found in a text, and its verdict."""

    language: str  # ISO 639-1 code ("und" when the text has no words)
    language_name: str
    policy_probability: float  # the detector's probability that this is a privacy policy
    kind: str  # what the detector reads: "policy", "terms", "cookies" or "other"
    words: int
    accepted: bool
    reason: str | None  # one line a user understands, when refused
    signals: tuple[str, ...] = ()  # the words that weighed most for `kind`


def visible_text(document: Document) -> str:
    """A parsed document's visible text, one block a line (what `screen` expects)."""
    return "\n".join(block.text for block in document.blocks)


def count_words(text: str) -> int:
    """Words in `text`; each CJK character counts as one."""
    return len(_WORDS.findall(text))


@cache
def _identifier():
    """py3langid's identifier, its model read in memory: the library's own loader unpacks the 68 MB
    model into a temporary file, a disk write on every ingest that fails on a full disk."""
    import lzma
    from array import array
    from io import BytesIO

    import numpy as np
    from py3langid.langid import MODEL_DIR, MODEL_FILE, LanguageIdentifier

    def unsigned(values: np.ndarray) -> array:  # the layout py3langid 0.4.0 (pinned) expects
        return array({2: "H", 4: "I", 8: "L"}[values.dtype.itemsize], np.ascontiguousarray(values).tobytes())

    with lzma.open(MODEL_DIR / MODEL_FILE) as packed:
        model = np.load(BytesIO(packed.read()), allow_pickle=False)
    identifier = LanguageIdentifier(np.asarray(model["ptc"]), np.asarray(model["pc"]), model["classes"].tolist(),
                                    unsigned(model["nextmove"]), model["out_feat"].tolist(), norm_probs=True,
                                    tk_row=unsigned(model["nextmove_row"]))
    # Only labels with an ISO 639-1 code (py3langid also knows some ISO 639-3-only languages).
    identifier.set_languages([label for label in identifier.labels if label in LANGUAGE_NAMES or label in _ALIASES])
    return identifier


def detect_language(text: str) -> tuple[str, str]:
    """The text's language: (ISO 639-1 code, English name); ("und", "unknown") without words."""
    if not count_words(text):
        return "und", "unknown"
    label, _ = _identifier().classify(text)
    code = _ALIASES.get(label, label)
    return code, LANGUAGE_NAMES.get(code, label)


def language_probabilities(text: str) -> dict[str, float]:
    """Each ISO 639-1 language's probability for `text` (py3langid, normalised); empty without words."""
    if not count_words(text):
        return {}
    probabilities: dict[str, float] = {}
    for label, probability in _identifier().rank(text):
        code = _ALIASES.get(label, label)
        probabilities[code] = probabilities.get(code, 0.0) + float(probability)
    return probabilities


@cache
def default_detector() -> PolicyDetector:
    """The shipped policy detector (weights/policy_detector), loaded once."""
    from assistant.models.policy_detector.model import PolicyDetector  # lazy: see the import above

    return PolicyDetector.load()


def screen(text: str, detector: PolicyDetector | None = None, min_words: int = MIN_WORDS) -> Screening:
    """Screen a document's visible text: accepted, or refused with the first reason that applies."""
    detector = detector or default_detector()
    words = count_words(text)
    language, language_name = detect_language(text)
    probabilities = detector.probabilities([text])[0]
    policy_probability = float(probabilities[detector.kinds.index("policy")])
    is_policy = detector.is_policy(policy_probability)
    kind = "policy" if is_policy else detector.likeliest_other_kind(probabilities)
    if words < min_words:
        reason = (f"this page has only {words} word{'s' if words != 1 else ''}: "
                  "it may need JavaScript to show the policy")
    elif language not in ACCEPTED_LANGUAGES:
        reason = f"this policy is in {language_name}; the assistant reads English only"
    elif not is_policy:
        reason = KIND_REASONS[kind]
    else:
        reason = None
    signals = tuple(detector.signals(text, kind)) if language in ACCEPTED_LANGUAGES and words else ()
    return Screening(language, language_name, round(policy_probability, 4), kind, words, reason is None, reason,
                     signals)
