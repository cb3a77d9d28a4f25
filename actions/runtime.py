"""The one engine of an action-server process, and the thread it runs on.

The `Assistant` (embedder, cross-encoder, FAISS indexes, SQLite store) is created once per process,
lazily, and every engine call runs on one dedicated thread: models load once, the SQLite connection
stays on the thread that opened it, and the engine's caches are never touched concurrently. Action
coroutines await that thread, so the action server's event loop (health checks, other requests)
keeps running while a question is answered. Conversation state never lives here: it is in slots.
"""
from __future__ import annotations

import asyncio
import logging
import os
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from assistant.engine import Assistant

T = TypeVar("T")
logger = logging.getLogger(__name__)

_executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="assistant-engine")
_lock = threading.Lock()
_assistant: Assistant | None = None


def get_assistant() -> Assistant:
    """The process's engine (created on first use; settings such as ASSISTANT_HOME from the environment).

    Torch runs on `ACTIONS_ENGINE_THREADS` threads (default 1): a question's inputs are a few dozen
    tokens, too small for intra-op parallelism to pay, and under load the other core is busy
    serving Rasa (docs/benchmarks.md measures both settings).
    """
    global _assistant
    with _lock:
        if _assistant is None:
            import torch

            from assistant.engine import Assistant  # heavy: torch, faiss

            torch.set_num_threads(int(os.environ.get("ACTIONS_ENGINE_THREADS", "1")))
            _assistant = Assistant()
        return _assistant


def served_corpus() -> Path | None:
    """The corpus folder the chat also answers from (`ASSISTANT_CORPUS`, written by `assistant corpus ingest`), or
    None: services it holds are answered without an ingest, and "which of them…" is asked across it."""
    folder = os.environ.get("ASSISTANT_CORPUS", "").strip()
    return Path(folder).expanduser() if folder else None


def check_served_corpus() -> None:
    """Refuse to start on an `ASSISTANT_CORPUS` that holds no stored policy, with one line, rather than answer every
    question with that error."""
    corpus = served_corpus()
    if corpus is None:
        return
    from assistant.corpus.catalogue import services  # lazy: pandas and FAISS, for a corpus only
    from assistant.foundation.errors import AssistantError

    try:
        stored = services(corpus)
    except AssistantError as error:
        raise SystemExit(f"ASSISTANT_CORPUS: {error}") from None
    if not stored:
        raise SystemExit(f"ASSISTANT_CORPUS: {corpus} holds no stored policy (every document was refused or failed).")
    logger.info("Answering from the corpus at %s too (%d services).", corpus, len(stored))


def _call(function: Callable[..., T], *args: object) -> T:
    return function(get_assistant(), *args)


async def run_engine(function: Callable[..., T], *args: object) -> T:
    """Run `function(assistant, *args)` on the engine thread and await its result."""
    return await asyncio.get_running_loop().run_in_executor(_executor, partial(_call, function, *args))


def _warm_up(assistant: Assistant) -> None:
    """One real question loads every model the engine uses (and the first policy's index)."""
    policies = assistant.policies()
    if policies:
        assistant.ask("What information do you collect?", policy=policies[0].latest.name)
    else:
        assistant.embedder.encode(["warm up"])
        assistant.retriever.encode(["warm up"])


def warm_up() -> Future:
    """Load the models in the background, ahead of the first question (queued before any action)."""

    def run() -> None:
        try:
            _call(_warm_up)
            logger.info("Assistant engine loaded (store: %s).", get_assistant().settings.home)
        except Exception:  # the first action reports the problem to the user
            logger.exception("Loading the assistant engine failed.")

    return _executor.submit(run)
