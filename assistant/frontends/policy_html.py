"""A stored policy version as an HTML page whose sentences can be linked to (`/policy?name=NAME&version=N#s-12`):
the page a citation or a label row opens, served by the chat page's server (web/server.py) and by
`assistant serve` (`GET /policy`).

Every piece of policy text is escaped (`html.escape`); the page runs no script, and its CSS highlights the
linked sentence (`:target`).
"""
from __future__ import annotations

import html
from pathlib import PurePath
from urllib.parse import urlencode

from assistant.foundation.types import PolicyVersion, Sentence


def policy_url(name: str, version: int, sentence: int | None = None, base: str = "") -> str:
    """The page of a policy version (at a sentence), under `base` (a server's address; "" for a relative link)."""
    return (base.rstrip("/") + "/policy?" + urlencode({"name": name, "version": version})
            + (f"#s-{sentence}" if sentence else ""))


PAGE_STYLE = """
body { margin: 0 auto; max-width: 760px; padding: 16px 24px 48px; font-family: system-ui, sans-serif;
       line-height: 1.5; color: #1d2330; background: #fff; overflow-wrap: anywhere; }
@media (max-width: 480px) { body { padding: 12px 14px 40px; } }
h1 { font-size: 1.4rem; margin: 0 0 4px; }
.meta { color: #4a5263; margin: 0 0 16px; font-size: 0.9rem; }
h2 { font-size: 1.05rem; margin: 20px 0 6px; }
.sentence { scroll-margin-top: 40vh; }
.sentence .n { color: #5c6475; font-size: 0.75rem; margin-right: 2px; }
.sentence:target { background: #fff0b3; outline: 2px solid #c88800; border-radius: 2px; }
a { color: #1a5fb4; }
:focus-visible { outline: 3px solid #e5a50a; outline-offset: 2px; }
"""


def shown_source(source: str) -> str:
    """Where a version was read from, as the page shows it (escaped): a fetched page's address as a link, an
    upload's file name, a file's name only — never the path of a file on the server."""
    if source.startswith(("http://", "https://")):
        return f'<a href="{html.escape(source, quote=True)}" rel="noreferrer">{html.escape(source)}</a>'
    if source.startswith("upload:"):
        return f"the uploaded file {html.escape(source.removeprefix('upload:'))}"
    return f"the file {html.escape(PurePath(source).name)}"


def render_policy(version: PolicyVersion, sentences: list[Sentence], text: str = "",
                  back: str | None = '<a href="/">Back to the chat</a>') -> str:
    """The policy version as HTML: a heading per section, each sentence a `span#s-N` (escaped), a new
    paragraph where the stored text has a line break between two sentences. `back`: a link after the
    page's description (our own markup, not escaped), or None."""
    esc = html.escape
    title = f"{version.name}, version {version.version}"
    parts = [
        "<!doctype html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{esc(title)} · Privacy assistant</title>", f"<style>{PAGE_STYLE}</style>", "</head>", "<body>",
        "<main>", f"<h1>{esc(version.name)}</h1>",
        (f'<p class="meta">Version {version.version}, {version.n_sentences} sentences, stored '
         f"{esc(version.ingested_at[:10])} from {shown_source(version.source_path)}. "
         "Sentence numbers are the ones the chat cites." + (f" {back}" if back else "") + "</p>"),
    ]
    section = None
    open_paragraph = False
    previous_end = 0
    for sentence in sentences:
        if sentence.section != section:
            if open_paragraph:
                parts.append("</p>")
            section = sentence.section
            heading = section.replace(" > ", " › ") if section else "(top of policy)"
            parts.append(f"<h2>{esc(heading)}</h2>")
            parts.append("<p>")
            open_paragraph = True
        elif "\n" in text[previous_end:sentence.start]:
            parts.append("</p>\n<p>")
        previous_end = sentence.end
        page = f", p. {sentence.page}" if sentence.page else ""
        parts.append(f'<span class="sentence" id="s-{sentence.ordinal}">'
                     f'<span class="n" aria-hidden="true">{sentence.ordinal}{page}</span>'
                     f"{esc(sentence.text)}</span> ")
    if open_paragraph:
        parts.append("</p>")
    parts += ["</main>", "</body>", "</html>"]
    return "\n".join(parts)
