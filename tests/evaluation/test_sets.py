"""Where the answers sets live (`assistant.evaluation.sets`) and the one labeller (`python -m lab.label_set`) on a
tiny set of our own."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from assistant.evaluation.sets import DEV, AnswersSet, all_sets, find_set, sets_root
from assistant.foundation.errors import AssistantError
from lab.label_set import label_set, read_labels, write_labels
from tests.support.paths import ROOT

POLICY = """# Acme privacy policy

We collect your name and email address when you sign up.

We do not sell your personal information to anyone.

You can ask us to delete your account at any time by writing to privacy@acme.example.
"""


def test_the_checkouts_sets_are_found_by_name(monkeypatch):
    monkeypatch.delenv("ASSISTANT_SETS", raising=False)
    assert sets_root() == ROOT / "sets" / "answers"
    dev, twelfth = find_set(DEV), find_set("heldout12")
    assert dev.answers == ROOT / "sets" / "answers" / "dev" / "answers.jsonl" and dev.answers.is_file()
    assert dev.corpus == "opp115" and dev.has_policies()
    assert twelfth.corpus is None and twelfth.labels.is_file()
    assert twelfth.policies == ROOT / "sets" / "answers" / "heldout12" / "policies"
    names = [s.name for s in all_sets()]
    assert names[0] == DEV and names.index("heldout2") < names.index("heldout10")  # numbers read as numbers


def test_an_unknown_set_is_a_one_line_error_naming_the_known_ones():
    for name in ("heldout99", "../dev", ""):
        with pytest.raises(AssistantError, match=r"Unknown answers set .* \(known: dev, blind1, blind2, blind3, blind4, blind5, blind6, blind7, blind8, blind9, blind10, freedev, heldout1, ") as error:
            find_set(name)
        assert "\n" not in str(error.value)


def test_assistant_sets_names_another_folder(monkeypatch, tmp_path):
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "policies.tsv").write_text("file\tsource\n")
    (tmp_path / "notaset").mkdir()
    monkeypatch.setenv("ASSISTANT_SETS", str(tmp_path))
    assert sets_root() == tmp_path
    assert [s.name for s in all_sets()] == ["mine"]
    assert find_set("mine") == AnswersSet("mine", tmp_path / "mine")
    with pytest.raises(AssistantError, match=r"Unknown answers set 'dev' \(known: mine\)"):
        find_set(DEV)
    monkeypatch.setenv("ASSISTANT_SETS", str(tmp_path / "missing"))
    with pytest.raises(AssistantError, match=r"ASSISTANT_SETS=.*missing: no such folder"):
        sets_root()


def test_a_set_without_its_policies_says_how_to_rebuild_them(tmp_path):
    folder = tmp_path / "heldout42"
    folder.mkdir()
    (folder / "policies.tsv").write_text("file\torganisation\trepository\tcommit\tpath\tlast_changed\n")
    with pytest.raises(AssistantError, match=r"heldout42/policies: not found; rebuild it with python "
                                             r"scripts/heldout_policies\.py --set heldout42 --mirrors DIR"):
        AnswersSet("heldout42", folder).require_policies()


def _tiny_set(root: Path) -> AnswersSet:
    folder = root / "tiny"
    (folder / "policies").mkdir(parents=True)
    (folder / "policies" / "acme.md").write_text(POLICY, encoding="utf-8")
    (folder / "policies.tsv").write_text("file\torganisation\trepository\tcommit\tpath\tlast_changed\n"
                                         f"acme.md\tAcme\tacme/policies\t{'0' * 40}\tprivacy.md\t2026-01-01\n")
    labels = [
        {"policy_file": "acme.md", "facet": "sale", "question": "Do they sell my data?", "verdict": "no",
         "evidence": [2], "ambiguous": False, "note": "A plain denial."},
        {"policy_file": "acme.md", "facet": "deletion", "question": "Can I have my account deleted?",
         "verdict": "yes", "evidence": [3, 1], "ambiguous": False, "note": ""},
        {"policy_file": "acme.md", "facet": "retention", "question": "How long do they keep my data?",
         "verdict": "not_stated", "evidence": [], "ambiguous": True, "note": "Says \"at any time\", no period."},
    ]
    write_labels(labels, folder / "labels.tsv")
    return AnswersSet("tiny", folder)


def test_the_labeller_writes_a_tiny_sets_answers_from_its_labels(tmp_path, monkeypatch):
    from assistant.foundation.sentences import build_policy
    from assistant.ingest.parsing import load_document

    tiny = _tiny_set(tmp_path)
    sentences = [s.text for s in build_policy(load_document(tiny.policies / "acme.md", 10**6)).sentences]
    assert label_set(tiny)
    rows = [json.loads(line) for line in tiny.answers.read_text(encoding="utf-8").splitlines()]
    assert [(r["facet"], r["verdict"], r["evidence"], r["ambiguous"]) for r in rows] == [
        ("sale", "no", [2], False), ("deletion", "yes", [3, 1], False), ("retention", "not_stated", [], True)]
    assert rows[0]["evidence_text"] == [sentences[1]] and "do not sell" in sentences[1]
    assert rows[1]["evidence_text"] == [sentences[2], sentences[0]]
    assert rows[2]["note"] == 'Says "at any time", no period.'
    assert list(rows[0]) == ["policy_file", "question", "facet", "verdict", "evidence", "ambiguous", "note",
                             "evidence_text"]
    assert [{k: v for k, v in r.items() if k != "_line"} for r in read_labels(tiny.labels)] == [
        {k: v for k, v in r.items() if k != "evidence_text"} for r in rows]
    written = tiny.answers.read_bytes()
    assert label_set(tiny, check=True) and tiny.answers.read_bytes() == written  # the same labels write the same file

    monkeypatch.setenv("ASSISTANT_SETS", str(tmp_path))  # the command, on the set found by name
    done = subprocess.run([sys.executable, "-m", "lab.label_set", "tiny", "--check"], cwd=ROOT, check=False,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "3 items (2 scored): identical to" in done.stdout, done.stderr


def test_the_labeller_refuses_bad_labels_and_moved_numbers_in_one_line(tmp_path):
    tiny = _tiny_set(tmp_path)
    label_set(tiny)
    text = tiny.labels.read_text(encoding="utf-8")
    tiny.labels.write_text(text.replace("\t2\tfalse", "\t30\tfalse"), encoding="utf-8")
    with pytest.raises(AssistantError, match=r"labels.tsv:2: evidence \[30\] beyond the policy's 3 sentences"):
        label_set(tiny)
    tiny.labels.write_text(text.replace("\tno\t", "\tmaybe\t"), encoding="utf-8")
    with pytest.raises(AssistantError, match=r"labels.tsv:2: verdict 'maybe'"):
        label_set(tiny)
    tiny.labels.write_text(text, encoding="utf-8")
    (tiny.policies / "acme.md").write_text(POLICY.replace("# Acme privacy policy\n", "# Acme\n\nHello there.\n"),
                                           encoding="utf-8")  # one sentence more at the top: every number moves
    with pytest.raises(AssistantError, match=r"tiny: the sentence numbers of acme.md sale, acme.md deletion now point "
                                             r"at other text"):
        label_set(tiny)
    assert label_set(tiny, force=True)


def test_eval_answers_scores_sets_by_name_each_and_pooled(tmp_path):
    from tests.support.cli import cli_env

    for name in ("tiny", "small"):
        folder = _tiny_set(tmp_path / "build").folder
        folder.rename(tmp_path / name)
        label_set(AnswersSet(name, tmp_path / name))
    (tmp_path / "unbuilt").mkdir()  # a set whose policies are not rebuilt
    shutil.copy(tmp_path / "tiny" / "policies.tsv", tmp_path / "unbuilt" / "policies.tsv")
    shutil.copy(tmp_path / "tiny" / "answers.jsonl", tmp_path / "unbuilt" / "answers.jsonl")
    assistant = str(Path(sys.executable).parent / "assistant")
    env = cli_env(tmp_path / "home", ASSISTANT_SETS=str(tmp_path), ASSISTANT_SERVER="off")

    done = subprocess.run([assistant, "eval", "answers", "--all", "--json"], env=env, check=False,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert "unbuilt: its policies are not rebuilt; rebuild them with python scripts/heldout_policies.py --set " \
           "unbuilt --mirrors DIR" in done.stderr
    report = json.loads(done.stdout)
    assert list(report["sets"]) == ["small", "tiny"]  # every set with its policies, in name order
    assert report["pooled"]["items"] == 4 and report["pooled"]["skipped_ambiguous"] == 2
    assert report["pooled"]["accuracy"] == report["sets"]["tiny"]["accuracy"]  # the same set twice

    done = subprocess.run([assistant, "eval", "answers", "--set", "tiny", "--json"], env=env, check=False,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == report["sets"]["tiny"]  # one set: its report as --data gives it

    done = subprocess.run([assistant, "eval", "answers", "--set", "tiny", "--set", "unbuilt", "--set", "small"],
                          env=env, check=False, capture_output=True, text=True, timeout=600)
    assert done.returncode == 1  # a set asked for by name was not scored; the others were
    assert "unbuilt: its policies are not rebuilt" in done.stderr
    lines = done.stdout.splitlines()
    assert any(line.split()[:2] == ["│", "tiny"] or "tiny" in line.split("│")[1] for line in lines if "│" in line)
    assert any("pooled" in line for line in lines) and any("small" in line for line in lines)

    done = subprocess.run([assistant, "eval", "answers", "--set", "nope"], env=env, check=False,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "Unknown answers set 'nope' (known: small, tiny, unbuilt)" in done.stderr
