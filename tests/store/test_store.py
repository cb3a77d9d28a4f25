"""The SQLite + FAISS store with synthetic vectors: versions, removal, atomicity, orphan clean-up."""
from __future__ import annotations

import dataclasses
import sqlite3

import numpy as np
import pytest

from assistant.foundation.errors import UnknownPolicyError
from assistant.foundation.types import Provenance
from assistant.store.database import Store
from tests.support.store import make_policy, random_index, store_snapshot


def test_versions_are_numbered_and_older_ones_stay(tmp_path):
    store = Store(tmp_path)
    policy = make_policy(["We collect email.", "We use cookies."])
    first = store.add_version("acme", "/a", "sha1", policy, random_index(2), "e")
    second = store.add_version("ACME", "/a", "sha2", make_policy(["We sell nothing."]), random_index(1), "e")
    assert (first.version, second.version) == (1, 2)
    assert second.name == "acme"  # names match case-insensitively
    assert store.get_version("acme").version == 2
    old_sentences = store.sentences(store.get_version("acme", 1).id)
    assert [s.text for s in old_sentences] == ["We collect email.", "We use cookies."]
    [summary] = store.list_policies()
    assert (summary.latest.version, summary.versions, summary.latest.n_sentences) == (2, 2, 1)


def test_index_rows_map_to_sentence_ordinals(tmp_path):
    store = Store(tmp_path)
    index = random_index(3, seed=4)
    version = store.add_version("acme", "/a", "s", make_policy(["A.", "B.", "C."]), index, "e")
    loaded = store.load_index(version)
    vectors = np.random.default_rng(4).normal(size=(3, 8)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    assert loaded.search(vectors[1], 1)[0][0] == 2


def test_unknown_policy_and_version(tmp_path):
    store = Store(tmp_path)
    with pytest.raises(UnknownPolicyError, match="Stored policies: none"):
        store.get_version("nope")
    store.add_version("acme", "/a", "s", make_policy(["A."]), random_index(1), "e")
    with pytest.raises(UnknownPolicyError, match="has no version 7"):
        store.get_version("acme", 7)
    for beyond in (2**63, -(2**63) - 1, 0, -1):  # beyond SQLite's 64-bit integers (issue 42): the same one line
        with pytest.raises(UnknownPolicyError, match=f"has no version {beyond}"):
            store.get_version("acme", beyond)
    with pytest.raises(UnknownPolicyError, match="Stored policies: acme"):
        store.remove("other")


def test_remove_deletes_rows_and_index_files(tmp_path):
    store = Store(tmp_path)
    store.add_version("acme", "/a", "s1", make_policy(["A."]), random_index(1), "e")
    store.add_version("acme", "/a", "s2", make_policy(["B."]), random_index(1), "e")
    store.add_version("other", "/b", "s3", make_policy(["C."]), random_index(1), "e")
    assert store.remove("acme") == 2
    assert store.policy_names() == ["other"]
    assert len(list((tmp_path / "indexes").iterdir())) == 1
    assert store.db.execute("SELECT COUNT(*) FROM sentences").fetchone()[0] == 1


def test_failed_write_leaves_store_unchanged(tmp_path):
    store = Store(tmp_path)
    store.add_version("acme", "/a", "s1", make_policy(["A."]), random_index(1), "e")
    before = store_snapshot(tmp_path)
    broken = make_policy(["X.", "Y."])
    broken.sentences[1] = broken.sentences[0]  # duplicate ordinal: the insert fails mid-transaction
    with pytest.raises(sqlite3.IntegrityError):
        store.add_version("acme", "/a", "s2", broken, random_index(2), "e")
    assert store_snapshot(tmp_path) == before


def test_only_the_stores_own_leftovers_are_removed_on_open(tmp_path):
    """Files the store did not create stay; an interrupted write (its name claimed, no version
    referencing it) is cleaned up (more in tests/store/test_store_guards.py)."""
    store = Store(tmp_path)
    store.add_version("acme", "/a", "s1", make_policy(["A."]), random_index(1), "e")
    (tmp_path / "indexes" / "deadbeef.faiss").write_bytes(b"not written by the store")
    (tmp_path / "indexes" / "cafe.faiss.tmp").write_bytes(b"not written by the store either")
    before = store_snapshot(tmp_path)
    claimed = store._claim_index_file()
    random_index(2).save(tmp_path / "indexes" / claimed)
    (tmp_path / "indexes" / (claimed + ".tmp")).write_bytes(b"half written")
    store.close()
    Store(tmp_path)
    assert store_snapshot(tmp_path) == before


def test_practice_scores_round_trip_and_older_stores_gain_the_column(tmp_path):
    store = Store(tmp_path)
    policy = make_policy(["We keep logs for 30 days.", "We use cookies."])
    scored = [dataclasses.replace(s, categories=("Data Retention",), practice_scores={"Data Retention": 0.93})
              for s in policy.sentences[:1]] + policy.sentences[1:]
    version = store.add_version("acme", "/a", "sha1", dataclasses.replace(policy, sentences=scored),
                                random_index(2), "e")
    first, second = store.sentences(version.id)
    assert first.practice_scores == {"Data Retention": 0.93} and first.categories == ("Data Retention",)
    assert second.practice_scores == {}
    store.close()
    # a store written before practice scores were kept: the column is added, old rows read as {}
    db = sqlite3.connect(tmp_path / "assistant.sqlite3")
    db.execute("ALTER TABLE sentences DROP COLUMN practice_scores")
    db.commit()
    db.close()
    reopened = Store(tmp_path)
    assert [s.practice_scores for s in reopened.sentences(version.id)] == [{}, {}]
    assert [s.categories for s in reopened.sentences(version.id)] == [("Data Retention",), ()]


def test_pages_and_fetch_origins_round_trip_and_older_stores_gain_the_columns(tmp_path):
    store = Store(tmp_path)
    policy = make_policy(["We keep logs for 30 days.", "We use cookies."])
    paged = dataclasses.replace(policy, sentences=[dataclasses.replace(s, page=n + 3)
                                                   for n, s in enumerate(policy.sentences)])
    fetched = store.add_version("acme", "https://acme.example/privacy", "sha1", paged, random_index(2), "e",
                                Provenance("http://acme.example/", "2026-01-02T03:04:05+00:00", "en", 90, 120))
    assert [s.page for s in store.sentences(fetched.id)] == [3, 4]
    assert (fetched.source_path, fetched.requested_url, fetched.fetched_at) == (
        "https://acme.example/privacy", "http://acme.example/", "2026-01-02T03:04:05+00:00")
    assert (fetched.language, fetched.kept_words, fetched.visible_words) == ("en", 90, 120)
    assert store.list_policies()[0].latest == fetched and store.list_policies()[0].versions == 1
    store.close()
    # a store written before pages and fetches were kept: the columns are added, old rows read as None
    db = sqlite3.connect(tmp_path / "assistant.sqlite3")
    for table, column in (("sentences", "page"), ("versions", "requested_url"), ("versions", "fetched_at"),
                          ("versions", "language"), ("versions", "kept_words"), ("versions", "visible_words")):
        db.execute(f"ALTER TABLE {table} DROP COLUMN {column}")
    db.commit()
    db.close()
    reopened = Store(tmp_path)
    assert [s.page for s in reopened.sentences(fetched.id)] == [None, None]
    old = reopened.get_version("acme")
    assert (old.source_path, old.requested_url, old.fetched_at) == ("https://acme.example/privacy", None, None)
    second = reopened.add_version("acme", "/a.pdf", "sha2", paged, random_index(2), "e")
    assert [s.page for s in reopened.sentences(second.id)] == [3, 4] and second.requested_url is None
