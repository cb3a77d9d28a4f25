"""Read the store for the chat page: the stored policies (the picker) and one policy version's text as
an HTML page whose sentences can be linked to (`/policy?name=NAME&version=N#s-12`), the target of a
citation on the page.

Only stored policies are shown, and only from the store: a name or version that is not stored gets
404. Every piece of policy text is escaped (`html.escape`); the page runs no script, and its CSS
highlights the linked sentence (`:target`).
"""
from __future__ import annotations

import html
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from http import HTTPStatus
from pathlib import PurePath
from urllib.parse import urlencode

from assistant.engine import Assistant
from assistant.foundation.errors import AssistantError, UnknownPolicyError
from assistant.foundation.settings import Settings
from assistant.foundation.types import PolicyVersion, Sentence

MAX_NAME_CHARS = 200


class PageError(Exception):
    """A request the store cannot answer: `status` and a one-line message for the page."""

    def __init__(self, status: HTTPStatus, message: str) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class PolicyRequest:
    name: str
    version: int | None


def parse_policy_query(query: dict[str, list[str]]) -> PolicyRequest:
    """`name` (required) and `version` (a positive integer; default the latest) from a query string."""
    names = query.get("name") or []
    if len(names) != 1 or not names[0].strip() or len(names[0]) > MAX_NAME_CHARS:
        raise PageError(HTTPStatus.BAD_REQUEST, "Say which policy: /policy?name=NAME&version=N.")
    versions = query.get("version") or []
    version = None
    if versions:
        if len(versions) != 1 or not versions[0].isdigit() or int(versions[0]) < 1:
            raise PageError(HTTPStatus.BAD_REQUEST, "The version must be a positive whole number.")
        version = int(versions[0])
    return PolicyRequest(names[0], version)


def policy_url(name: str, version: int, sentence: int | None = None) -> str:
    """The page of a policy version (at a sentence): what the chat page's citations link to."""
    return "/policy?" + urlencode({"name": name, "version": version}) + (f"#s-{sentence}" if sentence else "")


class PolicyReader:
    """Reads the store on one thread of its own (the SQLite connection stays on it), apart from the
    ingest worker, so the picker and citations answer while a policy is being added."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="reader")
        self._assistant: Assistant | None = None

    def _engine(self) -> Assistant:
        if self._assistant is None:
            self._assistant = Assistant(self.settings)  # the models are not loaded: only the store is used
        return self._assistant

    def policies(self) -> list[dict]:
        """The stored policies (latest versions), by name."""
        return self._worker.submit(self._policies).result()

    def page(self, request: PolicyRequest) -> bytes:
        """The policy version's page, or a PageError (404: not stored)."""
        return self._worker.submit(self._page, request).result()

    def _policies(self) -> list[dict]:
        return [{"name": s.latest.name, "version": s.latest.version, "sentences": s.latest.n_sentences}
                for s in self._engine().policies()]

    def _page(self, request: PolicyRequest) -> bytes:
        engine = self._engine()
        try:
            version = engine.version(request.name, request.version)
            sentences = engine.store.sentences(version.id)
            text = engine.store.policy_text(version.id)
        except UnknownPolicyError as exc:
            raise PageError(HTTPStatus.NOT_FOUND, str(exc)) from None
        except AssistantError as exc:
            raise PageError(HTTPStatus.SERVICE_UNAVAILABLE, str(exc)) from None
        return render_policy(version, sentences, text).encode()


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


def render_policy(version: PolicyVersion, sentences: list[Sentence], text: str = "") -> str:
    """The policy version as HTML: a heading per section, each sentence a `span#s-N` (escaped), a new
    paragraph where the stored text has a line break between two sentences."""
    esc = html.escape
    title = f"{version.name}, version {version.version}"
    parts = [
        "<!doctype html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{esc(title)} · Privacy assistant</title>", f"<style>{PAGE_STYLE}</style>", "</head>", "<body>",
        "<main>", f"<h1>{esc(version.name)}</h1>",
        (f'<p class="meta">Version {version.version}, {version.n_sentences} sentences, stored '
        f"{esc(version.ingested_at[:10])} from {shown_source(version.source_path)}. "
        'Sentence numbers are the ones the chat cites. <a href="/">Back to the chat</a></p>'),
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


def error_page(status: HTTPStatus, message: str) -> bytes:
    return ("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>"
            f"{status.value} {html.escape(status.phrase)}</title></head><body><main><h1>{html.escape(status.phrase)}</h1>"
            f"<p>{html.escape(message)}</p><p><a href=\"/\">Back to the chat</a></p></main></body></html>").encode()
