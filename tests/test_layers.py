"""Tests for scripts/check_layers.py: an import inside a function that closes a circle is reported."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def layers() -> ModuleType:
    spec = importlib.util.spec_from_file_location("check_layers", ROOT / "scripts" / "check_layers.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is made
    spec.loader.exec_module(module)
    return module


def write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def problems(layers: ModuleType, root: Path, allowed: dict[str, dict[str, str]]) -> list[str]:
    _, found = layers.edges(root, ("pkg",))
    return layers.circle_problems(found, allowed)


# pkg.low imports pkg.high only inside a function: the circle pkg.high -> pkg.low -> pkg.high runs at call time.
CIRCLE = {
    "pkg/__init__.py": "",
    "pkg/high.py": "from pkg.low import helper\n",
    "pkg/low.py": "def helper():\n    from pkg import high  # late, to break the circle at import time\n    return high\n",
}


def test_a_circle_closed_only_inside_a_function_is_reported(layers: ModuleType, tmp_path: Path) -> None:
    found = problems(layers, write(tmp_path, CIRCLE), {})
    assert len(found) == 1
    assert found[0].startswith("import circle: pkg.high -> pkg.low")
    assert "pkg/low.py:2 (pkg.low -> pkg.high)" in found[0]


def test_an_allow_listed_import_leaves_the_circle_graph(layers: ModuleType, tmp_path: Path) -> None:
    assert problems(layers, write(tmp_path, CIRCLE), {"pkg.low": {"pkg.high": "a reason"}}) == []


def test_allow_list_entries_are_module_prefixes(layers: ModuleType, tmp_path: Path) -> None:
    files = {"pkg/__init__.py": "", "pkg/high.py": "import pkg.low.inner\n", "pkg/low/__init__.py": "",
             "pkg/low/inner.py": "def helper():\n    import pkg.high  # late\n"}
    root = write(tmp_path, files)
    assert problems(layers, root, {}) != []
    assert problems(layers, root, {"pkg.low": {"pkg.high": "a reason"}}) == []


def test_an_allow_list_entry_that_closes_no_circle_is_reported(layers: ModuleType, tmp_path: Path) -> None:
    files = {"pkg/__init__.py": "", "pkg/high.py": "def run():\n    from pkg import low  # lazy, pointing down\n",
             "pkg/low.py": ""}
    root = write(tmp_path, files)
    assert problems(layers, root, {}) == []  # a lazy import that points down needs no entry
    assert problems(layers, root, {"pkg.high": {"pkg.low": "a reason"}}) == [
        "allow-list entry pkg.high -> pkg.low is not needed: its imports close no circle"]
    assert problems(layers, root, {"pkg.low": {"pkg.high": "a reason"}}) == [
        "allow-list entry pkg.low -> pkg.high matches no import inside a function"]


def test_a_module_level_import_is_never_left_out(layers: ModuleType, tmp_path: Path) -> None:
    files = {"pkg/__init__.py": "", "pkg/high.py": "from pkg import low\n", "pkg/low.py": "from pkg import high\n"}
    found = problems(layers, write(tmp_path, files), {"pkg.low": {"pkg.high": "a reason"}})
    assert found[0] == "import circle: pkg.high -> pkg.low"
