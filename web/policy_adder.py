"""Adding a policy from the chat page (`POST /policies` of web/server.py): the request's body read
into an `AddRequest` (a URL, or an uploaded file), and the engine's ingest run on one worker thread.
`POST /policies/preview` reads the same request and says the name it would be stored under, storing nothing
(the page shows that name, editable, before the person confirms the add).

The engine (`assistant.engine.Assistant` over `ASSISTANT_HOME`, the store the action server answers
from) is made once, on the worker thread, and reused: its models load on the first ingest, and its
SQLite connection stays on the thread that opened it. One ingest runs at a time; a request while one
runs is refused (409), and `progress()` tells the page what the running one is doing.
"""
from __future__ import annotations

import json
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from email import policy as email_policy
from email.parser import BytesParser
from http import HTTPStatus
from pathlib import PureWindowsPath
from urllib.parse import urlsplit

from assistant.engine import Assistant
from assistant.foundation.errors import AssistantError, NotAPolicyError, StoreError
from assistant.foundation.settings import Settings
from assistant.ingest.fetch import site_url

UPLOAD_SUFFIXES = (".html", ".htm", ".md", ".txt", ".pdf")
MAX_JSON_BYTES = 16 * 1024
FORM_OVERHEAD_BYTES = 64 * 1024  # a form's boundaries, part headers and name field around the file
MAX_SHOWN_FILENAME = 100

# The engine's messages name the CLI's options; the page has none of them.
CLI_HINTS = (
    (" Pass --force to store it anyway.", ""),
    (" (raise it with --max-size or the ASSISTANT_MAX_BYTES environment variable)", ""),
    ("; raise it with --timeout)", ")"),
    (": pass --name NAME.", ": fill in a name."),
    (": pass a shorter --name.", ": give a shorter name."),
    ("; allow it with --allow-private (or ASSISTANT_ALLOW_PRIVATE=1)", ""),
)


class RequestError(Exception):
    """A request the page's endpoint refuses: the HTTP status and a one-line message."""

    def __init__(self, status: HTTPStatus, message: str) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class AddRequest:
    """What to add: a page by `url`, or an uploaded file's bytes; `name` is optional."""

    name: str | None = None
    url: str | None = None
    upload: bytes | None = None
    filename: str = ""  # the upload's own file name, as the browser sent it (shown, never used as a path)


@dataclass(frozen=True)
class Progress:
    """The running ingest: the engine's stage ("embedding" ...), how far, since when."""

    stage: str
    done: int
    total: int
    started: float

    def to_dict(self) -> dict:
        return {"running": True, "stage": self.stage, "done": self.done, "total": self.total,
                "seconds": round(time.monotonic() - self.started, 1)}


# -- reading the request --------------------------------------------------------------------------

def parse_json(body: bytes) -> AddRequest:
    """`{"url": "https://…" or "duolingo.com", "name": optional}`: only an http(s) URL or a site's address, never a
    path on the server."""
    try:
        data = json.loads(body)
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise RequestError(HTTPStatus.BAD_REQUEST, "The request is not valid JSON.") from None
    if not isinstance(data, dict) or not isinstance(data.get("url"), str):
        raise RequestError(HTTPStatus.BAD_REQUEST, 'Send {"url": "https://…"} with the policy\'s address.')
    url = data["url"].strip()
    parts = urlsplit(url)
    site = site_url(url)  # a site's address ("duolingo.com"): its policy is found from its home page
    if site:
        url = site
    elif parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        raise RequestError(HTTPStatus.BAD_REQUEST, "The address must be a site (duolingo.com) or a web address "
                           "starting with http:// or https://.")
    return AddRequest(name=_optional_name(data.get("name")), url=url)


def parse_form(content_type: str, body: bytes, max_bytes: int, default_name: bool = True) -> AddRequest:
    """A multipart/form-data body with a `file` part (and an optional `name` part); without a name, the file's
    (unless not `default_name`: a preview finds the name itself)."""
    head = f"Content-Type: {content_type}\r\nMIME-Version: 1.0\r\n\r\n".encode("latin-1", "replace")
    message = BytesParser(policy=email_policy.HTTP).parsebytes(head + body)
    if not message.is_multipart() or message.defects:
        raise RequestError(HTTPStatus.BAD_REQUEST, "The upload is not a well-formed multipart form.")
    fields: dict[str, tuple[bytes, str | None]] = {}
    for part in message.iter_parts():
        field = part.get_param("name", header="content-disposition")
        if isinstance(field, str) and field not in fields:
            fields[field] = (part.get_payload(decode=True) or b"", part.get_filename())
    if "file" not in fields:
        raise RequestError(HTTPStatus.BAD_REQUEST, "The form has no file: choose a policy file to upload.")
    content, filename = fields["file"]
    if len(content) > max_bytes:
        raise RequestError(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, too_large_message(max_bytes))
    shown = shown_filename(filename or "")
    upload_suffix(shown)
    name = _optional_name(fields["name"][0].decode("utf-8", "replace")) if "name" in fields else None
    if name is None and default_name:
        name = upload_name(shown)
    return AddRequest(name=name, upload=content, filename=shown)


def _optional_name(value: object) -> str | None:
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if not isinstance(value, str):
        raise RequestError(HTTPStatus.BAD_REQUEST, "The policy name must be text.")
    return value


def shown_filename(filename: str) -> str:
    """The last component of an uploaded file's name (either slash), printable characters only."""
    base = PureWindowsPath(filename).name  # splits on "/" and "\"
    return "".join(ch for ch in base if ch.isprintable())[:MAX_SHOWN_FILENAME]


def upload_suffix(filename: str) -> str:
    """The upload's suffix if it is one the engine reads (it tells the engine the file's kind)."""
    suffix = PureWindowsPath(filename).suffix.lower()
    if suffix not in UPLOAD_SUFFIXES:
        raise RequestError(HTTPStatus.BAD_REQUEST,
                           f"Only {', '.join(UPLOAD_SUFFIXES[:-1])} and {UPLOAD_SUFFIXES[-1]} files can be added.")
    return suffix


def upload_name(filename: str) -> str:
    """The default policy name of an upload: its file name without the suffix, as the CLI names files."""
    stem = PureWindowsPath(filename).stem.strip(". ")
    if not stem:
        raise RequestError(HTTPStatus.BAD_REQUEST, "The file's name says nothing: fill in a name for the policy.")
    return stem


def too_large_message(max_bytes: int) -> str:
    return f"The file is larger than the {max_bytes:,}-byte limit for a policy."


def page_message(message: str) -> str:
    """An engine message as the page shows it: without the CLI's options."""
    for cli, page in CLI_HINTS:
        message = message.replace(cli, page)
    return " ".join(message.split())


# -- running the ingest ---------------------------------------------------------------------------

class PolicyAdder:
    """Runs ingests on one worker thread with one engine, one at a time."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="ingest")
        self._slot = threading.Lock()
        self._assistant: Assistant | None = None
        self._progress: Progress | None = None

    @property
    def max_bytes(self) -> int:
        return self.settings.max_bytes

    def reserve(self) -> None:
        """Take the one ingest slot (before the body is read), or refuse: another ingest runs."""
        if not self._slot.acquire(blocking=False):
            raise RequestError(HTTPStatus.CONFLICT, "Another policy is being added: try again when it is done.")

    def release(self) -> None:
        self._progress = None
        self._slot.release()

    def progress(self) -> dict:
        progress = self._progress
        return progress.to_dict() if progress else {"running": False}

    def add(self, request: AddRequest) -> dict:
        """Ingest on the worker thread (the caller holds the slot); the reply's JSON, or a RequestError."""
        self._progress = Progress("fetching" if request.url else "reading", 0, 0, time.monotonic())
        return self._worker.submit(self._ingest, request).result()

    def preview(self, request: AddRequest) -> dict:
        """The name the document would be stored under and how it was chosen, storing nothing (the caller holds
        the slot): the page is fetched (or the upload read) and screened as an add would, with the same refusals."""
        self._progress = Progress("fetching" if request.url else "reading", 0, 0, time.monotonic())
        return self._worker.submit(self._preview, request).result()

    def _preview(self, request: AddRequest) -> dict:
        pipeline = self._engine().ingest_pipeline  # no model loads: nothing is tagged or stored
        try:
            if request.url is not None:
                preview = pipeline.preview_url(request.url)
            else:
                preview = pipeline.preview_upload(request.upload or b"", request.filename)
        except AssistantError as exc:
            raise _refusal(exc) from None
        return preview.to_dict()

    def _engine(self) -> Assistant:
        if self._assistant is None:
            self._assistant = Assistant(self.settings)
        return self._assistant

    def _ingest(self, request: AddRequest) -> dict:
        self._engine()
        started = self._progress.started if self._progress else time.monotonic()

        def report(stage: str, done: int, total: int) -> None:
            self._progress = Progress(stage, done, total, started)

        try:
            if request.url is not None:
                result = self._assistant.ingest(request.url, name=request.name, progress=report)
            else:  # the bytes themselves: nothing is written to disk, nothing is opened by the client's file name
                result = self._assistant.ingest_upload(request.upload or b"", request.filename, request.name, report)
        except AssistantError as exc:
            raise _refusal(exc) from None
        version = result.version
        return {"name": version.name, "version": version.version, "sentences": version.n_sentences,
                "unchanged": result.unchanged, "warning": result.warning, "named": result.name_note,
                "found": result.found}


def _refusal(exc: AssistantError) -> RequestError:
    """An engine error as the page's refusal: its status and the engine's message without the CLI's options."""
    message = page_message(str(exc))
    if isinstance(exc, NotAPolicyError):
        return RequestError(HTTPStatus.UNPROCESSABLE_ENTITY, message)
    if isinstance(exc, StoreError):
        return RequestError(HTTPStatus.SERVICE_UNAVAILABLE, message)
    status = HTTPStatus.REQUEST_ENTITY_TOO_LARGE if "-byte limit" in message else HTTPStatus.UNPROCESSABLE_ENTITY
    return RequestError(status, message)
