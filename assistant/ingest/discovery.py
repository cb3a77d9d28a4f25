"""A site's privacy policy from any of its pages: its home page ("duolingo.com", read by `fetch.site_url`), or the
page a person is on.

People start from the site, not from its policy's exact URL. A page that is not a privacy policy is searched for
the link to one, best first: `<link rel="privacy-policy">` (a link type of the HTML standard), then links whose
words name the privacy policy ("Privacy Policy", "Privacy Notice"), then links that only mention privacy or carry
it in their address; footer links rank above the same words elsewhere, and "Your Privacy Choices" or cookie
settings pages are not the policy. When the page links none, the site's usual paths (/privacy, /privacy-policy,
/legal/privacy) are tried. Every choice says how it was found, and the other candidates are listed.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from pathlib import PurePosixPath
from urllib.parse import urljoin, urlsplit, urlunsplit

from selectolax.lexbor import LexborHTMLParser, LexborNode

WELL_KNOWN_PATHS = ("/privacy", "/privacy-policy", "/legal/privacy")
# Link words, strongest first, each with its score: the words of the document itself, then a mention.
_POLICY_WORDS = re.compile(r"\bprivacy\s+(?:policy|notice|statement)\b|\bdata\s+protection\s+(?:policy|notice)\b",
                           re.IGNORECASE)
_PRIVACY_WORD = re.compile(r"\bprivacy\b", re.IGNORECASE)
# A link whose words are the policy's name and nothing more ("Privacy Policy", "Privacy notice").
_PLAIN_POLICY = re.compile(r"(?:our\s+|the\s+)?(?:privacy\s+(?:policy|notice|statement)|data\s+protection\s+"
                           r"(?:policy|notice))", re.IGNORECASE)
# Privacy notices for other people or other data than a service's users in general: not the site's policy.
_OTHER_AUDIENCES = re.compile(r"\b(?:health|children'?s?|kids|candidates?|applicants?|job|careers?|employees?|staff|"
                              r"suppliers?|vendors?|investors?|california|cookies?|biometric)\b", re.IGNORECASE)
# Links about privacy that are not the policy: choices and opt-out pages, cookie settings, help articles.
_NOT_THE_POLICY = re.compile(r"\b(?:choices?|settings|preferences|opt[- ]?out|do not sell|request|center|centre|"
                             r"cookies?|help|faq|shield|sandbox|enhanced)\b", re.IGNORECASE)
_FOOTER = ("footer", "[role=contentinfo]")


@dataclass(frozen=True)
class PolicyLink:
    """A link that may lead to the privacy policy, with how it was found (in words) and its score."""

    url: str
    how: str
    score: int


def policy_links(html: str, page_url: str) -> list[PolicyLink]:
    """The links of a page that may lead to its site's privacy policy, best first (one per URL)."""
    tree = LexborHTMLParser(html)
    found: dict[str, PolicyLink] = {}

    def consider(url: str, how: str, score: int) -> None:
        url = urljoin(page_url, url.strip()).split("#", 1)[0]
        if urlsplit(url).scheme in ("http", "https") and url != page_url.split("#", 1)[0] and (
                url not in found or found[url].score < score):
            found[url] = PolicyLink(url, how, score)

    for link in tree.css("link[rel][href]"):
        if "privacy-policy" in (link.attributes.get("rel") or "").lower().split():
            consider(link.attributes["href"] or "", 'its <link rel="privacy-policy">', 100)
    footers = {node.mem_id for selector in _FOOTER for footer in tree.css(selector) for node in footer.css("a")}
    for anchor in tree.css("a[href]"):
        score, how = _anchor_score(anchor)
        if score:
            in_footer = anchor.mem_id in footers
            consider(anchor.attributes.get("href") or "", how + (" in its footer" if in_footer else ""),
                     score + (5 if in_footer else 0))
    return sorted(found.values(), key=lambda link: -link.score)


def well_known_urls(page_url: str) -> list[str]:
    """The site's usual privacy policy paths, tried when its page links none."""
    parts = urlsplit(page_url)
    return [urlunsplit((parts.scheme, parts.netloc, path, "", "")) for path in WELL_KNOWN_PATHS]


def _anchor_score(anchor: LexborNode) -> tuple[int, str]:
    text = "".join(c for c in anchor.text(separator=" ") or "" if unicodedata.category(c) != "Cf")  # U+2060 …
    words = " ".join(text.split())
    label = words or anchor.attributes.get("aria-label") or anchor.attributes.get("title") or ""
    href = anchor.attributes.get("href") or ""
    if _NOT_THE_POLICY.search(label) and not _POLICY_WORDS.search(label):
        return 0, ""
    if _POLICY_WORDS.search(label):
        if _OTHER_AUDIENCES.search(label):
            return 50, f'the link "{label[:60]}"'
        return (85 if _PLAIN_POLICY.fullmatch(label.strip(" .:")) else 80), f'the link "{label[:60]}"'
    if _PRIVACY_WORD.search(label):
        return 60, f'the link "{label[:60]}"'
    last = PurePosixPath(urlsplit(href).path).name.lower()
    if "privacy" in last and not _NOT_THE_POLICY.search(href):
        return 40, f"a link to {last}"
    return 0, ""
