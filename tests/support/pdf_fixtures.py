"""Small PDFs written with reportlab for the PDF tests: what each page shows is known exactly.

    .venv/bin/python -m tests.support.pdf_fixtures OUT_DIR   # writes them, to look at them

Fonts: headings in Helvetica-Bold 18 / 13, a bold run-in heading at body size, body text in Helvetica 10.
Every page has a running header and a footer with its page number, which the parser must drop.
"""
from __future__ import annotations

import sys
from pathlib import Path

from PIL import Image, ImageDraw  # reportlab's own dependency
from reportlab.lib.pagesizes import A4
from reportlab.lib.utils import ImageReader, simpleSplit
from reportlab.pdfgen.canvas import Canvas

WIDTH, HEIGHT = A4
MARGIN = 72
BODY = ("Helvetica", 10)
LEADING = 13
HEADER = "Acme Corp - Privacy Policy"

# One list of (kind, text) per page; kind is title | heading | subheading | body.
POLICY_PAGES: list[list[tuple[str, str]]] = [
    [
        ("title", "Acme Privacy Policy"),
        ("body", ("This policy explains how Acme Corp handles personal information when you use the Acme "
                  "app and website.")),
        ("heading", "Information We Collect"),
        ("body", "We collect your name, email address and phone number when you create an account."),
        ("subheading", "Cookies"),
        ("body", "We use cookies to remember your preferences and to measure how our website is used."),
    ],
    [
        ("heading", "How We Share Information"),
        ("body", "We do not sell your personal information to anyone."),
        ("body", "We share your email address with our payment processor only to complete purchases."),
        ("heading", "Data Retention"),
        ("body", "We keep your account data for 24 months after you close your account, and then we delete it."),
    ],
    [
        ("heading", "Your Choices"),
        ("body", "You can delete your account at any time from the settings page of the app."),
        ("heading", "Contact Us"),
        ("body", "Write to privacy@acme.example with any question about this policy."),
    ],
]

# A sentence split by the page break: its first half ends page 1, its second half starts page 2.
CARRY_OVER = ("We also collect the model of your device and", "the version of its operating system to fix crashes.")

LEFT_COLUMN = [
    ("heading", "Left Topics"),
    ("body", ("Alpha sentence one starts the left column and it runs over several lines of the narrow column. "
             "Alpha sentence two continues the same paragraph in the left column.")),
    ("body", "Alpha sentence three is a second paragraph that still belongs to the left column."),
]
RIGHT_COLUMN = [
    ("heading", "Right Topics"),
    ("body", ("Omega sentence one starts the right column and it also runs over several lines of its column. "
             "Omega sentence two ends the first paragraph of the right column.")),
    ("body", "Omega sentence three closes the right column."),
]

_STYLES = {"title": ("Helvetica-Bold", 18), "heading": ("Helvetica-Bold", 13),
           "subheading": ("Helvetica-Bold", 10), "body": BODY}


def _frame(canvas: Canvas, page: int, pages: int) -> None:
    """The running header and footer on every page."""
    canvas.setFont("Helvetica", 8)
    canvas.drawString(MARGIN, HEIGHT - 40, HEADER)
    canvas.drawRightString(WIDTH - MARGIN, 30, f"Page {page} of {pages}")


def _flow(canvas: Canvas, items: list[tuple[str, str]], x: float, y: float, width: float) -> float:
    """Draw headings and wrapped paragraphs from `y` down; returns where the next one would start."""
    for kind, text in items:
        font, size = _STYLES[kind]
        canvas.setFont(font, size)
        if kind != "body":
            y -= 8
        for line in simpleSplit(text, font, size, width):
            canvas.drawString(x, y, line)
            y -= max(LEADING, size + 4)
        y -= 6
    return y


def one_column_policy(path: Path) -> Path:
    """Three pages, one column: a title, headings, a bold run-in heading, and a sentence that starts
    at the bottom of page 1 and ends at the top of page 2."""
    canvas = Canvas(str(path), pagesize=A4)
    canvas.setTitle("Acme Privacy Policy")
    pages = len(POLICY_PAGES)
    for number, items in enumerate(POLICY_PAGES, start=1):
        _frame(canvas, number, pages)
        top = HEIGHT - 90
        if number == 2:
            canvas.setFont(*BODY)
            canvas.drawString(MARGIN, top, CARRY_OVER[1])
            top -= LEADING + 6
        y = _flow(canvas, items, MARGIN, top, WIDTH - 2 * MARGIN)
        if number == 1:
            canvas.setFont(*BODY)
            canvas.drawString(MARGIN, y, CARRY_OVER[0])
        canvas.showPage()
    canvas.save()
    return path


def two_column_page(path: Path) -> Path:
    """One page: a title across the page, two columns (left read first), a closing line across, and
    a bare page number at the foot."""
    canvas = Canvas(str(path), pagesize=A4)
    canvas.setFont("Helvetica", 9)
    canvas.drawCentredString(WIDTH / 2, 30, "- 1 -")  # a bare page number
    y = _flow(canvas, [("title", "Two Column Notice")], MARGIN, HEIGHT - 90, WIDTH - 2 * MARGIN)
    column = (WIDTH - 2 * MARGIN - 24) / 2
    left_end = _flow(canvas, LEFT_COLUMN, MARGIN, y, column)
    right_end = _flow(canvas, RIGHT_COLUMN, MARGIN + column + 24, y, column)
    _flow(canvas, [("body", "This closing sentence spans the whole width of the page below both columns.")],
          MARGIN, min(left_end, right_end) - 10, WIDTH - 2 * MARGIN)
    canvas.showPage()
    canvas.save()
    return path


def image_only_pdf(path: Path, after_text_page: bool = False) -> Path:
    """A page holding only a picture of text (as a scanner makes it): no text layer. With
    `after_text_page`, it is page 2 and page 1 is the first page of the policy."""
    picture = Image.new("RGB", (400, 120), "white")
    ImageDraw.Draw(picture).text((10, 50), "We collect your email address.", fill="black")
    canvas = Canvas(str(path), pagesize=A4)
    if after_text_page:
        _flow(canvas, POLICY_PAGES[0], MARGIN, HEIGHT - 90, WIDTH - 2 * MARGIN)
        canvas.showPage()
    canvas.drawImage(ImageReader(picture), MARGIN, HEIGHT - 300, width=400, height=120)
    canvas.showPage()
    canvas.save()
    return path


def encrypted_pdf(path: Path) -> Path:
    """A policy page that opens only with a password."""
    canvas = Canvas(str(path), pagesize=A4, encrypt="secret")
    _flow(canvas, POLICY_PAGES[0], MARGIN, HEIGHT - 90, WIDTH - 2 * MARGIN)
    canvas.showPage()
    canvas.save()
    return path


if __name__ == "__main__":
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    for make in (one_column_policy, two_column_page, image_only_pdf, encrypted_pdf):
        print(make(out / f"{make.__name__}.pdf"))
