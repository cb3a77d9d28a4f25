"""The ingest pipeline: read a file or fetch a URL → parse → split into sentences → embed and tag → store."""
from __future__ import annotations

import dataclasses
import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from assistant.foundation.errors import (
    FetchError,
    IngestLimitError,
    InputFileError,
    NotAPolicyError,
    UnknownPolicyError,
)
from assistant.foundation.limits import Deadline, IngestLimits
from assistant.foundation.sentences import build_policy
from assistant.foundation.text import BIDI_CONTROLS, has_controls
from assistant.foundation.types import Document, ParsedPolicy, PolicyVersion, ProgressCallback, Provenance
from assistant.ingest.discovery import policy_links, well_known_urls
from assistant.ingest.fetch import FetchedPage, FetchLimits, fetch
from assistant.ingest.html_content import loss_warning
from assistant.ingest.naming import distinct_name, name_for_page
from assistant.ingest.parsing import load_document, parse_bytes, parse_upload, upload_name
from assistant.ingest.screening import Screening, screen, visible_text
from assistant.store.database import ProfileMaker, Store
from assistant.store.index import SentenceIndex

if TYPE_CHECKING:  # tagging imports the models (torch, seconds): a bad file is refused before that
    from assistant.ingest.tagging import SentenceTagging

MAX_NAME_CHARS = 100
MAX_LINKS_FOLLOWED = 3  # the best links of a page that is not a policy, tried in turn


@dataclass(frozen=True)
class IngestResult:
    """What an ingest did: `unchanged` is True when identical content was already stored;
    `repaired` when it was, but its damaged index had to be rebuilt; `requested_name` is the name
    asked for (the stored one, `version.name`, may differ in case: names match without regard to case)."""

    version: PolicyVersion
    unchanged: bool
    seconds: float
    repaired: bool = False
    requested_name: str = ""
    warning: str | None = None  # the loss check's, when much of a web page's visible text was left out
    name_note: str | None = None  # how a fetched page's name was chosen, when the user gave none
    found: str | None = None  # how the policy was found from another page of its site (`discovery`)


@dataclass(frozen=True)
class NamePreview:
    """The name an ingest would store a document under, found without storing anything (the chat page shows it
    before it adds: `preview_url`, `preview_upload`). `existing` is the latest version already stored under that
    name — of this same document (its address or file name), so adding stores the next version — or None;
    `unchanged` when it holds this very content (adding stores nothing). `url` is the page that would be stored
    (after redirects, and after `found`: the policy a site's page links to)."""

    name: str
    note: str
    existing: int | None = None
    unchanged: bool = False
    url: str | None = None
    found: str | None = None

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)


class IngestPipeline:
    """Stores policy files and fetched pages as versions. `tagging` is called only when there is something to tag,
    so re-ingesting identical content loads no model."""

    def __init__(self, store: Store, tagging: Callable[[], SentenceTagging], max_bytes: int,
                 fetch_limits: FetchLimits | None = None, limits: IngestLimits | None = None,
                 profile: Callable[[], ProfileMaker] | None = None) -> None:
        """`limits` bound what one ingest may cost (`IngestLimits`): what is over one is refused before
        the costly work, and an ingest that runs past its time budget stops with the store unchanged.
        `profile` gives what computes a new version's privacy profile, which is stored in the same transaction
        as the version; like `tagging`, it is called only when there is something to store (it loads models)."""
        self.store = store
        self.tagging = tagging
        self.max_bytes = max_bytes
        self.fetch_limits = fetch_limits or FetchLimits(max_bytes)
        self.limits = limits or IngestLimits()
        self.profile = profile

    def run(self, path: Path, name: str | None = None, progress: ProgressCallback | None = None,
            force: bool = False) -> IngestResult:
        """Parse, screen, split, embed, tag and store a policy file as a new version of `name` (default: file
        stem). `force` stores a document that screening refuses (not a policy, not English, too short)."""
        started = time.perf_counter()
        name = validate_name(name if name is not None else path.stem)
        deadline = Deadline(self.limits.max_seconds)
        document = load_document(path, self.max_bytes, self.limits.max_html_depth)
        deadline.check("parsing")
        sha256 = hashlib.sha256(path.read_bytes()).hexdigest()
        return self._run_document(document, sha256, name, str(path), str(path.resolve()), progress, force, started,
                                  deadline)

    def run_upload(self, raw: bytes, filename: str, name: str | None = None,
                   progress: ProgressCallback | None = None, force: bool = False) -> IngestResult:
        """Store an uploaded file (`assistant serve`) like a policy file: `filename`, as the client sent it,
        gives only its kind and default name (its last component; nothing is ever opened by that name), and
        it is stored with the source `upload:FILENAME`."""
        started = time.perf_counter()
        filename = upload_name(filename)
        name = validate_name(name if name is not None else Path(filename).stem)
        deadline = Deadline(self.limits.max_seconds)
        document = parse_upload(raw, filename, self.max_bytes, self.limits.max_html_depth)
        deadline.check("parsing")
        sha256 = hashlib.sha256(raw).hexdigest()
        return self._run_document(document, sha256, name, filename, f"upload:{filename}", progress, force, started,
                                  deadline)

    def _run_document(self, document: Document, sha256: str, name: str, shown: str, source: str,
                      progress: ProgressCallback | None, force: bool, started: float,
                      deadline: Deadline) -> IngestResult:
        """Store a parsed file as a new version of `name`, unless identical content is stored already.
        `shown` names it in errors; `source` is what the version records."""
        from assistant.ingest.tagging import TAGGING_PIPELINE  # lazy: after the file is checked (see above)

        existing = self._latest_or_none(name)
        if existing and existing.sha256 == sha256 and self.store.pipeline(existing) == TAGGING_PIPELINE:
            return self._unchanged(existing, name, started)
        screening = check_screening(document, shown, force)  # before splitting: a refused text costs no split
        policy = build_policy(document, self.limits.max_sentences, self.limits.max_paragraph_chars)
        if not policy.sentences:
            raise InputFileError(f"{shown}: no sentences found in the visible text.")
        deadline.check("splitting sentences")
        provenance = provenance_of(document, screening)
        version, added = self._store(policy, name, source, sha256, progress, provenance, deadline)
        return IngestResult(version, not added, time.perf_counter() - started, requested_name=name,
                            warning=loss_warning_of(document))

    def run_url(self, url: str, name: str | None = None, progress: ProgressCallback | None = None,
                force: bool = False, follow_links: bool = True) -> IngestResult:
        """Fetch an http(s) URL and store it as a new version of `name` (default: `_page_name`).

        Unchanged when the latest version has the same bytes or the same cleaned text (a page's markup
        may change on every request: tokens, timestamps), so nothing is stored then. A page screening refuses
        (a site's home page, say) is searched for the link to its site's privacy policy, which is stored instead
        (`follow_links`; `discovery`); the result says how it was found."""
        started = time.perf_counter()
        requested = validate_name(name) if name is not None else None  # a bad name is refused before the fetch
        deadline = Deadline(self.limits.max_seconds)
        page = fetch(url, self.fetch_limits)
        document = parse_bytes(page.content, page.kind, page.url, self.limits.max_html_depth)
        deadline.check("parsing")
        try:
            return self._store_page(page, document, requested, progress, force, deadline, started)
        except NotAPolicyError as refusal:
            if not follow_links or page.kind != "html":
                raise
            return self._follow_to_policy(page, refusal, requested, progress)

    def _store_page(self, page: FetchedPage, document: Document, requested: str | None,
                    progress: ProgressCallback | None, force: bool, deadline: Deadline,
                    started: float) -> IngestResult:
        name, name_note = (requested, None) if requested is not None else self._page_name(document, page)
        sha256 = hashlib.sha256(page.content).hexdigest()
        from assistant.ingest.tagging import TAGGING_PIPELINE  # lazy: after the page is checked (see above)

        existing = self._latest_or_none(name)
        current = existing is not None and self.store.pipeline(existing) == TAGGING_PIPELINE
        if current and existing.sha256 == sha256:
            return self._unchanged(existing, name, started)
        # A page new to this name is screened before it is split (a refused page costs no split); one stored
        # before is split first, to find it unchanged by its text whatever screening says of it now.
        screening = None if current else check_screening(document, page.url, force)
        policy = build_policy(document, self.limits.max_sentences, self.limits.max_paragraph_chars)
        if current and self.store.policy_text(existing.id) == policy.text:
            return self._unchanged(existing, name, started)
        screening = screening or check_screening(document, page.url, force)
        if not policy.sentences:
            raise InputFileError(f"{page.url}: no sentences found in the visible text.")
        provenance = provenance_of(document, screening, page)
        version, added = self._store(policy, name, page.url, sha256, progress, provenance, deadline)
        return IngestResult(version, not added, time.perf_counter() - started, requested_name=name,
                            warning=loss_warning_of(document), name_note=name_note if added else None)

    def _follow_to_policy(self, page: FetchedPage, refusal: NotAPolicyError, name: str | None,
                          progress: ProgressCallback | None) -> IngestResult:
        """Store the privacy policy a refused page links to (`_follow`)."""
        return _follow(page, refusal, lambda url: self.run_url(url, name, progress, follow_links=False))

    def preview_url(self, url: str, follow_links: bool = True) -> NamePreview:
        """The name `run_url(url)` would give the page it stores, without storing: the page is fetched, parsed and
        screened as `run_url` does (the same refusals), and a page that is not a policy leads to the one it links."""
        page = fetch(url, self.fetch_limits)
        document = parse_bytes(page.content, page.kind, page.url, self.limits.max_html_depth)
        if self.store.name_of_source(list(dict.fromkeys([page.url, page.requested_url]))) is None:
            try:
                check_screening(document, page.url, force=False)
            except NotAPolicyError as refusal:
                if not follow_links or page.kind != "html":
                    raise
                return self._preview_followed(page, refusal)
        name, note = self._page_name(document, page)
        existing = self._latest_or_none(name)
        if existing is not None and note is None:
            note = f"\"{existing.name}\" already holds this page (the same address)"
        return NamePreview(existing.name if existing else name, note or "named after the page",
                           existing.version if existing else None,
                           existing is not None and existing.sha256 == hashlib.sha256(page.content).hexdigest(),
                           page.url)

    def _preview_followed(self, page: FetchedPage, refusal: NotAPolicyError) -> NamePreview:
        """`preview_url` of the policy a refused page links to (`_follow`), as `_follow_to_policy` would store it."""
        return _follow(page, refusal, lambda url: self.preview_url(url, follow_links=False))

    def preview_upload(self, raw: bytes, filename: str) -> NamePreview:
        """The name `run_upload(raw, filename)` would store an upload under, without storing: the file is parsed and
        screened as `run_upload` does (the same refusals). Its default name is its file name without the suffix;
        when that name holds another document (not a file of the same name, not this content), "NAME (2)"."""
        filename = upload_name(filename)
        base = validate_name(Path(filename).stem.strip(". ") or "upload")
        document = parse_upload(raw, filename, self.max_bytes, self.limits.max_html_depth)
        sha256 = hashlib.sha256(raw).hexdigest()

        def same_document(candidate: str) -> bool | None:
            existing = self._latest_or_none(candidate)
            if existing is None:
                return None
            source = existing.source_path.removeprefix("upload:").replace("\\", "/").rsplit("/", 1)[-1]
            return existing.sha256 == sha256 or source == filename

        name = validate_name(distinct_name(base, same_document))
        existing = self._latest_or_none(name)
        if not (existing is not None and existing.sha256 == sha256):
            check_screening(document, filename, force=False)
        if name != base:
            note = f"named after the file: \"{base}\" already holds another document"
        elif existing is not None:
            note = f"\"{existing.name}\" already holds a file of this name"
        else:
            note = "named after the file"
        return NamePreview(existing.name if existing else name, note, existing.version if existing else None,
                           existing is not None and existing.sha256 == sha256)

    def _page_name(self, document: Document, page: FetchedPage) -> tuple[str, str | None]:
        """The name for a fetched page the user named not: the name of the policy already read from the same URL,
        else its organisation (`naming`), made distinct from the names of other documents; and a note saying so."""
        sources = list(dict.fromkeys([page.url, page.requested_url]))
        stored = self.store.name_of_source(sources)
        if stored is not None:
            return stored, None
        heading = next((block.text for block in document.blocks if block.is_heading), None)
        chosen = name_for_page(document.title or heading, page.url)
        base = validate_name(chosen.name)

        def same_document(candidate: str) -> bool | None:
            existing = self._latest_or_none(candidate)
            return None if existing is None else bool({existing.source_path, existing.requested_url} & set(sources))

        name = validate_name(distinct_name(base, same_document))
        found = "the page's title" if chosen.source == "title" else "its address"
        if name != base:
            return name, f"named after {found}: \"{base}\" already holds another document"
        return name, f"named after {found}"

    def store_policy(self, policy: ParsedPolicy, name: str, source: str, sha256: str,
                     progress: ProgressCallback | None = None) -> PolicyVersion:
        """Embed, tag and store an already parsed policy as the next version of `name`."""
        return self._store(policy, name, source, sha256, progress)[0]

    def _store(self, policy: ParsedPolicy, name: str, source: str, sha256: str,
               progress: ProgressCallback | None, provenance: Provenance | None = None,
               deadline: Deadline | None = None) -> tuple[PolicyVersion, bool]:
        """Store a new version unless an identical one was stored meanwhile (checked under the
        store's writer lock); says whether it added one."""
        from assistant.ingest.tagging import TAGGING_PIPELINE  # lazy: after the input is checked (see above)

        if len(policy.sentences) > self.limits.max_sentences:  # (build_policy refuses parsed files earlier)
            raise IngestLimitError(f"The policy has more than {self.limits.max_sentences} sentences, the most one "
                                   "ingest accepts (raise the limit with the ASSISTANT_MAX_SENTENCES environment "
                                   "variable).")
        self.store.check_writable(_bytes_needed(policy))  # before any model loads: a store that cannot take it
        deadline = deadline or Deadline(self.limits.max_seconds)
        tagged = self.tagging().run(policy, progress, deadline)
        deadline.check("tagging")
        profile = self.profile() if self.profile else None  # its models load here, not inside the transaction
        return self.store.add_version_if_new(
            name, source, sha256, tagged.policy, SentenceIndex.build(tagged.vectors), TAGGING_PIPELINE, provenance,
            profile)

    def _unchanged(self, existing: PolicyVersion, name: str, started: float) -> IngestResult:
        """Identical content is stored already: nothing to do, unless its index is damaged (then rebuilt)."""
        if self.store.index_problem(existing) is None:
            return IngestResult(existing, True, time.perf_counter() - started, requested_name=name)
        from assistant.ingest.repair import rebuild_index  # lazy: it loads the retriever (torch)

        repaired = rebuild_index(self.store, self.tagging().retriever, existing)
        return IngestResult(repaired, False, time.perf_counter() - started, repaired=True, requested_name=name)

    def _latest_or_none(self, name: str) -> PolicyVersion | None:
        try:
            return self.store.get_version(name)
        except UnknownPolicyError:
            return None


def check_screening(document: Document, source: str, force: bool) -> Screening:
    """Screen a document; refuse one that is not an English privacy policy, with the reason, unless `force`."""
    screening = screen(visible_text(document))
    if not screening.accepted and not force:
        raise NotAPolicyError(f"Not stored: {source}: {screening.reason}. "
                              "Pass --force to store it anyway.")
    return screening


def provenance_of(document: Document, screening: Screening, page: FetchedPage | None = None) -> Provenance:
    """What is stored with a version beside its source: the fetch, the language, the loss check."""
    extraction = document.extraction
    return Provenance(
        requested_url=page.requested_url if page else None, fetched_at=page.fetched_at if page else None,
        language=screening.language, kept_words=extraction.kept_words if extraction else None,
        visible_words=extraction.visible_words if extraction else None)


def loss_warning_of(document: Document) -> str | None:
    """The loss check's one-line warning for a web page that kept too little of its visible text."""
    return loss_warning(document.extraction) if document.extraction else None


def validate_name(name: str) -> str:
    """The policy name with its whitespace normalised; empty or over-long names are refused."""
    name = " ".join(name.split())
    if not name:
        raise InputFileError("The policy name is empty: pass --name NAME.")
    if name.startswith("-"):
        raise InputFileError(f"The policy name {name[:40]!r} starts with '-', which commands would read as an "
                             "option: pick another --name.")
    if has_controls(name) or not BIDI_CONTROLS.isdisjoint(name):  # a name must read as it is: no reordering
        raise InputFileError("The policy name contains control or bidirectional-formatting characters: pick "
                             "another --name.")
    if len(name) > MAX_NAME_CHARS:
        raise InputFileError(f"The policy name is over {MAX_NAME_CHARS} characters: pass a shorter --name.")
    return name


def _bytes_needed(policy: ParsedPolicy) -> int:
    """About what storing `policy` writes: its text three times (the version, its sentences, the WAL) and
    a vector row and its tags per sentence, plus a megabyte of slack."""
    return 3 * len(policy.text.encode()) + 4096 * len(policy.sentences) + 1_000_000


def _short_reason(failure: Exception) -> str:
    """The reason part of a refusal or fetch error ("Not stored: URL: reason. Pass …" → "reason")."""
    text = str(failure)
    text = text.split(": ", 2)[-1] if text.startswith(("Not stored:", "Cannot fetch")) else text
    return text.split(". ", 1)[0].rstrip(".")


Followed = TypeVar("Followed", IngestResult, NamePreview)


def _follow(page: FetchedPage, refusal: NotAPolicyError, attempt: Callable[[str], Followed]) -> Followed:
    """`attempt` on the privacy policy a refused page links to (the best of `discovery.policy_links`, else the site's
    usual paths), the result saying how it was found; when none is one, the refusal says what was tried."""
    links = policy_links(page.content.decode("utf-8", "replace"), page.url)
    tries = [(link.url, link.how) for link in links[:MAX_LINKS_FOLLOWED]] or [
        (url, "the site's usual address for it") for url in well_known_urls(page.url)]
    tried = []
    for url, how in tries:
        try:
            result = attempt(url)
        except (NotAPolicyError, FetchError) as failure:
            tried.append(f"{url} ({_short_reason(failure)})")
            continue
        others = [link.url for link in links if link.url != url][:3]
        found = (f"{page.url} is not a privacy policy; {how} leads to it"
                 + (f" (other candidates: {', '.join(others)})" if others else ""))
        return dataclasses.replace(result, found=found)
    raise NotAPolicyError(f"{refusal} It links no page that is a privacy policy either "
                          f"(tried: {'; '.join(tried)}).") from None
