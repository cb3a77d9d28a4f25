"""The ranking and verdict stages run on sentences written in a test, with the retriever's relevance logits given."""
from __future__ import annotations

import numpy as np


def rank_and_decide(question: str, texts: list[str], relevance: list[float], answer_scores: list[float] | None = None):
    """The ranking and verdict stages on real sentences, with the retriever's relevance logits (and the answer-sentence
    scorer's scores, when given) given: (the ranking, the verdict)."""
    from assistant.answering.ranking import rank_evidence
    from assistant.answering.selection import SelectionParameters, select
    from assistant.answering.verdict import decide
    from assistant.foundation.types import PolicyVersion, Sentence
    from assistant.understanding.facets import facet_of
    from assistant.understanding.question import UnderstoodQuestion

    sentences = [Sentence(i + 1, t, 0, len(t), "") for i, t in enumerate(texts)]
    version = PolicyVersion(1, "acme", 1, "acme.md", "", "", 1, len(sentences), "")
    understood = UnderstoodQuestion(question, None, 0.0, question_type="yes_no", facet=facet_of(question).name)
    parameters = SelectionParameters.load()
    scores = None if answer_scores is None else np.array(answer_scores)
    ranking = rank_evidence(understood, version, sentences, np.array(relevance), parameters, scores)
    selection = select([r.selection_logit for r in ranking.ranked], [r.relevance for r in ranking.ranked],
                       parameters, 3)
    return ranking, decide(ranking, selection)
