"""The privacy label as a page read at a glance (issue 39, item 2): `assistant/frontends/label_html.py` on the
bundled example policies as the engine stores them, and on a stored policy whose sentences hold markup."""
from __future__ import annotations

import html
from pathlib import Path

import pytest
from selectolax.lexbor import LexborHTMLParser as HTMLParser

from assistant.frontends.label_html import (
    GROUPS,
    MAX_COMPARED,
    VERDICTS,
    compared_names,
    comparison_page,
    label_page,
    plain_line,
)
from tests.support.assistants import make_assistant
from tests.support.paths import EXAMPLE_NAMES

SCRIPT_POLICY = """\
Script Test Privacy Policy

Cookies

We use cookies <script>window.__injected = "script"</script> and web beacons to remember your settings for a year.

Sharing

We share your purchase history with <img src="x" onerror="window.__injected = 'img'"> payment partners.
"""


@pytest.fixture(scope="module")
def labels(examples_home, embedder, retriever, policyie) -> dict:
    assistant = make_assistant(examples_home, embedder, retriever, policyie)
    return {name: assistant.label(name) for name in EXAMPLE_NAMES}


def rows_of(page: str) -> list:
    return HTMLParser(page).css("li.row")


def test_each_answer_is_one_line_in_its_section_with_its_mark_and_the_policy_at_its_sentence(labels):
    label = labels["amazon"]
    page = label_page(label)
    tree = HTMLParser(page)
    glance = {row.facet: row for row in label.glance}
    assert len(glance) == 16 and len(rows_of(page)) == len(glance)  # one line per question
    titles = [h.text().strip() for h in tree.css("section.group > h2")]
    assert titles[:len(GROUPS)] == [title for _, title, _, _ in GROUPS]
    for section in tree.css("section.group")[:len(GROUPS)]:
        assert section.css_first("h2 svg").attributes["aria-hidden"] == "true"  # the icon repeats the title
    words = {word for word, _ in VERDICTS.values()}
    for row in rows_of(page):
        chip = row.css_first(".chip")
        assert chip.text().strip() in words  # the mark's word is there: never colour alone
        assert chip.css_first("svg").attributes["aria-hidden"] == "true"
        kind = next(c for c in chip.attributes["class"].split() if c.startswith("v-")).removeprefix("v-")
        line = row.css_first(".what").text()
        facet = next(f for f, r in glance.items() if line.startswith(_plain(r)))
        assert kind == glance[facet].verdict
        link = row.css_first(".said a")
        if glance[facet].sentence_id is None:
            assert link is None and row.css_first("details") is None  # nothing to open
            continue
        assert row.css_first("details > summary .chip") is not None  # the line opens to its quote and link
        assert link.attributes["href"] == f"/policy?name=amazon&version=1#s-{glance[facet].sentence_id}"
        quote = row.css_first(".said blockquote").text().strip("“”")
        assert quote == glance[facet].quote  # the sentence as stored
    verdicts = {row.verdict for row in label.glance}
    assert {"yes", "no", "not_stated"} <= verdicts  # the example exercises every common mark
    tally = tree.css_first("ul.tally").text()
    assert f"No {sum(r.verdict == 'no' for r in label.glance)}" in " ".join(tally.split())


def _plain(row) -> str:
    return plain_line(row)


def test_links_use_the_base_url_and_open_a_new_tab_when_framed(labels):
    page = label_page(labels["instagram"], base_url="http://127.0.0.1:8765/", new_tab=True)
    links = HTMLParser(page).css(".said a")
    assert links
    for link in links:
        assert link.attributes["href"].startswith("http://127.0.0.1:8765/policy?name=instagram&version=1#s-")
        assert link.attributes["target"] == "_blank" and link.attributes["rel"] == "noopener"
        assert "opens in a new tab" in link.text()
    assert all("target" not in a.attributes for a in HTMLParser(label_page(labels["instagram"])).css("a"))


def test_the_facts_list_each_item_with_its_sentences(labels):
    label = labels["amazon"]
    facts = HTMLParser(label_page(label)).css_first("section.facts")
    assert [h.text() for h in facts.css("h3")] == [s.title for s in label.sections]
    collected = label.sections[0].rows[0]
    first = facts.css("ul")[0].css("li")[0]
    assert first.text().startswith(collected.item)
    assert [a.attributes["href"].rsplit("#s-", 1)[1] for a in first.css("a")] == [str(n) for n in collected.sentences[:5]]


def test_the_page_is_standalone_printable_and_sized_for_a_phone(labels):
    page = label_page(labels["steampowered"])
    tree = HTMLParser(page)
    assert tree.css_first("html").attributes["lang"] == "en"
    assert "width=device-width" in tree.css_first('meta[name="viewport"]').attributes["content"]
    assert not tree.css("script") and not tree.css("link") and not tree.css("img")  # nothing to fetch or run
    style = tree.css_first("style").text()
    assert "@media print" in style and "@media (max-width: 600px)" in style


def test_script_in_a_policy_sentence_shows_as_text(assistant, tmp_path: Path):
    source = tmp_path / "script-test.txt"
    source.write_text(SCRIPT_POLICY, encoding="utf-8")
    assistant.ingest(source, name="script-test", force=True)
    label = assistant.label("script-test")
    quotes = [row.quote for row in label.glance if row.quote]
    examples = [e for section in label.sections for cell in section.rows for e in cell.examples]
    assert any("<script>" in quote for quote in quotes), quotes  # the stored sentence holds the markup
    for page in (label_page(label), comparison_page([label, label])):
        tree = HTMLParser(page)
        assert not tree.css("script") and not tree.css("img") and not tree.css("[onerror]")
        assert "<script" not in page and "<img" not in page
        shown = tree.body.text()
        assert any("<script>" in quote and quote in shown for quote in quotes)  # as text, verbatim
        for text in quotes + examples:
            assert html.escape(text) in page


def test_labels_side_by_side_align_each_question_in_a_column_per_policy(labels):
    chosen = [labels[name] for name in EXAMPLE_NAMES]
    tree = HTMLParser(comparison_page(chosen))
    tables = tree.css("table.cmp")
    assert tables
    for table in tables:
        assert [th.text() for th in table.css("thead th")] == ["Question", *EXAMPLE_NAMES]
    rows = tree.css("table.cmp tbody tr")
    assert len(rows) == 16  # every question once, in the label's sections
    by_policy = [{row.facet: row for row in label.glance} for label in chosen]
    for tr in rows:
        question = tr.css_first("th").text()
        facet = next(f for f, r in by_policy[0].items() if question.startswith(_plain(r)))
        cells = tr.css("td")
        assert len(cells) == len(chosen)
        verdicts = []
        for td, label, policy_rows in zip(cells, chosen, by_policy):
            row = policy_rows[facet]
            assert td.css_first(".cell-policy").text() == label.policy  # named in its cell (shown on a phone)
            assert td.css_first(".chip").text().strip() == VERDICTS[row.verdict][0]
            link = td.css_first(".said a")
            assert (link is None) == (row.sentence_id is None)
            if link is not None:
                assert link.attributes["href"] == f"/policy?name={label.policy}&version=1#s-{row.sentence_id}"
            verdicts.append(row.verdict)
        assert (tr.css_first(".differs") is not None) == (len(set(verdicts)) > 1)
    assert any(tr.css_first(".differs") for tr in rows)  # the examples do differ somewhere


def test_two_or_three_distinct_policies_are_compared():
    assert compared_names(" amazon, instagram ,") == ["amazon", "instagram"]
    for bad in ("amazon", "a,b,c,d", "amazon,Amazon", ""):
        with pytest.raises(Exception, match="two or three|once"):
            compared_names(bad)
    with pytest.raises(ValueError):
        comparison_page([])
    assert MAX_COMPARED == 3
