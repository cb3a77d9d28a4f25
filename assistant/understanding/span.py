"""Read the short answer inside the answer sentence with the PolicyQA span reader."""
from __future__ import annotations

from collections.abc import Callable

from assistant.foundation.types import AnswerSpan, Sentence
from assistant.models.reader.model import SpanReader


class SpanReading:
    """Stage: (question, the answer sentence and its neighbours) → `AnswerSpan`, or None. `reader` is
    called on first use, so what never reads a span (the label's at-a-glance rows) loads no reader."""

    def __init__(self, reader: Callable[[], SpanReader]) -> None:
        self.reader = reader

    def run(self, question: str, sentences: list[Sentence], sentence: Sentence) -> AnswerSpan | None:
        """The reader's span inside `sentence`, read with one sentence of context either side."""
        before = sentences[sentence.ordinal - 2].text if sentence.ordinal > 1 else ""
        after = sentences[sentence.ordinal].text if sentence.ordinal < len(sentences) else ""
        offset = len(before) + 1 if before else 0
        context = " ".join(text for text in (before, sentence.text, after) if text)
        [prediction] = self.reader().read([question], [context], [(offset, offset + len(sentence.text))])
        if not prediction.found:
            return None
        start, end = prediction.start - offset, prediction.end - offset
        return AnswerSpan(sentence.ordinal, start, end, sentence.text[start:end])
