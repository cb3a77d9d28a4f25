"""Policies side by side (`compare`, and `compare --topic`: each policy's sentences on one issue), what changed
between versions (`diff`, and the line `ingest` prints), one question across policies (`ask --all`): as a user runs
them, on the bundled examples and on two real versions of Mozilla's Firefox Privacy Notice (tests/fixtures/versions/)."""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from assistant.store.database import Store
from tests.support.assistants import make_assistant
from tests.support.cli import run_long
from tests.support.paths import EXAMPLE_NAMES, FIREFOX_DECEMBER, FIREFOX_JUNE


def table_rows(out: str) -> list[list[str]]:
    """The cells of the rich tables in `out`, row by row: each cell's folded lines joined with spaces."""
    rows, current = [], None
    for line in out.splitlines():
        if line.startswith(("┡", "├", "└")):
            if current:
                rows.append([" ".join(" ".join(parts).split()) for parts in current])
            current = None
        elif line.startswith("│"):
            cells = line.strip().strip("│").split("│")
            current = current or [[] for _ in cells]
            for parts, cell in zip(current, cells, strict=True):
                parts.append(cell.strip())
    return rows



@pytest.fixture(scope="module")
def firefox_home(tmp_path_factory, embedder, retriever, policyie) -> tuple[Path, subprocess.CompletedProcess]:
    """The June 2025 notice stored as version 1, then the December 2025 one ingested through the CLI."""
    home = tmp_path_factory.mktemp("firefox") / "home"
    make_assistant(home, embedder, retriever, policyie).ingest(FIREFOX_JUNE, name="firefox", force=True)
    return home, run_long(home, "ingest", str(FIREFOX_DECEMBER), "--name", "firefox", "--force")


# -- compare ------------------------------------------------------------------------------------------


def test_compare_table_shows_each_policy_with_differences_first(examples_home):
    result = run_long(examples_home, "compare", "amazon", "instagram")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    header = next(line for line in out.splitlines() if "Facet" in line)
    assert "amazon (v1)" in header and "instagram (v1)" in header  # the names head the columns
    rows = {row[0].split()[0]: row for row in table_rows(out)}
    order = list(rows)
    # Instagram states how long it keeps data and how to delete an account; Amazon's example policy does not:
    # those rows differ and come before the facets both policies answer alike (security, cookies, children).
    assert rows["retention"][1] == "Not stated" and rows["retention"][2].startswith("Yes “")
    assert rows["deletion"][0].endswith("differs") and not rows["security"][0].endswith("differs")
    for differing in ("retention", "deletion"):
        assert all(order.index(differing) < order.index(alike) for alike in ("security", "cookies_tracking", "children"))
    # a verdict word and a short quote with its sentence number in each cell
    assert rows["sale"][1].startswith("No “Information about our customers is an important part of our business")
    assert rows["sale"][1].endswith("not in the business of selling it to others.” (s. 29)")
    # Instagram's denial holds "without your consent": only with it (the answers set's gold is conditional too)
    assert rows["sale"][2].startswith("Only if … “We will not rent or sell your information") and "(s. 72)" in rows["sale"][2]

def test_compare_one_facet_as_json(examples_home):
    result = run_long(examples_home, "compare", "amazon", "instagram", "steampowered", "--facet", "sale", "--json")
    assert result.returncode == 0, result.stderr
    comparison = json.loads(result.stdout)
    assert list(comparison) == ["policies", "facets"]
    assert comparison["policies"] == [{"name": n, "version": 1} for n in EXAMPLE_NAMES]
    [sale] = comparison["facets"]
    assert list(sale) == ["facet", "question", "differs", "cells"]
    assert sale["facet"] == "sale" and sale["question"] == "Do they sell my personal information?"
    cells = {cell["policy"]: cell for cell in sale["cells"]}
    assert list(cells) == list(EXAMPLE_NAMES)
    assert list(cells["amazon"]) == ["policy", "version", "verdict", "headline", "sentence_id", "quote"]
    # what a person reads in these policies: Amazon does not sell your information; Instagram not without your consent
    assert cells["amazon"]["verdict"] == "no" and cells["amazon"]["sentence_id"] == 29
    assert "not in the business of selling it to others" in cells["amazon"]["quote"]
    assert cells["instagram"]["verdict"] == "conditional"
    assert "will not rent or sell your information" in cells["instagram"]["quote"]


def test_compare_unknown_facet_is_one_line_listing_the_facets(examples_home):
    result = run_long(examples_home, "compare", "amazon", "instagram", "--facet", "weather")
    assert result.returncode == 2
    assert result.stdout == ""
    [line] = result.stderr.strip().splitlines()
    assert line.startswith("error: Unknown facet 'weather'; choose one of: sale, sharing_advertisers,")
    assert "contact_dpo." in line


def test_compare_needs_two_known_policies(examples_home):
    one = run_long(examples_home, "compare", "amazon")
    assert one.returncode == 2 and "at least two different stored policies" in one.stderr
    unknown = run_long(examples_home, "compare", "amazon", "nosuch")
    assert unknown.returncode == 2 and "Unknown policy 'nosuch'" in unknown.stderr


# -- ask --all ----------------------------------------------------------------------------------------


def test_compare_topic_lines_up_each_policys_sentences_on_the_issue(examples_home):
    result = run_long(examples_home, "compare", "amazon", "instagram", "--topic", "Data Security", "--json")
    assert result.returncode == 0, result.stderr
    aligned = json.loads(result.stdout)
    assert (aligned["issue"], aligned["kind"]) == ("Data Security", "category")
    assert [p["policy"] for p in aligned["policies"]] == ["amazon", "instagram"]
    store = Store(examples_home)
    for passages in aligned["policies"]:
        version = store.get_version(passages["policy"])
        tagged = [s.ordinal for s in store.sentences(version.id) if "Data Security" in s.categories]
        assert [s["sentence_id"] for s in passages["sentences"]] == tagged and tagged
    facet = run_long(examples_home, "compare", "amazon", "instagram", "--topic", "how long do they keep my data")
    assert facet.returncode == 0 and "retention (facet)" in facet.stdout
    assert "not stated" in facet.stdout  # the Amazon example says nothing about how long it keeps data
    unknown = run_long(examples_home, "compare", "amazon", "instagram", "--topic", "the weather")
    assert unknown.returncode == 2 and "No issue matches" in unknown.stderr


def test_ask_all_orders_answers_before_not_stated(examples_home):
    result = run_long(examples_home, "ask", "Do they say how long they keep my data?", "--all", "--json")
    assert result.returncode == 0, result.stderr
    across = json.loads(result.stdout)
    assert list(across) == ["question", "answers"]
    rows = across["answers"]
    assert sorted(r["policy"] for r in rows) == sorted(EXAMPLE_NAMES)
    assert list(rows[0]) == ["policy", "version", "verdict", "headline", "confidence", "answerable", "reason",
                             "sentence_id", "quote", "facet"]
    # Instagram states its retention (after an account is closed); the other two example policies do not
    assert rows[0]["policy"] == "instagram" and rows[0]["verdict"] == "yes"
    assert "retain" in rows[0]["quote"] and rows[0]["sentence_id"] is not None
    assert [r["verdict"] for r in rows[1:]] == ["not_stated", "not_stated"]
    assert all(r["quote"] is None for r in rows[1:])
    assert rows[1]["confidence"] >= rows[2]["confidence"]


def test_ask_chosen_policies_table(examples_home):
    result = run_long(examples_home, "ask", "Do they sell my personal information?", "--policies", "amazon,instagram")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "across 2 policies" in out and "steampowered" not in out
    rows = table_rows(out)
    assert sorted(row[0] for row in rows) == ["amazon (v1)", "instagram (v1)"]
    cells = {row[0]: row[1] for row in rows}
    assert cells["amazon (v1)"].startswith("No “") and cells["amazon (v1)"].endswith("(s. 29)")
    assert cells["instagram (v1)"].startswith("Only if … “We will not rent or sell") and "(s. 72)" in cells["instagram (v1)"]
    refused = run_long(examples_home, "ask", "Do they sell my data?", "--policies", "amazon,nosuch")
    assert refused.returncode == 2 and "Unknown policy 'nosuch'" in refused.stderr


# -- diff ---------------------------------------------------------------------------------------------


def test_ingest_of_a_new_version_prints_the_material_changes(firefox_home):
    _, result = firefox_home
    assert result.returncode == 0, result.stderr
    ingested, summary = result.stdout.strip().splitlines()
    assert ingested.startswith("Ingested firefox version 2:")
    assert summary.startswith("Material changes from version 1: ")
    assert "no facet changed" in summary and "practice sentences changed" in summary
    assert summary.endswith("see `assistant diff firefox`.")


def test_diff_finds_added_removed_and_reworded_sentences(firefox_home):
    home, _ = firefox_home
    result = run_long(home, "diff", "firefox", "--json")
    assert result.returncode == 0, result.stderr
    diff = json.loads(result.stdout)
    assert list(diff) == ["policy", "from_version", "to_version", "unchanged", "counts", "facets_compared",
                          "facet_changes", "issues"]
    assert (diff["policy"], diff["from_version"], diff["to_version"]) == ("firefox", 1, 2)
    changes = [c for group in diff["issues"] for c in group["changes"]]
    assert list(changes[0]) == ["kind", "issue", "categories", "material", "before_id", "before", "after_id", "after",
                                "similarity"]
    by_text = {(c["before"] or "") + "|" + (c["after"] or ""): c for c in changes}

    def find(kind: str, words: str) -> dict:
        return next(c for key, c in by_text.items() if c["kind"] == kind and words in key)

    # reworded: "send us personal data" became "communicate with us"; a change of meaning (material)
    reworded = find("reworded", "When you communicate with us via these methods")
    assert reworded["before"].startswith("When you send us personal data via these methods")
    assert reworded["material"] and 0.5 <= reworded["similarity"] < 0.9
    # the same words in another order ("de-identified or aggregated" → "aggregated and/or de-identified"): editorial
    reordered = find("reworded", "aggregated and/or de-identified basis")
    assert not reordered["material"] and "de-identified or aggregated" in reordered["before"]
    # added: programmatic advertising; removed: the Review Checker section and its opt-out
    added = find("added", "we may share limited, non-identifying information")
    assert added["before"] is None and added["material"] and "Third Party Sharing/Collection" in added["categories"]
    removed = find("removed", "you can opt out of this feature under Review Checker settings")
    assert removed["after"] is None and removed["material"]
    assert diff["unchanged"] >= 3  # the introduction matched exactly
    assert diff["counts"]["added"] >= 1 and diff["counts"]["removed"] >= 1 and diff["counts"]["reworded"] >= 2
    # the label's 16 facets read the same in both excerpts: said plainly, not left out
    assert diff["facets_compared"] == 16 and diff["facet_changes"] == []
    issues = [g["issue"] for g in diff["issues"]]
    assert "Third Party Sharing/Collection" in issues and issues[-1] == "No category"


def test_diff_terminal_groups_by_issue_and_says_no_facet_changed(firefox_home):
    home, _ = firefox_home
    result = run_long(home, "diff", "firefox", "--from", "1", "--to", "2")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "firefox: version 1 → version 2" in out
    assert "No facet changed (16 compared)." in out
    assert "Third Party Sharing/Collection" in out and "material" in out and "editorial" in out
    same = run_long(home, "diff", "firefox", "--from", "2")
    assert same.returncode == 2 and "Both versions are 2" in same.stderr


def test_facet_changes_are_stated_plainly():
    """A facet whose verdict changed, as `diff` and `ingest` say it (from the two versions' glance rows)."""
    from assistant.answering.changes import facet_changes
    from assistant.answering.label import GlanceRow

    question = "Do they sell my personal information?"
    before = [GlanceRow("sale", question, "not_stated", "The acme policy does not say."),
              GlanceRow("children", "Do they knowingly collect information from children?", "no", "No …", 9, "…")]
    after = [GlanceRow("sale", question, "no", "No — acme says it does not sell …", 12, "We do not sell your data."),
             GlanceRow("children", "Do they knowingly collect information from children?", "no", "No …", 10, "…")]
    [change] = facet_changes(before, after)
    assert change.statement() == "sale: now no (sentence 12); before: not stated"
