"""The held-out answers sets: their pinned policy index and questions agree, and the rebuild script writes
the pinned policies byte for byte, in a form the assistant parses with the labelled sentence numbering.

The rebuild tests read local git copies of the source repositories (`HELDOUT_MIRRORS`, default
/work/.mirror) and are skipped where there are none."""
from __future__ import annotations

import csv
import hashlib
import importlib
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from assistant.evaluation.answers import load_items
from assistant.foundation.sentences import build_policy
from assistant.foundation.settings import DEFAULT_MAX_BYTES
from assistant.ingest.parsing import load_document
from assistant.understanding.facets import GLANCE_QUESTIONS

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "heldout_policies.py"
MIRRORS = Path(os.environ.get("HELDOUT_MIRRORS", "/work/.mirror"))
SETS = {"heldout": "answers_heldout.jsonl", "heldout2": "answers_heldout2.jsonl", "heldout3": "answers_heldout3.jsonl",
        "heldout4": "answers_heldout4.jsonl", "heldout5": "answers_heldout5.jsonl",
        "heldout6": "answers_heldout6.jsonl", "heldout7": "answers_heldout7.jsonl",
        "heldout8": "answers_heldout8.jsonl", "heldout9": "answers_heldout9.jsonl",
        "heldout10": "answers_heldout10.jsonl", "heldout11": "answers_heldout11.jsonl",
        "heldout12": "answers_heldout12.jsonl"}
LABEL_MODULES = {"heldout2": "lab.heldout2_labels", "heldout3": "lab.heldout3_labels", "heldout4": "lab.heldout4_labels",
                 "heldout5": "lab.heldout5_labels", "heldout6": "lab.heldout6_labels",
                 "heldout7": "lab.heldout7_labels", "heldout8": "lab.heldout8_labels",
                 "heldout9": "lab.heldout9_labels", "heldout10": "lab.heldout10_labels",
                 "heldout11": "lab.heldout11_labels", "heldout12": "lab.heldout12_labels"}


def _index(name: str) -> list[dict[str, str]]:
    with (ROOT / "data" / name / "policies.tsv").open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle, delimiter="\t"))


def _rows(name: str) -> list[dict]:
    path = ROOT / "assistant" / "evaluation" / "data" / SETS[name]
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


@pytest.mark.parametrize("name", SETS)
def test_index_and_questions_agree(name):
    index = _index(name)
    files = [row["file"] for row in index]
    assert len(files) == len(set(files)) >= 5
    for row in index:
        assert re.fullmatch(r"[0-9a-f]{40}", row["commit"]), row
        assert re.fullmatch(r"[\w.-]+/[\w.-]+", row["repository"]), row
    rows = _rows(name)
    assert {r["policy_file"] for r in rows} == set(files)
    facet_names = set(GLANCE_QUESTIONS)  # one question per facet of the label
    for policy in files:  # every facet asked once of every policy
        assert sorted(r["facet"] for r in rows if r["policy_file"] == policy) == sorted(facet_names)
    for r in rows:
        if r["verdict"] != "not_stated" and not r["ambiguous"]:
            assert 1 <= len(r["evidence"]) <= 4 and len(r["evidence_text"]) == len(r["evidence"]), r
        if r["ambiguous"]:
            assert r["note"], r  # an ambiguous item says why
    items = load_items(ROOT / "assistant" / "evaluation" / "data" / SETS[name])  # what `eval answers` reads
    assert len(items) == len(rows)


@pytest.mark.parametrize("name", LABEL_MODULES)
def test_set_is_written_by_its_label_module(name):
    module = importlib.import_module(LABEL_MODULES[name])
    rows = _rows(name)
    assert len(rows) == len(module.LABELS) * len(module.QUESTIONS)
    for r in rows:
        verdict, evidence, ambiguous, note = module.LABELS[r["policy_file"]][r["facet"]]
        assert (r["question"], r["verdict"], r["evidence"], r["ambiguous"], r["note"]) == (
            module.QUESTIONS[r["facet"]], verdict, evidence, ambiguous, note)
    dev = ROOT / "assistant" / "evaluation" / "data" / "answers_dev.jsonl"
    earlier = {json.loads(line)["question"] for line in dev.read_text(encoding="utf-8").splitlines()}
    for other in SETS:
        if other != name and list(SETS).index(other) < list(SETS).index(name):
            earlier |= {r["question"] for r in _rows(other)}
    assert not earlier & {r["question"] for r in rows}  # worded differently from every earlier set


@pytest.mark.parametrize("name", ["heldout3", "heldout4", "heldout5", "heldout6", "heldout7", "heldout8",
                                  "heldout9", "heldout10", "heldout11", "heldout12"])
def test_a_later_set_shares_no_policy_or_service_with_the_earlier_sets(name):
    later = _index(name)
    earlier = [row for other in list(SETS)[:list(SETS).index(name)] for row in _index(other)]
    assert not {(r["repository"], r["path"]) for r in later} & {(r["repository"], r["path"]) for r in earlier}
    assert not {r["organisation"] for r in later} & {r["organisation"] for r in earlier}


def _mirrored(name: str) -> bool:
    return all((MIRRORS / row["repository"].replace("/", "+") / "repo").is_dir() for row in _index(name))


@pytest.mark.parametrize("name", SETS)
def test_rebuild_writes_the_pinned_policies_that_parse_as_labelled(name, tmp_path):
    if not _mirrored(name):
        pytest.skip(f"no git copies of the {name} repositories under {MIRRORS}")
    folder = tmp_path / name
    folder.mkdir()
    shutil.copy(ROOT / "data" / name / "policies.tsv", folder / "policies.tsv")
    done = subprocess.run([sys.executable, str(SCRIPT), "--folder", str(folder), "--mirrors", str(MIRRORS)],
                          check=False, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    rows = _rows(name)
    for row in _index(name):
        path = folder / "policies" / row["file"]
        if row.get("sha256"):
            assert hashlib.sha256(path.read_bytes()).hexdigest() == row["sha256"]
        sentences = build_policy(load_document(path, DEFAULT_MAX_BYTES)).sentences
        assert len(sentences) > 50
        texts = {sentence.text for sentence in sentences}
        for r in (r for r in rows if r["policy_file"] == row["file"]):
            assert set(r["evidence_text"]) <= texts, (row["file"], r["facet"])  # what the harness matches quotes to
            if name in LABEL_MODULES:  # labelled with today's parser: the numbers still point at the labelled text
                assert [sentences[n - 1].text for n in r["evidence"]] == r["evidence_text"], (row["file"], r["facet"])


def test_rebuild_reports_an_unreadable_source_in_one_line(tmp_path):
    folder = tmp_path / "heldout2"
    folder.mkdir()
    shutil.copy(ROOT / "data" / "heldout2" / "policies.tsv", folder / "policies.tsv")
    done = subprocess.run([sys.executable, str(SCRIPT), "--folder", str(folder), "--mirrors", str(tmp_path / "none")],
                          check=False, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert len(done.stderr.strip().splitlines()) == 1 and "not readable" in done.stderr
    assert not (folder / "policies").exists() or not any((folder / "policies").iterdir())


def test_rebuild_refuses_a_file_that_is_not_the_pinned_text(tmp_path):
    if not _mirrored("heldout2"):
        pytest.skip(f"no git copies of the heldout2 repositories under {MIRRORS}")
    folder = tmp_path / "heldout2"
    folder.mkdir()
    index = (ROOT / "data" / "heldout2" / "policies.tsv").read_text(encoding="utf-8").splitlines()
    header, first = index[0], index[1].split("\t")
    first[-1] = "0" * 64  # a wrong digest
    (folder / "policies.tsv").write_text(header + "\n" + "\t".join(first) + "\n", encoding="utf-8")
    done = subprocess.run([sys.executable, str(SCRIPT), "--folder", str(folder), "--mirrors", str(MIRRORS)],
                          check=False, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "sha256 differs" in done.stderr
    assert not (folder / "policies" / first[0]).exists()
