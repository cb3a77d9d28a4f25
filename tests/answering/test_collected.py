"""What a policy says it collects: the kinds of data named in the policy, never from a sentence that denies them."""
from __future__ import annotations

from tests.support.answers import rank_and_decide
from tests.support.facts import slot


def test_what_they_collect_is_answered_with_the_kinds_of_data_named_in_the_policy(amazon):
    import re

    answer = amazon.ask("What information do they collect about me?", policy="amazon")
    assert answer.verdict is None and answer.headline.startswith("The amazon policy names these kinds of data: ")
    named = re.findall(r"([a-z][\w ,'-]+?) \(“(.+?)”, sentence (\d+)\)", answer.headline)
    assert {"your location", "your e-mail address", "cookies and similar trackers"} <= {n for n, _, _ in named}, \
        answer.headline
    sentences = {s.ordinal: s.text for s in amazon.answer_pipeline.search.sentences(amazon.version("amazon"))}
    assert all(example in sentences[int(n)] for _, example, n in named)  # verbatim, in the sentence cited
    assert answer.evidence[0].sentence_id in {int(n) for _, _, n in named}
    quoted = [e.sentence_id for e in answer.evidence]
    assert len(quoted) == len(set(quoted))  # no sentence quoted twice


def test_a_sentence_that_denies_collecting_names_no_kind_of_data_collected():
    from assistant.answering.collected import data_collected
    from assistant.foundation.types import Facts

    texts = ["We do not collect your precise location.", "We collect your email address."]
    ranking, _ = rank_and_decide("Do they collect my email address?", texts, [1.0, 0.5])
    facts = {texts[0]: Facts("data-collection-usage", (slot(texts[0], "data-collected.data-location", "precise location"),)),
             texts[1]: Facts("data-collection-usage", (slot(texts[1], "data-collected.data-contact", "email address"),))}
    for scored in ranking.ranked:
        object.__setattr__(scored.sentence, "facts", facts[scored.sentence.text])
    collected = data_collected(ranking)
    assert collected.kinds == [("contact details", "email address")]
    assert ranking.ranked[collected.support].sentence.text == texts[1]
