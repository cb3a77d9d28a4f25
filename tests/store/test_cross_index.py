"""The store's cross-policy sentence index with real SQLite + FAISS and synthetic vectors: rows map to
(version, sentence), only the latest versions are in it, it is saved and reused, dropped when the versions
change, rebuilt when damaged, and it never costs the store its guarantees (its own files only; a writer at work
or a failure leaves the store as it was)."""
from __future__ import annotations

import numpy as np

from assistant.foundation.types import PolicyVersion
from assistant.store.cross_index import CrossIndex, build_faiss_index, index_kind
from assistant.store.database import Store
from assistant.store.index import SentenceIndex
from tests.support.store import make_policy

DIMENSION = 16


def unit_vectors(n: int, seed: int) -> np.ndarray:
    vectors = np.random.default_rng(seed).normal(size=(n, DIMENSION)).astype(np.float32)
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def add(store: Store, name: str, n: int, seed: int, sha: str | None = None):
    policy = make_policy([f"{name} sentence {i}." for i in range(1, n + 1)])
    return store.add_version(name, f"/{name}", sha or f"{name}{seed}", policy, SentenceIndex.build(unit_vectors(n, seed)),
                             "e")


def three_policies(home) -> Store:
    store = Store(home)
    add(store, "acme", 4, seed=1)
    add(store, "globex", 3, seed=2)
    add(store, "initech", 5, seed=3)
    return store


def cross_rows(store: Store) -> list[tuple[str, str]]:
    return store.db.execute("SELECT name, key FROM cross_indexes").fetchall()


def test_every_latest_sentence_is_found_at_its_policy_and_ordinal(tmp_path):
    store = three_policies(tmp_path)
    index = store.cross_index()
    assert (index.size, index.kind) == (12, "flat")
    for name, n, seed in (("acme", 4, 1), ("globex", 3, 2), ("initech", 5, 3)):
        for ordinal, vector in enumerate(unit_vectors(n, seed), start=1):
            best = index.search(vector, 3)[0]
            assert (best.version.name, best.ordinal) == (name, ordinal)
            assert abs(best.score - 1.0) < 1e-5
            assert store.sentence(best.version.id, best.ordinal).text == f"{name} sentence {ordinal}."


def test_only_the_latest_version_of_each_policy_is_indexed(tmp_path):
    store = three_policies(tmp_path)
    add(store, "acme", 2, seed=9)  # version 2 replaces version 1 in the cross index
    index = store.cross_index()
    assert index.size == 2 + 3 + 5
    old_first_sentence = unit_vectors(4, 1)[0]
    assert all(hit.version.version == 2 or hit.version.name != "acme" for hit in index.search(old_first_sentence, 10))
    assert index.search(unit_vectors(2, 9)[1], 1)[0].version.version == 2


def test_it_is_saved_once_reused_and_survives_reopening(tmp_path):
    store = three_policies(tmp_path)
    first = store.cross_index()
    [(name, key)] = cross_rows(store)
    assert key == first.key and (store.index_dir / name).is_file()
    assert store.foreign_files() == []  # the store's own file: named in index_files
    modified = (store.index_dir / name).stat().st_mtime_ns
    reopened = Store(tmp_path)  # an open cleans interrupted writes: the cross index is not one
    assert reopened.cross_index().key == key
    assert cross_rows(reopened) == [(name, key)] and (store.index_dir / name).stat().st_mtime_ns == modified


def test_ingest_remove_and_repair_drop_it_and_the_next_search_rebuilds(tmp_path):
    store = three_policies(tmp_path)
    store.cross_index()
    [(old, _)] = cross_rows(store)
    add(store, "hooli", 2, seed=5)
    assert cross_rows(store) == [] and not (store.index_dir / old).exists()
    assert store.cross_index().size == 14
    [(built, _)] = cross_rows(store)
    store.remove("globex")
    assert cross_rows(store) == [] and not (store.index_dir / built).exists()
    assert {hit.version.name for hit in store.cross_index().search(unit_vectors(1, 0)[0], 20)} == {
        "acme", "initech", "hooli"}
    [(before_repair, _)] = cross_rows(store)
    version = store.get_version("acme")
    store.replace_index(version, SentenceIndex.build(unit_vectors(4, 1)))
    assert cross_rows(store) == [] and not (store.index_dir / before_repair).exists()
    assert store.cross_index().size == 4 + 5 + 2
    assert sorted(p.name for p in store.index_dir.iterdir()) == sorted(
        [v.index_file for v in store.latest_versions()] + [cross_rows(store)[0][0]])


def test_a_damaged_saved_index_is_rebuilt(tmp_path):
    store = three_policies(tmp_path)
    store.cross_index()
    [(name, key)] = cross_rows(store)
    (store.index_dir / name).write_bytes(b"not an index")
    index = Store(tmp_path).cross_index()
    assert index.size == 12 and index.search(unit_vectors(4, 1)[2], 1)[0].ordinal == 3
    [(new_name, new_key)] = cross_rows(store)
    assert new_key == key and new_name != name and not (store.index_dir / name).exists()


def test_a_writer_at_work_gets_a_search_but_nothing_is_written(tmp_path):
    store = three_policies(tmp_path)
    files_before = sorted(p.name for p in store.index_dir.iterdir())
    with Store(tmp_path)._writer_lock():  # another writer holds the store (e.g. an ingest)
        index = store.cross_index()
    assert index.size == 12 and index.search(unit_vectors(3, 2)[0], 1)[0].version.name == "globex"
    assert cross_rows(store) == [] and sorted(p.name for p in store.index_dir.iterdir()) == files_before


def test_an_empty_store_has_an_empty_index(tmp_path):
    assert Store(tmp_path).cross_index().search(unit_vectors(1, 0)[0], 5) == []


def test_past_the_exact_limit_it_is_an_ivf_index_close_to_exact_search(tmp_path):
    rng = np.random.default_rng(0)
    centres = unit_vectors(40, seed=11)
    vectors = centres[rng.integers(0, 40, 6000)] + rng.normal(scale=0.08, size=(6000, DIMENSION)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    queries = unit_vectors(30, seed=12)
    approximate = build_faiss_index(vectors, exact_limit=1000)
    exact = build_faiss_index(vectors, exact_limit=10_000)
    assert index_kind(exact) == "flat" and index_kind(approximate).startswith("ivf")
    _, truth = exact.search(queries, 50)
    _, found = approximate.search(queries, 50)
    recall = np.mean([len(set(f) & set(t)) / 50 for f, t in zip(found, truth, strict=True)])
    assert recall >= 0.95
    version = PolicyVersion(1, "bulk", 1, "/bulk", "s", "t", 1, 6000, "bulk.faiss")
    reloaded = CrossIndex.deserialize(CrossIndex(approximate, [version]).serialize(), [version])
    assert reloaded.kind == index_kind(approximate)
    assert [h.ordinal - 1 for h in reloaded.search(queries[0], 50)] == list(found[0])
