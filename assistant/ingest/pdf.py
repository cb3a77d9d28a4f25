"""Read a PDF's text layer as lines in reading order, with their page, font size and weight.

pdfplumber (on pdfminer.six) gives every word with its position, font name and size. Words become
rows; a page whose rows leave a clear vertical gutter in the middle is read column by column
(rows that cross the gutter, such as a title, are read where they stand). Running headers and
footers (the same line in the top or bottom margin of most pages) and bare page numbers are
dropped. Turning lines into headings and paragraphs is `assistant.ingest.parsing.parse_pdf`'s job.
"""
from __future__ import annotations

import io
import math
import re
from collections import Counter
from dataclasses import dataclass, replace

import pdfplumber
from pdfminer.pdfdocument import PDFEncryptionError
from pdfminer.pdfparser import PDFSyntaxError
from pdfminer.psparser import PSException
from pdfplumber.utils.exceptions import PdfminerException

NO_TEXT_LAYER = "this PDF has no text layer (it is probably scanned); OCR is not supported"

_MARGIN_SHARE = 0.1  # the top and bottom tenth of a page hold running headers and footers
_GUTTER_RANGE = (0.3, 0.7)  # where a two-column page's gutter may lie, as shares of the width
_MIN_GUTTER = 6.0  # points
_MAX_CROSSING_SHARE = 0.2  # rows that may cross the gutter (titles, full-width lines)
_MIN_COLUMN_ROWS = 3
_PAGE_NUMBER = re.compile(
    r"(?:page\s+)?[-–—]?\s*(?:\d{1,4}|[ivxlc]{1,7})\s*[-–—]?(?:\s*(?:of|/)\s*\d{1,4})?", re.IGNORECASE
)
_WORD_GAP = 0.15  # letters closer than this many font sizes belong to one word
_BOLD_LINE = 0.8  # a line is bold when this share of its characters is
_FILE_NAME = re.compile(r"\.(?:docx?|pdf|odt|rtf)$", re.IGNORECASE)  # "Microsoft Word - policy.docx"
_BOLD_FONT = re.compile(r"bold|black|heavy|semibold|demi", re.IGNORECASE)


class PdfError(Exception):
    """The PDF cannot be read; the message is the reason, to finish 'Cannot ingest … : '."""


@dataclass(frozen=True)
class PdfLine:
    """One line of text as printed: its page (1-based), position, and font size and weight."""

    text: str
    page: int
    top: float
    bottom: float
    size: float  # the median font size of its characters, in points
    bold: bool  # every word is set in a bold face
    column_start: bool  # the first line of a page or of a column (its gap to the line above means nothing)


@dataclass(frozen=True)
class PdfLayout:
    title: str | None  # the document information's title, when it names something
    lines: list[PdfLine]  # in reading order

    @property
    def body_size(self) -> float:
        """The font size most characters are set in."""
        sizes = Counter[float]()
        for line in self.lines:
            sizes[round(line.size * 2) / 2] += len(line.text)
        return sizes.most_common(1)[0][0] if sizes else 0.0


def read_pdf(raw: bytes) -> PdfLayout:
    """The lines of a PDF in reading order, without running headers, footers and page numbers."""
    try:
        with pdfplumber.open(io.BytesIO(raw)) as pdf:
            pages = [_page_lines(page, number) for number, page in enumerate(pdf.pages, start=1)]
            has_images = any(page.images for page in pdf.pages)
            title = _metadata_title(pdf.metadata)
    except PdfminerException as exc:
        cause = exc.args[0] if exc.args else exc
        if isinstance(cause, PDFEncryptionError):
            raise PdfError("this PDF is encrypted (it needs a password); save a copy without one and ingest that") \
                from None
        raise PdfError(f"it is not a readable PDF ({_describe(cause)})") from None
    except (PDFSyntaxError, PSException, ValueError, KeyError, TypeError) as exc:
        raise PdfError(f"it is not a readable PDF ({_describe(exc)})") from None
    if not pages:
        raise PdfError("the PDF has no pages")
    if not any(line.text.strip() for lines in pages for line in lines):
        raise PdfError(NO_TEXT_LAYER if has_images else "the PDF contains no text")
    return PdfLayout(title, _drop_running_lines(pages))


def _describe(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__


def _metadata_title(metadata: dict) -> str | None:
    title = metadata.get("Title")
    if isinstance(title, bytes):
        title = title.decode("utf-8", "replace")
    title = " ".join(str(title or "").split())
    if not title or title.lower() in ("untitled", "title") or _FILE_NAME.search(title):
        return None
    return title


# --------------------------------------------------------------------------- one page


@dataclass(frozen=True)
class _Word:
    text: str
    x0: float
    x1: float
    top: float
    bottom: float
    size: float
    bold: bool


def _page_lines(page: pdfplumber.page.Page, number: int) -> list[_PageLine]:
    words = [
        _Word(w["text"], w["x0"], w["x1"], w["top"], w["bottom"], float(w["size"]),
              _BOLD_FONT.search(w["fontname"]) is not None)
        for w in page.extract_words(extra_attrs=["fontname", "size"], x_tolerance_ratio=_WORD_GAP)
    ]
    rows = _rows(words)
    gutter = _gutter(rows, float(page.width))
    ordered = _reading_order(rows, gutter) if gutter is not None else [(row, i == 0) for i, row in enumerate(rows)]
    return [_PageLine(_line(row, number, start), float(page.height)) for row, start in ordered]


@dataclass(frozen=True)
class _PageLine:
    line: PdfLine
    page_height: float

    @property
    def text(self) -> str:
        return self.line.text

    @property
    def in_margin(self) -> bool:
        band = self.page_height * _MARGIN_SHARE
        return self.line.bottom < band or self.line.top > self.page_height - band


def _rows(words: list[_Word]) -> list[list[_Word]]:
    """Words grouped into rows (same baseline within a third of the font size), top to bottom, left to right."""
    rows: list[list[_Word]] = []
    for word in sorted(words, key=lambda w: (w.top, w.x0)):
        if rows and abs(word.bottom - rows[-1][0].bottom) <= max(2.0, rows[-1][0].size / 3):
            rows[-1].append(word)
        else:
            rows.append([word])
    return [sorted(row, key=lambda w: w.x0) for row in rows]


def _gutter(rows: list[list[_Word]], width: float) -> float | None:
    """The x of a two-column page's gutter, or None when the page is not set in two columns."""
    if len(rows) < 2 * _MIN_COLUMN_ROWS:
        return None
    low, high = (int(width * share) for share in _GUTTER_RANGE)
    crossing = [0] * (high - low)
    for row in rows:
        covered = set()
        for word in row:
            covered.update(range(max(low, math.ceil(word.x0)), min(high, math.floor(word.x1) + 1)))
        for x in covered:
            crossing[x - low] += 1
    allowed = _MAX_CROSSING_SHARE * len(rows)
    run_start, best = None, (0, 0)  # the longest run of x that few enough rows cross
    for index, count in enumerate([*crossing, math.inf]):
        if count <= allowed and run_start is None:
            run_start = index
        elif count > allowed and run_start is not None:
            best = max(best, (index - run_start, run_start))
            run_start = None
    length, start = best
    x = low + start + length / 2
    left = sum(any(w.x1 <= x for w in row) and all(w.x1 <= x or w.x0 >= x for w in row) for row in rows)
    right = sum(any(w.x0 >= x for w in row) and all(w.x1 <= x or w.x0 >= x for w in row) for row in rows)
    if length >= _MIN_GUTTER and left >= _MIN_COLUMN_ROWS and right >= _MIN_COLUMN_ROWS:
        return x
    return None


def _reading_order(rows: list[list[_Word]], gutter: float) -> list[tuple[list[_Word], bool]]:
    """Rows of a two-column page in reading order, each with whether it starts a column.

    Between two rows that cross the gutter, the left column is read, then the right one."""
    ordered: list[tuple[list[_Word], bool]] = []
    left: list[list[_Word]] = []
    right: list[list[_Word]] = []

    def flush() -> None:
        for column in (left, right):
            ordered.extend((row, i == 0) for i, row in enumerate(column))
            column.clear()

    for row in rows:
        on_left = [w for w in row if w.x1 <= gutter]
        on_right = [w for w in row if w.x0 >= gutter]
        narrow_gap = on_left and on_right and on_right[0].x0 - on_left[-1].x1 < max(_MIN_GUTTER, row[0].size)
        if len(on_left) + len(on_right) < len(row) or narrow_gap:  # across the page
            flush()
            ordered.append((row, True))
            continue
        if on_left:
            left.append(on_left)
        if on_right:
            right.append(on_right)
    flush()
    return ordered


def _line(words: list[_Word], page: int, column_start: bool) -> PdfLine:
    """A row of words as a line; its size and weight are those of most of its characters."""
    sizes = Counter[float]()
    for word in words:
        sizes[round(word.size * 2) / 2] += len(word.text)
    bold = sum(len(w.text) for w in words if w.bold)
    return PdfLine(
        text=" ".join(w.text for w in words),
        page=page,
        top=min(w.top for w in words),
        bottom=max(w.bottom for w in words),
        size=sizes.most_common(1)[0][0],
        bold=bold >= _BOLD_LINE * sum(sizes.values()),
        column_start=column_start,
    )


# --------------------------------------------------------------------------- all pages


def _drop_running_lines(pages: list[list[_PageLine]]) -> list[PdfLine]:
    """All pages' lines, less bare page numbers and the lines repeated in the margins of most pages."""
    def key(line: _PageLine) -> str:
        return re.sub(r"\d+", "#", " ".join(line.text.lower().split()))

    seen_on = Counter(k for lines in pages for k in {key(line) for line in lines if line.in_margin})
    repeated = max(2, math.ceil(len(pages) / 2))
    kept: list[PdfLine] = []
    for lines in pages:
        page_start = True
        for line in lines:
            if line.in_margin and (_PAGE_NUMBER.fullmatch(line.text.strip()) or seen_on[key(line)] >= repeated):
                continue
            kept.append(replace(line.line, column_start=True) if page_start else line.line)
            page_start = False
    return kept
