"""Turn a policy (HTML, Markdown, plain text or PDF; a file or fetched bytes) into a structured `Document`."""
from __future__ import annotations

import codecs
import re
import stat
from collections.abc import Iterator
from pathlib import Path

from markdown_it import MarkdownIt

from assistant.foundation.errors import IngestLimitError, InputFileError
from assistant.foundation.limits import DEFAULT_MAX_HTML_DEPTH
from assistant.foundation.text import CONTROL_CHARACTERS
from assistant.foundation.types import Block, Document
from assistant.ingest.nesting import measure_nesting
from assistant.ingest.pdf import PdfError, PdfLine, read_pdf

HTML_SUFFIXES = frozenset({".html", ".htm", ".xhtml"})
MARKDOWN_SUFFIXES = frozenset({".md", ".markdown"})
TEXT_SUFFIXES = frozenset({".txt", ".text"})
PDF_SUFFIXES = frozenset({".pdf"})

_SNIFF_BYTES = 8192
_MAX_CONTROL_SHARE = 0.05
_PSEUDO_HEADING_MAX = 120
_TEXT_HEADING_MAX = 80

_DROP_TAGS = frozenset({
    "head", "title", "script", "style", "noscript", "template", "iframe", "object", "embed",
    "svg", "canvas", "nav", "button", "select", "option", "optgroup", "datalist", "input",
    "textarea", "meter", "progress", "audio", "video", "map", "math",
})
_BLOCK_TAGS = frozenset({
    "html", "body", "p", "div", "br", "hr", "li", "ul", "ol", "dl", "dt", "dd", "table",
    "thead", "tbody", "tfoot", "tr", "td", "th", "caption", "blockquote", "pre", "address",
    "section", "article", "aside", "header", "footer", "main", "figure", "figcaption",
    "details", "summary", "form", "fieldset", "legend", "center",
})
_HEADING_LEVELS = {f"h{n}": n for n in range(1, 7)}
_HEADING_TAGS = frozenset(_HEADING_LEVELS)
_BOLD_TAGS = frozenset({"strong", "b", "u"})
# Bold text inside these is content (a list entry, a table cell), never a pseudo-heading.
_ITEM_TAGS = frozenset({"li", "td", "th", "dt", "dd", "caption"})

_SEGMENT_SEPARATOR = re.compile(r"\|{3,}")  # OPP-115 joins segments with "|||"
# Invisible characters are dropped; control characters (raw or from entities such as &#27;) become spaces.
_CLEAN = dict.fromkeys(map(ord, "\u00ad\u200b\u200c\u200d\u2060\ufeff")) | dict.fromkeys(map(ord, CONTROL_CHARACTERS), " ")
# Reopening misnested formatting elements (<b id=1>...<b id=500> then <p>x</p> many times) creates
# elements without tags: more than this many beyond the number of tags is refused as misnested.
_MAX_REOPENED = 10_000
_ESCAPED_BYTE = re.compile("[\udc80-\udcff]")  # a byte that is not UTF-8, as surrogateescape decodes it
_META_CHARSET = re.compile(rb"<meta[^>]*?charset\s*=\s*[\"']?\s*([A-Za-z0-9_.:-]+)", re.IGNORECASE)
_HTML_SNIFF = re.compile(
    r"<(?:!doctype\s+html|html|head|body|meta|title|p|div|br|span|table|ul|ol|li|h[1-6]|strong|b|a)\b",
    re.IGNORECASE,
)
_SECTION_NUMBER = re.compile(r"(?:(?:section|article|part)\s+)?(\d+(?:\.\d+)*)\.?(?=\s|$)", re.IGNORECASE)
_BULLET = re.compile(r"[-*•·‣◦▪]\s+")
_ENUMERATOR = re.compile(r"(?:\d{1,3}\.|\(?(?:\d{1,3}|[A-Za-z]|[ivxlcIVXLC]{1,6})\))\s+")
_SMALL_WORDS = frozenset(
    "a an the and or nor but of in on at to for by with from as via vs per into onto upon about".split()
)


# --------------------------------------------------------------------------- loading


def load_document(path: Path, max_bytes: int, max_html_depth: int = DEFAULT_MAX_HTML_DEPTH) -> Document:
    """Validate a policy file and parse it according to its suffix (or content)."""
    raw = _read_bytes(path, max_bytes)
    return parse_bytes(raw, kind_of(path), path, max_html_depth)


def parse_upload(raw: bytes, filename: str, max_bytes: int, max_html_depth: int = DEFAULT_MAX_HTML_DEPTH) -> Document:
    """Check and parse an uploaded file's bytes; `filename` (see `upload_name`) gives its kind, as a suffix does."""
    shown = Path(filename)
    if len(raw) > max_bytes:
        raise _input_error(shown, f"the file is larger than the server's {max_bytes}-byte limit (ASSISTANT_MAX_BYTES)")
    if not raw:
        raise _input_error(shown, "the file is empty (0 bytes)")
    return parse_bytes(raw, kind_of(shown), shown, max_html_depth)


def upload_name(filename: str) -> str:
    """The last component of an uploaded file's name as the client sent it (either kind of slash), or "upload"."""
    name = filename.replace("\\", "/").rsplit("/", 1)[-1].strip()
    return name if name not in ("", ".", "..") else "upload"


def kind_of(path: Path) -> str:
    """The parser a file's suffix asks for: html, markdown, text, pdf, or auto (sniffed from the content)."""
    suffix = path.suffix.lower()
    for kind, suffixes in (("html", HTML_SUFFIXES), ("markdown", MARKDOWN_SUFFIXES), ("text", TEXT_SUFFIXES),
                           ("pdf", PDF_SUFFIXES)):
        if suffix in suffixes:
            return kind
    return "auto"


def parse_bytes(raw: bytes, kind: str, source: Path | str, max_html_depth: int = DEFAULT_MAX_HTML_DEPTH) -> Document:
    """Parse a policy's bytes as `kind` (see `kind_of`; a fetched page's comes from its content type).

    `source` (a path or a URL) names the policy in errors.
    """
    if kind == "pdf" or (kind == "auto" and raw.startswith(b"%PDF-")):
        try:
            document = parse_pdf(raw)
        except PdfError as exc:
            raise _input_error(source, str(exc)) from None
    else:
        text = _decode(raw, source)
        if not text.strip():
            raise _input_error(source, "the file is empty (it contains only whitespace)")
        try:
            if kind == "html" or (kind == "auto" and _looks_like_html(text)):
                document = parse_html(text, max_html_depth)
            elif kind == "markdown":
                document = parse_markdown(text, max_html_depth)
            else:
                document = parse_text(text)
        except HtmlNestingError as error:
            raise HtmlNestingError(_input_error(source, error.reason).args[0], error.reason) from None
    if not document.blocks:
        raise _input_error(source, "no visible text was found after removing markup, scripts and navigation")
    return document


def _input_error(path: Path | str, reason: str) -> InputFileError:
    shown = re.sub(r"[\x00-\x1f\x7f-\x9f]", "?", str(path))
    what = "policy file" if isinstance(path, Path) else "policy"
    return InputFileError(f"Cannot ingest {what} {shown}: {reason}.")


class HtmlNestingError(IngestLimitError):
    """The HTML nests (or misnests) its elements too deeply to parse in reasonable time."""

    def __init__(self, message: str, reason: str) -> None:
        super().__init__(message)
        self.reason = reason


def _read_bytes(path: Path, max_bytes: int) -> bytes:
    """Return the file's bytes after checking that it is a non-empty regular file within the limit,
    and not a symbolic link that leads out of its own folder (e.g. to /etc/passwd)."""
    if path.is_symlink():
        target, folder = path.resolve(), path.parent.resolve()
        if not target.is_relative_to(folder):
            raise _input_error(path, "it is a symbolic link to a file outside its folder; "
                                     "copy the policy into the folder to ingest it")
        path = target
    try:
        info = path.stat()
    except (FileNotFoundError, NotADirectoryError):
        raise _input_error(path, "the file does not exist") from None
    except OSError as exc:
        raise _input_error(path, f"cannot access it ({exc.strerror or exc})") from None
    if stat.S_ISDIR(info.st_mode):
        raise _input_error(path, "it is a directory, not a file")
    if not stat.S_ISREG(info.st_mode):
        raise _input_error(path, "it is not a regular file")
    if info.st_size > max_bytes:
        raise _too_large(path, max_bytes)
    if info.st_size == 0:
        raise _input_error(path, "the file is empty (0 bytes)")
    try:
        with path.open("rb") as handle:
            raw = handle.read(max_bytes + 1)
    except OSError as exc:
        raise _input_error(path, f"cannot read it ({exc.strerror or exc})") from None
    if len(raw) > max_bytes:
        raise _too_large(path, max_bytes)
    return raw


def _too_large(path: Path, max_bytes: int) -> InputFileError:
    return _input_error(
        path,
        f"the file is larger than the {max_bytes}-byte limit "
        "(raise it with --max-size or the ASSISTANT_MAX_BYTES environment variable)",
    )


def _decode(raw: bytes, path: Path) -> str:
    """Decode bytes as UTF-16 (with its BOM) or by `_decode_8bit`; refuse binary files."""
    if raw.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            text = raw.decode("utf-16")
        except UnicodeDecodeError:
            raise _input_error(path, "it has a UTF-16 byte-order mark but cannot be decoded as UTF-16") from None
    elif b"\x00" in raw[:_SNIFF_BYTES]:
        raise _input_error(path, "it looks like a binary file (contains NUL bytes), not a text policy")
    else:
        text = _decode_8bit(raw)
    if _control_share(text[:_SNIFF_BYTES]) > _MAX_CONTROL_SHARE:
        raise _input_error(path, "it looks like a binary file (too many control characters), not a text policy")
    return text


def _decode_8bit(raw: bytes) -> str:
    """UTF-8, keeping every valid sequence and marking each invalid byte as U+FFFD, unless the file is
    clearly not UTF-8: no byte-order mark, and either no valid multi-byte sequence at all or more
    invalid bytes than valid multi-byte sequences. Such a file is decoded with its declared <meta>
    charset (if it names a legacy one), else cp1252, as browsers do; undecodable bytes become U+FFFD."""
    text = raw.decode("utf-8-sig", errors="surrogateescape")  # an invalid byte -> one lone surrogate
    invalid = len(_ESCAPED_BYTE.findall(text))
    if not invalid:
        return text
    valid_multibyte = len(text) - len(text.encode("ascii", errors="ignore")) - invalid
    if raw.startswith(codecs.BOM_UTF8) or 0 < invalid <= valid_multibyte:
        return _ESCAPED_BYTE.sub("\ufffd", text)
    match = _META_CHARSET.search(raw[:_SNIFF_BYTES])
    declared = match.group(1).decode("ascii").lower() if match else ""
    if declared and not declared.startswith(("utf-8", "utf8", "utf-16", "utf-32")):  # (as browsers do)
        try:
            return raw.decode(declared, errors="replace")
        except LookupError:
            pass
    return raw.decode("cp1252", errors="replace")


def _control_share(text: str) -> float:
    controls = sum(1 for ch in text if _is_control(ch))
    return controls / max(len(text), 1)


def _is_control(ch: str) -> bool:
    code = ord(ch)
    return (code < 32 and ch not in "\t\n\r\f\v") or 0x7F <= code <= 0x9F


def _looks_like_html(text: str) -> bool:
    return _HTML_SNIFF.search(text[:2048]) is not None


# --------------------------------------------------------------------------- outline


def _collapse(text: str) -> str:
    """Collapse whitespace runs to single spaces, drop invisible and control characters, and strip."""
    return " ".join(text.translate(_CLEAN).split())


def _section_name(heading: str) -> str:
    """Heading text as a section path entry: collapsed whitespace, trailing ':' removed."""
    return re.sub(r"[\s:]+$", "", _collapse(heading))


class _Outline:
    """The stack of headings in force: real headings by level plus at most one pseudo-heading."""

    def __init__(self) -> None:
        self._headings: list[tuple[int, str]] = []
        self.pseudo: str | None = None

    @property
    def path(self) -> tuple[str, ...]:
        names = tuple(name for _, name in self._headings)
        return (*names, self.pseudo) if self.pseudo else names

    def open(self, level: int, heading: str) -> None:
        """Open a heading of `level`, closing any at that level or deeper."""
        while self._headings and self._headings[-1][0] >= level:
            self._headings.pop()
        self._headings.append((level, _section_name(heading)))
        self.pseudo = None

    def open_pseudo(self, heading: str) -> None:
        """Open a pseudo-heading one level below the deepest real heading."""
        self.pseudo = _section_name(heading)


_PLAIN_HEADING_MAX = 80
_PLAIN_HEADING_WORDS = 10


def _is_title_case(text: str) -> bool:
    words = [w.lstrip("\"'“‘(") for w in text.split()]
    words = [w for w in words if w and w[0].isalpha()]
    significant = [w for w in words if w.lower() not in _SMALL_WORDS]
    return bool(significant) and words[0][0].isupper() and all(w[0].isupper() for w in significant)


def _is_all_caps(text: str) -> bool:
    return sum(ch.isalpha() for ch in text) >= 2 and text.upper() == text


def _looks_like_title(text: str) -> bool:
    """ALL CAPS, Title Case, or starting with a section number."""
    return _is_all_caps(text) or _is_title_case(text) or _SECTION_NUMBER.match(text) is not None


def _is_pseudo_heading(text: str) -> bool:
    """Short bold text that does not read as a sentence (a final '.' is tolerated on titles)."""
    if len(text) > _PSEUDO_HEADING_MAX or not any(ch.isalpha() for ch in text):
        return False
    return not text.endswith(".") or _looks_like_title(text)


def _is_plain_heading(text: str) -> bool:
    """A short line on its own that reads as a title, not a sentence ("Use of Cookies")."""
    return (
        len(text) <= _PLAIN_HEADING_MAX
        and len(text.split()) <= _PLAIN_HEADING_WORDS
        and text[-1] not in ".,;:"
        and any(ch.isalpha() for ch in text)
        and _looks_like_title(text)
    )


# --------------------------------------------------------------------------- HTML


def parse_html(html: str, max_depth: int = DEFAULT_MAX_HTML_DEPTH) -> Document:
    """Parse a web page's main content into blocks with section paths, with its loss check
    (`Document.extraction`); never fetches or runs anything.

    Refuses (`HtmlNestingError`), before parsing, HTML that nests elements deeper than `max_depth`
    or misnests formatting elements so that the parser would recreate them without end: building
    such a tree takes time that grows with the square of the input.
    """
    from assistant.ingest.html_content import parse_page  # it builds on this module's outline helpers

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
    outline = _Outline()
    blocks: list[Block] = []
    for paragraph in _paragraphs(text):
        level = _text_heading_level(paragraph[0]) if len(paragraph) == 1 else None
        if level is not None:
            outline.open(level, paragraph[0])
            blocks.append(Block(_collapse(paragraph[0]), outline.path, is_heading=True))
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
        bullet = _BULLET.match(stripped)
        if (bullet or _ENUMERATOR.match(stripped)) and current:
            yield _collapse(" ".join(current))
            current = []
        current.append(stripped[bullet.end():] if bullet else stripped)
    if current:
        yield _collapse(" ".join(current))


def _text_heading_level(line: str) -> int | None:
    """Heading level of a lone short line, or None when it does not look like a heading."""
    text = _collapse(line)
    if not text or len(text) > _TEXT_HEADING_MAX or text[-1] in ".;," or not any(ch.isalpha() for ch in text):
        return None
    number = _SECTION_NUMBER.match(text)
    if number:
        return number.group(1).count(".") + 1
    if _BULLET.match(text) or _ENUMERATOR.match(text):
        return None
    return 1 if _is_all_caps(text) or _is_title_case(text) else None


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
    outline = _Outline()
    blocks: list[Block] = []
    first_heading: str | None = None
    for lines in _pdf_paragraphs(layout.lines):
        text, pages = _join_lines(lines)
        level = levels.get(_size(lines[0]))
        if level is not None and len(text) <= _PDF_HEADING_MAX and any(ch.isalpha() for ch in text):
            outline.open(level, text)
            first_heading = first_heading or text
            blocks.append(Block(text, outline.path, is_heading=True, pages=pages))
        elif lines[0].bold and _is_pseudo_heading(text):
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
    if _BULLET.match(line.text) or _ENUMERATOR.match(line.text):
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
        piece = _collapse(line.text)
        if not piece:
            continue
        if text and not text.endswith("-"):
            text += " "
        if not pages or pages[-1][1] != line.page:
            pages.append((len(text), line.page))
        text += piece
    return text, tuple(pages)
