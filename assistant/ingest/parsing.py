"""Turn a policy file (HTML, Markdown or plain text) into a structured `Document`."""
from __future__ import annotations

import codecs
import re
import stat
from collections.abc import Iterator
from pathlib import Path

from markdown_it import MarkdownIt
from selectolax.lexbor import LexborHTMLParser, LexborNode

from assistant.foundation.errors import IngestLimitError, InputFileError
from assistant.foundation.limits import DEFAULT_MAX_HTML_DEPTH
from assistant.foundation.text import CONTROL_CHARACTERS
from assistant.foundation.types import Block, Document
from assistant.ingest.nesting import measure_nesting

HTML_SUFFIXES = frozenset({".html", ".htm", ".xhtml"})
MARKDOWN_SUFFIXES = frozenset({".md", ".markdown"})
TEXT_SUFFIXES = frozenset({".txt", ".text"})

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
_HIDDEN_STYLE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.IGNORECASE)
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
    text = _decode(raw, path)
    if not text.strip():
        raise _input_error(path, "the file is empty (it contains only whitespace)")
    suffix = path.suffix.lower()
    try:
        if suffix in HTML_SUFFIXES or (suffix not in MARKDOWN_SUFFIXES | TEXT_SUFFIXES and _looks_like_html(text)):
            document = parse_html(text, max_html_depth)
        elif suffix in MARKDOWN_SUFFIXES:
            document = parse_markdown(text, max_html_depth)
        else:
            document = parse_text(text)
    except HtmlNestingError as error:
        raise HtmlNestingError(_input_error(path, error.reason).args[0], error.reason) from None
    if not document.blocks:
        raise _input_error(path, "no visible text was found after removing markup, scripts and navigation")
    return document


def _input_error(path: Path, reason: str) -> InputFileError:
    shown = re.sub(r"[\x00-\x1f\x7f-\x9f]", "?", str(path))
    return InputFileError(f"Cannot ingest policy file {shown}: {reason}.")


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
        self._pseudo: str | None = None

    @property
    def path(self) -> tuple[str, ...]:
        names = tuple(name for _, name in self._headings)
        return (*names, self._pseudo) if self._pseudo else names

    def open(self, level: int, heading: str) -> None:
        """Open a heading of `level`, closing any at that level or deeper."""
        while self._headings and self._headings[-1][0] >= level:
            self._headings.pop()
        self._headings.append((level, _section_name(heading)))
        self._pseudo = None

    def open_pseudo(self, heading: str) -> None:
        """Open a pseudo-heading one level below the deepest real heading."""
        self._pseudo = _section_name(heading)


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
    """Parse HTML best-effort into blocks with section paths; never fetches or runs anything.

    Refuses (`HtmlNestingError`), before parsing, HTML that nests elements deeper than `max_depth`
    or misnests formatting elements so that the parser would recreate them without end: building
    such a tree takes time that grows with the square of the input.
    """
    _check_nesting(html, max_depth)
    tree = LexborHTMLParser(html)
    builder = _HtmlBlocks()
    root = tree.root
    if root is not None:
        for event, node in _walk(root, atoms=_HEADING_TAGS):
            builder.handle(event, node)
    builder.flush()
    return Document(title=_html_title(tree) or builder.first_h1, blocks=builder.blocks)


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


def _html_title(tree: LexborHTMLParser) -> str | None:
    node = tree.css_first("title")
    if node is None:
        return None
    return _collapse(node.text(deep=True)) or None


def _is_hidden(node: LexborNode) -> bool:
    attrs = node.attributes
    return (
        "hidden" in attrs
        or (attrs.get("aria-hidden") or "").strip().lower() == "true"
        or (attrs.get("role") or "").strip().lower() == "navigation"
        or _HIDDEN_STYLE.search(attrs.get("style") or "") is not None
    )


def _walk(root: LexborNode, atoms: frozenset[str] = frozenset()) -> Iterator[tuple[str, LexborNode]]:
    """Yield ('text'|'enter'|'leave'|'atom', node) events below `root`, skipping invisible subtrees.

    Elements whose tag is in `atoms` are reported once as 'atom' and not descended into.
    Iterative, so deeply nested (malformed) markup cannot exhaust the recursion limit.
    """
    stack: list[tuple[LexborNode, bool]] = [(child, False) for child in reversed(list(root.iter(include_text=True)))]
    while stack:
        node, leaving = stack.pop()
        tag = node.tag or ""
        if leaving:
            yield "leave", node
        elif tag == "-text":
            yield "text", node
        elif tag.startswith(("-", "#", "_")) or tag in _DROP_TAGS or _is_hidden(node):
            continue
        elif tag in atoms:
            yield "atom", node
        else:
            yield "enter", node
            stack.append((node, True))
            stack.extend((child, False) for child in reversed(list(node.iter(include_text=True))))


def _heading_text(node: LexborNode) -> str:
    """Visible text of an element on one line: <br>, block elements and '|||' become spaces."""
    parts: list[str] = []
    for event, child in _walk(node):
        if event == "text":
            parts.append(child.text(deep=False))
        elif child.tag in _BLOCK_TAGS:
            parts.append(" ")
    return _collapse(_SEGMENT_SEPARATOR.sub(" ", "".join(parts)))


class _HtmlBlocks:
    """Accumulates inline text into blocks, breaking at block elements, <br> and '|||'."""

    def __init__(self) -> None:
        self.blocks: list[Block] = []
        self.first_h1: str | None = None
        self._outline = _Outline()
        self._parts: list[tuple[str, bool]] = []  # (text, inside bold)
        self._bold_depth = 0
        self._item_depth = 0

    def handle(self, event: str, node: LexborNode) -> None:
        tag = node.tag or ""
        if event == "text":
            self._add_text(node.text(deep=False))
        elif event == "atom":
            text = _heading_text(node)
            if tag == "h1" and self.first_h1 is None:
                self.first_h1 = text or None
            self._heading(_HEADING_LEVELS[tag], text)
        else:
            step = 1 if event == "enter" else -1
            if tag in _BLOCK_TAGS:
                self.flush()
            self._bold_depth += step * (tag in _BOLD_TAGS)
            self._item_depth += step * (tag in _ITEM_TAGS)

    def _add_text(self, text: str) -> None:
        for index, piece in enumerate(_SEGMENT_SEPARATOR.split(text)):
            if index:
                self.flush()
            self._parts.append((piece, self._bold_depth > 0))

    def _heading(self, level: int, text: str) -> None:
        self.flush()
        if text:
            self._outline.open(level, text)
            self.blocks.append(Block(text, self._outline.path, is_heading=True))

    def flush(self) -> None:
        """Close the current block, deciding whether it is a pseudo-heading."""
        text = _collapse("".join(part for part, _ in self._parts))
        all_bold = all(bold for part, bold in self._parts if part.strip())
        self._parts = []
        if not text:
            return
        if self._item_depth == 0 and (_is_pseudo_heading(text) if all_bold else _is_plain_heading(text)):
            self._outline.open_pseudo(text)
            self.blocks.append(Block(text, self._outline.path, is_heading=True))
        else:
            self.blocks.append(Block(text, self._outline.path))


# --------------------------------------------------------------------------- Markdown


def parse_markdown(text: str, max_html_depth: int = DEFAULT_MAX_HTML_DEPTH) -> Document:
    """Render CommonMark (plus tables) to HTML and parse that."""
    return parse_html(MarkdownIt("commonmark").enable("table").render(text), max_html_depth)


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
