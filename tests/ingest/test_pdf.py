"""PDF policies: headings from the layout, columns in reading order, page numbers kept for citations,
running headers and footers dropped, clear errors for scanned and encrypted files.

The PDFs are written by tests/support/pdf_fixtures.py (reportlab) into each test's temporary folder.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from assistant.foundation.errors import InputFileError
from assistant.foundation.sentences import build_policy
from assistant.ingest.parsing import load_document, parse_bytes
from tests.support.pdf_fixtures import (
    CARRY_OVER,
    HEADER,
    encrypted_pdf,
    image_only_pdf,
    one_column_policy,
    two_column_page,
)


def test_one_column_policy_headings_sections_and_pages(tmp_path: Path):
    document = load_document(one_column_policy(tmp_path / "acme.pdf"), max_bytes=10**6)
    assert document.title == "Acme Privacy Policy"
    headings = [(b.section_path, b.page_at(0)) for b in document.blocks if b.is_heading]
    assert headings == [
        (("Acme Privacy Policy",), 1),
        (("Acme Privacy Policy", "Information We Collect"), 1),
        (("Acme Privacy Policy", "Information We Collect", "Cookies"), 1),  # bold at body size: one level below
        (("Acme Privacy Policy", "How We Share Information"), 2),
        (("Acme Privacy Policy", "Data Retention"), 2),
        (("Acme Privacy Policy", "Your Choices"), 3),
        (("Acme Privacy Policy", "Contact Us"), 3),
    ]
    policy = build_policy(document)
    pages = {s.text: (s.page, s.section) for s in policy.sentences}
    assert pages["We do not sell your personal information to anyone."] == (
        2, "Acme Privacy Policy > How We Share Information")
    assert pages["We keep your account data for 24 months after you close your account, and then we delete it."][0] == 2
    assert pages["Write to privacy@acme.example with any question about this policy."][0] == 3
    # the sentence broken by the page break is one sentence, cited on the page where it starts
    assert pages[" ".join(CARRY_OVER)] == (1, "Acme Privacy Policy > Information We Collect > Cookies")
    for sentence in policy.sentences:
        assert policy.text[sentence.start:sentence.end] == sentence.text


def test_running_headers_footers_and_page_numbers_are_dropped(tmp_path: Path):
    text = build_policy(load_document(one_column_policy(tmp_path / "acme.pdf"), max_bytes=10**6)).text
    assert HEADER not in text and "Page 1 of 3" not in text and "Page 3 of 3" not in text
    two_columns = build_policy(load_document(two_column_page(tmp_path / "two.pdf"), max_bytes=10**6)).text
    assert "- 1 -" not in two_columns


def test_a_block_spanning_a_page_break_knows_where_each_page_starts(tmp_path: Path):
    document = load_document(one_column_policy(tmp_path / "acme.pdf"), max_bytes=10**6)
    carried = next(b for b in document.blocks if b.text == " ".join(CARRY_OVER))
    second_half = len(CARRY_OVER[0]) + 1
    assert carried.pages == ((0, 1), (second_half, 2))
    assert carried.page_at(second_half - 1) == 1 and carried.page_at(second_half) == 2


def test_two_columns_are_read_column_by_column(tmp_path: Path):
    document = load_document(two_column_page(tmp_path / "two.pdf"), max_bytes=10**6)
    assert [(b.text, b.is_heading) for b in document.blocks] == [
        ("Two Column Notice", True),
        ("Left Topics", True),
        (("Alpha sentence one starts the left column and it runs over several lines of the narrow column. "
         "Alpha sentence two continues the same paragraph in the left column."), False),
        ("Alpha sentence three is a second paragraph that still belongs to the left column.", False),
        ("Right Topics", True),
        (("Omega sentence one starts the right column and it also runs over several lines of its column. "
         "Omega sentence two ends the first paragraph of the right column."), False),
        ("Omega sentence three closes the right column.", False),
        ("This closing sentence spans the whole width of the page below both columns.", False),
    ]
    sections = {b.text: b.section_path for b in document.blocks}
    assert sections["Omega sentence three closes the right column."] == ("Two Column Notice", "Right Topics")


def test_a_scanned_pdf_has_no_text_layer(tmp_path: Path):
    path = image_only_pdf(tmp_path / "scan.pdf")
    with pytest.raises(InputFileError) as caught:
        load_document(path, max_bytes=10**6)
    assert str(caught.value) == (f"Cannot ingest policy file {path}: this PDF has no text layer (it is probably "
                                 "scanned); OCR is not supported.")


def test_an_image_only_page_among_text_pages_adds_nothing(tmp_path: Path):
    document = load_document(image_only_pdf(tmp_path / "mixed.pdf", after_text_page=True), max_bytes=10**6)
    assert document.title == "Acme Privacy Policy"
    assert {b.page_at(0) for b in document.blocks} == {1}
    assert len(build_policy(document).sentences) == 3


def test_an_encrypted_pdf_is_refused(tmp_path: Path):
    path = encrypted_pdf(tmp_path / "locked.pdf")
    with pytest.raises(InputFileError, match=r"this PDF is encrypted \(it needs a password\)"):
        load_document(path, max_bytes=10**6)


def test_a_broken_pdf_is_refused_and_pdfs_are_sniffed(tmp_path: Path):
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"%PDF-1.4\nthis is not really a PDF\n")
    with pytest.raises(InputFileError, match=r"broken\.pdf: it is not a readable PDF \("):
        load_document(broken, max_bytes=10**6)
    unnamed = tmp_path / "download"  # no suffix: the %PDF- signature decides
    unnamed.write_bytes(one_column_policy(tmp_path / "acme.pdf").read_bytes())
    assert load_document(unnamed, max_bytes=10**6).title == "Acme Privacy Policy"
    with pytest.raises(InputFileError, match="the file is larger than the 100-byte limit"):
        load_document(unnamed, max_bytes=100)


def test_fetched_bytes_take_the_same_path_and_errors_name_the_url(tmp_path: Path):
    raw = image_only_pdf(tmp_path / "scan.pdf").read_bytes()
    with pytest.raises(InputFileError, match=r"^Cannot ingest policy https://example\.com/scan\.pdf: this PDF has no "
                                             r"text layer"):
        parse_bytes(raw, "pdf", "https://example.com/scan.pdf")


def test_an_ingested_pdf_answers_with_its_page(assistant, tmp_path: Path):
    from rich.console import Console

    from assistant.frontends.render import render_answer

    result = assistant.ingest(str(one_column_policy(tmp_path / "acme.pdf")))
    assert result.version.name == "acme" and result.version.version == 1
    answer = assistant.ask("How long do you keep my account data?", policy="acme")
    best = answer.to_dict()["evidence"][0]
    assert best["text"].startswith("We keep your account data for 24 months") and best["page"] == 2
    citation = f"§ Acme Privacy Policy › Data Retention, sentence {best['sentence_id']}, p. 2"
    assert answer.evidence[0].citation() == citation
    console = Console(width=200, record=True)
    console.print(render_answer(answer))
    assert ", p. 2  (score" in console.export_text()
