"""The store guards itself: it deletes only its own files, checks its own consistency (doctor,
repair), reports every failure of its environment as one line, and stores identical concurrent
ingests once. Real SQLite, FAISS, CLI processes and models; disk full is RLIMIT_FSIZE (EFBIG)."""
from __future__ import annotations

import ctypes
import gc
import os
import resource
import shutil
import signal
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import faiss
import numpy as np
import pytest

from assistant.foundation.errors import DamagedIndexError, StoreError, UnknownPolicyError
from assistant.store.database import Store
from assistant.store.index import SentenceIndex
from tests.support.assistants import make_assistant
from tests.support.cli import ASSISTANT, cli_env, run
from tests.support.paths import AMAZON, ROOT
from tests.support.store import make_policy, random_index, store_snapshot

QUESTION = "Do they sell my personal information?"


def synthetic_home(home: Path, sentences: int = 3) -> Path:
    """A store holding policy 'acme' (version 1) with random vectors: no model needed."""
    store = Store(home)
    store.add_version("acme", "/a", "sha-acme", make_policy([f"Sentence {i}." for i in range(sentences)]),
                      random_index(sentences), "e")
    store.close()
    return home


def index_path(home: Path, name: str = "acme", version: int = 1) -> Path:
    store = Store(home)
    path = store.index_dir / store.get_version(name, version).index_file
    store.close()
    return path


def assert_one_line_error(result: subprocess.CompletedProcess, *words: str) -> None:
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    for word in words:
        assert word in lines[0], lines[0]


def run_with(home: Path, args: list[str], preexec) -> subprocess.CompletedProcess:
    return subprocess.run([ASSISTANT, *args], capture_output=True, text=True, env=cli_env(home), timeout=300,
                          check=False, preexec_fn=preexec)


# -- 1. the store touches only what it created -----------------------------------------------------

def test_files_the_store_did_not_create_survive_every_command(tmp_path):
    home = tmp_path / "home"
    (home / "indexes" / "sub").mkdir(parents=True)
    (home / "indexes" / "notes.txt").write_text("x\n")
    listing = run(home, "policies")
    assert listing.returncode == 0, listing.stderr
    assert "No policies stored yet" in listing.stdout
    synthetic_home(home)
    for args in (["policies"], ["doctor"], ["remove", "acme"]):
        result = run(home, *args)
        assert result.returncode == 0, (args, result.stderr)
    assert (home / "indexes" / "notes.txt").read_text() == "x\n"
    assert (home / "indexes" / "sub").is_dir()
    assert sorted(p.name for p in (home / "indexes").iterdir()) == ["notes.txt", "sub"]  # remove took its own


@pytest.mark.parametrize("loss", ["deleted", "emptied"])
def test_a_lost_or_empty_database_deletes_no_index(tmp_path, loss):
    home = synthetic_home(tmp_path / "home")
    files = sorted(p.name for p in (home / "indexes").iterdir())
    database = home / "assistant.sqlite3"
    if loss == "deleted":
        database.unlink()
    else:
        database.write_bytes(b"")
    assert run(home, "policies").returncode == 0
    doctor = run(home, "doctor")
    assert doctor.returncode == 0, doctor.stdout
    assert "not created by the store and are left alone" in doctor.stdout
    assert sorted(p.name for p in (home / "indexes").iterdir()) == files


def test_an_interrupted_writes_leftovers_are_provably_the_stores_and_cleaned(tmp_path):
    """A real process claims an index name, writes the file and half a temporary, then is killed."""
    home = synthetic_home(tmp_path / "home")
    (home / "indexes" / "mine.faiss").write_bytes(b"the user's file, named like an index")
    before = store_snapshot(home)
    script = textwrap.dedent(f"""
        import os, signal
        from pathlib import Path
        from assistant.store.database import Store
        from tests.support.store import random_index
        store = Store(Path({str(home)!r}))
        name = store._claim_index_file()
        random_index(4).save(store.index_dir / name)
        (store.index_dir / (name + ".tmp")).write_bytes(b"half")
        os.kill(os.getpid(), signal.SIGKILL)
    """)
    killed = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=cli_env(home), check=False)
    assert killed.returncode == -signal.SIGKILL
    assert len(list((home / "indexes").iterdir())) == len(before["files"]) + 2
    Store(home).close()
    assert store_snapshot(home) == before


# -- 2, 3. the store checks its own consistency --------------------------------------------------------

def test_a_missing_index_is_reported_everywhere_and_never_a_traceback(tmp_path):
    home = synthetic_home(tmp_path / "home")
    index_path(home).unlink()
    listing = run(home, "policies")
    assert listing.returncode == 0
    assert "Damaged" in listing.stdout and "acme version 1: its index file is missing" in listing.stdout
    doctor = run(home, "doctor")
    assert doctor.returncode == 1
    assert "Policy 'acme' version 1: its index file is missing; run `assistant repair`" in doctor.stdout
    asked = run(home, "ask", QUESTION, "--policy", "acme")
    assert_one_line_error(asked, "'acme' version 1", "index file is missing", "assistant repair")


def test_an_index_with_the_wrong_number_of_rows_is_caught_on_load(tmp_path):
    home = synthetic_home(tmp_path / "home", sentences=3)
    path = index_path(home)
    for rows in (2, 4):  # fewer rows: confident wrong answers; more: an IndexError
        random_index(rows).save(path)
        store = Store(home)
        version = store.get_version("acme")
        assert store.index_problem(version) == f"its index has {rows} rows for 3 sentences"
        with pytest.raises(DamagedIndexError, match=f"'acme' version 1: its index has {rows} rows for 3 sentences; "
                                                     "run `assistant repair`"):
            store.read_version(version)
        store.close()
        doctor = run(home, "doctor")
        assert doctor.returncode == 1 and f"{rows} rows for 3 sentences" in doctor.stdout
    path.write_bytes(path.read_bytes()[:-7])  # truncated
    assert "unreadable" in run(home, "doctor").stdout


@pytest.fixture
def amazon_copy(amazon_home, tmp_path) -> Path:
    """A private copy of the session's Amazon store, free to damage."""
    return Path(shutil.copytree(amazon_home, tmp_path / "home"))


def stored_vectors(path: Path) -> np.ndarray:
    index = faiss.read_index(str(path))
    return index.reconstruct_n(0, index.ntotal)


def test_ask_and_label_on_a_damaged_index_name_the_policy_and_repair(amazon_copy, embedder, retriever, policyie,
                                                                        reader):
    path = index_path(amazon_copy, "amazon")
    vectors = stored_vectors(path)
    for damaged in (vectors[:-1], np.vstack([vectors, vectors[:1]])):
        SentenceIndex.build(damaged).save(path)
        assistant = make_assistant(amazon_copy, embedder, retriever, policyie, reader)
        with pytest.raises(DamagedIndexError, match=r"'amazon' version 1: its index has \d+ rows .*assistant repair"):
            assistant.ask(QUESTION, "amazon")
        with pytest.raises(DamagedIndexError, match="assistant repair"):
            assistant.label("amazon")


def test_repair_rebuilds_the_same_vectors_and_leaves_only_its_files(amazon_copy, embedder, retriever, policyie,
                                                                    reader):
    path = index_path(amazon_copy, "amazon")
    original = stored_vectors(path)
    path.unlink()
    assistant = make_assistant(amazon_copy, embedder, retriever, policyie, reader)
    assert not assistant.doctor().healthy
    with pytest.raises(DamagedIndexError, match="index file is missing"):
        assistant.ask(QUESTION, "amazon")
    report = assistant.repair()
    assert [(v.name, v.version) for v in report.rebuilt] == [("amazon", 1)] and not report.refused
    rebuilt = index_path(amazon_copy, "amazon")
    np.testing.assert_allclose(stored_vectors(rebuilt), original, atol=1e-5)
    assert [p.name for p in (amazon_copy / "indexes").iterdir()] == [rebuilt.name]
    assert assistant.doctor().healthy
    assert assistant.ask(QUESTION, "amazon").evidence
    assert not assistant.repair().rebuilt  # nothing left to do


def test_reingesting_identical_content_repairs_a_damaged_index(amazon_copy, embedder, retriever, policyie, reader):
    from tests.support.paths import AMAZON

    index_path(amazon_copy, "amazon").unlink()
    assistant = make_assistant(amazon_copy, embedder, retriever, policyie, reader)
    result = assistant.ingest(AMAZON, name="amazon")
    assert result.repaired and not result.unchanged and result.version.version == 1
    assert [s.versions for s in assistant.policies()] == [1]
    assert assistant.doctor().healthy
    assert assistant.ingest(AMAZON, name="amazon").unchanged


def test_repair_refuses_what_it_cannot_rebuild(tmp_path):
    home = synthetic_home(tmp_path / "home")  # ingested by pipeline "e": its vectors cannot be remade
    index_path(home).unlink()
    before = store_snapshot(home)
    result = run(home, "repair")
    assert_one_line_error(result, "cannot repair", "'acme' version 1", "older pipeline", "ingest its file again")
    assert store_snapshot(home) == before


def test_a_remove_during_an_ask_is_a_one_line_error(amazon_copy, embedder, retriever, policyie, reader):
    assistant = make_assistant(amazon_copy, embedder, retriever, policyie, reader)
    version = assistant.version("amazon")  # the ask has looked the policy up ...
    other = Store(amazon_copy)
    other.remove("amazon")  # ... when another process removes it
    with pytest.raises(UnknownPolicyError, match="'amazon' version 1 was removed while it was being read"):
        assistant.answer_pipeline.run(QUESTION, version, 3)
    other.close()


# -- 7. failures of the environment: one line, exit 2, nothing left behind -----------------------------------

def corrupt_database(home: Path) -> bytes:
    """Overwrite the last page of the sentences table with garbage: reading the first policy's rows
    does not touch it; SQLite's quick_check does."""
    database = home / "assistant.sqlite3"
    with sqlite3.connect(database) as db:
        [(page_number, page_size)] = db.execute(
            "SELECT MAX(pageno), (SELECT page_size FROM pragma_page_size) FROM dbstat WHERE name = 'sentences'"
        ).fetchall()
    data = bytearray(database.read_bytes())
    start = (page_number - 1) * page_size
    data[start : start + page_size] = np.random.default_rng(0).bytes(page_size)
    database.write_bytes(bytes(data))
    return bytes(data)


def test_corrupt_databases_are_refused_in_one_line(tmp_path):
    home = synthetic_home(tmp_path / "home")
    store = Store(home)
    store.add_version("big", "/b", "sha-big", make_policy([f"Sentence {i}." for i in range(600)]),
                      random_index(600), "e")
    store.close()
    corrupted = corrupt_database(home)  # a page of big's sentences
    assert Store(home).get_version("acme").n_sentences == 3  # reading acme does not notice
    files = sorted(p.name for p in (home / "indexes").iterdir())
    assert_one_line_error(run(home, "remove", "acme"), "is damaged", "nothing was written")
    doctor = run(home, "doctor")
    assert doctor.returncode == 1 and "The database" in doctor.stdout and "is damaged" in doctor.stdout
    assert_one_line_error(run(home, "repair"), "cannot repair", "is damaged")
    policy = tmp_path / "other.txt"
    policy.write_text("We collect your email address. We never sell your data.\n")
    ingest = run(home, "ingest", str(policy), "--name", "other", "--force")  # a two-sentence fixture
    assert_one_line_error(ingest, "is damaged", "nothing was written")
    assert (home / "assistant.sqlite3").read_bytes() == corrupted
    assert sorted(p.name for p in (home / "indexes").iterdir()) == files
    # a file that is not a database at all, and a file where the home folder should be
    (home / "assistant.sqlite3").write_bytes(os.urandom(8192))
    assert_one_line_error(run(home, "policies"), "is damaged", "file is not a database")
    not_a_folder = tmp_path / "file"
    not_a_folder.write_text("x")
    assert_one_line_error(run(not_a_folder, "policies"), "is not a folder")


def read_only(home: Path):
    """A preexec_fn that makes `home` read-only for the child: root loses its permission override."""
    if os.geteuid() != 0:
        for path in (home, home / "indexes"):
            path.chmod(0o555)
        return None
    libc = ctypes.CDLL(None, use_errno=True)

    def drop_permission_override() -> None:
        for capability in (1, 2):  # CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH; dropped at exec
            if libc.prctl(24, capability, 0, 0, 0) != 0:  # PR_CAPBSET_DROP
                raise OSError(ctypes.get_errno(), "prctl")

    for path in (home, home / "indexes"):
        path.chmod(0o555)
    return drop_permission_override


def test_a_read_only_store_answers_and_refuses_writes_in_one_line(tmp_path):
    """A cleanly closed store copied to a read-only place (no -wal or -shm beside it) is read as it is."""
    home = synthetic_home(tmp_path / "home")
    before = store_snapshot(home)
    gc.collect()  # close the snapshot's connection: no reader keeps the WAL files open
    assert sorted(p.name for p in home.iterdir()) == ["assistant.sqlite3", "indexes", "write.lock"]
    preexec = read_only(home)
    try:
        listing = run_with(home, ["policies"], preexec)
        assert listing.returncode == 0 and "acme" in listing.stdout, listing.stderr
        doctor = run_with(home, ["doctor"], preexec)
        assert doctor.returncode == 0 and "healthy" in doctor.stdout, doctor.stdout + doctor.stderr
        assert_one_line_error(run_with(home, ["remove", "acme"], preexec), "ASSISTANT_HOME")
        assert_one_line_error(run_with(home / "new", ["policies"], preexec), "writable folder")
    finally:
        for path in (home, home / "indexes"):
            path.chmod(0o755)
    assert store_snapshot(home) == before


def test_a_store_that_cannot_take_a_write_is_refused_before_any_model_loads(tmp_path):
    """Read-only and damaged stores refuse an ingest at once: the models' cache points where nothing can load,
    so the store's own one-line error shows that no model was touched. No empty line comes before it."""
    home = synthetic_home(tmp_path / "home")
    gc.collect()
    no_models = {"ASSISTANT_ONNX_CACHE": str(tmp_path / "not-a-folder" / "onnx")}
    (tmp_path / "not-a-folder").write_text("x")
    policy = str(AMAZON)
    preexec = read_only(home)
    try:
        refused = subprocess.run([ASSISTANT, "ingest", policy, "--name", "new"], capture_output=True, text=True,
                                 env=cli_env(home, **no_models), timeout=300, check=False, preexec_fn=preexec)
    finally:
        for path in (home, home / "indexes"):
            path.chmod(0o755)
    assert_one_line_error(refused, "read-only", "ASSISTANT_HOME")
    assert refused.stderr.startswith("error: ")
    store = Store(home)
    store.add_version("big", "/b", "sha-big", make_policy([f"Sentence {i}." for i in range(600)]),
                      random_index(600), "e")
    store.close()
    corrupt_database(home)
    refused = run(home, "ingest", policy, "--name", "new", **no_models)
    assert refused.stderr.startswith("error: ") and "ONNX" not in refused.stderr, refused.stderr
    assert_one_line_error(refused, "damaged")


def disk_full(limit: int):
    """A preexec_fn: files cannot grow past `limit` bytes (writes fail with EFBIG, as on a full disk)."""

    def limit_file_size() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return limit_file_size


def test_disk_full_during_ingest_leaves_nothing_behind(tmp_path):
    """The index (150 sentences x 384 floats) outgrows the limit: no partial file, no row."""
    home = synthetic_home(tmp_path / "home")
    before = store_snapshot(home)
    policy = tmp_path / "long.txt"
    policy.write_text("\n".join(f"We keep record number {i} of your visits for {i + 2} days." for i in range(150)))
    result = run_with(home, ["ingest", str(policy), "--name", "long", "--force"], disk_full(100_000))
    assert_one_line_error(result, "disk is full")
    assert store_snapshot(home) == before


def test_disk_full_in_the_database_leaves_nothing_behind(tmp_path):
    """The rows (about 400 kB of text) outgrow the limit inside SQLite's write."""
    home = synthetic_home(tmp_path / "home")
    before = store_snapshot(home)
    script = textwrap.dedent(f"""
        import resource, signal
        from pathlib import Path
        from assistant.foundation.errors import StoreError
        from assistant.store.database import Store
        from tests.support.store import make_policy, random_index
        store = Store(Path({str(home)!r}))
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (200_000, 200_000))
        try:
            store.add_version("big", "/b", "sha-big", make_policy(["x" * 1000 + f" {{i}}." for i in range(400)]),
                              random_index(400), "e")
        except StoreError as error:
            print(error)
    """)
    result = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=cli_env(home), capture_output=True,
                            text=True, check=False)
    assert result.returncode == 0, result.stderr
    assert "nothing was written" in result.stdout
    assert store_snapshot(home) == before


def test_a_locked_database_is_a_store_error(tmp_path):
    home = synthetic_home(tmp_path / "home")
    holder = sqlite3.connect(home / "assistant.sqlite3", isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    store = Store(home, busy_timeout=0.2)
    assert store.get_version("acme").version == 1  # readers are not blocked (WAL)
    with pytest.raises(StoreError, match="is locked by another process"):
        store.remove("acme")
    with pytest.raises(StoreError, match="is locked by another process"):
        store.add_version("acme", "/a", "sha-2", make_policy(["B."]), random_index(1), "e")
    holder.execute("ROLLBACK")
    assert [p.name for p in (home / "indexes").iterdir()] == [index_path(home).name]
    assert store.remove("acme") == 1


# -- 9. identical ingests at the same moment; names that differ only in case ---------------------------------

def test_identical_content_is_stored_once_even_when_the_check_is_stale(tmp_path):
    store = Store(tmp_path)
    policy = make_policy(["A.", "B."])
    first, added = store.add_version_if_new("acme", "/a", "sha1", policy, random_index(2), "e")
    second, added_again = store.add_version_if_new("ACME", "/a", "sha1", policy, random_index(2), "e")
    assert (added, added_again) == (True, False) and second == first
    assert len(list((tmp_path / "indexes").iterdir())) == 1


def test_two_identical_ingests_at_the_same_moment_make_one_version(tmp_path):
    home = tmp_path / "home"
    policy = tmp_path / "acme.txt"
    policy.write_text("We collect your email address. We never sell your data. We keep logs for 30 days.\n")
    processes = [subprocess.Popen([ASSISTANT, "ingest", str(policy), "--name", "acme", "--force"], env=cli_env(home),
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)]
    results = [p.communicate(timeout=300) for p in processes]
    assert [p.returncode for p in processes] == [0, 0], [err for _, err in results]
    outputs = sorted(out for out, _ in results)
    assert outputs[0].startswith("Ingested acme version 1:") and "unchanged" in outputs[1], outputs
    store = Store(home)
    assert [(s.latest.name, s.versions) for s in store.list_policies()] == [("acme", 1)]
    assert len(list((home / "indexes").iterdir())) == 1
    store.close()
    policy.write_text("We collect your email address. We sell your data. We keep logs for 30 days.\n")
    changed = run(home, "ingest", str(policy), "--name", "ACME", "--force")
    assert changed.returncode == 0, changed.stderr
    assert changed.stdout.startswith("Ingested acme version 2 (names match without regard to case):")


def _open_store(home: str, results) -> None:
    try:
        Store(Path(home)).close()
        results.put("ok")
    except Exception as error:  # noqa: BLE001 (any failure is reported to the test, which shows it)
        results.put(repr(error))


def test_processes_opening_a_new_store_at_once_all_succeed(tmp_path):
    """Three processes open the same new store at the same moment, 40 times: none may lose the race on the
    journal mode or on adding a column (both happened: "database is locked", "duplicate column name")."""
    import multiprocessing

    context = multiprocessing.get_context("fork")
    failures = []
    for round_ in range(40):
        results = context.Queue()
        processes = [context.Process(target=_open_store, args=(str(tmp_path / f"home-{round_}"), results))
                     for _ in range(3)]
        for process in processes:
            process.start()
        for process in processes:
            process.join(timeout=60)
        failures += [outcome for outcome in (results.get(timeout=10) for _ in processes) if outcome != "ok"]
    assert failures == []
