"""A web page's policy and nothing but the policy: its main content, kept whole, as `Block`s.

Rules on the lexbor tree (measured against trafilatura on real pages: docs/results.md, "Web pages"):

- the main content is the page's single `main` (or role=main, or single `article`) when it holds a fair share
  of the visible text (not counting scripts), else the body; site menus, headers without the title, footers, cookie banners, dialogs, login
  and search forms, language pickers, breadcrumbs, skip links and "Back to top" are left out, and so are
  elements named as a site part (`nav_wrap`, `footerwrapper`) holding several links, unnamed lists of short
  links to the site's own pages, promotion banners, feedback widgets, app-download prompts and short
  call-to-action boxes ("Get started for free");
- a page holding the terms and the privacy policy as separate parts keeps the privacy part(s) only, and a legal
  hub's short title, tagline and menu before the privacy policy's own top-level title are left out;
- collapsed text (accordion panels, tabs, `details`, `hidden`, `display:none`, `aria-hidden`) is policy text and
  is kept; only short hidden bits (icon labels, "Close") are not; an accordion's toggle button is its heading;
- a data table's body rows become sentences with their column headers ("Category: Identifiers — Sold: No");
- a table of contents (in-page links naming later headings), bare footnote numbers and exact repeats of an
  earlier paragraph are left out, and so is a run of blocks that repeats earlier ones word for word (the same
  summary copied into every tab panel), while a single paragraph repeated under another heading stays;
- `<noscript>` is cut out before parsing (a browser running scripts never shows it; a self-closing
  `<iframe/>` inside it would otherwise swallow the rest of the page).

Every page gets a loss check (`Extraction`): its visible words, counted independently, against those kept.
"""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from urllib.parse import urlsplit

from selectolax.lexbor import LexborHTMLParser, LexborNode

from assistant.foundation.types import Block, Document, DroppedBlock, Extraction
from assistant.ingest.outline import PSEUDO_HEADING_MAX, Outline, collapse, is_plain_heading, is_pseudo_heading

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

_WORD = re.compile(r"\w+")
_MIN_TOC_LINES = 3  # a table of contents written as plain lines: at least this many heading lines in a row
_TOC_LINE_WORDS = 12
# A page holding several legal documents: the part named as the privacy policy is kept when the page also names
# terms of use or service, and the part holds at least `_PART_MIN_WORDS` words but not nearly all of them.
_PRIVACY_TITLE = re.compile(r"(?:[\w.]+ ){0,3}privacy (?:policy|notice|statement)")
_TERMS_TITLE = re.compile(r"\bterms (?:of (?:use|service|sale)|and conditions)\b|\buser agreement\b|\blegal terms\b")
_PART_MIN_WORDS = 300
_PRIVACY_TOPIC = re.compile(r"privacy|personal (?:data|information)|data (?:protection|retention)|gdpr|ccpa|cpra|"
                            r"california|cookie|retention")
_PART_MAX_SHARE = 0.8
# A hub's own title, tagline and menu before the privacy policy's title (a second top-level heading): left out
# when they hold at most this many words.
_PREAMBLE_MAX_WORDS = 60
_TOC_LABEL = re.compile(
    r"(?:table of )?contents|what you ?ll find (?:in|on) this (?:section|page)|in this (?:section|article|policy|page)|"
    r"on this page|jump to(?: section)?|quick links|sections|summary of contents")
_NOSCRIPT = re.compile(r"<noscript\b.*?(?:</noscript\s*>|$)", re.IGNORECASE | re.DOTALL)
_UNSEEN_TAGS = frozenset({"script", "style", "template", "head", "noscript", "iframe"})
_HIDDEN_STYLE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden|(?<![-\w])(?:max-)?height\s*:\s*0(?![.\d])",
                           re.IGNORECASE)
_SHORT_HIDDEN_WORDS = 8  # hidden text shorter than this is a UI label, not a collapsed panel
_MAIN_SHARE = 0.3  # a main/article holding less of the body's words than this is not the content
_BOILERPLATE_MAX_SHARE = 0.4  # a block named like boilerplate that holds more of the text than this is kept
_DUPLICATE_MIN_WORDS = 6
_RUN_MIN_PARAGRAPHS = 2  # a run of repeated blocks holding this many paragraphs is a copied layer
_DROPPED_LISTED = 12
_SHOWN_CHARS = 160
# Consent managers: always boilerplate, whatever their size.
_CONSENT_VENDOR = re.compile(
    r"onetrust|ot-sdk|optanon|didomi|usercentrics|truste|cookiebot|cybotcookiebot|cookieyes|cookie-?law|osano|"
    r"iubenda|qc-cmp|cc-window|cookie-?consent|consent-?banner|consent-?manager|gdpr-?banner|cmp-?(?:banner|container)|"
    r"moove-?gdpr|gdpr-?cookie|fs-cc-",
    re.IGNORECASE)
_BOILERPLATE_NAME = re.compile(
    r"cookie-?(?:banner|bar|notice|popup|modal|alert|message|wrapper|container)|consent|\bbanner\b|skip-?(?:link|to|nav)|"
    r"back-?to-?top|to-?top|breadcrumb|lang(?:uage)?-?(?:select|switch|picker|menu|chooser|dropdown)|locale-?select|"
    r"country-?select|\blog-?in\b|sign-?in|\bsignup\b|newsletter|social-?(?:share|links|icons)|share-?(?:bar|links)|"
    r"w-form-(?:done|fail)|form-(?:success|error)-?message|\bfeedback\b|theme-?(?:switch|toggle)|(?:light|dark)-?theme|"
    r"(?:top|promo|announcement)-?banner|ai-?(?:article-?)?summary|article-?(?:ratings?|foot)\b|download[-_]?app|"
    r"chat-?assistant|mobile-?menu",
    re.IGNORECASE)
# A class or id token naming the site's navigation, header or footer ("nav_wrap", "header-container-wrapper",
# "footerwrapper", "mega-menu"): left out when it holds at least `_SITE_PART_MIN_LINKS` links, whatever
# their share of its words (a mega-menu's cards describe each link).
_SITE_PART_TOKEN = re.compile(
    r"(?:^|[-_])(?:nav|navbar|navigation|header|footer|menu|megamenu|mega-menu)(?:$|[-_]|wrap)", re.IGNORECASE)
_SITE_PART_MIN_LINKS = 5
# A bare list of links to the site's own pages (a footer's columns without any name): at least this many links,
# nearly all of its words, a few words each.
_LINK_LIST_MIN_LINKS = 8
_LINK_LIST_DENSITY = 0.7
_LINK_LIST_WORDS_PER_LINK = 4
_CARD_LIST_WORDS_PER_LINK = 12  # links that each wrap a short description ("Sub-processors — who we use")
_CARD_LIST_INTERNAL_SHARE = 0.9
_LINK_LIST_INTERNAL_SHARE = 0.6
_SOCIAL_HOSTS = frozenset({"x.com", "twitter.com", "facebook.com", "instagram.com", "linkedin.com", "youtube.com",
                           "tiktok.com", "discord.gg", "discord.com", "threads.net", "reddit.com", "pinterest.com"})
_NAVIGATION_NAME = re.compile(r"nav|menu|header|footer|dropdown|sidebar|toolbar|related", re.IGNORECASE)  # with many links
# A call-to-action box ("Don't just connect your apps, automate them. … Get started for free"): a short element
# with a link or button saying only "get started", "sign up", "try it now", "download the app" and the like.
_CALL_TO_ACTION = re.compile(
    r"(?:get started|start(?: now| building| your free trial)?|try(?: it)?|sign up|join(?: us)?|"
    r"download(?: the app)?|get the app)(?: (?:now|today|for free|free|it free))*")
_CALL_TO_ACTION_MAX_WORDS = 40
_BOILERPLATE_ROLES = frozenset({"navigation", "banner", "contentinfo", "search", "dialog", "alertdialog", "menu",
                                "menubar"})
_PAGE_CONTROL = re.compile(
    r"(?:↑|\^|⬆)?\s*(?:back to (?:the )?top|return to (?:the )?top|to the top|top of (?:the )?page|go to top|"
    r"skip to (?:the )?(?:main )?content|skip navigation|skip to main|print(?: this page)?|share(?: this page)?|"
    r"copy link|expand all|collapse all|show (?:more|less)|read (?:more|less)|was this (?:page |article )?helpful\??|"
    r"yes no|close|menu|open menu|close menu)\s*(?:↑|\^|⬆)?",
    re.IGNORECASE)
_FOOTNOTE = re.compile(r"[\W\d_]{0,8}")  # no letter: "1", "[2]", "*", "†", "(3)"
_TOGGLE_CLASS = re.compile(r"accordion|toggle|collaps|expand|disclosure|tab\b|tab-|panel-?(?:title|heading)",
                           re.IGNORECASE)


def words_in(text: str) -> int:
    return len(_WORD.findall(text))


# --------------------------------------------------------------------------- the page


def parse_page(html: str) -> Document:
    """Parse a web page into the blocks of its main content, with the loss check of what was left out."""
    tree = LexborHTMLParser(_NOSCRIPT.sub(" ", html))
    visible = words_in(visible_text(tree))
    title = _html_title(tree)
    dropped: list[DroppedBlock] = []
    root = _main_content(tree, dropped)
    if root is None:
        return Document(title, [], Extraction(0, visible))
    _drop_boilerplate(root, dropped, _site_domain(tree))
    root = _privacy_container(root, tree, title, dropped)
    _drop_tables_of_contents(root, tree, dropped)
    builder = _PageBlocks(_panel_titles(root))
    for event, node in _walk(root, atoms=_HEADING_TAGS | {"table", "button", "summary"}):
        builder.handle(event, node)
    builder.close()
    blocks, duplicates = _drop_repeats(_drop_listed_headings(builder.blocks, dropped), dropped)
    blocks, repeated = _drop_repeated_runs(blocks, dropped)
    blocks = _privacy_section(blocks, title, dropped)
    blocks = _drop_preamble(blocks, dropped)
    duplicates += repeated
    kept = sum(words_in(block.text) for block in blocks)
    listed = tuple(sorted(dropped, key=lambda block: -block.words)[:_DROPPED_LISTED])
    return Document(title or builder.first_h1, blocks, Extraction(kept, visible, listed, duplicates))


def visible_text(tree: LexborHTMLParser | LexborNode) -> str:
    """Every text node outside script/style/template/head/noscript/iframe: the page's (or an element's) visible
    text at most."""
    parts: list[str] = []
    root = tree.root if isinstance(tree, LexborHTMLParser) else tree
    stack = [root] if root is not None else []
    while stack:
        node = stack.pop()
        tag = node.tag or ""
        if tag == "-text":
            parts.append(node.text(deep=False))
        elif tag not in _UNSEEN_TAGS and not tag.startswith(("-", "!")):
            stack.extend(reversed(list(node.iter(include_text=True))))
    return " ".join(parts)


def loss_warning(extraction: Extraction, min_share: float = 0.5) -> str | None:
    """A one-line warning when less than `min_share` of the page's visible words were kept, naming the
    largest blocks left out so that a human can check them; None when enough was kept."""
    if extraction.visible_words == 0 or extraction.kept_share >= min_share:
        return None
    largest = "; ".join(f"{b.reason}: “{b.text[:60]}” ({b.words} words)" for b in extraction.dropped_blocks[:3])
    return (f"only {extraction.kept_words} of the page's {extraction.visible_words} visible words "
            f"({extraction.kept_share:.0%}) were kept as the policy" + (f"; largest left out: {largest}" if largest else ""))


def _html_title(tree: LexborHTMLParser) -> str | None:
    node = tree.css_first("title")
    return (collapse(node.text(deep=True)) or None) if node is not None else None


def _text_of(node: LexborNode) -> str:
    return collapse(node.text(deep=True, separator=" "))


def _record(dropped: list[DroppedBlock], node: LexborNode, reason: str) -> None:
    text = _text_of(node)
    if text:
        dropped.append(DroppedBlock(text[:_SHOWN_CHARS], words_in(text), reason))


def _attribute_names(node: LexborNode) -> str:
    attrs = node.attributes
    return " ".join(attrs.get(name) or "" for name in ("id", "class", "aria-label"))


# --------------------------------------------------------------------------- main content


def _main_content(tree: LexborHTMLParser, dropped: list[DroppedBlock]) -> LexborNode | None:
    """The single main/role=main (or article) element holding a fair share of the words, else the body."""
    body = tree.body or tree.root
    if body is None:
        return None
    total = words_in(visible_text(body))  # not the body's scripts: they may outweigh the policy
    for selector in ("main, [role=main]", "article"):
        candidates = [node for node in tree.css(selector) if not _inside(node, selector)]
        if len(candidates) == 1 and words_in(visible_text(candidates[0])) >= _MAIN_SHARE * total:
            _record_outside(candidates[0], dropped)
            return candidates[0]
    return body


def _inside(node: LexborNode, selector: str) -> bool:
    parent = node.parent
    while parent is not None and parent.tag not in ("body", "html", None):
        if parent.css_matches(selector):
            return True
        parent = parent.parent
    return False


def _record_outside(main: LexborNode, dropped: list[DroppedBlock]) -> None:
    """Record the body's text outside `main` (siblings along its path up to the body) as left out."""
    node = main
    while node.parent is not None and node.tag not in ("body", "html"):
        for sibling in node.parent.iter(include_text=False):
            if sibling.mem_id != node.mem_id and (sibling.tag or "") not in _UNSEEN_TAGS | _DROP_TAGS:
                _record(dropped, sibling, "outside the main content")
        node = node.parent


# --------------------------------------------------------------------------- boilerplate


def _site_domain(tree: LexborHTMLParser) -> str | None:
    """The page's own domain ("perplexity.ai"), from its canonical link or og:url, if it names one."""
    node = tree.css_first("link[rel=canonical], meta[property='og:url']")
    url = (node.attributes.get("href") or node.attributes.get("content") or "") if node is not None else ""
    host = urlsplit(url.strip()).hostname or ""
    return ".".join(host.split(".")[-2:]) or None


def _drop_boilerplate(root: LexborNode, dropped: list[DroppedBlock], site_domain: str | None = None) -> None:
    """Remove menus, site headers and footers, cookie banners, dialogs, login forms and the like below `root`
    (`site_domain` tells links to the site's own pages from others)."""
    total = max(words_in(root.text(deep=True, separator=" ")), 1)
    for node in list(root.traverse(include_text=False)):
        if node.mem_id == root.mem_id or not _attached(node, root):
            continue
        reason = _boilerplate_reason(node, total, site_domain)
        if reason:
            _record(dropped, node, reason)
            node.decompose()


def _attached(node: LexborNode, root: LexborNode) -> bool:
    while node is not None:
        if node.mem_id == root.mem_id:
            return True
        node = node.parent
    return False


def _boilerplate_reason(node: LexborNode, total: int, site_domain: str | None = None) -> str | None:
    tag = node.tag or ""
    role = (node.attributes.get("role") or "").strip().lower()
    names = _attribute_names(node)
    if _CONSENT_VENDOR.search(names):
        return "cookie banner"
    if tag == "nav" or role in ("navigation", "menu", "menubar"):
        return "navigation"
    if tag in ("select", "datalist"):
        return None  # dropped anyway, never text
    share = words_in(node.text(deep=True, separator=" ")) / total
    if share > _BOILERPLATE_MAX_SHARE:
        return None
    has_title = node.css_first("h1") is not None
    if tag == "footer" or role == "contentinfo":
        return "footer"
    if (tag == "header" or role == "banner") and not has_title:
        return "page header"
    if role in ("search", "dialog", "alertdialog") or (node.attributes.get("aria-modal") or "").lower() == "true":
        return "dialog or search" if not has_title else None
    if tag == "form" and (node.css_first("input[type=password], input[type=search], input[type=email]") is not None
                          or share < 0.05):
        return "form"
    if tag == "aside" and _link_density(node) >= 0.5:
        return "sidebar"
    if _NAVIGATION_NAME.search(names) and not has_title and _link_density(node) >= 0.5:
        return "navigation"
    if not has_title and _names_site_part(node) and len(node.css("a[href]")) >= _SITE_PART_MIN_LINKS:
        return "site navigation, header or footer"
    if not has_title and _is_link_list(node, site_domain):
        return "list of links"
    if _BOILERPLATE_NAME.search(names) and node.css_first("h1, h2, h3, h4") is None:
        return "cookie banner" if "cookie" in names.lower() or "consent" in names.lower() else "page control"
    if not has_title and _is_call_to_action(node):
        return "call to action"
    return None


def _is_call_to_action(node: LexborNode) -> bool:
    """A short box (`_CALL_TO_ACTION_MAX_WORDS` words at most) holding a "Get started for free" link or button."""
    if node.tag not in ("div", "section", "aside") or words_in(node.text(deep=True, separator=" ")) > \
            _CALL_TO_ACTION_MAX_WORDS:
        return False
    return any(_CALL_TO_ACTION.fullmatch(_key(_text_of(link))) for link in node.css("a[href], button"))


def _names_site_part(node: LexborNode) -> bool:
    attrs = node.attributes
    tokens = f"{attrs.get('class') or ''} {attrs.get('id') or ''}".split()
    return any(_SITE_PART_TOKEN.search(token) for token in tokens)


def _is_link_list(node: LexborNode, site_domain: str | None) -> bool:
    """Many short links to the site's own pages and (almost) nothing else: a menu or footer without a name."""
    if node.tag not in ("div", "ul", "ol", "section") or _inside(node, "table"):
        return False
    links = node.css("a[href]")
    if len(links) < _LINK_LIST_MIN_LINKS:
        return False
    text_words = words_in(node.text(deep=True, separator=" "))
    if text_words > _CARD_LIST_WORDS_PER_LINK * len(links) or _link_density(node) < _LINK_LIST_DENSITY:
        return False
    internal = sum(_is_internal(link.attributes.get("href") or "", site_domain) for link in links)
    if text_words > _LINK_LIST_WORDS_PER_LINK * len(links):  # cards: links to the site's own pages only
        return internal >= _CARD_LIST_INTERNAL_SHARE * len(links)
    return internal >= _LINK_LIST_INTERNAL_SHARE * len(links)


def _is_internal(href: str, site_domain: str | None) -> bool:
    """A link to another page of the site (relative, or to `site_domain` and its subdomains) or to one of its
    social-network accounts, as menus and footers hold them; not an in-page, mail or phone link."""
    href = href.strip().lower()
    if not href or href.startswith(("#", "mailto:", "tel:", "javascript:")):
        return False
    host = urlsplit(href).hostname if "//" in href else None
    if host is None:
        return True
    return host.removeprefix("www.") in _SOCIAL_HOSTS or (
        site_domain is not None and (host == site_domain or host.endswith("." + site_domain)))


def _link_density(node: LexborNode) -> float:
    text = words_in(node.text(deep=True, separator=" "))
    linked = sum(words_in(a.text(deep=True, separator=" ")) for a in node.css("a"))
    return linked / text if text else 0.0


# --------------------------------------------------------------------------- several documents on one page


def _names_privacy_policy(text: str) -> bool:
    return _PRIVACY_TITLE.fullmatch(_heading_key(text)) is not None


def _names_terms(tree: LexborHTMLParser, title: str | None) -> bool:
    """Whether the page names terms of use or service in its title, a heading, a tab or a button."""
    names = [title or ""] + [_text_of(node) for node in tree.css("h1, h2, h3, h4, button, [role=tab], summary")]
    return any(_TERMS_TITLE.search(_heading_key(name)) for name in names if len(name) <= PSEUDO_HEADING_MAX)


def _privacy_container(root: LexborNode, tree: LexborHTMLParser, title: str | None,
                       dropped: list[DroppedBlock]) -> LexborNode:
    """On a page that holds the terms and the privacy policy (one panel per legal document), the element named as
    the privacy policy (`_part_name`: an id "privacy-policy", a `details` whose summary says "Privacy Policy"),
    when it holds a fair share of the text but not nearly all of it; else `root`."""
    total = words_in(root.text(deep=True, separator=" "))
    for node in root.css("div, section, article, details, [role=tabpanel]"):
        name = _part_name(node)
        if not name or not _names_privacy_policy(name):
            continue
        words = words_in(node.text(deep=True, separator=" "))
        if _PART_MIN_WORDS <= words < _PART_MAX_SHARE * total and _names_terms(tree, title):
            if node.attributes.get("id") and node.tag != "details":
                dropped.append(DroppedBlock(f"the page's other legal documents beside “{name[:60]}”", total - words,
                                            "another legal document"))
                return node
            return _privacy_parts(node, dropped)
    return root


def _privacy_parts(part: LexborNode, dropped: list[DroppedBlock]) -> LexborNode:
    """The privacy documents among the page's legal documents shown as sibling panels (`details` or sections):
    the privacy policy and its companions (state notices, GDPR, data retention, cookies) stay, the terms and
    the rest go. Returns the element holding the panels."""
    panel = part
    while panel.parent is not None and not _is_panel_row(panel):
        panel = panel.parent
    container = panel.parent
    if container is None or not _is_panel_row(panel):
        return part
    for sibling in list(container.iter(include_text=False)):
        if sibling.mem_id == panel.mem_id or sibling.tag != panel.tag:
            continue
        name = _panel_name(sibling)
        if name is None or not _PRIVACY_TOPIC.search(name.lower()):
            _record(dropped, sibling, "another legal document")
            sibling.decompose()
    return container


def _is_panel_row(node: LexborNode) -> bool:
    """Whether `node` is one of several siblings of its tag that each open with a summary or heading."""
    parent = node.parent
    if parent is None:
        return False
    siblings = [child for child in parent.iter(include_text=False) if child.tag == node.tag]
    return len(siblings) >= 2 and sum(_panel_name(child) is not None for child in siblings) >= 2


def _panel_name(node: LexborNode) -> str | None:
    first = node.css_first("summary, h1, h2, h3, h4")
    return _text_of(first) if first is not None and _text_of(node).startswith(_text_of(first)) else None


def _part_name(node: LexborNode) -> str | None:
    """What names a part of the page: its id ("privacy-policy"), or the summary of a `details`, or the first
    heading of a section or tab panel when that heading opens it."""
    identifier = node.attributes.get("id") or ""
    if identifier and node.tag != "details":
        return identifier.replace("-", " ").replace("_", " ")
    if node.tag in ("details", "section") or node.attributes.get("role") == "tabpanel":
        first = node.css_first("summary, h1, h2, h3, h4")
        if first is not None and _text_of(node).startswith(_text_of(first)):
            return _text_of(first)
    return None


def _privacy_section(blocks: list[Block], title: str | None, dropped: list[DroppedBlock]) -> list[Block]:
    """On a page whose headings name the terms and the privacy policy side by side, the privacy policy's section
    only: from its heading to the next heading of the same level or above."""
    headings = [(index, block) for index, block in enumerate(blocks) if block.is_heading]
    for position, (start, heading) in enumerate(headings):
        if not _names_privacy_policy(heading.text):
            continue
        depth = len(heading.section_path)
        peers = [block for _, block in headings if len(block.section_path) == depth]
        if not any(_TERMS_TITLE.search(_heading_key(block.text)) for block in peers):
            continue
        end = next((index for index, block in headings[position + 1:] if len(block.section_path) <= depth),
                   len(blocks))
        part = blocks[start:end]
        words = sum(words_in(block.text) for block in part)
        total = sum(words_in(block.text) for block in blocks)
        if words >= _PART_MIN_WORDS:
            dropped.append(DroppedBlock(f"the page's other legal documents beside “{heading.text[:60]}”",
                                        total - words, "another legal document"))
            return part
    return blocks


def _drop_preamble(blocks: list[Block], dropped: list[DroppedBlock]) -> list[Block]:
    """Leave out what comes before the privacy policy's own top-level title when it all lies under another
    top-level heading, holds some text besides headings and is short (`_PREAMBLE_MAX_WORDS`): a legal hub's
    title, its tagline and its menu."""
    start = next((index for index, block in enumerate(blocks)
                  if block.is_heading and len(block.section_path) == 1 and _names_privacy_policy(block.text)), None)
    if not start:
        return blocks
    before = blocks[:start]
    own_title = blocks[start].section_path[0]
    if (not before[0].is_heading or all(b.is_heading for b in before)  # a lone heading above the title stays
            or any(not b.section_path or b.section_path[0] == own_title for b in before)):
        return blocks
    text = " ".join(block.text for block in before)
    if words_in(text) > _PREAMBLE_MAX_WORDS:
        return blocks
    dropped.append(DroppedBlock(text[:_SHOWN_CHARS], words_in(text), "page header before the policy's title"))
    return blocks[start:]


# --------------------------------------------------------------------------- tables of contents


def _drop_tables_of_contents(root: LexborNode, tree: LexborHTMLParser, dropped: list[DroppedBlock]) -> None:
    """Remove lists of in-page links that name the page's headings (or point at its anchors)."""
    headings = {_key(_text_of(node)) for node in tree.css("h1, h2, h3, h4, h5, h6, summary, button, strong, b")}
    anchors = {node.attributes.get("id") for node in tree.css("[id]")} | {
        node.attributes.get("name") for node in tree.css("a[name]")}
    for node in list(root.css("ul, ol, p, div")):
        if not _attached(node, root):
            continue
        links = node.css("a[href]")
        if len(links) < 3 or _link_density(node) < 0.9:
            continue
        targets = [(a.attributes.get("href") or "") for a in links]
        in_page = [href[1:] for href in targets if href.startswith("#") and len(href) > 1]
        if len(in_page) < 0.8 * len(links):
            continue
        named = sum(_key(_text_of(a)) in headings for a in links) + sum(t in anchors for t in in_page)
        if named >= 0.5 * len(links):
            _record(dropped, node, "table of contents")
            node.decompose()


def _key(text: str) -> str:
    return " ".join(_WORD.findall(text.lower()))


def _heading_key(text: str) -> str:
    """A heading's words without its numbering: "1. INFORMATION WE COLLECT" → "information we collect"."""
    return " ".join(word for word in _WORD.findall(text.lower()) if not word.isdigit())


def _drop_listed_headings(blocks: list[Block], dropped: list[DroppedBlock]) -> list[Block]:
    """Leave out a table of contents written as plain lines (no links): a run of at least
    `_MIN_TOC_LINES` short lines, each repeating one of the page's headings, or any such run after a label
    such as "What you'll find in this section" (the label goes too)."""
    headings = {_heading_key(block.text) for block in blocks if block.is_heading}
    headings |= {_heading_key(part) for block in blocks for part in block.section_path}
    headings.discard("")

    def listed(block: Block) -> bool:
        return (not block.is_heading and len(block.text.split()) <= _TOC_LINE_WORDS
                and _heading_key(block.text) in headings)

    kept: list[Block] = []
    start = 0
    while start < len(blocks):
        labelled = _TOC_LABEL.fullmatch(_key(blocks[start].text)) is not None
        end = start + labelled
        while end < len(blocks) and listed(blocks[end]):
            end += 1
        if end - start >= _MIN_TOC_LINES or labelled:
            text = " ".join(block.text for block in blocks[start:end])
            dropped.append(DroppedBlock(text[:_SHOWN_CHARS], words_in(text), "table of contents"))
            start = end
        else:
            kept.append(blocks[start])
            start += 1
    return kept


# --------------------------------------------------------------------------- walking


def _is_hidden(node: LexborNode) -> bool:
    attrs = node.attributes
    return (
        "hidden" in attrs
        or (attrs.get("aria-hidden") or "").strip().lower() == "true"
        or _HIDDEN_STYLE.search(attrs.get("style") or "") is not None
    )


def _is_hidden_control(node: LexborNode) -> bool:
    """Hidden and not a collapsed panel: too short (an icon label, a tooltip, "Close") or mostly links (a menu)."""
    return _is_hidden(node) and (words_in(node.text(deep=True, separator=" ")) < _SHORT_HIDDEN_WORDS
                                 or _link_density(node) >= 0.5)


def _is_footnote_mark(node: LexborNode) -> bool:
    return node.tag == "sup" and _FOOTNOTE.fullmatch(_text_of(node)) is not None


def _is_toggle(node: LexborNode) -> bool:
    attrs = node.attributes
    return ("aria-expanded" in attrs or "aria-controls" in attrs or "data-toggle" in attrs
            or "data-bs-toggle" in attrs or _TOGGLE_CLASS.search(attrs.get("class") or "") is not None)


def _walk(root: LexborNode, atoms: frozenset[str] = frozenset()) -> Iterator[tuple[str, LexborNode]]:
    """Yield ('text'|'enter'|'leave'|'atom', node) events below `root`, skipping what is never policy text.

    Elements whose tag is in `atoms` are reported once as 'atom' and not descended into. Iterative, so deeply
    nested (malformed) markup cannot exhaust the recursion limit."""
    stack: list[tuple[LexborNode, bool]] = [(child, False) for child in reversed(list(root.iter(include_text=True)))]
    while stack:
        node, leaving = stack.pop()
        tag = node.tag or ""
        if leaving:
            yield "leave", node
        elif tag == "-text":
            yield "text", node
        elif tag in atoms and (tag != "button" or _is_toggle(node)):
            yield "atom", node
        elif (tag.startswith(("-", "#", "_", "!")) or tag in _DROP_TAGS or _is_hidden_control(node)
              or _is_footnote_mark(node)):
            continue
        else:
            yield "enter", node
            stack.append((node, True))
            stack.extend((child, False) for child in reversed(list(node.iter(include_text=True))))


def _panel_titles(root: LexborNode) -> dict[str, str]:
    """Each collapsible panel's id and the text of the button (or tab) that opens it (aria-controls)."""
    ids = {node.attributes.get("id") for node in root.css("[id]")}
    titles: dict[str, str] = {}
    for toggle in root.css("[aria-controls]"):
        target = toggle.attributes.get("aria-controls") or ""
        text = _inline_text(toggle)
        if target in ids and text and target not in titles:
            titles[target] = text
    return titles


def _inline_text(node: LexborNode) -> str:
    """Visible text of an element on one line: block elements and '|||' become spaces."""
    parts: list[str] = []
    for event, child in _walk(node, atoms=frozenset({"button"})):
        if event == "text":
            parts.append(child.text(deep=False))
        elif event == "atom":
            parts.append(f" {_inline_text(child)} ")
        elif child.tag in _BLOCK_TAGS:
            parts.append(" " if child.tag != "li" or event == "leave" else "; ")
    return collapse(_SEGMENT_SEPARATOR.sub(" ", "".join(parts))).strip("; ")


class _PageBlocks:
    """Accumulates inline text into blocks, breaking at block elements, <br> and '|||'."""

    def __init__(self, panel_titles: dict[str, str] | None = None) -> None:
        self.blocks: list[Block] = []
        self._panel_titles = panel_titles or {}  # a panel's id -> the text of the button that opens it
        self.first_h1: str | None = None
        self._outline = Outline()
        self._parts: list[tuple[str, bool, bool]] = []  # (text, inside bold, inside a link)
        self._bold_depth = 0
        self._item_depth = 0
        self._link_depth = 0
        self._address_depth = 0
        # Lines of one paragraph (an address: "Acme Ltd<br>1 Main Street") are never plain headings: a block
        # after a single <br> is a line, and so is the one before it (its heading status is taken back).
        self._after_single_br = False
        self._retractable: tuple[int, str | None] | None = None  # (block index, the pseudo-heading before it)
        self._last_plain: tuple[int, str | None] | None = None  # the last plain heading, as `_retractable` holds it

    def handle(self, event: str, node: LexborNode) -> None:
        tag = node.tag or ""
        if event == "text":
            self._add_text(node.text(deep=False))
        elif event == "atom":
            self._atom(tag, node)
        else:
            step = 1 if event == "enter" else -1
            if tag == "br":
                if event == "enter":
                    self._line_break()
            elif tag in _BLOCK_TAGS:
                self.flush()
                self._after_single_br, self._retractable = False, None
            self._bold_depth += step * (tag in _BOLD_TAGS)
            self._item_depth += step * (tag in _ITEM_TAGS)
            self._link_depth += step * (tag == "a")
            self._address_depth += step * (tag == "address")
            title = self._panel_titles.get(node.attributes.get("id") or "") if event == "enter" else None
            if title:
                self._pseudo_heading(title)

    def _atom(self, tag: str, node: LexborNode) -> None:
        if tag == "table":
            self._table(node)
            return
        text = _inline_text(node)
        if tag in _HEADING_LEVELS:
            if tag == "h1" and self.first_h1 is None:
                self.first_h1 = text or None
            self.flush()
            if text:
                self._outline.open(_HEADING_LEVELS[tag], text)
                self.blocks.append(Block(text, self._outline.path, is_heading=True))
        elif (node.attributes.get("aria-controls") or "") not in self._panel_titles:
            self._pseudo_heading(text)  # a <summary>, or a toggle whose panel is not known: heading in place

    def _pseudo_heading(self, text: str) -> None:
        """An accordion's or tab's button, or a <summary>: the heading of the panel it opens."""
        self.flush()
        if self.blocks and self.blocks[-1].is_heading and self.blocks[-1].text == text:
            return  # the button was inside the heading above
        if text and len(text) <= PSEUDO_HEADING_MAX and any(ch.isalpha() for ch in text):
            self._outline.open_pseudo(text)
            self.blocks.append(Block(text, self._outline.path, is_heading=True))
        elif text:
            self.blocks.append(Block(text, self._outline.path))

    def _table(self, node: LexborNode) -> None:
        self.flush()
        rows = _table_rows(node)
        if rows is None:  # a layout table, or one without headers: its cells are blocks
            builder_events = _walk(node, atoms=_HEADING_TAGS | {"button", "summary"})
            for event, child in builder_events:
                self.handle(event, child)
            self.flush()
            return
        for row in rows:
            self.blocks.append(Block(row, self._outline.path))

    def _add_text(self, text: str) -> None:
        for index, piece in enumerate(_SEGMENT_SEPARATOR.split(text)):
            if index:
                self.flush()
            self._parts.append((piece, self._bold_depth > 0, self._link_depth > 0))

    def _line_break(self) -> None:
        if any(part.strip() for part, _, _ in self._parts):
            self.flush()
            self._after_single_br = True
        else:  # a second <br> in a row: a paragraph break, so the block before stands as it is
            self._after_single_br, self._retractable = False, None

    def flush(self) -> None:
        """Close the current block, deciding whether it is a pseudo-heading."""
        text = collapse("".join(part for part, _, _ in self._parts))
        visible = [(bold, link) for part, bold, link in self._parts if part.strip()]
        self._parts = []
        if not text:
            return
        is_line = self._after_single_br
        if is_line and self._retractable is not None:
            self._retract(*self._retractable)
        self._retractable = None
        all_bold = all(bold for bold, _ in visible)
        all_link = all(link for _, link in visible)
        plain = not all_bold and not is_line and is_plain_heading(text)
        if self._item_depth == 0 and not all_link and self._address_depth == 0 and (
                plain or (all_bold and is_pseudo_heading(text))):
            if plain:
                self._retractable = self._last_plain = (len(self.blocks), self._outline.pseudo)
            self._outline.open_pseudo(text)
            self.blocks.append(Block(text, self._outline.path, is_heading=True))
        else:
            self.blocks.append(Block(text, self._outline.path))

    def close(self) -> None:
        """Close the last block. A plain heading that ends the page heads nothing: it is a line of text (a closing
        postal address reads as a title: "IPinfo Inc. 300 Lenora Street #516, Seattle, WA 98121, USA")."""
        self.flush()
        if self._last_plain is not None and self._last_plain[0] == len(self.blocks) - 1:
            self._retract(*self._last_plain)

    def _retract(self, index: int, previous: str | None) -> None:
        """Make the plain heading at `index` (the last block) a line of text again."""
        self._outline.pseudo = previous
        self.blocks[index] = Block(self.blocks[index].text, self._outline.path)


# --------------------------------------------------------------------------- tables


def _table_rows(table: LexborNode) -> list[str] | None:
    """Each body row of a data table as "Header: cell — Header: cell"; None for a table without a header row,
    one inside another or one whose cells hold headings (a layout table)."""
    if any(inner.mem_id != table.mem_id for inner in table.css("table, h1, h2, h3, h4, h5, h6")):
        return None  # css() matches the table itself too
    rows = [row for row in table.css("tr") if _nearest_table(row) == table.mem_id]
    if len(rows) < 2:
        return None
    head_row = rows[0]
    head_cells = head_row.css("th, td")
    if not head_cells or not all(cell.tag == "th" or _in_thead(cell) for cell in head_cells):
        return None
    headers = [_inline_text(cell) for cell in head_cells]
    sentences = []
    for row in rows[1:]:
        cells = [_inline_text(cell) for cell in row.css("th, td")]
        pairs = [f"{header}: {cell}" if header and header != cell else cell
                 for header, cell in zip(headers + [""] * (len(cells) - len(headers)), cells, strict=False) if cell]
        if pairs:
            sentences.append(" — ".join(pairs))
    return sentences


def _nearest_table(node: LexborNode) -> int | None:
    parent = node.parent
    while parent is not None and parent.tag != "table":
        parent = parent.parent
    return parent.mem_id if parent is not None else None


def _in_thead(cell: LexborNode) -> bool:
    parent = cell.parent
    return parent is not None and parent.parent is not None and parent.parent.tag == "thead"


# --------------------------------------------------------------------------- after walking


def _drop_repeats(blocks: list[Block], dropped: list[DroppedBlock]) -> tuple[list[Block], int]:
    """Leave out page controls ("Back to top"), bare footnote numbers and exact repeats of an earlier paragraph."""
    kept: list[Block] = []
    seen: Counter[tuple[str, tuple[str, ...]]] = Counter()  # a paragraph repeated under another heading stays
    left_out: Counter[tuple[str, str]] = Counter()
    for block in blocks:
        text = block.text
        if not block.is_heading and (_PAGE_CONTROL.fullmatch(text) or _FOOTNOTE.fullmatch(text)):
            left_out[text, "page control or footnote number"] += 1
            continue
        if not block.is_heading and words_in(text) >= _DUPLICATE_MIN_WORDS:
            seen[text, block.section_path] += 1
            if seen[text, block.section_path] > 1:
                left_out[text, "duplicate"] += 1
                continue
        kept.append(block)
    for (text, reason), count in left_out.items():
        shown = text[:_SHOWN_CHARS] + (f" (×{count})" if count > 1 else "")
        dropped.append(DroppedBlock(shown, words_in(text) * count, reason))
    duplicates = sum(count for (_, reason), count in left_out.items() if reason == "duplicate")
    return kept, duplicates


def _drop_repeated_runs(blocks: list[Block], dropped: list[DroppedBlock]) -> tuple[list[Block], int]:
    """Leave out runs of consecutive blocks that each repeat an earlier block word for word, when a run holds at
    least `_RUN_MIN_PARAGRAPHS` paragraphs of `_DUPLICATE_MIN_WORDS` words or more: a layer of the page copied
    (the same section summary in every hidden tab panel). A single repeated paragraph stays."""
    seen: set[str] = set()
    repeated = []
    for block in blocks:
        repeated.append(block.text in seen)
        seen.add(block.text)
    kept: list[Block] = []
    left_out = 0
    start = 0
    while start < len(blocks):
        end = start
        while end < len(blocks) and repeated[end]:
            end += 1
        run = blocks[start:end]
        if sum(not b.is_heading and words_in(b.text) >= _DUPLICATE_MIN_WORDS for b in run) >= _RUN_MIN_PARAGRAPHS:
            text = " ".join(block.text for block in run)
            dropped.append(DroppedBlock(text[:_SHOWN_CHARS], words_in(text), "repeated layer"))
            left_out += sum(not block.is_heading for block in run)
            start = end
        else:
            kept.append(blocks[start])
            start += 1
    return kept, left_out
