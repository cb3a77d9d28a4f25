"""The privacy label as a page people read at a glance (issue 39): sections with an icon, one line per question
in plain words with a mark and a colour for yes / no / only if / not stated, each line opening its quote and a
link to the policy at that sentence; and two or three labels side by side in the same style.

One renderer for every front end: `assistant label --html`, `GET /label?format=html` and `/compare-labels` of
`assistant serve`, and the chat page's label panel (web/server.py). A page is standalone (its CSS inline, no
script, no image or font to fetch), prints (a print stylesheet: the lines with their sentence numbers) and fits a
390 px phone. Every piece of policy text (names, quotes, items) is escaped with `html.escape`; the marks are
inline SVG hidden from screen readers beside their word, so colour is never the only sign.
"""
from __future__ import annotations

import html
from collections import Counter
from collections.abc import Iterable, Sequence

from assistant.answering.label import GlanceRow, LabelSection, PrivacyLabel
from assistant.foundation.errors import AssistantError
from assistant.frontends.policy_html import policy_url
from assistant.understanding.facets import BY_NAME

MAX_COMPARED = 3  # labels side by side: more columns no longer fit a page

# (key, title, icon, facets): the at-a-glance questions grouped as a reader looks for them. A facet in none of them
# (a newer one) goes under "Other".
GROUPS: tuple[tuple[str, str, str, tuple[str, ...]], ...] = (
    ("sharing", "Selling and sharing", "share",
     ("sale", "sharing_advertisers", "sharing_third_parties", "law_enforcement", "international_transfer")),
    ("collection", "What they collect and track", "eye",
     ("collection_location", "cookies_tracking", "children", "ai_training")),
    ("choices", "Your choices", "toggle", ("opt_out_ads", "deletion", "access_correction", "contact_dpo")),
    ("keeping", "Keeping your data", "lock", ("retention", "security", "policy_changes")),
)
OTHER_GROUP = ("other", "Other", "info")

def plain_line(row: GlanceRow) -> str:
    """A row's line in plain words: its facet's own phrase (`Facet.does`, the one home of how a practice is said),
    capitalised; a row with no known facet shows its question."""
    facet = BY_NAME.get(row.facet)
    return facet.does[:1].upper() + facet.does[1:] if facet is not None else row.question

_SVG = '<svg aria-hidden="true" focusable="false" viewBox="0 0 {box} {box}" {attrs}>{body}</svg>'
_LINE = 'fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"'
ICONS = {
    "share": ('<circle cx="18" cy="5" r="3"/><circle cx="6" cy="12" r="3"/><circle cx="18" cy="19" r="3"/>'
              '<path d="M8.6 13.5l6.8 4M15.4 6.5l-6.8 4"/>'),
    "eye": '<path d="M1 12s4-7 11-7 11 7 11 7-4 7-11 7S1 12 1 12z"/><circle cx="12" cy="12" r="3"/>',
    "toggle": '<rect x="2" y="7" width="20" height="10" rx="5"/><circle cx="16" cy="12" r="2.5"/>',
    "lock": '<rect x="4" y="11" width="16" height="10" rx="2"/><path d="M8 11V7a4 4 0 0 1 8 0v4"/>',
    "info": '<circle cx="12" cy="12" r="10"/><path d="M12 16v-4M12 8h.01"/>',
    "list": '<path d="M8 6h13M8 12h13M8 18h13M3 6h.01M3 12h.01M3 18h.01"/>',
}
# verdict → (the word shown, the mark): the word is always there, the mark and colour only repeat it
_HALF = ('<circle cx="8" cy="8" r="6.25" fill="none" stroke="currentColor" stroke-width="1.5"/>'
         '<path d="M8 1.75a6.25 6.25 0 0 1 0 12.5z" fill="currentColor"/>')
VERDICTS = {
    "yes": ("Yes", ('<circle cx="8" cy="8" r="7" fill="currentColor"/>'
                    '<path d="M4.6 8.3l2.2 2.2 4.6-4.8" fill="none" stroke="#fff" stroke-width="1.8"/>')),
    "no": ("No", ('<circle cx="8" cy="8" r="7" fill="currentColor"/>'
                  '<path d="M5.4 5.4l5.2 5.2M10.6 5.4l-5.2 5.2" stroke="#fff" stroke-width="1.8"/>')),
    "conditional": ("Only if", _HALF),
    "scoped": ("Only for some", _HALF),
    "not_stated": ("Not stated", ('<circle cx="8" cy="8" r="6.25" fill="none" stroke="currentColor" '
                                  'stroke-width="1.5" stroke-dasharray="2.5 2"/>'
                                  '<path d="M5 8h6" stroke="currentColor" stroke-width="1.5"/>')),
}
VERDICT_ORDER = ("yes", "no", "conditional", "scoped", "not_stated")

STYLE = """
*, *::before, *::after { box-sizing: border-box; }
body { margin: 0 auto; max-width: 760px; padding: 16px 20px 40px; font-family: system-ui, sans-serif;
       line-height: 1.45; color: #1d2330; background: #fff; overflow-wrap: anywhere; }
body.wide { max-width: 1100px; }
h1 { font-size: 1.4rem; margin: 0 0 4px; }
.meta { color: #4a5263; margin: 0 0 10px; font-size: 0.9rem; }
a { color: #1a5fb4; }
:focus-visible { outline: 3px solid #c88800; outline-offset: 2px; }
.visually-hidden, .cell-policy { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0);
                                 white-space: nowrap; }
.tally { display: flex; flex-wrap: wrap; gap: 6px; list-style: none; padding: 0; margin: 0 0 14px; }
.chip { display: inline-flex; align-items: center; gap: 4px; padding: 1px 8px 1px 5px; border: 1px solid;
        border-radius: 999px; font-weight: 700; font-size: 0.85rem; white-space: nowrap; }
.chip svg { width: 1em; height: 1em; flex: none; }
.v-yes { background: #e3f4e8; color: #1c5e2c; border-color: #2e7d32; }
.v-no { background: #fbe3e4; color: #8a1c24; border-color: #c01c28; }
.v-conditional, .v-scoped { background: #fff1cc; color: #5c3d00; border-color: #c88800; }
.v-not_stated, .v-other { background: #eef0f4; color: #434b5c; border-color: #8b93a5; border-style: dashed; }
.group { border: 1px solid #d3d7df; border-radius: 10px; margin: 0 0 12px; padding: 8px 12px; }
.group h2 { display: flex; align-items: center; gap: 8px; font-size: 1.05rem; margin: 2px 0 4px; }
.group h2 svg { width: 1.3em; height: 1.3em; flex: none; color: #1a5fb4; }
.rows { list-style: none; margin: 0; padding: 0; }
.row { border-top: 1px solid #e6e8ee; padding: 4px 0; }
.row:first-child { border-top: 0; }
.line { display: flex; align-items: baseline; gap: 8px; padding: 2px 0; }
.line .chip { flex: none; min-width: 7.2em; }
.line .what { flex: 1 1 auto; min-width: 0; }
.cond { color: #5c3d00; }
summary { cursor: pointer; }
summary.line { list-style: none; }
summary.line::-webkit-details-marker { display: none; }
summary .open-mark { flex: none; color: #4a5263; font-size: 0.8rem; }
summary .open-mark::before { content: "Quote ▸"; }
details[open] > summary .open-mark::before { content: "Quote ▾"; }
.said { margin: 4px 0 6px; padding: 2px 0 2px 10px; border-left: 3px solid #c4c9d4; }
.said p { margin: 2px 0; }
.quote { margin: 0; font-style: italic; }
.note { color: #4a5263; font-size: 0.9rem; }
.ref { display: none; color: #4a5263; font-size: 0.85rem; }
.facts h2 { font-size: 1.05rem; }
.facts h3 { font-size: 0.95rem; margin: 10px 0 2px; }
.facts ul { margin: 0; padding-left: 20px; }
.facts .not-done { color: #8a1c24; font-weight: 600; }
.foot { color: #4a5263; font-size: 0.85rem; margin-top: 14px; }
table.cmp { width: 100%; border-collapse: collapse; table-layout: fixed; }
.cmp th, .cmp td { border-top: 1px solid #e6e8ee; padding: 6px; text-align: left; vertical-align: top; }
.cmp thead th { border-top: 0; font-size: 0.95rem; }
.cmp tbody th { font-weight: 600; width: 32%; }
.cmp .differs { display: inline-block; margin-left: 4px; padding: 0 6px; border-radius: 4px; background: #e8f0fb;
                color: #1a4a8a; font-size: 0.75rem; font-weight: 600; }
.cmp td summary { display: flex; flex-wrap: wrap; align-items: baseline; gap: 4px 6px; list-style: none; }
.cmp td summary::-webkit-details-marker { display: none; }
@media (max-width: 600px) {
  body { padding: 12px 12px 32px; }
  .group { padding: 6px 10px; }
  .line .chip { min-width: 6.4em; }
  summary .open-mark::before { content: "▸"; }
  details[open] > summary .open-mark::before { content: "▾"; }
  .cmp, .cmp tbody, .cmp tr, .cmp th, .cmp td { display: block; width: auto; }
  .cmp tbody th { width: auto; border-top: 1px solid #d3d7df; padding: 8px 0 2px; }
  .cmp thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
  .cmp td { display: flex; flex-wrap: wrap; align-items: baseline; gap: 2px 8px; border: 0; padding: 2px 0 4px 8px; }
  .cmp td details { flex: 1 1 12em; min-width: 0; }
  .cell-policy { position: static; flex: none; width: 7.5em; height: auto; clip: auto; white-space: normal;
                 font-weight: 600; font-size: 0.85rem; color: #4a5263; }
}
@media print {
  body, body.wide { max-width: none; padding: 0; font-size: 10.5pt; }
  .chip, .group, .cmp .differs { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
  .group, .cmp tr { break-inside: avoid; }
  .open-mark, .no-print { display: none; }
  .ref { display: inline; }
  a { color: inherit; text-decoration: none; }
}
"""


def compared_names(policies: str) -> list[str]:
    """The policies of a `?policies=a,b[,c]` query: two or three distinct names, else a one-line error."""
    names = [name.strip() for name in policies.split(",") if name.strip()]
    if not 2 <= len(names) <= MAX_COMPARED:
        raise AssistantError(f"Name two or three policies to see their labels side by side (policies=a,b[,c]), "
                             f"not {len(names)}.")
    if len({name.lower() for name in names}) < len(names):
        raise AssistantError("Name each policy once.")
    return names


def label_page(label: PrivacyLabel, base_url: str = "", new_tab: bool = False) -> str:
    """One policy's label as a standalone HTML page. Links open the policy page at `base_url` (a server serving
    `/policy`; "" for links relative to the server that sends the page); `new_tab`: they open in a new tab."""
    esc = html.escape
    links = _Links(label.policy, label.version, base_url, new_tab)
    parts = [_head(f"Privacy label: {label.policy}"), "<body>", "<main>",
             f"<h1>Privacy label: {esc(label.policy)}</h1>",
             (f'<p class="meta">Version {label.version}. Every line comes from the policy\'s own words: open a line '
              f'for its quote. {links.whole("Read the whole policy")}</p>'),
             _tally(label.glance)]
    if not label.glance:
        parts.append('<p class="note">No answers at a glance are stored for this version.</p>')
    for key, title, icon, rows in _grouped(label.glance):
        parts.append(f'<section class="group" aria-labelledby="g-{key}">'
                     f'<h2 id="g-{key}">{_icon(icon)}{esc(title)}</h2><ul class="rows">')
        parts += [f'<li class="row">{_glance_row(row, links)}</li>' for row in rows]
        parts.append("</ul></section>")
    parts.append(_facts(label.sections, label.sentences_read, links))
    parts += [('<p class="foot">From the privacy assistant: the marks are our reading of the policy; the quotes and '
               "the policy are its own words.</p>"), "</main>", "</body>", "</html>"]
    return "\n".join(parts)


def comparison_page(labels: Sequence[PrivacyLabel], base_url: str = "", new_tab: bool = False) -> str:
    """Two or three labels side by side as a standalone HTML page: the same sections and lines, a column per
    policy (on a phone each line lists the policies under it), a line marked where their answers differ."""
    if not 2 <= len(labels) <= MAX_COMPARED:
        raise ValueError(f"compare 2 to {MAX_COMPARED} labels, not {len(labels)}")
    esc = html.escape
    links = [_Links(label.policy, label.version, base_url, new_tab) for label in labels]
    names = ", ".join(esc(label.policy) for label in labels[:-1]) + f" and {esc(labels[-1].policy)}"
    by_policy = [{row.facet: row for row in label.glance} for label in labels]
    facets = list(dict.fromkeys(row.facet for label in labels for row in label.glance))
    questions = {row.facet: row for label in labels for row in reversed(label.glance)}
    parts = [_head(f"Privacy labels: {' vs '.join(label.policy for label in labels)}"), '<body class="wide">', "<main>",
             f"<h1>Privacy labels side by side: {names}</h1>",
             '<p class="meta">' + "; ".join(f"{esc(label.policy)}, version {label.version} "
                                            f"({link.whole('the whole policy')})" for label, link in zip(labels, links))
             + ". Open a mark for its quote.</p>",
             _tally([], legend_only=True)]
    for key, title, icon, rows in _grouped([questions[f] for f in facets]):
        parts.append(f'<section class="group" aria-labelledby="g-{key}">'
                     f'<h2 id="g-{key}">{_icon(icon)}{esc(title)}</h2>')
        parts.append('<table class="cmp"><thead><tr><th scope="col">Question</th>'
                     + "".join(f'<th scope="col">{esc(label.policy)}</th>' for label in labels) + "</tr></thead><tbody>")
        for row in rows:
            cells = [policy_rows.get(row.facet) for policy_rows in by_policy]
            differs = len({cell.verdict if cell else None for cell in cells}) > 1
            parts.append(f'<tr><th scope="row">{esc(plain_line(row))}'
                         + ('<span class="differs">They differ</span>' if differs else "") + "</th>")
            for label, link, cell in zip(labels, links, cells):
                shown = _verdict_cell(cell, link) if cell else '<span class="note">Not on this label</span>'
                parts.append(f'<td><span class="cell-policy">{esc(label.policy)}</span>{shown}</td>')
            parts.append("</tr>")
        parts.append("</tbody></table></section>")
    parts += [('<p class="foot">From the privacy assistant: the marks are our reading of each policy; the quotes '
               "and the policies are their own words.</p>"), "</main>", "</body>", "</html>"]
    return "\n".join(parts)


class _Links:
    """A label's links to its policy page (escaped for an attribute)."""

    def __init__(self, policy: str, version: int, base_url: str, new_tab: bool) -> None:
        self.policy, self.version, self.base, self.new_tab = policy, version, base_url, new_tab

    def href(self, sentence: int | None = None) -> str:
        return html.escape(policy_url(self.policy, self.version, sentence, self.base), quote=True)

    def anchor(self, sentence: int | None, text: str) -> str:
        target = ' target="_blank" rel="noopener"' if self.new_tab else ""
        hint = '<span class="visually-hidden"> (opens in a new tab)</span>' if self.new_tab else ""
        return f'<a href="{self.href(sentence)}"{target}>{html.escape(text)}{hint}</a>'

    def whole(self, text: str) -> str:
        return self.anchor(None, text)


def _head(title: str) -> str:
    return ('<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{html.escape(title)} · Privacy assistant</title>\n<style>{STYLE}</style>\n</head>")


def _icon(name: str) -> str:
    return _SVG.format(box=24, attrs=_LINE, body=ICONS[name])


def _chip(verdict: str) -> str:
    word, mark = VERDICTS.get(verdict, (verdict.replace("_", " "), VERDICTS["not_stated"][1]))
    kind = verdict if verdict in VERDICTS else "other"
    return f'<span class="chip v-{kind}">{_SVG.format(box=16, attrs="", body=mark)}{html.escape(word)}</span>'


def _tally(rows: Iterable[GlanceRow], legend_only: bool = False) -> str:
    """The four marks with how many lines have each (or, `legend_only`, what each means): the legend."""
    counts = Counter(row.verdict for row in rows)
    shown = [v for v in VERDICT_ORDER if v != "scoped" or counts[v]]
    items = "".join(f"<li>{_chip(v)}{'' if legend_only else f' {counts[v]}'}</li>" for v in shown)
    title = "What the marks mean" if legend_only else "How many lines have each answer"
    return f'<ul class="tally" aria-label="{title}">{items}</ul>'


def _grouped(rows: Sequence[GlanceRow]) -> list[tuple[str, str, str, list[GlanceRow]]]:
    """The rows by group, in the groups' order and each group's facet order; empty groups left out."""
    by_facet = {row.facet: row for row in rows}
    grouped = [(key, title, icon, [by_facet[f] for f in facets if f in by_facet]) for key, title, icon, facets in GROUPS]
    known = {f for *_, facets in GROUPS for f in facets}
    grouped.append((*OTHER_GROUP, [row for row in rows if row.facet not in known]))
    return [group for group in grouped if group[3]]


def _condition(row: GlanceRow) -> str:
    """The condition an "only if" headline starts with ("When the law requires it — …"), in lower case."""
    if row.verdict in ("conditional", "scoped") and " — " in row.headline:
        condition = row.headline.split(" — ", 1)[0].strip()
        if condition and condition.lower() not in ("yes", "no"):
            return condition[0].lower() + condition[1:]
    return ""


def _said(row: GlanceRow, links: _Links) -> str:
    """What opens under a line: the quote, the value it states where the quote leaves it out, what kind of
    practice it is, and the link to the policy at the sentence."""
    esc = html.escape
    parts = ['<div class="said">']
    if row.quote:
        parts.append(f'<blockquote class="quote"><p>“{esc(row.quote)}”</p></blockquote>')
    if row.value and (not row.quote or row.value not in row.quote):
        parts.append(f'<p class="note">It names: {esc(row.value)}</p>')
    if row.described and row.verdict != "no":
        parts.append(f'<p class="note">{esc(row.described)}</p>')
    parts.append(f"<p>{links.anchor(row.sentence_id, f'Open the policy at sentence {row.sentence_id}')}</p></div>")
    return "".join(parts)


def _glance_row(row: GlanceRow, links: _Links) -> str:
    """One line: the mark and word, the question in plain words (with its condition); a line with a sentence
    behind it opens to its quote and link."""
    condition = _condition(row)
    what = (f'<span class="what">{html.escape(plain_line(row))}'
            + (f' <span class="cond">— {html.escape(condition)}</span>' if condition else "")
            + (f' <span class="ref">(sentence {row.sentence_id})</span>' if row.sentence_id else "") + "</span>")
    if row.sentence_id is None:
        return f'<div class="line">{_chip(row.verdict)}{what}</div>'
    return (f'<details><summary class="line">{_chip(row.verdict)}{what}<span class="open-mark" aria-hidden="true">'
            f"</span></summary>{_said(row, links)}</details>")


def _verdict_cell(row: GlanceRow, links: _Links) -> str:
    condition = _condition(row)
    mark = _chip(row.verdict) + (f' <span class="cond">{html.escape(condition)}</span>' if condition else "")
    if row.sentence_id is None:
        return mark
    return (f'<details><summary>{mark}<span class="ref">(sentence {row.sentence_id})</span>'
            f'<span class="open-mark" aria-hidden="true"></span></summary>{_said(row, links)}</details>')


MAX_SENTENCE_LINKS = 5


def _facts(sections: Sequence[LabelSection], sentences_read: int, links: _Links) -> str:
    """The label's facts by section (data collected, shared, with whom, …), closed: each item with links to the
    sentences it comes from."""
    esc = html.escape
    parts = ['<section class="group facts" aria-labelledby="g-facts">',
             f'<h2 id="g-facts">{_icon("list")}What the policy lists</h2>',
             (f"<details><summary>The kinds of data, recipients and purposes it names ({sentences_read} sentences "
              "read)</summary>")]
    for section in sections:
        parts.append(f"<h3>{esc(section.title)}</h3>")
        if not section.rows:
            parts.append('<p class="note">Not stated.</p>')
            continue
        parts.append("<ul>")
        for cell in section.rows:
            denial = ""
            if cell.only_negated:
                denial = ' <span class="not-done">(stated as not done)</span>'
            elif cell.negated:
                denial = ' <span class="not-done">(also stated as not done)</span>'
            shown = cell.sentences[:MAX_SENTENCE_LINKS]
            sentences = ", ".join(links.anchor(n, str(n)) for n in shown)
            more = " …" if len(cell.sentences) > len(shown) else ""
            word = "sentence" if len(cell.sentences) == 1 else "sentences"
            parts.append(f"<li>{esc(cell.item)}{denial} <span class=\"note\">— {word} {sentences}{more}</span></li>")
        parts.append("</ul>")
    parts.append("</details></section>")
    return "\n".join(parts)
