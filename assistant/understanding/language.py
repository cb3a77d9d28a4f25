"""Is a chat message written in English? The assistant reads English questions only, so a message in
another language gets an honest reply instead of a guess. py3langid (the same identifier that
screens ingested documents) on messages of at least `MIN_WORDS` words, and the script of the letters
for any length ("这个网站收集我的哪些数据？" is not English however short)."""
from __future__ import annotations

import re

from assistant.ingest.screening import LANGUAGE_NAMES, count_words, language_probabilities

MIN_WORDS = 3  # shorter Latin-script messages ("hola", "thx", "amazn") are too short to tell
MIN_FOREIGN = 0.4  # the likeliest language's probability
MAX_ENGLISH = 0.1  # English's probability
_LATIN = re.compile(r"[A-Za-z\u00c0-\u024f]")
_NON_LATIN_LETTER = re.compile(r"[^\W\d_A-Za-z\u00c0-\u024f]")


def foreign_language(text: str) -> str | None:
    """The English name of the message's language when it is clearly not English ("Chinese", "French"),
    "another language" when its script says so but the identifier cannot name it, else None."""
    non_latin = len(_NON_LATIN_LETTER.findall(text))
    if non_latin and non_latin >= len(_LATIN.findall(text)):
        return _likeliest(text, any_probability=True) or "another language"
    if count_words(text) < MIN_WORDS:
        return None
    return _likeliest(text, any_probability=False)


def _likeliest(text: str, any_probability: bool) -> str | None:
    probabilities = language_probabilities(text)
    if not probabilities:
        return None
    code, probability = max(probabilities.items(), key=lambda item: item[1])
    if code == "en" or (not any_probability and (probability < MIN_FOREIGN or probabilities.get("en", 0.0) >= MAX_ENGLISH)):
        return None
    return LANGUAGE_NAMES.get(code)
