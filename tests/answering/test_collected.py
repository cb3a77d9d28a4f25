"""What a policy says it collects: the kinds of data named in the policy, never from a sentence that denies them."""
from __future__ import annotations

from tests.support.answers import rank_and_decide
from tests.support.facts import slot


def test_what_they_collect_is_answered_with_the_kinds_of_data_named_in_the_policy(amazon):
    import re

    answer = amazon.ask("What information do they collect about me?", policy="amazon")
    assert answer.verdict is None and answer.headline.startswith("The amazon policy says it collects ")
    listed = answer.headline.removeprefix("The amazon policy says it collects ").replace("”) and ", "”), ")
    named = dict(re.findall(r"(?:^|, )([a-z][a-z ]+?) \(“(.+?)”\)", listed))
    assert {"contact details", "location", "device data"} <= set(named), answer.headline
    texts = [s.text for s in amazon.answer_pipeline.search.sentences(amazon.version("amazon"))]
    assert all(any(example in text for text in texts) for example in named.values())  # verbatim
    cited = [int(n) for n in re.findall(r"\d+", answer.headline.rsplit("(sentence", 1)[1])]
    assert answer.evidence[0].sentence_id in cited


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
