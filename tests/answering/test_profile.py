"""The privacy profile: computed at ingest inside the transaction that stores the version, stored, and read by
`label`, `compare` and `diff` with the same output as computing it again. Real store, real models; the
reference is the profile computed by a pipeline that remembers nothing (as before the profile was stored)."""
from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.support.assistants import make_assistant
from tests.support.cli import ASSISTANT, cli_env
from tests.support.paths import EXAMPLE_NAMES, EXAMPLES, FIREFOX_DECEMBER, FIREFOX_JUNE, ROOT
from tests.support.store import assert_consistent, store_snapshot

PROFILE_TABLES = ("profiles", "profile_facets", "profile_sentences")
STEAM = EXAMPLES / "steampowered.com.html"


def recomputed(assistant, version):
    """The glance rows computed now by a pipeline of the same models that remembers no question."""
    from assistant.answering.pipeline import AnswerPipeline
    from assistant.answering.profile import glance
    from assistant.retrieval.search import SentenceSearch
    from assistant.understanding.question import QuestionUnderstanding
    from assistant.understanding.span import SpanReading

    understanding = QuestionUnderstanding(assistant.embedder, assistant.question_classifier, assistant.facet_classifier,
                                          assistant.parameters.category_confidence)
    pipeline = AnswerPipeline(understanding, SentenceSearch(assistant.store, assistant.retriever),
                              SpanReading(lambda: None), assistant.parameters, assistant.answer_scorer)
    return glance(pipeline, version, attributes=assistant.attribute_heads, piextract=assistant.piextract)


def rows(home: Path, table: str, version_id: int | None = None) -> list[tuple]:
    with sqlite3.connect(home / "assistant.sqlite3") as db:
        if version_id is None:
            return db.execute(f"SELECT * FROM {table}").fetchall()
        return db.execute(f"SELECT * FROM {table} WHERE version_id = ?", (version_id,)).fetchall()



def test_ingest_stores_the_profile_and_label_compare_read_it_unchanged(examples_home, embedder, retriever, policyie):
    from assistant.answering.compare import PolicyGlance, compare
    from assistant.answering.profile import profile_rules
    from assistant.understanding.facets import GLANCE_QUESTIONS

    assistant = make_assistant(examples_home, embedder, retriever, policyie)
    fresh = {}
    for name in EXAMPLE_NAMES:
        version = assistant.version(name)
        stored = assistant.store.profile(version)  # written by ingest, before any read
        assert stored is not None and stored.rules == profile_rules(assistant.parameters)
        assert [f.facet for f in stored.facets] == list(GLANCE_QUESTIONS)
        fresh[name] = recomputed(assistant, version)
        assert assistant.label(name).glance == fresh[name]
        texts = {s.ordinal: s.text for s in assistant.store.sentences(version.id)}
        for facet in stored.facets:
            assert facet.quote is None or texts[facet.sentence_id] == facet.quote
            assert facet.verdict == "not_stated" or facet.sentence_id in {s.ordinal for s in facet.sentences}
            assert facet.described is None or facet.described.split(": ")[0] in (
                "How long", "Your choice", "What you can do", "How it is protected", "Who receives it", "Why",
                "For whom")  # plain words, not OPP-115's attribute names
            for sentence in facet.sentences:  # stances and values come from the sentence itself
                assert sentence.stance in ("yes", "no", "conditional")
                assert sentence.value is None or sentence.value in texts[sentence.ordinal] or facet.facet in (
                    "sale", "sharing_advertisers", "sharing_third_parties", "law_enforcement", "collection_location",
                    "international_transfer", "ai_training")  # data types: PolicyIE's attribute names
    amazon = {f.facet: f for f in assistant.store.profile(assistant.version("amazon")).facets}
    assert amazon["sale"].verdict == "no" and any(s.stance == "no" for s in amazon["sale"].sentences)
    # what the in-domain models read in the supporting sentences: PI-Extract's data types (verbatim, on the
    # layer that agrees with the verdict) and the OPP-115 attribute heads' value
    for part in amazon["collection_location"].value.split(", "):
        assert part in amazon["collection_location"].quote
    assert "your location" in amazon["collection_location"].value
    # in plain words, not OPP-115's attribute names
    assert amazon["security"].described.startswith("How it is protected: ")
    assert amazon["access_correction"].described.startswith("What you can do: ")
    assert amazon["sale"].value is None or all(p in amazon["sale"].quote for p in amazon["sale"].value.split(", "))
    assert amazon["contact_dpo"].value == "safeharbor@amazon.com"
    # amazon says under-18s may use the site with a parent, not whether it collects children's data
    assert amazon["children"].verdict == "not_stated"
    instagram = {f.facet: f for f in assistant.store.profile(assistant.version("instagram")).facets}
    assert instagram["children"].verdict == "no" and instagram["children"].value == "under the age of 13"
    expected = compare([PolicyGlance(n, assistant.version(n).version, fresh[n]) for n in EXAMPLE_NAMES])
    assert assistant.compare(list(EXAMPLE_NAMES)) == expected
    assert rows(examples_home, "profiles") and len(rows(examples_home, "profile_facets")) == 16 * len(EXAMPLE_NAMES)


def test_label_and_compare_read_the_store_and_load_no_model(examples_home):
    from assistant.engine import Assistant
    from assistant.foundation.settings import Settings

    assistant = Assistant(Settings(home=examples_home))  # no model passed in: each would load on first use
    assistant.label("amazon")
    assistant.compare(list(EXAMPLE_NAMES))
    assert not {"embedder", "retriever", "question_classifier", "practice_classifier", "reader", "policyie",
                "answer_pipeline"} & set(vars(assistant))


def test_label_json_from_the_cli_equals_a_recompute(examples_home, embedder, retriever, policyie):
    assistant = make_assistant(examples_home, embedder, retriever, policyie)
    before = store_snapshot(examples_home)
    result = subprocess.run([ASSISTANT, "label", "--policy", "amazon", "--json"], capture_output=True, text=True,
                            env=cli_env(examples_home), timeout=300, check=False)
    assert result.returncode == 0, result.stderr
    from dataclasses import asdict

    assert json.loads(result.stdout)["glance"] == [asdict(r) for r in recomputed(assistant, assistant.version("amazon"))]
    assert store_snapshot(examples_home) == before  # read from the store: nothing written


def test_a_store_without_profiles_gets_them_on_first_read_and_stale_ones_are_recomputed(
        tmp_path, embedder, retriever, policyie):
    from assistant.answering.profile import profile_rules

    home = tmp_path / "home"
    make_assistant(home, embedder, retriever, policyie).ingest(STEAM, name="steam")
    with sqlite3.connect(home / "assistant.sqlite3") as db:  # a store written before profiles existed
        for table in reversed(PROFILE_TABLES):
            db.execute(f"DROP TABLE {table}")
    assistant = make_assistant(home, embedder, retriever, policyie)  # opening adds the tables, empty
    version = assistant.version("steam")
    assert assistant.store.profile(version) is None and not rows(home, "profile_facets")
    expected = recomputed(assistant, version)
    assert assistant.label("steam").glance == expected
    stored = assistant.store.profile(version)  # kept for the next read
    assert stored is not None and stored.rules == profile_rules(assistant.parameters)
    assert len(rows(home, "profile_facets", version.id)) == 16

    with sqlite3.connect(home / "assistant.sqlite3") as db:  # a profile made by other rules, with another verdict
        db.execute("UPDATE profiles SET rules = 'profile v0'")
        db.execute("UPDATE profile_facets SET verdict = 'yes', headline = 'stale' WHERE facet = 'children'")
    assert make_assistant(home, embedder, retriever, policyie).label("steam").glance == expected
    assert assistant.store.profile(version).rules == profile_rules(assistant.parameters)
    assert ("no",) in [r[4:5] for r in rows(home, "profile_facets", version.id) if r[2] == "children"]


def test_profiles_stored_before_the_attribute_heads_get_their_column_and_are_recomputed(
        tmp_path, embedder, retriever, policyie):
    home = tmp_path / "home"
    make_assistant(home, embedder, retriever, policyie).ingest(STEAM, name="steam")
    with sqlite3.connect(home / "assistant.sqlite3") as db:  # profile_facets as it was first written
        db.execute("ALTER TABLE profile_facets DROP COLUMN described")
        db.execute("UPDATE profiles SET rules = 'profile v0'")
    assistant = make_assistant(home, embedder, retriever, policyie)  # opening adds the column back
    version = assistant.version("steam")
    assert assistant.label("steam").glance == recomputed(assistant, version)
    with sqlite3.connect(home / "assistant.sqlite3") as db:
        assert "described" in {row[1] for row in db.execute("PRAGMA table_info(profile_facets)")}
        assert db.execute("SELECT count(*) FROM profile_facets WHERE described IS NOT NULL").fetchone()[0] > 0


def test_diff_reads_both_versions_profiles_and_remove_deletes_them(tmp_path, embedder, retriever, policyie):
    from assistant.answering.changes import diff_versions

    home = tmp_path / "home"
    assistant = make_assistant(home, embedder, retriever, policyie)
    assistant.ingest(FIREFOX_JUNE, name="firefox", force=True)
    assistant.ingest(FIREFOX_DECEMBER, name="firefox", force=True)
    old, new = assistant.version("firefox", 1), assistant.version("firefox", 2)
    assert assistant.store.profile(old) and assistant.store.profile(new)
    expected = diff_versions("firefox", 1, 2, assistant.store.sentences(old.id), assistant.store.sentences(new.id),
                             recomputed(assistant, old), recomputed(assistant, new))
    assert assistant.diff("firefox") == expected
    assert assistant.remove("firefox") == 2
    assert all(not rows(home, table) for table in PROFILE_TABLES)


def test_a_failed_profile_leaves_the_store_as_it_was(tmp_path, embedder, retriever, policyie):
    home = tmp_path / "home"
    assistant = make_assistant(home, embedder, retriever, policyie)
    assistant.ingest(STEAM, name="steam")
    before = store_snapshot(home)
    maker = assistant._profile_maker

    def failing(version):
        maker(version)  # the real profile, computed inside the transaction, then a failure
        raise RuntimeError("the profile failed")

    assistant.__dict__["_profile_maker"] = failing
    with pytest.raises(RuntimeError, match="the profile failed"):
        assistant.ingest(FIREFOX_JUNE, name="firefox", force=True)
    assert store_snapshot(home) == before
    assistant.__dict__["_profile_maker"] = maker
    assistant.ingest(FIREFOX_JUNE, name="firefox", force=True)  # and the next ingest stores it, profile and all
    assert assistant.store.profile(assistant.version("firefox")) is not None


KILLED_INGEST = textwrap.dedent("""
    import os, signal, sys
    from pathlib import Path
    from assistant.engine import Assistant
    from assistant.foundation.settings import Settings

    assistant = Assistant(Settings(home=Path(sys.argv[1])))
    maker = assistant._profile_maker

    def killed(version):
        maker(version)  # the real profile, inside the transaction that stores the version
        os.kill(os.getpid(), signal.SIGKILL)

    assistant.__dict__["_profile_maker"] = killed
    assistant.ingest(Path(sys.argv[2]), name="firefox", force=True)
""")


def test_kill_while_the_profile_is_computed_leaves_the_store_as_it_was(tmp_path, embedder, retriever, policyie):
    home = tmp_path / "home"
    make_assistant(home, embedder, retriever, policyie).ingest(STEAM, name="steam")
    before = store_snapshot(home)
    result = subprocess.run([sys.executable, "-c", KILLED_INGEST, str(home), str(FIREFOX_JUNE)], cwd=ROOT,
                            capture_output=True, text=True, env=cli_env(home), timeout=300, check=False)
    assert result.returncode == -9, result.stderr
    assert_consistent(home)  # opening the store cleans up the killed writer's index file
    assert store_snapshot(home) == before
