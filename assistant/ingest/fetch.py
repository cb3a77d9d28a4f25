"""Fetch a policy page over HTTP(S): bounded in time, size and redirects; no cookies, no JavaScript; public
addresses only unless the user allows private ones.

The only module that touches the network. It returns the bytes and what they are (`FetchedPage`);
parsing them is `assistant.ingest.parsing.parse_bytes`'s job, the same path files take. Every connection
goes through `_GuardedNetwork`: it resolves the host itself, refuses a loopback, private or otherwise
non-public address, connects to the address it checked, and gives every connect, read and write only the
time left before the fetch's one deadline.
"""
from __future__ import annotations

import ipaddress
import re
import socket
import time
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit, urlunsplit

from assistant.foundation.errors import FetchError

if TYPE_CHECKING:
    import ssl

    import httpcore2
    import httpx2 as httpx

USER_AGENT = "privacy-assistant/0.1 (reads one privacy policy on request)"
MAX_REDIRECTS = 5
DEFAULT_TIMEOUT = 30.0  # seconds for the whole fetch
CONNECT_TIMEOUT = 10.0
_CHUNK_BYTES = 64 * 1024
_URL_LIKE = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://")
_HOST = re.compile(r"^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,24}$", re.IGNORECASE)
_FILE_SUFFIXES = frozenset({"html", "htm", "md", "txt", "pdf", "markdown", "text"})  # "policy.html" is no site
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
# IPv6 addresses that carry an IPv4 one in their last 32 bits (besides the mapped and 6to4 ones).
_NAT64 = ipaddress.ip_network("64:ff9b::/96")
_IPV4_COMPATIBLE = ipaddress.ip_network("::/96")
PRIVATE_HINT = "allow it with --allow-private (or ASSISTANT_ALLOW_PRIVATE=1)"


@dataclass(frozen=True)
class FetchLimits:
    """How long and how large a fetch may be, and where it may go. `total_timeout` is one deadline for the
    whole fetch: connections, redirects, headers and body; `allow_private` lets it reach loopback and private
    addresses."""

    max_bytes: int
    connect_timeout: float = CONNECT_TIMEOUT
    total_timeout: float = DEFAULT_TIMEOUT
    max_redirects: int = MAX_REDIRECTS
    allow_private: bool = False


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


def site_url(source: str) -> str | None:
    """The home page of a site written without a scheme ("duolingo.com", "www.duolingo.com/en"), or None when
    `source` does not read as one (a file name such as "policy.html" does not)."""
    host, _, path = source.strip().partition("/")
    if not _HOST.match(host) or host.rsplit(".", 1)[1].lower() in _FILE_SUFFIXES:
        return None
    return urlunsplit(("https", host.lower(), "/" + path, "", ""))


def fetch(url: str, limits: FetchLimits) -> FetchedPage:
    """GET `url` and return its body; every failure is a one-line `FetchError` naming the URL."""
    import httpx2 as httpx  # ~15 ms with http.client and http.cookiejar: only when a page is fetched, not
    # for every command that imports the engine

    _check_url(url)
    deadline = time.monotonic() + limits.total_timeout
    try:
        with _client(limits, deadline) as client, client.stream("GET", url) as response:
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
    except _RefusedAddress as refused:
        raise _error(url, _refusal_reason(url, refused)) from None
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


def is_public_address(address: str) -> bool:
    """Whether an IP address is on the public internet: not loopback, private (RFC 1918, fc00::/7), link-local
    (169.254/16 with the cloud metadata address, fe80::/10), unspecified, multicast, shared or reserved, nor an
    IPv6 form (mapped, 6to4, NAT64, compatible) of such an IPv4 address."""
    ip = ipaddress.ip_address(address.split("%", 1)[0])  # an IPv6 scope ("fe80::1%eth0") is not part of it
    if isinstance(ip, ipaddress.IPv6Address):
        embedded = ip.ipv4_mapped or ip.sixtofour
        if embedded is None and (ip in _NAT64 or ip in _IPV4_COMPATIBLE):
            embedded = ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
        if embedded is not None and not is_public_address(str(embedded)):
            return False
        if ip.is_site_local:  # fec0::/10, deprecated but still routed on some networks
            return False
    return ip.is_global and not ip.is_multicast


def _client(limits: FetchLimits, deadline: float) -> httpx.Client:
    """A client that sends a plain User-Agent, keeps no cookies, reads no proxy or .netrc settings and connects
    only through `_GuardedNetwork`."""
    from http.cookiejar import CookieJar, DefaultCookiePolicy  # see `fetch`

    import httpx2 as httpx  # see `fetch`

    return httpx.Client(
        transport=_transport(_GuardedNetwork(deadline, limits.allow_private)),
        follow_redirects=True,
        max_redirects=limits.max_redirects,
        timeout=httpx.Timeout(limits.total_timeout, connect=limits.connect_timeout),
        headers={"User-Agent": USER_AGENT, "Accept": ", ".join([*CONTENT_KINDS, "*/*;q=0.1"])},
        cookies=CookieJar(policy=DefaultCookiePolicy(allowed_domains=[])),  # no domain may set or get one
        trust_env=False,
    )


def _transport(network: _GuardedNetwork) -> httpx.HTTPTransport:
    """httpx2's own transport on a connection pool whose connections `network` makes."""
    import httpcore2  # see `fetch`
    import httpx2 as httpx  # see `fetch`

    ssl_context = httpx.create_ssl_context(trust_env=False)
    transport = httpx.HTTPTransport(verify=ssl_context, trust_env=False)
    # httpx2 takes no network backend; its pool (pinned httpcore2) does: swap the transport's for one that has it
    transport._pool = httpcore2.ConnectionPool(ssl_context=ssl_context, network_backend=network)
    return transport


class _RefusedAddress(Exception):
    """A connection not made: `host` is, or resolves to, `address`, which is not a public one."""

    def __init__(self, host: str, address: str) -> None:
        super().__init__(f"{host} is at {address}, not a public address")
        self.host = host
        self.address = address


class _GuardedNetwork:
    """httpcore2's network backend for one fetch: it resolves each host itself, refuses an address that is not
    public (unless `allow_private`), connects to the very address it checked (a second DNS answer cannot differ),
    and hands out connections whose every operation ends by `deadline` (`time.monotonic()`)."""

    def __init__(self, deadline: float, allow_private: bool) -> None:
        import httpcore2  # see `fetch`

        self.deadline = deadline
        self.allow_private = allow_private
        self._backend = httpcore2.SyncBackend()

    def connect_tcp(self, host: str, port: int, timeout: float | None = None, local_address: str | None = None,
                    socket_options: Iterable[Any] | None = None) -> _DeadlineStream:
        """A connection to the first of `host`'s checked addresses that answers (as `socket.create_connection`)."""
        import httpcore2  # see `fetch`

        failure: Exception | None = None
        for address in self.addresses(host, port):
            try:
                stream = self._backend.connect_tcp(address, port, _time_left(self.deadline, timeout, "connect"),
                                                   local_address, socket_options)
            except (httpcore2.ConnectError, httpcore2.ConnectTimeout) as exc:  # then the next address
                failure = exc
                continue
            return _DeadlineStream(stream, self.deadline)
        raise failure or httpcore2.ConnectError(f"{host} has no address")

    def addresses(self, host: str, port: int) -> list[str]:
        """`host`'s addresses; all of them must be public unless private ones are allowed (`_RefusedAddress`)."""
        import httpcore2  # see `fetch`

        _time_left(self.deadline, None, "connect")
        try:  # (the system resolver keeps its own time-out: a lookup cannot be cut short)
            found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        except OSError as exc:  # socket.gaierror: `_transport_reason` names it
            raise httpcore2.ConnectError(str(exc)) from exc
        addresses = list(dict.fromkeys(str(sockaddr[0]) for *_, sockaddr in found))
        if not self.allow_private:
            for address in addresses:
                if not is_public_address(address):
                    raise _RefusedAddress(host, address.split("%", 1)[0])
        return addresses


class _DeadlineStream:
    """A connection whose every read, write and TLS handshake gets at most the time left before the deadline,
    so a server sending a few bytes at a time cannot keep the fetch running past it."""

    def __init__(self, stream: httpcore2.NetworkStream, deadline: float) -> None:
        self._stream = stream
        self._deadline = deadline

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return self._stream.read(max_bytes, _time_left(self._deadline, timeout, "read"))

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self._stream.write(buffer, _time_left(self._deadline, timeout, "write"))

    def close(self) -> None:
        self._stream.close()

    def start_tls(self, ssl_context: ssl.SSLContext, server_hostname: str | None = None,
                  timeout: float | None = None) -> _DeadlineStream:
        stream = self._stream.start_tls(ssl_context, server_hostname, _time_left(self._deadline, timeout, "connect"))
        return _DeadlineStream(stream, self._deadline)

    def get_extra_info(self, info: str) -> Any:
        return self._stream.get_extra_info(info)


def _time_left(deadline: float, timeout: float | None, operation: str) -> float:
    """The seconds one network operation may take: `timeout`, cut to what is left before `deadline`; none
    left is httpcore2's time-out of that operation (connect, read or write)."""
    import httpcore2  # see `fetch`

    left = deadline - time.monotonic()
    if left <= 0:
        errors = {"connect": httpcore2.ConnectTimeout, "read": httpcore2.ReadTimeout, "write": httpcore2.WriteTimeout}
        raise errors[operation]("the fetch's time is up")
    return left if timeout is None else min(timeout, left)


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
    """The (decoded) body, stopped as soon as it passes `max_bytes` or the deadline (each read already ends by
    it; this also counts the time spent decoding)."""
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


def _refusal_reason(url: str, refused: _RefusedAddress) -> str:
    """Why a URL (or a page it redirects to) was not fetched: its address is not public."""
    import httpx2 as httpx  # see `fetch`

    own_host = httpx.URL(url).raw_host.decode("ascii")  # the host as the connection pool names it
    where = "its address" if refused.host == own_host else f"it redirects to {refused.host}, whose address"
    return f"{where} {refused.address} is on this machine or a private network; {PRIVATE_HINT}"


def _timed_out(url: str, limits: FetchLimits) -> FetchError:
    return _error(url, f"the server did not answer in time (time-out: {limits.connect_timeout:g} s to connect, "
                       f"{limits.total_timeout:g} s in all; raise it with --timeout)")


def _too_large(url: str, max_bytes: int) -> FetchError:
    return _error(url, f"the page is larger than the {max_bytes}-byte limit "
                       "(raise it with --max-size or the ASSISTANT_MAX_BYTES environment variable)")


def _error(url: str, reason: str) -> FetchError:
    shown = re.sub(r"[\x00-\x1f\x7f]", "?", url)
    return FetchError(f"Cannot fetch {shown}: {reason}.")
