"""Turn a policy (HTML, Markdown, plain text or PDF; a file or fetched bytes) into a structured `Document`.

The entry points: `load_document` (a file), `parse_upload` (an uploaded file's bytes) and `parse_bytes`
(a fetched page's). Reading the bytes and the kind is `reading`'s job, the web page's content
`html_content`'s; the plain-text and PDF parsers live here, on the headings of `outline`.
"""
from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from markdown_it import MarkdownIt

from assistant.foundation.errors import IngestLimitError
from assistant.foundation.limits import DEFAULT_MAX_HTML_DEPTH
from assistant.foundation.types import Block, Document
from assistant.ingest.html_content import parse_page
from assistant.ingest.nesting import measure_nesting
from assistant.ingest.outline import BULLET, ENUMERATOR, Outline, collapse, is_pseudo_heading, text_heading_level
from assistant.ingest.pdf import PdfError, PdfLine, read_pdf
from assistant.ingest.reading import decode, input_error, kind_of, looks_like_html, read_bytes

# --------------------------------------------------------------------------- loading


def load_document(path: Path, max_bytes: int, max_html_depth: int = DEFAULT_MAX_HTML_DEPTH) -> Document:
    """Validate a policy file and parse it according to its suffix (or content)."""
    raw = read_bytes(path, max_bytes)
    return parse_bytes(raw, kind_of(path), path, max_html_depth)


def parse_upload(raw: bytes, filename: str, max_bytes: int, max_html_depth: int = DEFAULT_MAX_HTML_DEPTH) -> Document:
    """Check and parse an uploaded file's bytes; `filename` (see `upload_name`) gives its kind, as a suffix does."""
    shown = Path(filename)
    if len(raw) > max_bytes:
        raise input_error(shown, f"the file is larger than the server's {max_bytes}-byte limit (ASSISTANT_MAX_BYTES)")
    if not raw:
        raise input_error(shown, "the file is empty (0 bytes)")
    return parse_bytes(raw, kind_of(shown), shown, max_html_depth)


def upload_name(filename: str) -> str:
    """The last component of an uploaded file's name as the client sent it (either kind of slash), or "upload"."""
    name = filename.replace("\\", "/").rsplit("/", 1)[-1].strip()
    return name if name not in ("", ".", "..") else "upload"


def parse_bytes(raw: bytes, kind: str, source: Path | str, max_html_depth: int = DEFAULT_MAX_HTML_DEPTH) -> Document:
    """Parse a policy's bytes as `kind` (see `reading.kind_of`; a fetched page's comes from its content type).

    `source` (a path or a URL) names the policy in errors.
    """
    if kind == "pdf" or (kind == "auto" and raw.startswith(b"%PDF-")):
        try:
            document = parse_pdf(raw)
        except PdfError as exc:
            raise input_error(source, str(exc)) from None
    else:
        text = decode(raw, source)
        if not text.strip():
            raise input_error(source, "the file is empty (it contains only whitespace)")
        try:
            if kind == "html" or (kind == "auto" and looks_like_html(text)):
                document = parse_html(text, max_html_depth)
            elif kind == "markdown":
                document = parse_markdown(text, max_html_depth)
            else:
                document = parse_text(text)
        except HtmlNestingError as error:
            raise HtmlNestingError(input_error(source, error.reason).args[0], error.reason) from None
    if not document.blocks:
        raise input_error(source, "no visible text was found after removing markup, scripts and navigation")
    return document


class HtmlNestingError(IngestLimitError):
    """The HTML nests (or misnests) its elements too deeply to parse in reasonable time."""

    def __init__(self, message: str, reason: str) -> None:
        super().__init__(message)
        self.reason = reason


# --------------------------------------------------------------------------- HTML

# Reopening misnested formatting elements (<b id=1>...<b id=500> then <p>x</p> many times) creates
# elements without tags: more than this many beyond the number of tags is refused as misnested.
_MAX_REOPENED = 10_000


def parse_html(html: str, max_depth: int = DEFAULT_MAX_HTML_DEPTH) -> Document:
    """Parse a web page's main content into blocks with section paths, with its loss check
    (`Document.extraction`); never fetches or runs anything.

    Refuses (`HtmlNestingError`), before parsing, HTML that nests elements deeper than `max_depth`
    or misnests formatting elements so that the parser would recreate them without end: building
    such a tree takes time that grows with the square of the input.
    """
    _check_nesting(html, max_depth)
    return parse_page(html)


def _check_nesting(html: str, max_depth: int) -> None:
    nesting = measure_nesting(html, max_depth=max_depth, max_reopened=_MAX_REOPENED)
    if nesting.depth > max_depth:
        reason = (f"its HTML nests elements more than {max_depth} levels deep (raise the limit with the "
                  "ASSISTANT_MAX_HTML_DEPTH environment variable)")
    elif nesting.reopened > _MAX_REOPENED + nesting.tags:
        reason = (f"its HTML leaves formatting tags open so that a parser would recreate over {_MAX_REOPENED} "
                  "elements that are not in the file")
    else:
        return
    raise HtmlNestingError(f"Cannot parse this HTML: {reason}.", reason)


# --------------------------------------------------------------------------- Markdown


_FRONT_MATTER = re.compile(r"\A\ufeff?(?:---|\+\+\+)[ \t]*\r?\n.*?\r?\n(?:---|\+\+\+|\.\.\.)[ \t]*(?:\r?\n|\Z)", re.DOTALL)


def parse_markdown(text: str, max_html_depth: int = DEFAULT_MAX_HTML_DEPTH) -> Document:
    """Render CommonMark (plus tables) to HTML and parse that; YAML (or TOML) front matter is left out."""
    return parse_html(MarkdownIt("commonmark").enable("table").render(_FRONT_MATTER.sub("", text, count=1)),
                      max_html_depth)


# --------------------------------------------------------------------------- plain text


def parse_text(text: str) -> Document:
    """Parse plain text: blank-line paragraphs, bullet/enumerator items, heuristic headings."""
    outline = Outline()
    blocks: list[Block] = []
    for paragraph in _paragraphs(text):
        level = text_heading_level(paragraph[0]) if len(paragraph) == 1 else None
        if level is not None:
            outline.open(level, paragraph[0])
            blocks.append(Block(collapse(paragraph[0]), outline.path, is_heading=True))
            continue
        blocks.extend(Block(item, outline.path) for item in _items(paragraph) if item)
    return Document(title=None, blocks=blocks)


def _paragraphs(text: str) -> Iterator[list[str]]:
    """Groups of consecutive non-blank lines."""
    paragraph: list[str] = []
    for line in text.splitlines():
        if line.strip():
            paragraph.append(line)
        elif paragraph:
            yield paragraph
            paragraph = []
    if paragraph:
        yield paragraph


def _items(lines: list[str]) -> Iterator[str]:
    """Split a paragraph into blocks at lines that start with a bullet or an enumerator."""
    current: list[str] = []
    for line in lines:
        stripped = line.strip()
        bullet = BULLET.match(stripped)
        if (bullet or ENUMERATOR.match(stripped)) and current:
            yield collapse(" ".join(current))
            current = []
        current.append(stripped[bullet.end():] if bullet else stripped)
    if current:
        yield collapse(" ".join(current))


# --------------------------------------------------------------------------- PDF

_PDF_HEADING_SCALE = 1.15  # a line set this much larger than the body text is a heading
_PDF_HEADING_MAX = 200
_PDF_PARAGRAPH_GAP = 0.6  # a gap above a line of more than this many font sizes starts a paragraph
_TERMINAL = re.compile(r"[.!?:;][\"'”’)\]]*$")


def parse_pdf(raw: bytes) -> Document:
    """Parse a PDF's text layer: larger or bold lines become headings (levels by size), the rest
    paragraphs that remember the page each part is printed on (`Block.pages`)."""
    layout = read_pdf(raw)
    body = layout.body_size
    levels = {size: level for level, size in enumerate(sorted(
        {_size(line) for line in layout.lines if _size(line) >= body * _PDF_HEADING_SCALE}, reverse=True), start=1)}
    outline = Outline()
    blocks: list[Block] = []
    first_heading: str | None = None
    for lines in _pdf_paragraphs(layout.lines):
        text, pages = _join_lines(lines)
        level = levels.get(_size(lines[0]))
        if level is not None and len(text) <= _PDF_HEADING_MAX and any(ch.isalpha() for ch in text):
            outline.open(level, text)
            first_heading = first_heading or text
            blocks.append(Block(text, outline.path, is_heading=True, pages=pages))
        elif lines[0].bold and is_pseudo_heading(text):
            outline.open_pseudo(text)
            blocks.append(Block(text, outline.path, is_heading=True, pages=pages))
        elif text:
            blocks.append(Block(text, outline.path, pages=pages))
    return Document(title=layout.title or first_heading, blocks=blocks)


def _size(line: PdfLine) -> float:
    return round(line.size * 2) / 2


def _pdf_paragraphs(lines: list[PdfLine]) -> Iterator[list[PdfLine]]:
    """Consecutive lines of one style, without a paragraph gap or a bullet between them; a paragraph
    goes on across a page or column break while its text has not ended a sentence."""
    paragraph: list[PdfLine] = []
    for line in lines:
        if paragraph and _starts_paragraph(paragraph, line):
            yield paragraph
            paragraph = []
        paragraph.append(line)
    if paragraph:
        yield paragraph


def _starts_paragraph(paragraph: list[PdfLine], line: PdfLine) -> bool:
    last = paragraph[-1]
    if _size(line) != _size(last) or line.bold != last.bold:
        return True
    if BULLET.match(line.text) or ENUMERATOR.match(line.text):
        return True
    if line.column_start:
        return _TERMINAL.search(last.text) is not None
    return line.top - last.bottom > _PDF_PARAGRAPH_GAP * line.size


def _join_lines(lines: list[PdfLine]) -> tuple[str, tuple[tuple[int, int], ...]]:
    """The lines as one text (a word broken by a hyphen at a line end joined again), and the offset
    where each page's part of it starts."""
    text = ""
    pages: list[tuple[int, int]] = []
    for line in lines:
        piece = collapse(line.text)
        if not piece:
            continue
        if text and not text.endswith("-"):
            text += " "
        if not pages or pages[-1][1] != line.page:
            pages.append((len(text), line.page))
        text += piece
    return text, tuple(pages)
