"""The name a fetched page is stored under when the user gives none, and never another document's name.

A page is named after its organisation as its title gives it ("Privacy Policy | Reddit" → "Reddit"), else after
its host; on a host many sites share (github.io, a help centre, a bare address such as 127.0.0.1) the host alone
names nobody, so the path is added. A name already stored is reused only for the same document — the same final
or requested URL — so a second page never silently becomes "version 2" of the first: it gets "NAME (2)". A name
the user gives (`--name`) is their word that it is the same document, and is taken as it is.
"""
from __future__ import annotations

import ipaddress
import re
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import unquote, urlsplit

# Hosts under which unrelated sites publish pages: the host does not name the organisation.
SHARED_HOST_SUFFIXES = (
    "github.io", "gitlab.io", "notion.site", "sites.google.com", "pages.dev", "netlify.app", "vercel.app",
    "herokuapp.com", "wordpress.com", "blogspot.com", "medium.com", "zendesk.com", "freshdesk.com",
    "helpscoutdocs.com", "intercom.help", "gitbook.io", "webflow.io", "wixsite.com", "squarespace.com",
    "termly.io", "iubenda.com", "privacypolicies.com", "app.termly.io", "docs.google.com", "localhost",
)
# Words a title uses for the document rather than for whose it is ("Global Privacy Notice").
_DOCUMENT_WORDS = frozenset("""
    privacy policy policies notice notices statement statements center centre hub legal terms of service services
    cookie cookies data protection our your the and for global website site app apps updated effective last en
    us usa uk eu international consumer customer customers user users information personal page home
""".split())
_TITLE_PARTS = re.compile(r"\s+[-–—:|·•»]\s+|\s*[|·•»]\s*")
_WORD = re.compile(r"[\w&'.+-]+")
MAX_DERIVED_CHARS = 60
MAX_SUFFIX = 99


@dataclass(frozen=True)
class PageName:
    """A name for a fetched page and how it was found: "title" or "host"."""

    name: str
    source: str


def name_for_page(title: str | None, url: str) -> PageName:
    """The organisation in `title` when it names one, else the host (plus the path on a shared host)."""
    host = (urlsplit(url).hostname or "").lower().removeprefix("www.")
    organisation = organisation_in_title(title or "", host)
    if organisation:
        return PageName(organisation, "title")
    if is_shared_host(host):
        path = unquote(urlsplit(url).path).strip("/")
        return PageName(f"{host}/{path}"[:MAX_DERIVED_CHARS].rstrip("/") if path else host, "host")
    return PageName(host, "host")


def organisation_in_title(title: str, host: str = "") -> str | None:
    """The part of a page title that names whose document it is, without the words for the document itself:
    "Privacy Policy | Reddit" → "Reddit", "Zillow Group Website Privacy Notice" → "Zillow Group". Of several
    parts, the one sharing a word with the host, else the shortest; None when only document words remain."""
    names = []
    for part in _TITLE_PARTS.split(" ".join(title.split())):
        words = [word for word in _WORD.findall(part) if word.lower().strip(".") not in _DOCUMENT_WORDS]
        name = " ".join(words).strip(" .-")
        if name and not any(character.isdigit() for character in name) and len(name) <= MAX_DERIVED_CHARS:
            names.append(name)
    if not names:
        return None
    host_words = set(re.split(r"[.\-]", host))
    return next((name for name in names if host_words & {word.lower() for word in name.split()}),
                min(names, key=len))


def is_shared_host(host: str) -> bool:
    """Whether `host` is shared by unrelated sites, or is a bare address (which names no organisation)."""
    try:
        ipaddress.ip_address(host.strip("[]"))
        return True
    except ValueError:
        return any(host == suffix or host.endswith(f".{suffix}") for suffix in SHARED_HOST_SUFFIXES)


def distinct_name(name: str, same_document: Callable[[str], bool | None]) -> str:
    """`name`, or "NAME (2)", "NAME (3)" … : the first that is free or already holds the same document.
    `same_document(candidate)` says None when no policy has that name, else whether it holds this document."""
    for candidate in [name, *(f"{name} ({n})" for n in range(2, MAX_SUFFIX + 1))]:
        if same_document(candidate) is not False:
            return candidate
    raise ValueError(f"{MAX_SUFFIX} policies named {name!r} already hold other documents")
