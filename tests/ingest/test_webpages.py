"""Web pages: the policy and nothing but the policy (issue 22), on fixtures in the likeness of real pages."""
from __future__ import annotations

import pytest

from assistant.foundation.sentences import build_policy
from assistant.foundation.types import Document, Extraction
from assistant.ingest.html_content import loss_warning, words_in
from assistant.ingest.parsing import load_document, parse_html
from tests.support.paths import FIXTURES

WEBPAGES = FIXTURES / "webpages"
MAX = 10_000_000


def load(name: str) -> Document:
    return load_document(WEBPAGES / name, MAX)


def texts(doc: Document) -> list[str]:
    return [block.text for block in doc.blocks]


def body(doc: Document) -> list[str]:
    return [block.text for block in doc.blocks if not block.is_heading]


def reasons(doc: Document) -> set[str]:
    assert doc.extraction is not None
    return {block.reason for block in doc.extraction.dropped_blocks}


def test_collapsed_accordion_panels_are_kept_under_their_button_as_heading() -> None:
    doc = load("accordion.html")
    sections = {block.text.split()[1]: block.section_path[-1] for block in doc.blocks if not block.is_heading}
    assert sections == {
        "notice": "Privacy Centre",
        "collect": "What information do we collect?",  # visibility:hidden + height:0, button inside the h2
        "keep": "How long do we keep it?",  # height:0
        "share": "Who do we share it with?",  # aria-hidden="true"
        "can": "How do you contact us?",  # the hidden attribute
    }
    assert texts(doc).count("What information do we collect?") == 1
    assert "Opens a dialog" not in " ".join(texts(doc))  # short hidden UI text is not policy text
    assert "›" not in " ".join(texts(doc))


def test_hidden_tab_panels_are_kept_under_their_tab() -> None:
    doc = load("tabs.html")
    agents = [block.text for block in doc.blocks if block.section_path[-1] == "Travel agents" and not block.is_heading]
    assert agents == [("When a travel agent books for you we receive your booking reference and contact details "
                      "from that agent."), "We keep travel agent booking records for three years after the date of travel."]
    customers = [block.text for block in doc.blocks if block.section_path[-1] == "Customers" and not block.is_heading]
    assert len(customers) == 1 and customers[0].startswith("When you book a flight")


def test_details_summary_is_the_heading_of_its_text() -> None:
    doc = load("details.html")
    assert [(block.text, block.is_heading) for block in doc.blocks][1:3] == [
        ("Do you sell my data?", True),
        ("We do not sell your personal information to anyone, and we never have.", False),
    ]
    assert doc.blocks[-1].section_path[-1] == "Can I delete my account?"


def test_self_closing_iframe_in_noscript_does_not_swallow_the_page() -> None:
    doc = load("noscript_iframe.html")
    assert body(doc) == ["We collect the email address you give us when you sign up for our newsletter.",
                         "You may ask us for a copy of the personal information we hold about you at any time."]
    assert doc.extraction.kept_share == 1.0


def test_navigation_header_footer_cookie_banners_login_and_page_controls_are_left_out() -> None:
    doc = load("boilerplate.html")
    text = " ".join(texts(doc))
    for junk in ("cookies", "Accept all", "Products", "Pricing", "Password", "Sign in", "Deutsch", "Terms",
                 "Skip to", "Back to top", "All rights reserved", "Careers"):
        assert junk not in text, junk
    assert body(doc)[:3] == [
        "Example Co collects your name and email address when you create an account.",
        "We use your email address to send you receipts and important service messages.",
        "We share your payment details with our payment processor to complete your purchases.",
    ]
    assert {"cookie banner", "page header", "footer", "navigation", "page control"} <= reasons(doc)


def test_address_lines_and_link_buttons_are_not_section_titles() -> None:
    doc = load("boilerplate.html")
    headings = [block.text for block in doc.blocks if block.is_heading]
    assert headings == ["Privacy Notice", "How we use your information", "Sharing", "Contact"]
    assert body(doc)[-4:] == ["Example Co Ltd", "221 Baker Street", "London NW1 6XE", "Contact Us"]
    assert all(block.section_path == ("Privacy Notice", "Contact") for block in doc.blocks[-4:])


def test_table_of_contents_is_left_out_but_headings_and_other_links_stay() -> None:
    doc = load("toc.html")
    assert texts(doc).count("Information We Collect") == 1  # the heading, not the contents entry
    assert "See also our cookie notice, our terms and security page." in texts(doc)
    assert "table of contents" in reasons(doc)


def test_table_rows_become_sentences_with_their_column_headers() -> None:
    doc = load("sharing_table.html")
    assert body(doc) == [
        "Category: Identifiers — Shared with service providers: Yes — Sold: No",
        "Category: Commercial information — Shared with service providers: Yes — Sold: No",
        "Category: Geolocation data — Shared with service providers: No — Sold: No",
        "Questions? Write to privacy@example.com.",  # a layout table without headers: its cells as before
    ]
    sentences = [s.text for s in build_policy(doc).sentences]
    assert "Yes" not in sentences and "No" not in sentences


def test_markdown_front_matter_is_left_out() -> None:
    doc = load("front_matter.md")
    assert texts(doc) == ["Privacy Policy",
                          "We collect your email address when you sign up, and we use it only to send you receipts."]


def test_repeated_paragraphs_and_bare_footnote_numbers_are_left_out_and_counted() -> None:
    doc = load("duplicates_footnotes.html")
    repeated = "We respond to every request within thirty days of receiving it."
    rights = [block.text for block in doc.blocks if block.section_path[-1] == "Your rights" and not block.is_heading]
    assert rights == ["You have the right to access the personal information we hold about you.", repeated]
    # the same paragraph under another heading is that section's text, not a repeat
    assert [block.text for block in doc.blocks if block.section_path[-1] == "Other states"][1:] == [repeated]
    assert "2" not in texts(doc) and "[3]" not in texts(doc)
    assert doc.extraction.duplicates_dropped == 3
    assert "1 As defined by the applicable data protection law." in texts(doc)  # a note, not a bare number


def test_loss_check_counts_visible_words_independently_and_lists_the_largest_left_out() -> None:
    doc = load("realistic_policy.html")
    extraction = doc.extraction
    assert extraction.visible_words == 323 and extraction.kept_words == 267
    assert extraction.kept_words == sum(words_in(block.text) for block in doc.blocks)
    largest = extraction.dropped_blocks[0]
    assert largest.reason == "outside the main content" and largest.text.startswith("We use cookies")
    assert [b.words for b in extraction.dropped_blocks] == sorted((b.words for b in extraction.dropped_blocks),
                                                                  reverse=True)
    assert loss_warning(extraction) is None


def test_loss_warning_names_what_was_left_out_when_most_of_the_page_was() -> None:
    menu = "".join(f"<li><a href='/p{i}'>Product number {i}</a></li>" for i in range(60))
    doc = parse_html(f"<nav><ul>{menu}</ul></nav><main><h1>Privacy</h1><p>We collect your email address "
                     "to send receipts.</p></main>")
    warning = loss_warning(doc.extraction)
    assert warning is not None and warning.startswith("only 9 of the page's 189 visible words (5%)")
    assert "navigation: “Product number 0" in warning
    assert loss_warning(Extraction(kept_words=96, visible_words=100)) is None


@pytest.mark.slow
def test_full_ingest_of_a_realistic_page_stores_the_policy_and_nothing_else(assistant) -> None:
    result = assistant.ingest(WEBPAGES / "realistic_policy.html", name="northwind")
    sentences = [s.text for s in assistant.store.sentences(result.version.id)]
    text = assistant.store.policy_text(result.version.id)
    assert "We keep your personal information for seven years after your account is closed" in text
    assert "Category: Financial information — Shared with service providers: Yes — Sold: No" in sentences
    for junk in ("cookies and similar", "Mortgages", "Log in", "Back to top", "Skip to", "Accessibility", "©"):
        assert junk not in text, junk
    assert len(sentences) == len(set(sentences)) == 14
    shared = [s for s in assistant.store.sentences(result.version.id) if s.text.startswith("Category: Identifiers")]
    assert shared[0].section == "Privacy Policy > Who We Share It With"


def test_cli_warns_when_most_of_a_page_was_left_out_and_policies_json_reports_it(tmp_path) -> None:
    """As a user runs it: the page is stored, a one-line warning names what was left out, and
    `policies --json` lists the language and the kept-text ratio."""
    import json

    from tests.support.cli import run
    from tests.support.paths import AMAZON

    body = AMAZON.read_text(encoding="utf-8")
    links = "".join(f'<li><a href="/p{i}">Shop our department number {i} deals today</a></li>' for i in range(600))
    page = tmp_path / "shop.html"
    page.write_text(f"<html><body><nav><ul>{links}</ul></nav><main>{body}</main></body></html>", encoding="utf-8")
    home = tmp_path / "home"
    result = run(home, "ingest", str(page))
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("Ingested shop version 1")
    warning = result.stderr.strip()
    assert warning.startswith("warning: only ") and "visible words" in warning and "\n" not in warning
    [listed] = json.loads(run(home, "policies", "--json").stdout)
    assert listed["language"] == "en"
    assert 0 < listed["kept_text_ratio"] < 0.5


def test_a_table_of_contents_written_as_plain_lines_is_left_out() -> None:
    """OPP-115's amazon.com page lists its section titles as plain list items before the sections:
    they are not policy sentences (a heading returned as an answer answers nothing)."""
    from tests.support.paths import AMAZON

    document = load_document(AMAZON, 10**7)
    texts = [block.text for block in document.blocks if not block.is_heading]
    assert "Which Information Can I Access?" not in texts
    assert any(b.is_heading and b.text == "Which Information Can I Access?" for b in document.blocks)
    assert any(block.reason == "table of contents" for block in document.extraction.dropped_blocks)


# --------------------------------------------------------------------------- junk outside nav (issue 22, junk ≤ 1 %)


def test_mega_menus_unnamed_footer_link_lists_form_messages_theme_switches_and_cookie_modals_are_left_out() -> None:
    doc = load("site_chrome.html")
    stored = " ".join(texts(doc))
    for junk in ("no-code interface", "Canvas", "Light", "Dark", "Did you find this summary helpful",
                 "Careers", "Brand Guidelines", "X (Twitter)", "Get Quill for free", "Thank you!",
                 "Something went wrong", "All rights reserved", "Powered by GDPR Cookie Compliance",
                 "best user experience possible", "Get the book", "Article summary", "lets you opt out of advertising",
                 "Usage Policies", "Creator plans", "Reseller Agreement", "anonymously analyze website traffic",
                 "Did this answer your question", "Still need help", "scan the QR code"):
        assert junk not in stored, junk
    assert body(doc) == [
        ('Quill AI, Inc. ("Quill", "we") explains in this policy how we collect, use and share personal information '
         "when you use our writing assistant."),
        "We collect the prompts you write, the documents you upload and the text our models generate for you.",
        "We also collect your name, email address and billing details when you create an account.",
        "You can opt out of interest-based advertising with these partners:",
        "Google Meta LinkedIn DAA EDAA NAI Microsoft Criteo",  # links to other sites: policy text, kept
        "Write to privacy@quill.ai or to Quill AI, Inc., 100 Market Street, San Francisco, CA 94105.",
    ]
    assert {"site navigation, header or footer", "list of links", "cookie banner"} <= reasons(doc)


def test_a_summary_copied_into_every_tab_panel_is_kept_once_and_section_contents_lists_go() -> None:
    doc = load("tab_layers.html")
    stored = texts(doc)
    assert stored.count("Our main goal is to give you an enjoyable Hive experience while you connect with new "
                        "people.") == 1
    assert not any("What you’ll find" in text for text in stored)
    assert [text for text in stored if text.startswith("1. ")] == ["1. Information you give us",
                                                                  "1. Sharing with other members"]
    assert "Other members see your profile, your photos and the approximate distance between you." in stored
    # a single paragraph repeated under another heading is policy text and stays
    assert stored.count("You can withdraw your consent at any time in the settings of the app.") == 2
    assert {"repeated layer", "table of contents"} <= reasons(doc)


def test_a_legal_page_with_terms_and_privacy_panels_keeps_the_privacy_documents_only() -> None:
    """Like Buffer's legal page: one `details` per document; the privacy policy and the state notice stay."""
    doc = load("legal_panels.html")
    headings = [block.text for block in doc.blocks if block.is_heading]
    assert "Privacy Policy" in headings and "California Resident Privacy Notice" in headings
    stored = " ".join(texts(doc))
    assert "binding individual arbitration" not in stored and "DMCA" not in stored
    assert "We keep your account information for as long as your account is open" in stored
    assert "another legal document" in reasons(doc)


def test_a_terms_page_holding_the_privacy_policy_in_a_named_panel_keeps_that_panel() -> None:
    """Like Mistral AI's legal page: the documents are panels with ids; the privacy policy is #privacy-policy."""
    doc = load("legal_ids.html")
    stored = " ".join(texts(doc))
    assert "binding individual arbitration" not in stored and "spam, malware" not in stored
    assert body(doc)[0].startswith("This Privacy Policy describes how Loom Social")
    assert doc.extraction is not None and doc.extraction.kept_share < 0.8  # the loss check still sees the rest


def test_a_privacy_policy_that_mentions_the_terms_is_not_cut() -> None:
    """A page that is only a privacy policy, wrapped in #privacy-policy, naming the terms in a heading."""
    part = (WEBPAGES / "legal_ids.html").read_text(encoding="utf-8").split('<div id="privacy-policy">')[1].split(
        '<div id="usage-policy">')[0]
    doc = parse_html(f"<html><head><title>Privacy Policy</title></head><body><main><h1>Privacy Policy</h1>"
                     f'<div id="privacy-policy">{part}<h3>Our Terms of Use</h3><p>Our Terms of Use also apply to '
                     "your use of the service.</p></div></main></body></html>")
    assert "another legal document" not in reasons(doc)
    assert body(doc)[0].startswith("This Privacy Policy describes") and body(doc)[-1].startswith("Our Terms of Use")


def test_a_main_outweighed_by_the_body_s_scripts_is_still_the_content() -> None:
    """Like Fireworks AI's page: a promotion bar before <main>, and an inline data script that holds more words
    than the policy (the main content's share is counted in visible words, not in the scripts' text)."""
    doc = load("script_heavy_main.html")
    stored = " ".join(texts(doc))
    assert "now available" not in stored and "Models Docs Pricing" not in stored and "All rights reserved" not in stored
    assert texts(doc)[0] == "Privacy Notice" and texts(doc)[-1] == "Last Modified: 8/23/2023"
    assert "we do not train models on your prompts" in stored
    assert "outside the main content" in reasons(doc)


def test_a_get_started_call_to_action_box_is_left_out_but_links_in_policy_sentences_stay() -> None:
    """Like Bardeen's page: a "Get started for free" box after the policy, with its tagline and feature ticks."""
    doc = load("call_to_action.html")
    stored = " ".join(texts(doc))
    for junk in ("get relay", "Don't just connect", "100,000+ users", "Get started", "Effortless setup", "Free to use"):
        assert junk not in stored
    assert "You can download a copy of your data from the settings page at any time." in texts(doc)
    assert texts(doc)[-1] == "Write to privacy@relay.app with any question about this policy."
    assert "call to action" in reasons(doc)


def test_a_legal_hub_s_title_tagline_and_side_menu_before_the_policy_s_own_title_are_left_out() -> None:
    """Like Perplexity's legal hub: an h1 "Legal Hub" with a tagline and a script-driven side menu (no links),
    then the privacy policy under its own h1."""
    doc = load("legal_hub.html")
    assert texts(doc)[0] == "Quokka's Privacy Policy"
    stored = " ".join(texts(doc))
    assert "Information related to our terms" not in stored and "Legal overview" not in stored
    assert "page header before the policy's title" in reasons(doc)


def test_a_long_introduction_before_the_privacy_policy_s_title_stays() -> None:
    """Only a short preamble goes: text of more than `_PREAMBLE_MAX_WORDS` words under another title is kept."""
    intro = " ".join(["We explain here how each of our legal documents applies to the services you use."] * 6)
    doc = parse_html(f"<html><body><h1>Legal Hub</h1><p>{intro}</p><h1>Privacy Policy</h1>"
                     "<p>We collect your email address when you create an account.</p></body></html>")
    assert texts(doc)[0] == "Legal Hub" and "page header before the policy's title" not in reasons(doc)
