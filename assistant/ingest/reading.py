"""Reading a policy's bytes: the file checks, the text's encoding, and the document's kind.

The parsers (`assistant.ingest.parsing`) take the decoded text and the kind from here; every refusal is
an `InputFileError` that names the policy (`input_error`).
"""
from __future__ import annotations

import codecs
import errno
import re
import stat
from pathlib import Path

from assistant.foundation.errors import InputFileError

HTML_SUFFIXES = frozenset({".html", ".htm", ".xhtml"})
MARKDOWN_SUFFIXES = frozenset({".md", ".markdown"})
TEXT_SUFFIXES = frozenset({".txt", ".text"})
PDF_SUFFIXES = frozenset({".pdf"})

_SNIFF_BYTES = 8192
_MAX_CONTROL_SHARE = 0.05
_ESCAPED_BYTE = re.compile("[\udc80-\udcff]")  # a byte that is not UTF-8, as surrogateescape decodes it
_META_CHARSET = re.compile(rb"<meta[^>]*?charset\s*=\s*[\"']?\s*([A-Za-z0-9_.:-]+)", re.IGNORECASE)
_HTML_SNIFF = re.compile(
    r"<(?:!doctype\s+html|html|head|body|meta|title|p|div|br|span|table|ul|ol|li|h[1-6]|strong|b|a)\b",
    re.IGNORECASE,
)


def kind_of(path: Path) -> str:
    """The parser a file's suffix asks for: html, markdown, text, pdf, or auto (sniffed from the content)."""
    suffix = path.suffix.lower()
    for kind, suffixes in (("html", HTML_SUFFIXES), ("markdown", MARKDOWN_SUFFIXES), ("text", TEXT_SUFFIXES),
                           ("pdf", PDF_SUFFIXES)):
        if suffix in suffixes:
            return kind
    return "auto"


def looks_like_html(text: str) -> bool:
    """Whether text of no declared kind starts the way a web page does."""
    return _HTML_SNIFF.search(text[:2048]) is not None


def input_error(path: Path | str, reason: str) -> InputFileError:
    """The refusal of a policy file (a `Path`) or a fetched policy (a URL), control characters shown as '?'."""
    what = "policy file" if isinstance(path, Path) else "policy"
    return InputFileError(f"Cannot ingest {what} {_shown(path)}: {reason}.")


def _shown(path: Path | str) -> str:
    return re.sub(r"[\x00-\x1f\x7f-\x9f]", "?", str(path))


def read_bytes(path: Path, max_bytes: int) -> bytes:
    """Return the bytes of the file `path` really names (`real_file`) after checking that it is a
    non-empty regular file within the limit."""
    real = real_file(path)
    try:
        info = real.stat()
    except (FileNotFoundError, NotADirectoryError):
        raise input_error(path, "the file does not exist") from None
    except OSError as exc:
        raise input_error(path, f"cannot access it ({exc.strerror or exc})") from None
    if stat.S_ISDIR(info.st_mode):
        raise input_error(path, "it is a directory, not a file")
    if not stat.S_ISREG(info.st_mode):
        raise input_error(path, "it is not a regular file")
    if info.st_size > max_bytes:
        raise _too_large(path, max_bytes)
    if info.st_size == 0:
        raise input_error(path, "the file is empty (0 bytes)")
    try:
        with real.open("rb") as handle:
            raw = handle.read(max_bytes + 1)
    except OSError as exc:
        raise input_error(path, f"cannot read it ({exc.strerror or exc})") from None
    if len(raw) > max_bytes:
        raise _too_large(path, max_bytes)
    return raw


def real_file(path: Path) -> Path:
    """The file `path` names with every symbolic link on it followed, once none of them leads out of the
    folder that holds it: a link put in a folder of policies, as the file or as a folder on its way, must
    not make ingest read (and quote back) a file elsewhere, such as /etc/passwd. Given by its real path, the
    same file is read. The links on the home folder's own path (a home moved to another disk) are followed;
    links at the top, such as macOS's /tmp -> private/tmp, lead inside "/" anyway."""
    absolute = path.absolute()
    try:
        real = absolute.resolve(strict=True)
    except (FileNotFoundError, NotADirectoryError):
        raise input_error(path, "the file does not exist") from None
    except (RuntimeError, OSError) as exc:  # a loop: RuntimeError up to Python 3.12, then OSError (ELOOP)
        loop = isinstance(exc, RuntimeError) or exc.errno == errno.ELOOP
        reason = "its path has a loop of symbolic links" if loop else f"cannot access it ({exc.strerror or exc})"
        raise input_error(path, reason) from None
    home = _home_folders()
    for part in (*reversed(absolute.parents), absolute):
        if part in home or not part.is_symlink():
            continue
        target = part.resolve()
        if target.is_relative_to(part.parent.resolve()):
            continue
        if part == absolute:
            raise input_error(path, f"it is a symbolic link to a file outside its folder ({_shown(real)}); "
                                    "copy the policy into the folder, or give that path, to ingest it")
        raise input_error(path, f"its folder {_shown(part)} is a symbolic link to {_shown(target)}, outside the "
                                f"folder that holds it, so the file is really {_shown(real)}; give that path to "
                                "ingest it")
    return real


def _home_folders() -> set[Path]:
    """The user's home folder and the folders above it, as named (their links are the system's layout)."""
    try:
        home = Path.home().absolute()
    except RuntimeError:  # no home folder known
        return set()
    return {home, *home.parents}


def _too_large(path: Path, max_bytes: int) -> InputFileError:
    return input_error(
        path,
        f"the file is larger than the {max_bytes}-byte limit "
        "(raise it with --max-size or the ASSISTANT_MAX_BYTES environment variable)",
    )


def decode(raw: bytes, path: Path | str) -> str:
    """Decode bytes as UTF-16 (with its BOM) or by `_decode_8bit`; refuse binary files."""
    if raw.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            text = raw.decode("utf-16")
        except UnicodeDecodeError:
            raise input_error(path, "it has a UTF-16 byte-order mark but cannot be decoded as UTF-16") from None
    elif b"\x00" in raw[:_SNIFF_BYTES]:
        raise input_error(path, "it looks like a binary file (contains NUL bytes), not a text policy")
    else:
        text = _decode_8bit(raw)
    if _control_share(text[:_SNIFF_BYTES]) > _MAX_CONTROL_SHARE:
        raise input_error(path, "it looks like a binary file (too many control characters), not a text policy")
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
