"""Issue 39, item 1: a page added by URL is named after its organisation, and a second document never silently
becomes a version of the first (two pages on one host were stored as versions 1 and 2 of "127.0.0.1")."""
from __future__ import annotations

import pytest

from assistant.ingest.naming import distinct_name, is_shared_host, name_for_page, organisation_in_title
from tests.support.policy_server import policy_server

# Titles as sites write them (none from the sets' policies): the organisation is what is left of the document.
TITLES = [
    ("Privacy Policy | Duolingo", "duolingo.com", "Duolingo"),
    ("Strava Privacy Policy", "strava.com", "Strava"),
    ("Privacy Notice - Patagonia", "patagonia.com", "Patagonia"),
    ("Etsy Inc. — Global Privacy Policy", "etsy.com", "Etsy Inc"),
    ("Your Privacy Centre · Monzo", "monzo.com", "Monzo"),
    ("Data Protection Statement – Deutsche Bahn", "bahn.de", "Deutsche Bahn"),
    ("Privacy Statement | Legal | Dropbox", "dropbox.com", "Dropbox"),
    ("Nintendo Privacy Policy - Nintendo Official Site", "nintendo.com", "Nintendo"),
]


@pytest.mark.parametrize(("title", "host", "organisation"), TITLES)
def test_the_organisation_is_read_from_the_title(title, host, organisation):
    assert organisation_in_title(title, host) == organisation


@pytest.mark.parametrize("title", ["Privacy Policy", "Privacy Notice – Updated 2024", "Cookie Policy", ""])
def test_a_title_of_document_words_only_names_nobody(title):
    assert organisation_in_title(title, "example.com") is None


def test_without_an_organisation_the_host_names_it_and_a_shared_host_adds_the_path():
    assert name_for_page("Privacy Policy", "https://www.strava.com/legal/privacy").name == "strava.com"
    assert name_for_page(None, "https://acme.github.io/app/privacy.html").name == "acme.github.io/app/privacy.html"
    assert name_for_page("Privacy", "http://127.0.0.1:8000/lyft_2026.md").name == "127.0.0.1/lyft_2026.md"
    assert is_shared_host("help.zendesk.com") and is_shared_host("::1") and not is_shared_host("zendesk.com.evil")


def test_a_taken_name_is_reused_only_for_the_same_document():
    holders = {"Reddit": False, "Reddit (2)": False, "Lyft": True}  # False: another document; True: this one
    assert distinct_name("Reddit", holders.get) == "Reddit (3)"
    assert distinct_name("Lyft", holders.get) == "Lyft"
    assert distinct_name("Zoom", holders.get) == "Zoom"


def test_two_pages_of_one_host_are_two_policies_and_a_page_fetched_again_is_its_next_version(tmp_path, embedder,
                                                                                           retriever, policyie,
                                                                                           reader):
    from assistant.engine import Assistant
    from assistant.foundation.settings import Settings

    page = ("<html><head><title>{title}</title></head><body><h1>{title}</h1><p>We collect your email address "
            "and your phone number when you sign up.</p><p>We keep your account data for {years} years after you "
            "close your account.</p><p>We never sell your personal information.</p></body></html>")
    assistant = Assistant(Settings(home=tmp_path / "home", allow_private=True), embedder=embedder,
                          retriever=retriever, policyie=policyie, reader=reader)
    with policy_server() as server:
        server.pages["/reddit"] = ("text/html", page.format(title="Reddit Privacy Policy", years=2).encode())
        server.pages["/lyft"] = ("text/html", page.format(title="Lyft Privacy Notice", years=3).encode())
        server.pages["/other-reddit"] = ("text/html", page.format(title="Privacy Policy | Reddit", years=4).encode())
        reddit = assistant.ingest(server.url("/reddit"), force=True)
        lyft = assistant.ingest(server.url("/lyft"), force=True)
        assert (reddit.version.name, reddit.version.version) == ("Reddit", 1)
        assert (lyft.version.name, lyft.version.version) == ("Lyft", 1)
        assert reddit.name_note == "named after the page's title"
        other = assistant.ingest(server.url("/other-reddit"), force=True)  # another document, the same title
        assert (other.version.name, other.version.version) == ("Reddit (2)", 1)
        assert '"Reddit" already holds another document' in other.name_note
        server.pages["/reddit"] = ("text/html", page.format(title="Reddit Privacy Policy", years=5).encode())
        again = assistant.ingest(server.url("/reddit"), force=True)
        assert (again.version.name, again.version.version) == ("Reddit", 2) and again.name_note is None
        told = assistant.ingest(server.url("/lyft"), name="Reddit", force=True)  # the user's word: a version
        assert (told.version.name, told.version.version) == ("Reddit", 3)
    assert sorted(assistant.policy_names()) == ["Lyft", "Reddit", "Reddit (2)"]
