"""Issue 39, item 4: a site by its address or any of its pages — the privacy policy it links is found, said how,
and stored; a page that links none says what was tried."""
from __future__ import annotations

from urllib.parse import urlsplit

import pytest

from assistant.foundation.errors import NotAPolicyError
from assistant.ingest.discovery import policy_links
from assistant.ingest.fetch import site_url
from tests.support.paths import AMAZON
from tests.support.policy_server import policy_server


@pytest.mark.parametrize(("source", "url"), [
    ("duolingo.com", "https://duolingo.com/"), ("www.Strava.com/en-gb", "https://www.strava.com/en-gb"),
    ("policy.html", None), ("amazon.com.html", None), ("examples/policies/x.md", None), ("127.0.0.1", None),
    ("not a site", None), ("localhost", None)])
def test_a_site_is_read_from_its_address_and_a_file_name_is_not_one(source, url):
    assert site_url(source) == url


def test_the_policy_link_is_ranked_above_mentions_and_choices():
    home = """<html><head><link rel="stylesheet" href="/s.css"><link rel="privacy-policy" href="/legal/privacy">
    </head><body><nav><a href="/privacy-choices">Your Privacy Choices</a> <a href="/help/privacy">Privacy help</a>
    </nav><main><a href="/blog/privacy-week">Privacy</a></main>
    <footer><a href="/terms">Terms</a> <a href="https://example.org/privacy-notice">Privacy Notice</a>
    <a href="/cookie-settings">Cookie settings</a> <a href="/legal/privacy-policy.html">Legal</a></footer></body></html>"""
    links = policy_links(home, "https://example.org/")
    assert [link.url for link in links] == [
        "https://example.org/legal/privacy", "https://example.org/privacy-notice", "https://example.org/blog/privacy-week",
        "https://example.org/legal/privacy-policy.html"]
    assert links[0].how == 'its <link rel="privacy-policy">'
    assert links[1].how == 'the link "Privacy Notice" in its footer'


def test_no_link_to_the_policy_means_none():
    assert policy_links('<a href="/about">About us</a> <a href="/privacy-settings">Privacy settings</a>',
                        "https://example.org/") == []


@pytest.fixture
def assistant(tmp_path, embedder, retriever, policyie, reader):
    from assistant.engine import Assistant
    from assistant.foundation.settings import Settings

    return Assistant(Settings(home=tmp_path / "home", allow_private=True), embedder=embedder, retriever=retriever,
                     policyie=policyie, reader=reader)


HOME = ("<html><head><title>Acme Shop</title>{head}</head><body><h1>Welcome to Acme Shop</h1>"
        "<p>Browse our lamps, chairs and tables, and find the one that fits your home.</p>"
        "<p>Free delivery on orders over fifty dollars.</p><footer>{footer}</footer></body></html>")


def test_a_home_page_leads_to_the_policy_it_links(assistant):
    with policy_server() as server:
        server.pages["/"] = ("text/html", HOME.format(head="", footer='<a href="/legal/privacy">Privacy Policy</a>'
                                                      ' <a href="/terms">Terms</a>').encode())
        server.pages["/legal/privacy"] = ("text/html", AMAZON.read_bytes())
        result = assistant.ingest(server.url("/"))
        assert result.version.source_path == server.url("/legal/privacy")
        assert result.found == (f"{server.url('/')} is not a privacy policy; the link \"Privacy Policy\" in its "
                                "footer leads to it")
        assert assistant.ingest(server.url("/")).unchanged  # the same home page again: the same policy


def test_without_a_link_the_usual_address_is_tried_and_a_site_without_one_says_what_was_tried(assistant):
    with policy_server() as server:
        server.pages["/"] = ("text/html", HOME.format(head="", footer="<a href='/terms'>Terms</a>").encode())
        with pytest.raises(NotAPolicyError, match="It links no page that is a privacy policy either") as refused:
            assistant.ingest(server.url("/"))
        assert server.url("/privacy") in str(refused.value) and "\n" not in str(refused.value)
        server.pages["/privacy-policy"] = ("text/html", AMAZON.read_bytes())
        result = assistant.ingest(server.url("/"))
        assert result.version.source_path == server.url("/privacy-policy")
        assert "the site's usual address for it" in result.found


def test_the_plain_policy_link_ranks_above_notices_for_other_people_or_data():
    page = """<footer><a href="/health-privacy">Consumer Health Data Privacy Policy</a>
    <a href="/jobs/privacy">Candidate Privacy Notice</a> <a href="/ca">California Privacy Notice</a>
    <a href="/acme-privacy">Acme Privacy Policy</a> <a href="/privacy">Privacy Policy\u2060</a></footer>"""
    links = policy_links(page, "https://acme.example/terms")
    assert [urlsplit(link.url).path for link in links] == ["/privacy", "/acme-privacy", "/health-privacy",
                                                           "/jobs/privacy", "/ca"]
    assert links[0].how == 'the link "Privacy Policy" in its footer'
