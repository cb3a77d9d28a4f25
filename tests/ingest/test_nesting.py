"""Tests for assistant.ingest.nesting: the linear pre-scan never finds much less depth than lexbor builds."""
from __future__ import annotations

import random

import pytest
from selectolax.lexbor import LexborHTMLParser

from assistant.ingest.nesting import measure_nesting
from tests.support.paths import policy_files

TAGS = ("div p b i a li ul ol table tr td th tbody span font em strong h2 h3 dl dt dd section button select "
        "option svg g path math mi mtext foreignObject desc annotation-xml br img hr form nobr blockquote caption "
        "colgroup col template object marquee applet noscript script style title textarea pre center x-custom "
        "input frameset body html head").split()


def lexbor_depth(html: str) -> int:
    """The depth of the tree lexbor builds (html = 1), elements only."""
    root = LexborHTMLParser(html).root
    deepest, stack = 0, [(root, 1)] if root is not None else []
    while stack:
        node, depth = stack.pop()
        deepest = max(deepest, depth)
        child = node.child
        while child is not None:
            if child.tag and not child.tag.startswith(("-", "#", "_")):
                stack.append((child, depth + 1))
            child = child.next
    return deepest


def tag_soup(rng: random.Random, n_tokens: int) -> str:
    parts = []
    for _ in range(n_tokens):
        tag, draw = rng.choice(TAGS), rng.random()
        if draw < 0.55:
            attributes = f' id="{rng.randint(0, 3)}"' if rng.random() < 0.3 else ""
            parts.append(f"<{tag}{attributes}{'/' if rng.random() < 0.1 else ''}>")
        elif draw < 0.85:
            parts.append(f"</{tag}>")
        else:
            parts.append("text ")
    return "".join(parts)


@pytest.mark.parametrize("seed", range(4))
def test_estimate_is_never_much_shallower_than_lexbor_on_tag_soup(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(250):
        html = tag_soup(rng, rng.randint(20, 400))
        assert lexbor_depth(html) <= 2 * measure_nesting(html).depth + 4, html


@pytest.mark.parametrize("seed", range(4))
def test_repeated_tag_soup_deepens_the_estimate_as_it_deepens_lexbors_tree(seed: int) -> None:
    """A unit repeated 40 and 80 times: where lexbor's tree keeps deepening, so does the estimate."""
    rng = random.Random(100 + seed)
    for _ in range(150):
        unit = tag_soup(rng, rng.randint(3, 30))
        growth = lexbor_depth(unit * 80) - lexbor_depth(unit * 40)
        estimated = measure_nesting(unit * 80).depth - measure_nesting(unit * 40).depth
        assert growth <= 6 * estimated + 4, unit


@pytest.mark.parametrize(
    ("html", "depth"),
    [
        ("<p>one<p>two<p>three", 3),
        ("<ul><li>a<li>b<li>c</ul>", 4),
        ("<table><tr><td>a<td>b<tr><td>c</table>", 6),
        ("<div>" * 10 + "</div>" * 10, 12),
        ("<b>" * 10 + "x", 12),
        ("<svg><path/><path/><g><path/></g></svg>", 4),
        ("<script><div><div><div></script><p>x", 3),
        ("<!-- <div><div><div> --><p>x", 3),
    ],
)
def test_estimated_depth_of_common_markup(html: str, depth: int) -> None:
    """Exact on common markup (lexbor also counts an empty element such as <path/> as a level)."""
    assert measure_nesting(html).depth == depth
    assert lexbor_depth(html) in (depth, depth + 1)


def test_real_policies_are_shallow() -> None:
    for path in policy_files():
        html = path.read_text(errors="replace")
        nesting = measure_nesting(html)
        assert nesting.depth < 20 and nesting.reopened == 0, path
        assert lexbor_depth(html) <= nesting.depth + 1, path


def test_stops_at_the_limits() -> None:
    assert measure_nesting("<div>" * 100_000, max_depth=512).depth == 513
    reopening = "<p>" + "".join(f"<b id={i}>" for i in range(300)) + "x</p>" + "<p>x</p>" * 10_000
    nesting = measure_nesting(reopening, max_reopened=10_000)
    assert 10_000 < nesting.reopened - nesting.tags < 10_400
