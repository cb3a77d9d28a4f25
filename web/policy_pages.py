"""Read the store for the chat page: the stored policies (the picker), one policy version's text as
an HTML page whose sentences can be linked to (`/policy?name=NAME&version=N#s-12`), the target of a
citation on the page, and privacy labels as pages (`/label?name=NAME`, the label panel;
`/compare-labels?policies=a,b[,c]`), rendered by `assistant/frontends/label_html.py`.

Only stored policies are shown, and only from the store: a name or version that is not stored gets
404. Every piece of policy text is escaped (`html.escape`); the page runs no script, and its CSS
highlights the linked sentence (`:target`).
"""
from __future__ import annotations

import html
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from http import HTTPStatus

from assistant.engine import Assistant
from assistant.foundation.errors import AssistantError, UnknownPolicyError
from assistant.foundation.settings import Settings
from assistant.frontends.label_html import compared_names, comparison_page, label_page
from assistant.frontends.policy_html import policy_url, render_policy

__all__ = ["PageError", "PolicyReader", "PolicyRequest", "error_page", "parse_compare_query", "parse_policy_query",
           "policy_url", "render_policy"]  # policy_url and render_policy: assistant/frontends/policy_html.py

MAX_NAME_CHARS = 200
MAX_COMPARED_CHARS = 3 * MAX_NAME_CHARS + 2


class PageError(Exception):
    """A request the store cannot answer: `status` and a one-line message for the page."""

    def __init__(self, status: HTTPStatus, message: str) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class PolicyRequest:
    name: str
    version: int | None


def parse_compare_query(query: dict[str, list[str]]) -> list[str]:
    """`policies=a,b[,c]`: two or three stored policies' names."""
    given = query.get("policies") or []
    if len(given) != 1 or len(given[0]) > MAX_COMPARED_CHARS:
        raise PageError(HTTPStatus.BAD_REQUEST, "Say which policies: /compare-labels?policies=a,b[,c].")
    try:
        return compared_names(given[0])
    except AssistantError as exc:
        raise PageError(HTTPStatus.BAD_REQUEST, str(exc)) from None


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

    def label(self, request: PolicyRequest) -> bytes:
        """The policy version's privacy label as a page (`assistant.frontends.label_html`), its lines opening the
        policy page in a new tab (the chat page shows it in a frame); a PageError (404) if not stored."""
        return self._worker.submit(self._label, request).result()

    def compare(self, names: list[str]) -> bytes:
        """The latest versions' labels side by side, as a page."""
        return self._worker.submit(self._compare, names).result()

    def _label(self, request: PolicyRequest) -> bytes:
        with _page_errors():
            label = self._engine().label(request.name, request.version)
        return label_page(label, new_tab=True).encode()

    def _compare(self, names: list[str]) -> bytes:
        with _page_errors():
            labels = [self._engine().label(name) for name in names]
        return comparison_page(labels, new_tab=True).encode()

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


@contextmanager
def _page_errors() -> Iterator[None]:
    """The store's refusals as the page's: 404 for what is not stored, 503 for a store that cannot answer."""
    try:
        yield
    except UnknownPolicyError as exc:
        raise PageError(HTTPStatus.NOT_FOUND, str(exc)) from None
    except AssistantError as exc:
        raise PageError(HTTPStatus.SERVICE_UNAVAILABLE, str(exc)) from None


def error_page(status: HTTPStatus, message: str) -> bytes:
    return ("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>"
            f"{status.value} {html.escape(status.phrase)}</title></head><body><main><h1>{html.escape(status.phrase)}</h1>"
            f"<p>{html.escape(message)}</p><p><a href=\"/\">Back to the chat</a></p></main></body></html>").encode()
