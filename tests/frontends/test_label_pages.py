"""The label page from the front ends (issue 39, item 2): `assistant label NAME [NAME…] --html [--out FILE]` as a
user runs it, and `GET /label?format=html`, `/compare-labels` and `/policy` of `assistant serve` (the real server
in a thread, over the bundled example policies)."""
from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import httpx2 as httpx
import pytest
from selectolax.lexbor import LexborHTMLParser as HTMLParser

from tests.frontends.test_api import running
from tests.support.assistants import make_assistant
from tests.support.cli import run
from tests.support.paths import EXAMPLE_NAMES


def label_cli(home: Path, *args: str):
    return run(home, "label", *args, ASSISTANT_SERVER="off")


def one_line_error(result, *words: str) -> None:
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert result.stdout == "" and result.stderr.startswith("error: ") and result.stderr.count("\n") == 1, result.stderr
    for word in words:
        assert word in result.stderr, result.stderr


def test_label_html_writes_a_standalone_page_linking_to_the_policy(examples_home, tmp_path):
    out = tmp_path / "amazon-label.html"
    result = label_cli(examples_home, "amazon", "--html", "--out", str(out))
    assert result.returncode == 0, result.stderr
    assert result.stdout == f"Wrote the privacy label of amazon to {out}.\n"
    tree = HTMLParser(out.read_text(encoding="utf-8"))
    assert tree.css_first("h1").text() == "Privacy label: amazon"
    assert len(tree.css("li.row")) == 16 and tree.css_first("style") is not None and not tree.css("script")
    links = [a.attributes["href"] for a in tree.css(".said a")]
    assert links and all(link.startswith("http://127.0.0.1:8765/policy?name=amazon&version=1#s-") for link in links)


def test_label_html_with_relative_links_prints_the_page(examples_home):
    result = label_cli(examples_home, "--policy", "instagram", "--html", "--base-url", "")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("<!doctype html>")
    links = [a.attributes["href"] for a in HTMLParser(result.stdout).css(".said a")]
    assert links and all(link.startswith("/policy?name=instagram&version=1#s-") for link in links)
    same = label_cli(examples_home, "instagram", "--json")
    assert json.loads(same.stdout) == json.loads(label_cli(examples_home, "--policy", "instagram", "--json").stdout)


def test_label_html_of_two_or_three_policies_sets_them_side_by_side(examples_home):
    result = label_cli(examples_home, *EXAMPLE_NAMES, "--html", "--base-url", "http://127.0.0.1:8000/")
    assert result.returncode == 0, result.stderr
    tree = HTMLParser(result.stdout)
    assert [th.text() for th in tree.css_first("table.cmp").css("thead th")] == ["Question", *EXAMPLE_NAMES]
    assert len(tree.css("table.cmp tbody tr")) == 16
    assert all(a.attributes["href"].startswith("http://127.0.0.1:8000/policy?name=") for a in tree.css(".said a"))
    listed = json.loads(label_cli(examples_home, "amazon", "steampowered", "--json").stdout)
    assert [label["policy"] for label in listed] == ["amazon", "steampowered"]


def test_label_refuses_what_it_cannot_show_in_one_line(examples_home, tmp_path):
    one_line_error(label_cli(examples_home, "amazon", "instagram"), "--html")
    one_line_error(label_cli(examples_home, "amazon", "instagram", "steampowered", "amazon", "--html"), "two or three")
    one_line_error(label_cli(examples_home, "amazon", "--policy", "amazon"), "not both")
    one_line_error(label_cli(examples_home, "amazon", "--out", str(tmp_path / "x.html")), "--html")
    one_line_error(label_cli(examples_home, "amazon", "--html", "--json"), "not both")
    one_line_error(label_cli(examples_home, "amazon", "--html", "--base-url", "file:///etc"), "--base-url")
    one_line_error(label_cli(examples_home, "amazon", "nope", "--html"), "nope")
    assert not (tmp_path / "x.html").exists()


@pytest.fixture(scope="module")
def api(examples_home, embedder, retriever, policyie, reader) -> Iterator[str]:
    from assistant.frontends.api import create_app

    with running(create_app(make_assistant(examples_home, embedder, retriever, policyie, reader))) as url:
        yield url


def test_api_label_as_a_page_opens_the_policy_at_each_sentence(api):
    as_json = httpx.get(f"{api}/label", params={"policy": "amazon"})
    assert as_json.headers["content-type"] == "application/json" and as_json.json()["policy"] == "amazon"
    reply = httpx.get(f"{api}/label", params={"policy": "amazon", "format": "html"})
    assert reply.status_code == 200 and reply.headers["content-type"].startswith("text/html")
    assert "frame-ancestors 'none'" in reply.headers["content-security-policy"]
    tree = HTMLParser(reply.text)
    glance = {row["sentence_id"]: row["quote"] for row in as_json.json()["glance"] if row["sentence_id"]}
    links = tree.css(".said a")
    assert len(links) == sum(1 for row in as_json.json()["glance"] if row["sentence_id"])  # a line each
    assert all(link.attributes["href"].startswith("/policy?name=amazon&version=1#s-") for link in links)
    href = links[0].attributes["href"]
    page = httpx.get(api + href.split("#")[0])  # the link works on the same server
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    sentence_id = int(href.rsplit("#s-", 1)[1])
    shown = HTMLParser(page.text).css_first(f"#s-{sentence_id}").text(deep=False)  # without its number
    assert " ".join(shown.split()) == " ".join(glance[sentence_id].split())
    assert httpx.get(f"{api}/label", params={"policy": "amazon", "format": "xml"}).status_code == 422
    assert httpx.get(f"{api}/policy", params={"name": "nope"}).status_code == 404


def test_api_compares_two_or_three_labels(api):
    reply = httpx.get(f"{api}/compare-labels", params={"policies": "amazon,instagram"})
    assert reply.status_code == 200, reply.text
    assert [th.text() for th in HTMLParser(reply.text).css_first("table.cmp").css("thead th")] == [
        "Question", "amazon", "instagram"]
    refused = httpx.get(f"{api}/compare-labels", params={"policies": "amazon"})
    assert refused.status_code == 400 and "two or three" in refused.json()["error"]
    assert httpx.get(f"{api}/compare-labels", params={"policies": "amazon,nope"}).status_code == 404
