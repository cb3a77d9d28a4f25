"""Shared fixtures: real models loaded once per test session, a fresh store per test."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.paths import AMAZON, EXAMPLE_NAMES, EXAMPLES

TESTS = Path(__file__).resolve().parent


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """With `pytest -n N --dist loadgroup` (make test): each test module runs on one worker, so its module-scoped
    fixtures (an ingest, a server) are built once, and the chat's tests share one worker and its one chat stack."""
    for item in items:
        module = Path(str(item.path)).resolve().relative_to(TESTS)
        item.add_marker(pytest.mark.xdist_group("chat" if module.parts[0] == "chat" else module.as_posix()))


@pytest.fixture(scope="session")
def embedder():
    from assistant.models.retriever.model import Embedder

    return Embedder()


@pytest.fixture(scope="session")
def retriever():
    from assistant.models.retriever.model import Embedder

    return Embedder.load_retriever()


@pytest.fixture(scope="session")
def policyie():
    from assistant.models.policyie.model import PolicyIETagger

    return PolicyIETagger.load()


@pytest.fixture(scope="session")
def reader():
    from assistant.models.reader.model import SpanReader

    return SpanReader.load()


@pytest.fixture(scope="session")
def playwright_driver():
    """One Playwright driver per test process, shared by the chat page's and the extension's browsers: its sync API
    allows only one at a time in a process."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        yield driver


@pytest.fixture
def home(tmp_path: Path) -> Path:
    return tmp_path / "home"


@pytest.fixture
def assistant(home, embedder, retriever, policyie, reader):
    from assistant.engine import Assistant
    from assistant.foundation.settings import Settings

    return Assistant(Settings(home=home), embedder=embedder, retriever=retriever, policyie=policyie, reader=reader)


@pytest.fixture(scope="session")
def amazon_home(tmp_path_factory, embedder, retriever, policyie) -> Path:
    """A store holding the Amazon example policy, ingested once for the read-only tests."""
    from assistant.engine import Assistant
    from assistant.foundation.settings import Settings

    home = tmp_path_factory.mktemp("amazon") / "home"
    Assistant(Settings(home=home), embedder=embedder, retriever=retriever, policyie=policyie).ingest(AMAZON, name="amazon")
    return home


@pytest.fixture
def amazon(amazon_home, embedder, retriever, policyie, reader):
    from assistant.engine import Assistant
    from assistant.foundation.settings import Settings

    return Assistant(Settings(home=amazon_home), embedder=embedder, retriever=retriever, policyie=policyie,
                     reader=reader)



@pytest.fixture(scope="session")
def examples_home(tmp_path_factory, embedder, retriever, policyie) -> Path:
    """The three bundled example policies, stored once, for the tests that only read them."""
    from tests.support.assistants import make_assistant

    home = tmp_path_factory.mktemp("examples") / "home"
    assistant = make_assistant(home, embedder, retriever, policyie)
    for name in EXAMPLE_NAMES:
        assistant.ingest(next(EXAMPLES.glob(f"{name}.*.html")), name=name)
    return home
