"""How deep an HTML document nests, estimated in one linear pass before it is parsed.

lexbor builds the tree in time that grows with the number of tags times the depth of the open
elements (its scope checks walk the stack), so 1 MB of unclosed nested tags took minutes to parse.
`nesting_depth` replays a simplified HTML tree builder over the tags — implied end tags (p, li,
dt/dd, table parts, headings, options, buttons), end tags out of scope, void and raw-text elements,
and the formatting elements the parser reopens after closing them implicitly — and stops as soon as
the depth passes a limit. Wherever its rules are simpler than the parser's (foreign content,
select, frameset) it counts deeper, never shallower: the tests check on random tag soup that
lexbor's tree is never much deeper than the estimate.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

_TOKEN = re.compile(
    r"<!--.*?(?:-->|\Z)"  # comment (possibly unterminated)
    r"|<[!?][^<>]*>?"  # doctype, bogus comment, processing instruction
    r"|<(/?)([A-Za-z][^\s/<>]*)([^<>]*)>?",  # start or end tag: slash, name, attributes (up to the next < or >)
    re.DOTALL,
)
_IGNORED = frozenset({"html", "head", "body"})
_VOID = frozenset(
    "area base br col embed hr img image input keygen link meta param source track wbr basefont bgsound frame"
    .split()
)
_RAW_TEXT = frozenset({"script", "style", "textarea", "title", "xmp", "iframe", "noembed", "noframes"})
_FORMATTING = frozenset({"a", "b", "big", "code", "em", "font", "i", "nobr", "s", "small", "strike", "strong",
                         "tt", "u"})
_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
# Start tags that close an open p (not <table>: in quirks mode it does not, and counting deeper is safe).
_CLOSES_P = frozenset(
    "address article aside blockquote center details dialog dir div dl fieldset figcaption figure footer form "
    "header hgroup hr li dd dt main menu nav ol p pre section summary ul listing xmp plaintext search".split()
) | _HEADINGS
_FOREIGN = frozenset({"svg", "math"})
# Inside these, the parser reads markup as HTML again (integration points).
_INTEGRATION = {"svg": frozenset({"foreignobject", "desc", "title"}),
                "math": frozenset({"mi", "mo", "mn", "ms", "mtext"})}  # (and annotation-xml holding HTML)
_SPECIAL_FOREIGN = {"svg": _INTEGRATION["svg"], "math": _INTEGRATION["math"] | {"annotation-xml"}}
_INTEGRATION_NAMES = _SPECIAL_FOREIGN["svg"] | _SPECIAL_FOREIGN["math"]
_SPECIAL_HTML = frozenset(
    "address applet area article aside base basefont bgsound blockquote body br button caption center col "
    "colgroup dd details dir div dl dt embed fieldset figcaption figure footer form frame frameset head header "
    "hgroup hr html iframe img input keygen li link listing main marquee menu meta nav noembed noframes "
    "noscript object ol p param plaintext pre script search section select source style summary table tbody "
    "td template textarea tfoot th thead title tr track ul wbr xmp".split()
) | _HEADINGS
_SPECIAL = _SPECIAL_HTML | _INTEGRATION_NAMES
_TABLE_PARTS = frozenset({"caption", "colgroup", "tbody", "thead", "tfoot", "tr", "td", "th"})
_SECTIONS = frozenset({"tbody", "thead", "tfoot"})
_TABLE_CONTEXT = _SECTIONS | {"table", "tr", "colgroup"}  # where <table> closes the open table
_CELLS = frozenset({"td", "th"})
# Elements whose content the parser reads in a mode of its own: nothing below one is closed from above it.
_MODES = frozenset({"select", "template"})
# HTML start tags that end foreign content.
_BREAKOUT = frozenset(
    "b big blockquote body br center code dd div dl dt em embed h1 h2 h3 h4 h5 h6 head hr i img li listing menu "
    "meta nobr ol p pre ruby s small span strong strike sub sup table tt u ul var".split()
)
# Special start tags before which the parser reopens formatting elements (as it does before text
# and before every start tag that is not special).
# Elements after which the parser's list of formatting elements has a marker: closing them forgets
# the formatting elements opened inside.
_MARKERS = frozenset({"td", "th", "caption", "applet", "marquee", "object", "template"})
_SPECIAL_REOPENING = frozenset({"applet", "marquee", "object", "area", "br", "embed", "img", "keygen", "wbr",
                                "input", "button", "select", "image", "noscript"})
# Start tags after which the parser ignores a <frameset> (as it does after text).
_ENDS_FRAMESET_OK = frozenset("li dd dt pre listing img br hr input button select textarea iframe embed applet "
                              "marquee object keygen wbr area xmp image".split())
_LIST_ITEMS = {"li": ("li", "li stop"), "dt": ("dl", "dl stop"), "dd": ("dl", "dl stop")}  # (group, stops)
_HTML_ENCODING = re.compile(r"text/html|application/xhtml\+xml", re.IGNORECASE)
_NOAHS_ARK = 3  # the parser keeps at most three identical formatting elements to reopen
# The spec's scopes: an element is "in scope" when no boundary element is open above it.
_SCOPE = frozenset({"applet", "caption", "html", "table", "td", "th", "marquee", "object", "template"}) | _INTEGRATION_NAMES
# Groups of element names whose nearest open member the rules need.
_GROUPS: dict[str, frozenset[str]] = {
    "p": frozenset({"p"}), "li": frozenset({"li"}), "dl": frozenset({"dt", "dd"}), "button": frozenset({"button"}),
    "table": frozenset({"table"}), "template": frozenset({"template"}), "tr": frozenset({"tr"}), "cell": _CELLS, "section": _SECTIONS,
    "heading": _HEADINGS, "special": _SPECIAL,
    "mode": _MODES,
    "scope": _SCOPE, "button scope": _SCOPE | {"button"}, "list scope": _SCOPE | {"ol", "ul"},
    "table scope": frozenset({"html", "table", "template"}),
    # a new li (dt, dd) closes the open one unless a special element other than address, div, p is above it
    "li stop": _SPECIAL - {"address", "div", "p", "li"}, "dl stop": _SPECIAL - {"address", "div", "p", "dd", "dt"},
}
_GROUPS_OF = {name: tuple(g for g, names in _GROUPS.items() if name in names and name not in _INTEGRATION_NAMES)
              for name in frozenset().union(*_GROUPS.values())}
_GROUPS_OF["title"] = tuple(g for g, names in _GROUPS.items() if "title" in names)  # HTML's title is special too
# SVG's and MathML's special elements are special and scope boundaries; other foreign elements nothing.
_GROUPS_OF_INTEGRATION = tuple(g for g, names in _GROUPS.items() if "mi" in names)
# The scope an end tag must find its element in. Any other end tag closes its element only when no
# special element is open above it (for a formatting element, the adoption agency keeps the depth).
_END_SCOPE = (
    {"p": "button scope", "li": "list scope"}
    | dict.fromkeys(_TABLE_PARTS | {"table"}, "table scope")
    | dict.fromkeys(
        "address article aside blockquote button center details dialog dir div dl fieldset figcaption figure "
        "footer header hgroup listing main menu nav ol pre search section summary ul dd dt applet marquee object "
        "template h1 h2 h3 h4 h5 h6".split(), "scope")
)


class _Segment:
    """The formatting elements the parser will reopen that came after one marker (a table cell, an
    object, a template), each with when it was first opened (the order they are reopened in); at most
    three identical ones, by name and attributes (Noah's Ark)."""

    def __init__(self) -> None:
        self.pending: dict[str, dict[str, list[int]]] = {}  # name -> attributes -> when opened
        self.size = 0
        self.alive = True  # False once the parser has cleared its marker

    def add(self, name: str, key: str, opened: int) -> int:
        """Add a formatting element to reopen; returns how many were added (0 or 1)."""
        times = self.pending.setdefault(name, {}).setdefault(key, [])
        times.append(opened)
        if len(times) <= _NOAHS_ARK:
            self.size += 1
            return 1
        times.remove(min(times))  # the earliest of four identical ones is forgotten
        return 0

    def forget(self, name: str) -> int:
        """Forget the latest formatting element called `name`; returns how many were forgotten (0 or 1)."""
        candidates = [(max(times), key) for key, times in self.pending.get(name, {}).items() if times]
        if not candidates:
            return 0
        latest, key = max(candidates)
        self.pending[name][key].remove(latest)
        self.size -= 1
        return 1

    def take(self) -> list[tuple[int, str, str]]:
        """All the pending elements as (opened, name, attributes) in the order they were opened; empties it."""
        pending = sorted((opened, name, key) for name, keys in self.pending.items()
                         for key, times in keys.items() for opened in times)
        self.pending, self.size = {}, 0
        return pending


class _OpenElements:
    """The stack of open elements, with the positions of each group's members and of each name for
    constant-time scope checks, and the formatting elements the parser will reopen."""

    def __init__(self) -> None:
        self.names: list[str] = []
        self._keys: list[str] = []  # a formatting element's attributes (Noah's Ark compares them)
        self._segments_of: list[_Segment | None] = []  # the segment a formatting element was opened in
        self._opened: list[int] = []  # when each open element was first opened (a counter)
        self._clock = 0
        self._groups: list[tuple[str, ...]] = []  # the groups each open element belongs to
        self._at: dict[str, list[int]] = {group: [] for group in _GROUPS}
        self._by_name: dict[str, list[int]] = {}
        self._namespaces: list[str] = []  # "" (HTML), "svg" or "math"
        self._html: list[int] = []  # positions of HTML elements
        self._html_or_integration: list[int] = []  # ... and of SVG/MathML integration points
        self._segments: list[_Segment] = [_Segment()]  # the list of formatting elements, by marker
        self._n_pending = 0
        self.reopened = 0  # elements the parser creates again when it reopens formatting elements
        # Framesets are counted apart: the parser may take or ignore one, and inside one ignores the rest.
        self.framesets = 0
        self.frameset_ok = True  # False once the parser surely ignores a frameset (after text, <img>...)
        self.maybe_in_frameset = False  # a frameset came while the parser may have taken it
        self.form_open = False  # the parser's form element pointer is set

    def depth(self) -> int:
        return len(self.names) + self._n_pending + self.framesets

    def nearest(self, group: str) -> int:
        """Stack position of the nearest open element of `group`, or -1."""
        positions = self._at[group]
        return positions[-1] if positions else -1

    def namespace(self) -> str:
        """The current element's namespace: "" (HTML, or none open), "svg" or "math"."""
        return self._namespaces[-1] if self.names else ""

    def in_foreign_content(self) -> bool:
        """Whether the current element is SVG or MathML and not an integration point."""
        return bool(self.names) and self._last(self._html_or_integration) < len(self.names) - 1

    def foreign_run(self) -> int:
        """Where the SVG or MathML elements above the nearest HTML element or integration point begin."""
        return self._last(self._html_or_integration) + 1

    def reads_raw_text(self) -> bool:
        """Whether the parser surely reads a raw-text element's content as text here."""
        return not (self.maybe_in_frameset or self.nearest("mode") >= 0 or self.in_foreign_content())

    def nearest_html(self) -> int:
        return self._last(self._html)

    def is_html(self, position: int) -> bool:
        return self._namespaces[position] == ""

    @staticmethod
    def _last(positions: list[int]) -> int:
        return positions[-1] if positions else -1

    def nearest_named(self, name: str) -> int:
        positions = self._by_name.get(name)
        return positions[-1] if positions else -1

    def in_scope(self, group: str, boundaries: str) -> int:
        """Position of the nearest element of `group` when no boundary element (and no element with a
        parsing mode of its own) is open above it, else -1."""
        position = self.nearest(group)
        return position if position >= max(self.nearest(boundaries), self.nearest("mode")) else -1

    def push(self, name: str, attributes: str = "", namespace: str = "", opened: int | None = None) -> None:
        if not namespace:
            self._html.append(len(self.names))
        integration = bool(namespace) and (name in _INTEGRATION[namespace] or _html_annotation(name, attributes))
        if not namespace or integration:
            self._html_or_integration.append(len(self.names))
        self._namespaces.append(namespace)
        special = bool(namespace) and name in _SPECIAL_FOREIGN[namespace]
        groups = _GROUPS_OF_INTEGRATION if special else () if namespace else _GROUPS_OF.get(name, ())
        self._groups.append(groups)
        for group in groups:
            self._at[group].append(len(self.names))
        self._by_name.setdefault(name, []).append(len(self.names))
        self.names.append(name)
        formatting = name in _FORMATTING and not namespace
        self._keys.append(" ".join(attributes.split()) if formatting else "")
        self._segments_of.append(self._segments[-1] if formatting else None)
        self._clock += 1
        self._opened.append(self._clock if opened is None else opened)
        if name in _MARKERS and not namespace:
            self._segments.append(_Segment())

    def pop_to(self, position: int, closed_by: str = "") -> None:
        """Pop every element from `position` up. Formatting elements closed other than by their own
        end tag stay in the parser's list, to be reopened."""
        while len(self.names) > position:
            at = len(self.names) - 1
            name, key, segment = self.names.pop(), self._keys.pop(), self._segments_of.pop()
            opened = self._opened.pop()
            for group in self._groups.pop():
                self._at[group].pop()
            self._by_name[name].pop()
            self._namespaces.pop()
            for positions in (self._html, self._html_or_integration):
                if positions and positions[-1] == at:
                    positions.pop()
            if segment is not None and name != closed_by and segment.alive:
                self._n_pending += segment.add(name, key, opened)

    def clear_to_marker(self) -> None:
        """The parser forgets the formatting elements opened after the last marker (a cell closes...)."""
        cleared = self._segments.pop()
        cleared.alive = False
        self._n_pending -= cleared.size
        if not self._segments:
            self._segments.append(_Segment())

    def reopen(self) -> None:
        """The parser reopens the formatting elements after the last marker (before text and phrasing)."""
        segment = self._segments[-1]
        if segment.size:
            self._n_pending -= segment.size
            for opened, name, key in segment.take():
                self.push(name, key, opened=opened)
                self.reopened += 1

    def close_formatting(self, name: str) -> None:
        """Close the formatting element `name` after the last marker: one waiting to be reopened is
        forgotten; an open one is closed if nothing special is open above it, else it stays open
        (counted) but out of the parser's list."""
        segment = self._segments[-1]
        if segment.forget(name):
            self._n_pending -= 1
            return
        position = self.nearest_named(name)
        if position >= 0 and self._segments_of[position] is segment:
            if position >= max(self.nearest("special"), self.nearest("mode")):
                self.pop_to(position, closed_by=name)
            else:
                self._segments_of[position] = None

    def forget_pending(self, name: str) -> None:
        """An end tag for a formatting element that is only waiting to be reopened."""
        self._n_pending -= self._segments[-1].forget(name)


def _html_annotation(name: str, attributes: str) -> bool:
    """MathML's annotation-xml holding HTML is an integration point."""
    return name == "annotation-xml" and _HTML_ENCODING.search(attributes) is not None


@dataclass(frozen=True)
class Nesting:
    """What building the tree of an HTML document would cost, as `measure_nesting` estimates it."""

    depth: int  # the deepest element nesting (html and body count as two levels)
    reopened: int  # elements created again by reopening formatting elements (beyond the tags)
    tags: int  # start tags read


def measure_nesting(html: str, max_depth: int | None = None, max_reopened: int | None = None) -> Nesting:
    """Estimate the deepest nesting of `html` and how many elements are reopened, stopping as soon
    as the depth passes `max_depth` or the reopened elements pass `max_reopened` plus the number of
    start tags read. Linear in the length of `html`."""
    stack = _OpenElements()
    deepest, position, tags = 0, 0, 0
    while (match := _TOKEN.search(html, position)) is not None:
        if match.start() > position:  # text
            stack.reopen()
            if not html[position:match.start()].isspace():
                stack.frameset_ok = False
        position = match.end()
        slash, name, attributes = match.group(1, 2, 3)
        if name is None:
            continue
        name = name.lower()
        if slash and name in ("br", "p") and stack.in_foreign_content():
            stack.pop_to(stack.foreign_run())  # they end foreign content, then act as HTML
        if slash and name == "br":
            slash, attributes = "", ""  # </br> acts as <br>
        if slash:
            _end_tag(stack, name)
            continue
        tags += 1
        if name in _RAW_TEXT and stack.reads_raw_text():  # text up to its end tag
            end = re.compile(rf"</{re.escape(name)}[\s/>]", re.IGNORECASE).search(html, position)
            if end:  # (an unterminated one is counted as markup)
                position = end.end()
                continue
        _start_tag(stack, name, attributes)
        deepest = max(deepest, stack.depth())
        if (name == "plaintext"  # (after it everything is text)
                or (max_depth is not None and deepest + 2 > max_depth)
                or (max_reopened is not None and stack.reopened > max_reopened + tags)):
            break
    return Nesting(depth=deepest + 2, reopened=stack.reopened, tags=tags)


def _start_tag(stack: _OpenElements, name: str, attributes: str) -> None:
    if name == "frameset":
        stack.framesets += 1
        stack.maybe_in_frameset |= stack.frameset_ok
        return
    if name in _ENDS_FRAMESET_OK:
        stack.frameset_ok = False
    if stack.in_foreign_content():
        if name not in _BREAKOUT:  # an SVG or MathML element ("/>" closes it)
            if not attributes.rstrip().endswith("/"):
                stack.push(name, namespace=stack.namespace())
            return
        stack.pop_to(stack.foreign_run())  # an HTML element ends the foreign content
    if name in _IGNORED:
        return
    if name == "form":
        if stack.form_open:
            return  # the parser ignores a form in a form
        stack.form_open = True
    if name in _TABLE_PARTS:
        if stack.nearest("table") >= 0 or stack.nearest("template") >= 0:  # else the parser ignores it
            _table_part(stack, name)
        return
    if (name == "table" and stack.names and stack.names[-1] in _TABLE_CONTEXT  # it closes the open table
            and (table := stack.in_scope("table", "table scope")) >= 0):
        stack.pop_to(table)
    _implied_end_tags(stack, name)
    if name in ("a", "nobr"):
        stack.close_formatting(name)  # an open one is closed first (the adoption agency)
    if name not in _SPECIAL_HTML or name in _SPECIAL_REOPENING:
        stack.reopen()
    if name in _FOREIGN:
        if not attributes.rstrip().endswith("/"):
            stack.push(name, namespace=name)
    elif name not in _VOID:
        stack.push(name, attributes)


def _implied_end_tags(stack: _OpenElements, name: str) -> None:
    """Close what a start tag closes: an open list item, a p, a heading, an option, a button."""
    if name in _LIST_ITEMS:
        group, stop = _LIST_ITEMS[name]
        if (item := stack.in_scope(group, stop)) >= 0:
            stack.pop_to(item)
    if name in _CLOSES_P and (p := stack.in_scope("p", "button scope")) >= 0:
        stack.pop_to(p)
    top = stack.names[-1] if stack.names else ""
    if (name in _HEADINGS and top in _HEADINGS) or (name in ("option", "optgroup") and top == "option"):
        stack.pop_to(len(stack.names) - 1)
    elif name == "button" and (button := stack.in_scope("button", "scope")) >= 0:
        stack.pop_to(button)


def _table_part(stack: _OpenElements, name: str) -> None:
    """A table part goes back to its place in the nearest table (closing an open cell), with the
    row group and row it implies."""
    table = stack.in_scope("table", "table scope")
    if table < 0:  # (in a template without a table: as it comes)
        stack.push(name)
        return
    row = stack.nearest("tr") if name in _CELLS else -1
    section = stack.nearest("section") if name in _CELLS | {"tr"} else -1
    context = max(table, section, row)
    if stack.nearest("cell") > context:
        stack.pop_to(stack.nearest("cell"))
        stack.clear_to_marker()  # "close the cell"
    stack.pop_to(context + 1)
    if name in _CELLS | {"tr"} and section < table:
        stack.push("tbody")  # implied
    if name in _CELLS and row < table:
        stack.push("tr")  # implied
    stack.push(name)


def _end_tag(stack: _OpenElements, name: str) -> None:
    """Close the element an end tag names where the parser would; otherwise the depth stays."""
    if name == "form":
        stack.form_open = False
    if name == "frameset":
        stack.framesets = max(stack.framesets - 1, 0)
        return
    position = stack.nearest("heading") if name in _HEADINGS else stack.nearest_named(name)
    if position < 0:
        if name in _FORMATTING:
            stack.forget_pending(name)
        return
    if stack.namespace() and position > stack.nearest_html():
        stack.pop_to(position)  # an SVG or MathML element
        return
    if not stack.is_html(position):  # (an HTML end tag closes only an HTML element)
        return
    if name in _TABLE_PARTS and position < stack.nearest("table"):
        return  # (outside a table the parser ignores them)
    if name == "template":  # closed whatever is open above it
        stack.pop_to(position, closed_by=name)
        stack.clear_to_marker()
        return
    if name == "form":  # the parser takes the form element out of the stack, leaving what is above it
        if position == len(stack.names) - 1:
            stack.pop_to(position)
        return
    boundary = _END_SCOPE.get(name, "special")
    if position >= max(stack.nearest(boundary), stack.nearest("mode")):  # (it may be a boundary itself)
        closes_cell = name in _MARKERS or (name in _TABLE_PARTS | {"table"} and stack.nearest("cell") > position)
        stack.pop_to(position, closed_by=name)
        if closes_cell:
            stack.clear_to_marker()
