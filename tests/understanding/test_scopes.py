"""Whom a statement applies to (`lang/scopes.toml`): every rule finds its example sentences and not its
counter-examples, and gives the scope in the statement's own words."""
from __future__ import annotations

import pytest

from assistant.understanding.statements import scope_of, scope_rules

EXAMPLES = [(r.name, text, True) for r in scope_rules() for text in r.match] + [
    (r.name, text, False) for r in scope_rules() for text in r.no_match]


@pytest.mark.parametrize(("name", "text", "expected"), EXAMPLES, ids=[f"{n}:{t[:30]}" for n, t, _ in EXAMPLES])
def test_every_scope_rule_matches_its_examples(name: str, text: str, expected: bool) -> None:
    rule = next(r for r in scope_rules() if r.name == name)
    assert bool(rule.pattern.search(text)) is expected


@pytest.mark.parametrize(("sentence", "scope"), [
    ("Texas residents may appeal our decision by e-mail.", "Texas residents"),
    ("For users in the United Kingdom, our representative is named below.", "For users in the United Kingdom"),
    ("We never sell school accounts' data to anyone.", "school accounts"),
    ("We do not sell your personal information to anyone.", None),
    ("Our users trust us with their data.", None),
])
def test_the_scope_is_given_in_the_statements_words(sentence: str, scope: str | None) -> None:
    found = scope_of(sentence)
    assert found == scope
    assert found is None or found in sentence


def test_a_group_the_facet_itself_asks_about_is_its_subject_not_a_scope() -> None:
    from assistant.understanding.facets import BY_NAME

    children = "We do not knowingly collect personal information from children under 13."
    assert scope_of(children) == "information from children"  # asked about selling, a statement for some only
    assert scope_of(children, BY_NAME["children"]) is None
    assert scope_of(children, BY_NAME["children_use"]) is None  # the narrower question within children
    under_16 = "We do not sell the personal information of consumers under 16 years of age."
    assert scope_of(under_16, BY_NAME["sale"]) == "consumers under 16 years of age"
