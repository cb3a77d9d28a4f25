"""`assistant serve`: a small local HTTP API over one warm engine (FastAPI + uvicorn; docs/api.md).

Every command from the CLI is a new process that loads five models (seconds); the server loads them once
and answers in milliseconds. `create_app(assistant)` builds the app around an engine (tests pass one with
preloaded models); `serve` runs it. The engine is not thread-safe, so every reading call runs on one worker
thread, one at a time (`EngineWorker`), and every ingest runs as a job on a second engine sharing the models,
on its own thread (`jobs.IngestJobs`): questions are answered while a policy is being stored. The server
refuses requests from web pages (a foreign `Origin`) unless `--allow-origin` names them (or
`--extension-origin` the browser extension's origin, extension/), answers only
requests addressed to a loopback name when it listens on one, never reads a file on the server by path
(ingest takes an http(s) URL or an uploaded file), and closes connections too slow to send a request
(`connections`).
"""
from __future__ import annotations

import asyncio
import ipaddress
import logging
import re
import socket
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from dataclasses import asdict
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeVar
from urllib.parse import urlsplit

from fastapi import FastAPI, File, Form, Query, Request, UploadFile
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse
from pydantic import BaseModel, Field
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.middleware.cors import CORSMiddleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from assistant.engine import Assistant
from assistant.foundation.errors import AssistantError, StoreError, UnknownPolicyError
from assistant.foundation.settings import MAX_QUESTION_CHARS, Settings
from assistant.foundation.types import ProgressCallback
from assistant.frontends import connections
from assistant.frontends.jobs import IngestJobs
from assistant.frontends.label_html import compared_names, comparison_page, label_page
from assistant.frontends.policy_html import render_policy
from assistant.frontends.render import ingest_message, policy_row, removal_message
from assistant.ingest.fetch import site_url
from assistant.understanding.validation import require_utf8, validate_question

if TYPE_CHECKING:
    from assistant.ingest.pipeline import IngestResult

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8765
UPLOAD_OVERHEAD = 64 * 1024  # bytes a multipart request may carry besides the file (boundaries, fields)
T = TypeVar("T")
log = logging.getLogger("uvicorn.error")


class EngineWorker:
    """Runs engine calls on one thread, one after the other: the engine is not thread-safe (its SQLite
    connection belongs to the thread that opened it, its caches are unguarded)."""

    def __init__(self, assistant: Assistant) -> None:
        self.assistant = assistant
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="engine")

    async def run(self, call: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._thread, partial(call, *args))

    def close(self) -> None:
        self._thread.shutdown(wait=False, cancel_futures=True)


class AskRequest(BaseModel):
    question: str = Field(description=f"The question, in plain English (at most {MAX_QUESTION_CHARS} characters).")
    policy: str | None = Field(None, description="Policy name (optional when only one is stored).")
    version: int | None = Field(None, description="Policy version (default: latest).")
    top: int = Field(3, ge=1, le=20, description="How many evidence sentences to return.")


class CorpusAskRequest(BaseModel):
    question: str = Field(description="The question, asked of the corpus's services (those it names, else all).")


def create_app(assistant: Assistant, allowed_origins: Sequence[str] = (), local_only: bool = True,
               load_models: bool = True, threads: int | None = None,
               extension_origins: Sequence[str] = (), corpus: Path | None = None) -> FastAPI:
    """The API over `assistant`. `allowed_origins`: web origins whose pages may call it (with CORS headers);
    `extension_origins`: browser extensions' origins (`chrome-extension://ID`, `moz-extension://UUID`) that may
    call it, with CORS headers, and frame its label page (extension/, docs/extension.md); `corpus`: a folder
    `assistant corpus ingest` wrote, answered from by /corpus/ask and /corpus/search;
    `local_only`: answer only requests whose Host is a loopback name (against DNS rebinding);
    `load_models`: load every model before listening, so the first question is fast; `threads`: the models'
    intra-op threads on the engine's thread (`assistant serve`: 1 — a question's inputs are a few dozen
    tokens, and on a busy machine two spinning threads made each question 30 times slower, docs/benchmarks.md)."""
    worker = EngineWorker(assistant)
    jobs = IngestJobs()
    writer: list[Assistant] = []  # the ingest thread's engine, made on its first job (sharing loaded models)
    home = str(assistant.settings.home.expanduser().resolve())

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        if threads:
            await worker.run(_use_threads, threads)
        if load_models:
            started = time.perf_counter()
            await worker.run(assistant.load_models)
            log.info("Models loaded in %.1f s; store %s.", time.perf_counter() - started, home)
        yield
        jobs.close()
        worker.close()

    app = FastAPI(title="Privacy assistant", version="1", lifespan=lifespan,
                  description="Ask questions about privacy policies; answers quote and cite the policy. "
                              "Questions are answered while policies are ingested. See docs/api.md.")
    app.state.served = Counter()  # "METHOD /path" → requests let through the guard (tests prove use with it)
    _add_error_handlers(app)
    origins = list(dict.fromkeys([*allowed_origins, *extension_origins]))
    if origins:
        app.add_middleware(CORSMiddleware, allow_origins=origins,
                           allow_methods=["GET", "POST", "DELETE"], allow_headers=["Content-Type"])
    # The label page may be framed by the extensions' pages only (its panel); every other page stays unframeable.
    label_csp = PAGE_CSP.replace("frame-ancestors 'none'", "frame-ancestors " + " ".join(extension_origins)
                                 ) if extension_origins else PAGE_CSP
    app.add_middleware(RequestGuard, allowed_origins=frozenset(origins), local_only=local_only,
                       max_body=assistant.settings.max_bytes + UPLOAD_OVERHEAD, served=app.state.served)

    @app.get("/health", summary="Whether the server runs, and the store it serves")
    async def health() -> dict[str, str]:
        """Answered at once, without waiting for the engine. `home` is the store's resolved folder: the CLI
        uses the server only when it is its own `ASSISTANT_HOME`."""
        return {"status": "ok", "home": home}

    @app.get("/policies", summary="The stored policies, as `assistant policies --json` lists them")
    async def policies() -> list[dict[str, Any]]:
        return [policy_row(summary) for summary in await worker.run(assistant.policies)]

    @app.delete("/policies/{name:path}", summary="Delete a stored policy and all its versions")
    async def remove(name: str) -> dict[str, Any]:
        removed = await worker.run(assistant.remove, require_utf8(name, "policy name"))
        return {"name": name, "removed": removed, "message": removal_message(name, removed)}

    @app.post("/ingest", summary="Store a policy from an http(s) URL or an uploaded file")
    async def ingest(
        url: Annotated[str | None, Form(description="An http(s) URL to fetch (or send `file`).")] = None,
        file: Annotated[UploadFile | None, File(description="A policy file: .html, .htm, .md, .txt or .pdf.")] = None,
        name: Annotated[str | None, Form(description="Name to store it under (default: from the file or URL).")] = None,
        force: Annotated[bool, Form(description="Store it even if it is not an English privacy policy.")] = False,
        wait: Annotated[bool, Form(description="Answer when it is stored (default); false: answer at once "
                                               "with a job to poll at /jobs/{job}.")] = True,
    ) -> Any:
        """A URL is fetched as `assistant ingest URL` does; a file is read from the upload, never from a path
        on the server. Uploads are limited to the server's `ASSISTANT_MAX_BYTES`. The ingest runs as a job
        beside the questions; ingests run one after the other."""
        name = require_utf8(name, "policy name")
        if (url is None) == (file is None):
            raise AssistantError("Send either a url field or a file to ingest (one of them).")
        if file is not None:
            content, filename = await file.read(), file.filename or ""

            def run(engine: Assistant, progress: ProgressCallback) -> IngestResult:
                return engine.ingest_upload(content, filename, name, progress, force)
        else:
            address = _http_url(url)

            def run(engine: Assistant, progress: ProgressCallback) -> IngestResult:
                return engine.ingest_url(address, name, progress, force)

        def ingest_job(progress: ProgressCallback) -> dict[str, Any]:
            if not writer:
                writer.append(assistant.twin())
            return _ingest_reply(run(writer[0], progress))

        job, future = jobs.submit(ingest_job)
        if not wait:
            return JSONResponse(job.to_dict(), status_code=202)
        return await asyncio.wrap_future(future)

    @app.get("/jobs/{job_id}", summary="An ingest job: queued, running (stage and progress), done or failed")
    async def job(job_id: str) -> dict[str, Any]:
        return jobs.get(job_id).to_dict()

    @app.post("/ask", summary="Answer a question, as `assistant ask --json` prints it")
    async def ask(request: AskRequest) -> dict[str, Any]:
        policy = require_utf8(request.policy, "policy name")

        def answer() -> dict[str, Any]:
            validate_question(request.question)  # first, as the CLI does
            chosen = assistant.choose_policy(policy)
            return assistant.ask(request.question, policy=chosen, version=request.version,
                                 top_k=request.top).to_dict()

        return await worker.run(answer)

    @app.post("/corpus/ask", summary="A question across the served corpus, as `assistant corpus ask --json` prints it")
    async def corpus_ask(request: CorpusAskRequest) -> dict[str, Any]:
        from assistant.corpus.catalogue import ask as ask_corpus  # lazy: pandas and FAISS, for a corpus only

        def answer() -> dict[str, Any]:
            validate_question(request.question)
            answers = ask_corpus(_served_corpus(corpus), request.question, _encoder(assistant))
            return {"question": answers.question, "facet": answers.facet, "summary": answers.summary(),
                    "answers": [a.to_dict() for a in answers.answers]}

        return await worker.run(answer)

    @app.get("/corpus/search", summary="The served corpus's closest sentences, as `assistant corpus search --json`")
    async def corpus_search(text: str, facet: str | None = None,
                            top: Annotated[int, Query(ge=1, le=100)] = 10) -> list[dict[str, Any]]:
        from assistant.corpus.catalogue import search as search_corpus  # lazy: as above

        def found() -> list[dict[str, Any]]:
            validate_question(text)
            return [asdict(m) for m in search_corpus(_served_corpus(corpus), _encoder(assistant), text, top, facet)]

        return await worker.run(found)

    @app.get("/label", summary="The privacy label, as `assistant label --json` (or `--html`) prints it")
    async def label(policy: Annotated[str | None, Query(description="Policy name (optional when only one).")] = None,
                    version: Annotated[int | None, Query(description="Policy version (default: latest).")] = None,
                    format: Annotated[Literal["json", "html"], Query(
                        description="json (default), or html: the label as a page read at a glance.")] = "json",
                    new_tab: Annotated[bool, Query(
                        description="html: its links open the policy in a new tab (a framed label).")] = False,
                    ) -> Any:
        policy = require_utf8(policy, "policy name")
        made = await worker.run(lambda: assistant.label(assistant.choose_policy(policy), version))
        if format == "html":
            return html_page(label_page(made, new_tab=new_tab), label_csp)
        return made.to_dict()

    @app.get("/diff", summary="What changed between two versions, as `assistant diff --json` prints it")
    async def diff(policy: Annotated[str, Query(description="Policy name.")],
                   from_version: Annotated[int | None, Query(
                       alias="from", ge=1, description="The older version (default: the one before `to`).")] = None,
                   to_version: Annotated[int | None, Query(
                       alias="to", ge=1, description="The newer version (default: latest).")] = None,
                   ) -> dict[str, Any]:
        policy = require_utf8(policy, "policy name")
        return (await worker.run(assistant.diff, policy, from_version, to_version)).to_dict()

    @app.get("/compare-labels", summary="Two or three privacy labels side by side, as a page",
             response_class=HTMLResponse)
    async def compare_labels(policies: Annotated[str, Query(
            description="Two or three policy names, comma-separated (their latest versions).")]) -> HTMLResponse:
        names = compared_names(require_utf8(policies, "policy names"))
        return html_page(comparison_page(await worker.run(lambda: [assistant.label(name) for name in names])))

    @app.get("/policy", summary="A policy version as a page whose sentences can be linked to (#s-N)",
             response_class=HTMLResponse)
    async def policy_page(name: Annotated[str, Query(description="Policy name.")],
                          version: Annotated[int | None, Query(description="Version (default: latest).")] = None,
                          ) -> HTMLResponse:
        """What a label page's lines link to: the policy's sentences, escaped, the linked one highlighted."""
        name = require_utf8(name, "policy name")

        def page() -> str:
            stored = assistant.version(name, version)
            return render_policy(stored, assistant.store.sentences(stored.id), assistant.store.policy_text(stored.id),
                                 back=None)

        return html_page(await worker.run(page))

    return app


# The HTML pages (label, comparison, policy) run no script and load nothing: they may not be framed elsewhere.
PAGE_CSP = ("default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; "
            "frame-ancestors 'none'")


def html_page(page: str, csp: str = PAGE_CSP) -> HTMLResponse:
    return HTMLResponse(page, headers={"Content-Security-Policy": csp, "X-Content-Type-Options": "nosniff"})


def _ingest_reply(result: IngestResult) -> dict[str, Any]:
    version = result.version
    return {"name": version.name, "version": version.version, "sections": version.n_sections,
            "sentences": version.n_sentences, "unchanged": result.unchanged, "repaired": result.repaired,
            "seconds": round(result.seconds, 3), "message": ingest_message(result), "warning": result.warning,
            "found": result.found}


def _use_threads(threads: int) -> None:
    from assistant.foundation.inference import backend, set_threads  # lazy: with the models it sizes

    set_threads(threads)  # ONNX Runtime sessions created after this use `threads` intra-op threads
    if backend() == "torch":
        import torch  # lazy: the torch backend's models import it anyway; here on the engine's own thread

        torch.set_num_threads(threads)


class RequestGuard:
    """Refuses, before any work: a request from a web page whose origin was not allowed (403), one addressed to
    another host name when the server listens on a loopback address (403: DNS rebinding), and a body larger
    than an upload may be (413, from its Content-Length or as it arrives). Counts what it lets through."""

    def __init__(self, app: ASGIApp, allowed_origins: frozenset[str], local_only: bool, max_body: int,
                 served: Counter) -> None:
        self.app = app
        self.allowed_origins = allowed_origins
        self.local_only = local_only
        self.max_body = max_body
        self.served = served

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        host = headers.get("host", "")
        origin = headers.get("origin")
        if self.local_only and not is_loopback(_host_name(host)):
            await _refuse(scope, receive, send, 403, f"This server answers only requests addressed to "
                          f"127.0.0.1 or localhost, not {host or 'no host'}.")
            return
        if origin is not None and origin not in self.allowed_origins and origin != f"http://{host}":
            option = "--extension-origin" if origin.startswith(EXTENSION_SCHEMES) else "--allow-origin"
            await _refuse(scope, receive, send, 403, f"Requests from {origin} are refused: start the server "
                          f"with {option} {origin} to allow them.")
            return
        declared = headers.get("content-length", "")
        if declared.isdigit() and int(declared) > self.max_body:
            await _refuse(scope, receive, send, 413, self._too_large())
            return
        self.served[f"{scope['method']} {scope['path']}"] += 1
        await self.app(scope, self._limited(receive), send)

    def _limited(self, receive: Receive) -> Receive:
        received = 0
        body_ends = time.monotonic() + connections.BODY_SECONDS
        complete = False

        async def receive_within_limit() -> Message:
            nonlocal received, complete
            if complete:  # the body is in: what follows is the wait for a disconnect, not timed
                return await receive()
            try:
                message = await asyncio.wait_for(receive(), max(0.0, body_ends - time.monotonic()))
            except TimeoutError:
                raise HTTPException(408, "The request's body did not arrive within "
                                    f"{connections.BODY_SECONDS:g} s.") from None
            complete = not message.get("more_body", False)
            received += len(message.get("body", b""))
            if received > self.max_body:  # FastAPI passes an HTTPException raised while it reads the body on
                raise HTTPException(413, self._too_large())
            return message

        return receive_within_limit

    def _too_large(self) -> str:
        return (f"The request is larger than the server's {self.max_body - UPLOAD_OVERHEAD}-byte limit on "
                "uploads (ASSISTANT_MAX_BYTES).")


async def _refuse(scope: Scope, receive: Receive, send: Send, status: int, message: str) -> None:
    await JSONResponse({"error": message}, status_code=status)(scope, receive, send)


def is_loopback(host: str) -> bool:
    """Whether `host` (an address to listen on) is reachable from this machine only."""
    try:
        return host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _host_name(host: str) -> str:
    """The name in a Host header, without its port ("[::1]:8765" → "::1")."""
    if host.startswith("["):
        return host[1:].split("]", 1)[0]
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def _http_url(url: str) -> str:
    """`url` if it is an http(s) URL, a site's home page for its address ("duolingo.com"); a path on the server
    (or any other scheme) is refused."""
    if urlsplit(url.strip()).scheme.lower() not in ("http", "https"):
        site = site_url(url)
        if site is None:
            raise AssistantError(f"Ingest takes an http(s) URL, a site's address or an uploaded file, not {url!r}: "
                                 "the server never reads its own files by path.")
        return site
    return url.strip()


def _served_corpus(corpus: Path | None) -> Path:
    if corpus is None:
        raise UnknownPolicyError("This server serves no corpus: start it with `assistant serve --corpus DIR`.")
    return corpus


def _encoder(assistant: Assistant) -> Callable[[str], Any]:
    return lambda text: assistant.retriever.encode([text])[0]


def _status(error: AssistantError) -> int:
    if isinstance(error, UnknownPolicyError):
        return 404
    if isinstance(error, StoreError):
        return 409  # the store's state (read-only, locked, damaged index: `assistant repair`) prevents it
    return 400


def _add_error_handlers(app: FastAPI) -> None:
    """Every refusal is JSON of one line, {"error": "..."}, as the CLI prints it after `error: `."""

    @app.exception_handler(AssistantError)
    async def assistant_error(_: Request, error: AssistantError) -> JSONResponse:
        return JSONResponse({"error": str(error)}, status_code=_status(error))

    @app.exception_handler(RequestValidationError)
    async def invalid_request(_: Request, error: RequestValidationError) -> JSONResponse:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first.get("loc", ()) if part != "body") or "request"
        message = " ".join(str(first.get("msg", "invalid")).split())
        return JSONResponse({"error": f"Invalid request: {where}: {message}."}, status_code=422)

    @app.exception_handler(Exception)
    async def fault(_: Request, error: Exception) -> JSONResponse:  # a bug: uvicorn logs the traceback
        return JSONResponse({"error": f"Internal error ({type(error).__name__}); see the server's log."},
                            status_code=500)

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, error: HTTPException) -> JSONResponse:
        messages = {404: f"No such endpoint: {request.url.path} (see /docs).",
                    405: f"{request.method} is not allowed on {request.url.path} (see /docs)."}
        return JSONResponse({"error": messages.get(error.status_code, str(error.detail))},
                            status_code=error.status_code, headers=error.headers)


def check_origin(origin: str) -> str:
    """A web origin as browsers send it (scheme://host[:port]), or a one-line error."""
    parts = urlsplit(origin.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.path not in ("", "/") or parts.query:
        raise AssistantError(f"--allow-origin {origin!r} is not a web origin such as http://localhost:3000.")
    return f"{parts.scheme}://{parts.netloc.lower()}"


# A browser extension's origin: Chromium's (32 letters a-p, from its key) or Firefox's (a UUID per install).
EXTENSION_SCHEMES = ("chrome-extension://", "moz-extension://")
_EXTENSION_ORIGIN = re.compile(r"chrome-extension://[a-p]{32}|"
                               r"moz-extension://[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12}")


def check_extension_origin(origin: str) -> str:
    """A browser extension's origin as browsers send it (`chrome-extension://ID`, `moz-extension://UUID`),
    or a one-line error."""
    cleaned = origin.strip().rstrip("/").lower()
    if not _EXTENSION_ORIGIN.fullmatch(cleaned):
        raise AssistantError(f"--extension-origin {origin!r} is not an extension's origin such as "
                             "chrome-extension://abcdefghijklmnopabcdefghijklmnop (chrome://extensions shows its ID).")
    return cleaned


def check_port_free(host: str, port: int) -> None:
    """A one-line error when `port` cannot be listened on (another server has it)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as error:
            raise AssistantError(f"Cannot listen on {host}:{port} ({error.strerror or error}); is another "
                                 "server running there? Choose another port with --port.") from None


def serve(settings: Settings, host: str = DEFAULT_HOST, port: int = DEFAULT_PORT,
          allowed_origins: Sequence[str] = (), threads: int = 1, say: Callable[[str], None] = print,
          extension_origins: Sequence[str] = (), corpus: Path | None = None) -> None:
    """Load the models, then answer on host:port until interrupted (`threads`, `extension_origins`: see
    `create_app`)."""
    import uvicorn  # lazy: only the server needs it

    origins = [check_origin(origin) for origin in allowed_origins]
    extensions = list(dict.fromkeys(check_extension_origin(origin) for origin in extension_origins))
    check_port_free(host, port)
    local_only = is_loopback(host)
    app = create_app(Assistant(settings), origins, local_only=local_only, threads=threads,
                     extension_origins=extensions, corpus=corpus)
    shown = f"[{host}]" if ":" in host else host
    say(f"Serving the store {settings.home} on http://{shown}:{port} (API docs: /docs) once the models are "
        "loaded; Ctrl-C stops it.")
    for extension in extensions:
        say(f"The browser extension {extension} may use it.")
    if not local_only:
        say(f"warning: {host} is not a loopback address: anyone who can reach it can use the API, "
            "without a password.")
    uvicorn.run(app, host=host, port=port, log_level="info", access_log=False, **connections.server_options())
