"""An engine on a given store with the session's models (the fixtures'), for tests that need several stores."""
from __future__ import annotations

from pathlib import Path


def make_assistant(home: Path, embedder, retriever, policyie, reader=None):
    from assistant.engine import Assistant
    from assistant.foundation.settings import Settings

    return Assistant(Settings(home=home), embedder=embedder, retriever=retriever, policyie=policyie, reader=reader)
