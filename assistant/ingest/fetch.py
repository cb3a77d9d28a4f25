"""Fetch a policy page over HTTP(S): bounded in time, size and redirects; no cookies, no JavaScript.

The only module that touches the network. It returns the bytes and what they are (`FetchedPage`);
parsing them is `assistant.ingest.parsing.parse_bytes`'s job, the same path files take.
"""
from __future__ import annotations

import re
import socket
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from assistant.foundation.errors import FetchError

if TYPE_CHECKING:
    import httpx2 as httpx

USER_AGENT = "privacy-assistant/0.1 (reads one privacy policy on request)"
MAX_REDIRECTS = 5
DEFAULT_TIMEOUT = 30.0  # seconds for the whole fetch
CONNECT_TIMEOUT = 10.0
_CHUNK_BYTES = 64 * 1024
_URL_LIKE = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://")
# Media type → the parser's kind (`assistant.ingest.parsing.parse_bytes`).
CONTENT_KINDS = {
    "text/html": "html",
    "application/xhtml+xml": "html",
    "application/pdf": "pdf",
    "text/plain": "text",
    "text/markdown": "markdown",
    "text/x-markdown": "markdown",
}
# Served for PDFs by some sites: accepted only when the body is a PDF.
_GENERIC_TYPES = frozenset({"", "application/octet-stream", "binary/octet-stream", "application/x-pdf"})


@dataclass(frozen=True)
class FetchLimits:
    """How long and how large a fetch may be (`total_timeout` covers redirects and the whole body)."""

    max_bytes: int
    connect_timeout: float = CONNECT_TIMEOUT
    total_timeout: float = DEFAULT_TIMEOUT
    max_redirects: int = MAX_REDIRECTS


@dataclass(frozen=True)
class FetchedPage:
    """A fetched policy: its bytes, the parser kind its content type maps to, and where it came from."""

    content: bytes
    content_type: str  # the media type, lower case, without parameters ("text/html")
    kind: str  # html | pdf | text | markdown
    url: str  # the final URL, after redirects
    requested_url: str  # the URL asked for
    fetched_at: str  # ISO 8601, UTC


def looks_like_url(source: str) -> bool:
    """Whether `source` is written as a URL (`scheme://...`) rather than a file path."""
    return _URL_LIKE.match(source) is not None


def default_name(url: str) -> str:
    """The policy name for a URL when none is given: its host without a leading "www."."""
    return (urlsplit(url).hostname or "").removeprefix("www.")


def fetch(url: str, limits: FetchLimits) -> FetchedPage:
    """GET `url` and return its body; every failure is a one-line `FetchError` naming the URL."""
    import httpx2 as httpx  # ~15 ms with http.client and http.cookiejar: only when a page is fetched, not
    # for every command that imports the engine

    _check_url(url)
    deadline = time.monotonic() + limits.total_timeout
    try:
        with _client(limits) as client, client.stream("GET", url) as response:
            final = str(response.url)
            _check_status(url, response)
            content_type = _media_type(response.headers.get("content-type", ""))
            if content_type not in CONTENT_KINDS and content_type not in _GENERIC_TYPES:
                raise _error(url, f"its content type is {content_type}, not a policy page "
                                  "(HTML, PDF, plain text or Markdown)")
            declared = response.headers.get("content-length", "")
            if declared.isdigit() and int(declared) > limits.max_bytes:
                raise _too_large(url, limits.max_bytes)
            content = _read_body(url, response, limits, deadline)
    except httpx.TooManyRedirects:
        raise _error(url, f"it redirects more than {limits.max_redirects} times") from None
    except httpx.UnsupportedProtocol:
        raise _error(url, "it redirects to a URL that is not http or https") from None
    except httpx.TimeoutException:
        raise _timed_out(url, limits) from None
    except httpx.InvalidURL as exc:
        raise _error(url, f"it is not a valid URL ({exc})") from None
    except httpx.TransportError as exc:
        raise _error(url, _transport_reason(exc)) from None
    if not content:
        raise _error(url, "the server sent an empty body")
    kind = CONTENT_KINDS.get(content_type) or ("pdf" if content.startswith(b"%PDF-") else None)
    if kind is None:
        raise _error(url, f"its content type is {content_type or 'missing'} and the body is not a PDF")
    fetched_at = datetime.now(UTC).isoformat(timespec="seconds")
    return FetchedPage(content, content_type or "application/pdf", kind, final, url, fetched_at)


def _client(limits: FetchLimits) -> httpx.Client:
    """A client that sends a plain User-Agent, keeps no cookies and reads no proxy or .netrc settings."""
    from http.cookiejar import CookieJar, DefaultCookiePolicy  # see `fetch`

    import httpx2 as httpx  # see `fetch`

    return httpx.Client(
        follow_redirects=True,
        max_redirects=limits.max_redirects,
        timeout=httpx.Timeout(limits.total_timeout, connect=limits.connect_timeout),
        headers={"User-Agent": USER_AGENT, "Accept": ", ".join([*CONTENT_KINDS, "*/*;q=0.1"])},
        cookies=CookieJar(policy=DefaultCookiePolicy(allowed_domains=[])),  # no domain may set or get one
        trust_env=False,
    )


def _check_url(url: str) -> None:
    """Refuse, before connecting, a URL that is malformed, has no host, or is not http(s)."""
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 (raises ValueError when out of range)
    except ValueError as exc:
        raise _error(url, f"it is not a valid URL ({exc})") from None
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https"):
        raise _error(url, f"only http and https URLs can be fetched, not {scheme or 'this'}")
    if not parts.hostname:
        raise _error(url, "it has no host name")


def _check_status(url: str, response: httpx.Response) -> None:
    if response.status_code >= 300:  # a redirect left unfollowed has no Location
        from http.client import responses  # see `fetch`

        reason = responses.get(response.status_code) or response.reason_phrase  # the standard phrase first
        raise _error(url, f"the server answered HTTP {response.status_code}" + (f" {reason}" if reason else ""))


def _media_type(header: str) -> str:
    return header.split(";", 1)[0].strip().lower()


def _read_body(url: str, response: httpx.Response, limits: FetchLimits, deadline: float) -> bytes:
    """The (decoded) body, stopped as soon as it passes `max_bytes` or the deadline."""
    chunks: list[bytes] = []
    size = 0
    for chunk in response.iter_bytes(_CHUNK_BYTES):
        size += len(chunk)
        if size > limits.max_bytes:
            raise _too_large(url, limits.max_bytes)
        if time.monotonic() > deadline:
            raise _timed_out(url, limits)
        chunks.append(chunk)
    return b"".join(chunks)


def _transport_reason(exc: httpx.TransportError) -> str:
    """The cause of a connection failure in words: DNS, refused, or the library's message."""
    cause: BaseException | None = exc
    while cause is not None:
        if isinstance(cause, socket.gaierror):
            return "its host name could not be resolved (DNS lookup failed)"
        if isinstance(cause, ConnectionRefusedError):
            return "the connection was refused (nothing is listening on that host and port)"
        cause = cause.__cause__ or cause.__context__
    detail = " ".join(str(exc).split()) or type(exc).__name__
    return f"the connection failed ({detail})"


def _timed_out(url: str, limits: FetchLimits) -> FetchError:
    return _error(url, f"the server did not answer in time (time-out: {limits.connect_timeout:g} s to connect, "
                       f"{limits.total_timeout:g} s in all; raise it with --timeout)")


def _too_large(url: str, max_bytes: int) -> FetchError:
    return _error(url, f"the page is larger than the {max_bytes}-byte limit "
                       "(raise it with --max-size or the ASSISTANT_MAX_BYTES environment variable)")


def _error(url: str, reason: str) -> FetchError:
    shown = re.sub(r"[\x00-\x1f\x7f]", "?", url)
    return FetchError(f"Cannot fetch {shown}: {reason}.")
