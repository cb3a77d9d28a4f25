"""The PrivacyQA paper's baselines: no answer, and WikiQA's word count (Yang et al. 2015)."""
from __future__ import annotations

import re
from collections.abc import Sequence

WORD_COUNT_TOP = (2, 3, 5)

STOPWORDS = frozenset(
    """i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her
    hers herself it its itself they them their theirs themselves what which who whom this that these
    those am is are was were be been being have has had having do does did doing a an the and but if or
    because as until while of at by for with about against between into through during before after
    above below to from up down in out on off over under again further then once here there when where
    why how all any both each few more most other some such no nor not only own same so than too very s
    t can will just don should now d ll m o re ve y ain aren couldn didn doesn hadn hasn haven isn ma
    mightn mustn needn shan shouldn wasn weren won wouldn""".split()
)
_WORD = re.compile(r"\w+")

def content_words(text: str) -> set[str]:
    """Lower-cased `\\w+` tokens that are not stopwords."""
    return {word for word in _WORD.findall(text.lower()) if word not in STOPWORDS}


def word_count_ranking(question: str, sentences: Sequence[str]) -> list[int]:
    """Sentence indices by decreasing number of distinct question content words they contain."""
    wanted = content_words(question)
    counts = [len(wanted & set(_WORD.findall(sentence.lower()))) for sentence in sentences]
    return sorted(range(len(sentences)), key=lambda i: -counts[i])  # stable: ties keep sentence order


def baseline_predictions(question: str, sentences: Sequence[str]) -> dict[str, frozenset[int]]:
    """{"no_answer": ∅, "word_count_top2": …, "word_count_top3": …, "word_count_top5": …}."""
    ranking = word_count_ranking(question, sentences)
    predictions = {"no_answer": frozenset()}
    for k in WORD_COUNT_TOP:
        predictions[f"word_count_top{k}"] = frozenset(ranking[:k])
    return predictions
