"""Ingest off the request path: `assistant serve` runs each ingest as a job, on a second engine and thread.

Questions are answered on the server's engine thread while a policy is fetched, parsed, tagged and stored
on the ingest thread: the two engines share the loaded models (`Assistant.twin`) and each has its own
SQLite connection (WAL: readers never wait for the writer). Jobs run one after the other in the order they
were sent; a client waits for its job or polls it by an id no one else can guess (`GET /jobs/{id}`).
"""
from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from assistant.foundation.errors import AssistantError, UnknownPolicyError
from assistant.foundation.types import ProgressCallback

KEPT_JOBS = 100  # finished jobs kept for polling, the oldest forgotten first
Ingest = Callable[[ProgressCallback], dict[str, Any]]  # runs one ingest, reporting progress; its reply


@dataclass
class IngestJob:
    """One ingest: where it is (queued → running → done | failed), its progress and its reply or error."""

    id: str
    status: str = "queued"
    stage: str = "waiting for the ingest before it"
    done: int = 0
    total: int = 0
    started: float = field(default_factory=time.monotonic)
    seconds: float | None = None  # from submission to the end, once finished
    reply: dict[str, Any] | None = None
    error: str | None = None

    def to_dict(self) -> dict[str, Any]:
        shown: dict[str, Any] = {"job": self.id, "status": self.status, "stage": self.stage, "done": self.done,
                                 "total": self.total,
                                 "seconds": round(self.seconds if self.seconds is not None
                                                  else time.monotonic() - self.started, 3)}
        if self.reply is not None:
            shown["result"] = self.reply
        if self.error is not None:
            shown["error"] = self.error
        return shown


class IngestJobs:
    """The ingest thread and the jobs sent to it."""

    def __init__(self) -> None:
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="ingest")
        self._jobs: OrderedDict[str, IngestJob] = OrderedDict()
        self._lock = threading.Lock()

    def submit(self, ingest: Ingest) -> tuple[IngestJob, Future[dict[str, Any]]]:
        """Queue `ingest`; the future holds its reply, or the exception that stopped it."""
        job = IngestJob(secrets.token_urlsafe(16))
        with self._lock:
            self._jobs[job.id] = job
            self._forget_old()
        return job, self._thread.submit(self._run, job, ingest)

    def get(self, job_id: str) -> IngestJob:
        with self._lock:
            job = self._jobs.get(job_id)
        if job is None:
            raise UnknownPolicyError(f"No ingest job {job_id!r} here (finished jobs are kept until "
                                     f"{KEPT_JOBS} newer ones have run, and until the server stops).")
        return job

    def close(self) -> None:
        self._thread.shutdown(wait=False, cancel_futures=True)

    def _run(self, job: IngestJob, ingest: Ingest) -> dict[str, Any]:
        job.status, job.stage = "running", "starting"

        def progress(stage: str, done: int, total: int) -> None:
            job.stage, job.done, job.total = stage, done, total

        try:
            job.reply = ingest(progress)
        except AssistantError as error:
            job.error, job.status = str(error), "failed"
            raise
        except BaseException as error:
            job.error, job.status = f"Internal error ({type(error).__name__}); see the server's log.", "failed"
            raise
        finally:
            job.seconds = time.monotonic() - job.started
        job.status, job.stage = "done", "stored"
        return job.reply

    def _forget_old(self) -> None:
        finished = [key for key, job in self._jobs.items() if job.status in ("done", "failed")]
        for key in finished[:max(0, len(self._jobs) - KEPT_JOBS)]:
            del self._jobs[key]
