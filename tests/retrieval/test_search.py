"""`assistant search` as a user runs it: the real CLI in a subprocess over a store of two bundled examples, the
closest sentences across policies or in one (`compare --topic`: tests/answering/test_compare.py; `eval alignment`:
tests/evaluation/test_alignment.py)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from assistant.store.database import Store
from tests.support.assistants import make_assistant
from tests.support.cli import run_long
from tests.support.paths import EXAMPLES


@pytest.fixture(scope="module")
def two_policies(tmp_path_factory, embedder, retriever, policyie) -> Path:
    home = tmp_path_factory.mktemp("search") / "home"
    assistant = make_assistant(home, embedder, retriever, policyie)
    for name in ("amazon", "instagram"):
        assistant.ingest(next(EXAMPLES.glob(f"{name}.*.html")), name=name)
    return home


def stored_sentences(home: Path) -> dict[tuple[str, int], str]:
    store = Store(home)
    try:
        return {(v.name, s.ordinal): s.text for v in store.latest_versions() for s in store.sentences(v.id)}
    finally:
        store.close()


def test_search_finds_the_best_sentences_across_policies_verbatim(two_policies):
    result = run_long(two_policies, "search", "How long do you keep my data?", "--top", "8", "--json")
    assert result.returncode == 0, result.stderr
    found = json.loads(result.stdout)
    stored = stored_sentences(two_policies)
    assert (found["scope"], found["index"], found["searched"]) == ("all", "flat", len(stored))
    matches = found["matches"]
    assert len(matches) == 8
    assert all(m["text"] == stored[(m["policy"], m["sentence_id"])] for m in matches)  # verbatim, right place
    assert [m["score"] for m in matches] == sorted((m["score"] for m in matches), reverse=True)
    assert {m["policy"] for m in matches} == {"amazon", "instagram"}
    assert matches[0]["policy"] == "instagram" and "How long we keep" in matches[0]["text"]
    assert all(m["section"] and m["version"] == 1 for m in matches)


def test_search_in_one_policy_and_the_table(two_policies):
    result = run_long(two_policies, "search", "Do you sell my information?", "--policy", "amazon", "--top", "3", "--json")
    assert result.returncode == 0, result.stderr
    matches = json.loads(result.stdout)["matches"]
    assert len(matches) == 3 and {m["policy"] for m in matches} == {"amazon"}
    table = run_long(two_policies, "search", "security of my password", "--top", "2")
    assert table.returncode == 0, table.stderr
    assert "in all policies" in table.stdout and "sentence" in table.stdout and "flat index" in table.stdout


@pytest.mark.parametrize("args, words", [
    (["search", "cookies", "--all", "--policy", "amazon"], "either --all or --policy"),
    (["search", "   "], "search text is empty"),
    (["search", "cookies", "--policy", "nobody"], "Unknown policy 'nobody'"),
    (["search", "cookies", "--top", "0"], "--top"),
])
def test_bad_search_input_is_one_line_and_exit_2(two_policies, args, words):
    result = run_long(two_policies, *args)
    assert result.returncode == 2 and words in result.stderr and "Traceback" not in result.stderr


def test_search_follows_a_removal(two_policies, tmp_path, embedder, retriever, policyie):
    home = tmp_path / "home"
    assistant = make_assistant(home, embedder, retriever, policyie)
    for name in ("amazon", "instagram"):
        assistant.ingest(next(EXAMPLES.glob(f"{name}.*.html")), name=name)
    first = json.loads(run_long(home, "search", "account deletion", "--top", "40", "--json").stdout)
    assert {m["policy"] for m in first["matches"]} == {"amazon", "instagram"}
    assert run_long(home, "remove", "instagram").returncode == 0
    after = json.loads(run_long(home, "search", "account deletion", "--top", "40", "--json").stdout)
    assert {m["policy"] for m in after["matches"]} == {"amazon"} and after["searched"] == len(stored_sentences(home))
    store = Store(home)
    owned = {v.index_file for v in store.latest_versions()} | {r[0] for r in store.db.execute(
        "SELECT name FROM cross_indexes")}
    assert {p.name for p in store.index_dir.iterdir()} == owned  # the stale cross index was deleted
