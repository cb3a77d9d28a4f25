"""`assistant serve`: the HTTP API on one warm engine (docs/api.md)."""
from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from assistant.foundation.errors import AssistantError
from assistant.frontends.cli.common import command_settings, console, friendly_errors


@friendly_errors
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on (a non-loopback one exposes the store).")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help="Port to listen on.")] = 8765,
    allow_origin: Annotated[list[str] | None, typer.Option(
        "--allow-origin", metavar="URL", help="A web origin whose pages may call the API (repeatable).")] = None,
    threads: Annotated[int, typer.Option(
        min=1, help="Torch threads for the models (1: short inputs gain nothing from more).")] = 1,
    allow_private: Annotated[bool, typer.Option(
        "--allow-private", help="Let an ingested URL (or a redirect) lead to this machine or a private network "
                                "(also ASSISTANT_ALLOW_PRIVATE=1).")] = False,
    extension_origin: Annotated[list[str] | None, typer.Option(
        "--extension-origin", metavar="ORIGIN", envvar="ASSISTANT_EXTENSION_ORIGIN",
        help="The browser extension's origin, chrome-extension://ID (chrome://extensions shows its ID), that may "
             "call the API (repeatable; also ASSISTANT_EXTENSION_ORIGIN, several separated by spaces; "
             "docs/extension.md).")] = None,
    corpus: Annotated[Path | None, typer.Option(
        help="A folder `assistant corpus ingest` wrote: questions across it at /corpus/ask and /corpus/search.")
    ] = None,
) -> None:
    """Serve the HTTP API (docs/api.md) on one warm engine; `ask`, `label` and `policies` then use it."""
    from assistant.frontends.api import serve as serve_api  # lazy: FastAPI and the engine load only here

    if corpus is not None and not (corpus / "documents").is_dir():
        raise AssistantError(f"{corpus}: no corpus tables here (write them with `assistant corpus ingest … --out "
                             f"{corpus}`).")

    serve_api(command_settings(allow_private=allow_private), host, port, allow_origin or (), threads,
              say=lambda line: console.print(line, markup=False, soft_wrap=True),
              extension_origins=extension_origin or (), corpus=corpus)

