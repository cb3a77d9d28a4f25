"""`assistant corpus` end to end on local Ray: a small real corpus (the example policies, two dated versions of
Firefox's notice, a page that is not a policy, a broken PDF, a hostile page), a worker killed mid-run, a driver killed
and resumed, the tables against `assistant ingest` of the same documents, the report, search and ask."""
from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx2 as httpx
import numpy as np
import pandas as pd
import pytest

from assistant.corpus.catalogue import ask, corpus_index, named_services, ordinary_names, search
from assistant.corpus.page import write_report
from assistant.corpus.pipeline import run_corpus
from assistant.corpus.report import (
    VERDICTS,
    build_report,
    latest_versions,
    newcombe,
    snapshot_dates,
    trend_shares,
    wilson,
)
from assistant.corpus.sources import read_sources
from assistant.corpus.tables import ERROR, OK, REFUSED, read_table
from tests.support.paths import EXAMPLES, FIREFOX_DECEMBER, FIREFOX_JUNE, ROOT

pytestmark = pytest.mark.slow
CLI = [sys.executable, "-m", "assistant.frontends.cli", "corpus"]
POLICIES = ("amazon.com", "instagram.com", "steampowered.com")


def make_corpus(folder: Path) -> Path:
    for name in POLICIES:
        shutil.copy(EXAMPLES / f"{name}.html", folder / f"{name}.html")
    (folder / "firefox").mkdir()
    shutil.copy(FIREFOX_JUNE, folder / "firefox" / "2025-06-15.md")
    shutil.copy(FIREFOX_DECEMBER, folder / "firefox" / "2025-12-15.md")
    (folder / "notes.txt").write_text("Shopping list: milk, eggs, bread and a new kettle for the office kitchen.\n")
    (folder / "broken.pdf").write_bytes(b"%PDF-1.7\n\x00\x01 not really a PDF")
    (folder / "nested.html").write_text("<html><body>" + "<div>" * 5000 + "Privacy policy" + "</div>" * 5000)
    return folder


def descendants(pid: int) -> list[int]:
    children = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True, check=False).stdout.split()
    return [p for child in map(int, children) for p in (child, *descendants(child))]


def command_line(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def wait_for_commit(out: Path, process: subprocess.Popen, timeout: float = 240) -> None:
    deadline = time.monotonic() + timeout
    while not list((out / "documents").glob("*.parquet")):
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "no batch committed"
        time.sleep(0.2)


def start(corpus: Path, out: Path, workers: int) -> subprocess.Popen:
    return subprocess.Popen([*CLI, "ingest", str(corpus), "--out", str(out), "--workers", str(workers),
                             "--batch-size", "1"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=ROOT, start_new_session=True)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    return make_corpus(tmp_path_factory.mktemp("corpus"))


@pytest.fixture(scope="module")
def run(corpus, tmp_path_factory) -> tuple[Path, subprocess.CompletedProcess]:
    """The corpus on two local Ray workers, one of them killed (SIGKILL) after the first batch is committed."""
    out = tmp_path_factory.mktemp("run") / "out"
    process = start(corpus, out, workers=2)
    wait_for_commit(out, process)
    workers = [p for p in descendants(process.pid) if command_line(p).startswith("ray::MapWorker")]
    assert workers, "no Ray worker found"
    os.kill(workers[0], signal.SIGKILL)
    stdout, stderr = process.communicate(timeout=600)
    return out, subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr)


def table(out: Path, name: str):
    return read_table(out, name).to_pandas()


def test_a_killed_worker_loses_nothing_and_each_document_has_one_row(run, corpus):
    out, finished = run
    assert finished.returncode == 0, finished.stderr[-2000:]
    documents = table(out, "documents")
    expected = {d.doc_id for d in read_sources([str(corpus)])}
    assert sorted(documents["doc_id"]) == sorted(expected)  # every document once
    status = dict(zip(documents["service"], documents["status"], strict=True))
    assert [status[name] for name in POLICIES] == [OK] * 3 and status["firefox"] == OK
    assert status["notes"] == REFUSED and status["broken"] == ERROR and status["nested"] == ERROR
    errors = documents[documents["status"] != OK]
    assert all(error and "\n" not in error for error in errors["error"])
    assert "8 documents" in finished.stdout and "5 stored, 1 refused, 2 errors" in finished.stdout


def test_the_corpus_rows_equal_what_assistant_ingest_stores(run, corpus, assistant):
    out, _ = run
    documents = table(out, "documents").set_index("source")
    sentences, statements, profiles = table(out, "sentences"), table(out, "statements"), table(out, "profiles")
    for name in POLICIES:
        path = corpus / f"{name}.html"
        doc_id = documents.loc[str(path.resolve()), "doc_id"]
        version = assistant.ingest(path, name=name).version
        stored = assistant.store.sentences(version.id)
        rows = sentences[sentences["doc_id"] == doc_id].sort_values("ordinal")
        assert list(rows["text"]) == [s.text for s in stored]
        assert list(rows["section"]) == [s.section for s in stored]
        assert [tuple(c) for c in rows["categories"]] == [s.categories for s in stored]
        assert list(rows["facts"]) == [json.dumps(s.facts.to_dict()) if s.facts else None for s in stored]
        assert [json.loads(p) for p in rows["practice_scores"]] == [s.practice_scores for s in stored]
        vectors = np.stack(rows["vector"].to_numpy())
        assert np.allclose(vectors, assistant.store.load_index(version).vectors(), atol=1e-5)
        graph = statements[statements["doc_id"] == doc_id]
        assert list(graph["text"]) == [s.text for s in assistant.graph(name)]
        assert list(graph["actions"].map(tuple)) == [s.actions for s in assistant.graph(name)]
        profile = profiles[profiles["doc_id"] == doc_id].iloc[0]
        for facet in assistant.profile(version).facets:
            assert profile[f"{facet.facet}.verdict"] == facet.verdict
            assert profile[f"{facet.facet}.headline"] == facet.headline
            quote = profile[f"{facet.facet}.quote"]
            assert (None if pd.isna(quote) else quote) == facet.quote


def test_a_killed_driver_is_resumed_by_the_next_run_and_equals_an_uninterrupted_one(run, corpus, tmp_path):
    uninterrupted, _ = run
    small = tmp_path / "small"
    small.mkdir()
    for name in POLICIES:
        shutil.copy(corpus / f"{name}.html", small / f"{name}.html")
    out = tmp_path / "out"
    process = start(small, out, workers=1)
    wait_for_commit(out, process)
    os.killpg(process.pid, signal.SIGKILL)  # the driver and its local Ray
    process.wait()
    (out / "sentences" / "part-unfinished.parquet").write_bytes(b"a batch killed before its commit")
    resumed = subprocess.run([*CLI, "ingest", str(small), "--out", str(out)], capture_output=True, text=True,
                             cwd=ROOT, timeout=600, check=False)
    assert resumed.returncode == 0, resumed.stderr[-2000:]
    assert "already done" in resumed.stdout and "Removed 1 unfinished" in resumed.stdout
    assert not (out / "sentences" / "part-unfinished.parquet").exists()
    again, before = table(out, "sentences"), table(uninterrupted, "sentences")
    services = table(out, "documents").set_index("doc_id")["service"]
    assert sorted(set(services)) == sorted(POLICIES)
    for doc_id, service in services.items():
        reference = table(uninterrupted, "documents").set_index("service").loc[service, "doc_id"]
        assert list(again[again["doc_id"] == doc_id].sort_values("ordinal")["text"]) == list(
            before[before["doc_id"] == reference].sort_values("ordinal")["text"])


def test_a_finished_corpus_is_not_run_again(run, corpus):
    out, _ = run
    finished = run_corpus(read_sources([str(corpus)]), out, workers=2)
    assert (finished.skipped, finished.done) == (8, 0)


def test_the_report_shares_trends_and_page(run, tmp_path):
    out, _ = run
    report = build_report(out, dates=["2025-07-01", "2026-01-01"])
    assert report.counts == {OK: 5, REFUSED: 1, ERROR: 2}
    assert report.stored["service"].nunique() == 4 and len(report.stored) == 5 and len(report.policies) == 8
    sale = report.facets[report.facets["facet"] == "sale"]
    assert sale["n"].tolist() == [4] * len(VERDICTS) and sale["k"].sum() == 4  # each service once, by its latest version
    assert set(report.trends["date"]) == {"2025-07-01", "2026-01-01"}
    assert report.trends.groupby("date")["n"].max().to_dict() == {"2025-07-01": 1, "2026-01-01": 1}
    in_force = latest_versions(report.policies, on="2025-07-01")
    assert in_force["date"].tolist() == ["2025-06-15"]  # the June version, not December's
    assert trend_shares(report.policies, ["2020-01-01"]).empty  # nothing in force yet
    assert snapshot_dates(report.policies) == ["2025-07-01"]
    one_version_each = report.policies[report.policies["date"] != "2025-06-15"]
    assert snapshot_dates(one_version_each) == []  # dated by their last change only: no trend to draw
    page = write_report(report, tmp_path / "report", "Test <corpus>")
    html = page.read_text()
    assert "<title>Test &lt;corpus&gt;</title>" in html and html.count("data:image/png;base64,") >= 3
    assert (tmp_path / "report" / "policies.csv").read_text().count("\n") == 6


def test_wilson_and_newcombe_give_the_published_intervals():
    _, low, high = wilson(81, 263)  # Newcombe (1998), Statistics in Medicine 17: 0.2553 to 0.3662
    assert (round(low, 4), round(high, 4)) == (0.2553, 0.3662)
    change, low, high = newcombe(48, 80, 56, 70)  # his method 10 example: 0.0524 to 0.3339
    assert (round(change, 4), round(low, 4), round(high, 4)) == (0.2, 0.0524, 0.3339)


def test_search_finds_the_retention_sentence_exactly_and_with_ivf_pq(run, retriever):
    out, _ = run
    encode = lambda text: retriever.encode([text])[0]
    matches = search(out, encode, "how long do you keep my content", top=3)
    assert matches[0].service == "instagram.com" and "How long we keep" in matches[0].text
    sentences = table(out, "sentences")
    for match in matches:
        row = sentences[(sentences["doc_id"] == match.doc_id) & (sentences["ordinal"] == match.sentence_id)]
        assert row["text"].item() == match.text
    assert all("cookie" in m.text.lower() for m in search(out, encode, "tracking technologies", 5, facet="cookies_tracking"))
    quantised = corpus_index(out, exact_limit=100, shard_rows=300)
    assert quantised.kind.startswith("ivfpq") and quantised.size == len(sentences) and len(quantised.shards) > 1
    best = quantised.search(encode("how long do you keep my content"), 1)[0][0]
    assert quantised.rows.iloc[best]["ordinal"] == matches[0].sentence_id  # the same sentence across shards


def test_ask_answers_each_service_from_its_profile_or_its_closest_sentence(run, retriever):
    out, _ = run
    encode = lambda text: retriever.encode([text])[0]
    answers = ask(out, "Do they sell my personal data?", encode)
    assert answers.facet == "sale" and sorted(a.service for a in answers.answers) == sorted([*POLICIES, "firefox"])
    profiles = table(out, "profiles").set_index("service")
    firefox = next(a for a in answers.answers if a.service == "firefox")
    assert firefox.date == "2025-12-15"  # the latest version
    texts = set(table(out, "sentences")["text"])
    for answer in answers.answers:
        assert answer.quote is None or answer.quote in texts
        cited = {int(n) for n in re.findall(r"sentences? (\d+)", answer.headline)}  # every cited sentence is shown
        assert cited <= {answer.sentence_id} | {n for n, text in answer.also if text in texts}, answer
    assert sum(row["policies"] for row in answers.summary()) == 4
    other = ask(out, "Where is the company's office?", encode)
    assert other.facet is None and len(other.answers) == 4 and all(a.quote in texts for a in other.answers)
    del profiles


def test_a_service_named_by_an_ordinary_word_is_named_only_when_capitalised(run):
    out, _ = run
    ordinary = ordinary_names(out, ["Privacy", "firefox", "Cookies"])
    assert ordinary == {"privacy", "cookies"}  # the corpus's own policies use them as ordinary words
    services = ["Privacy", "firefox", "amazon.com"]
    assert named_services("Do they respect my privacy?", services, ordinary) == []
    assert named_services("Does Privacy sell my data?", services, ordinary) == ["Privacy"]
    assert named_services("does firefox sell my data?", services, ordinary) == ["firefox"]
    assert named_services("does amazon keep my data?", services, ordinary) == ["amazon.com"]


def test_an_app_is_named_without_its_store_subtitle_and_a_site_without_its_domain():
    services = ["Duolingo: Language Lessons", "Lotsa Slots - Casino Games", "reddit.com", "Amazon", "Amazon Advertising"]
    assert named_services("does duolingo sell my data?", services) == ["Duolingo: Language Lessons"]
    assert named_services("Is Lotsa Slots tracking me?", services) == ["Lotsa Slots - Casino Games"]
    assert named_services("what does Reddit keep?", services) == ["reddit.com"]
    assert named_services("does amazon advertising share it?", services) == ["Amazon Advertising"]
    assert named_services("do they sell my language lessons?", services) == []


def test_bad_sources_are_refused_in_one_line(tmp_path):
    missing = subprocess.run([*CLI, "ingest", str(tmp_path / "nowhere"), "--out", str(tmp_path / "out")],
                             capture_output=True, text=True, cwd=ROOT, check=False)
    assert missing.returncode == 2 and missing.stderr.strip().count("\n") == 0 and "nowhere" in missing.stderr
    listing = tmp_path / "list.tsv"
    listing.write_text("path\tservice\nexample.html\texample\n")
    wrong = subprocess.run([*CLI, "ingest", str(listing), "--out", str(tmp_path / "out")], capture_output=True,
                           text=True, cwd=ROOT, check=False)
    assert wrong.returncode == 2 and "'source' column" in wrong.stderr
    assert not (tmp_path / "out").exists()


def test_the_server_answers_from_a_corpus_without_an_ingest(run, assistant):
    from assistant.frontends.api import create_app
    from tests.frontends.test_api import running

    out, _ = run
    with running(create_app(assistant, load_models=False, corpus=out)) as base:
        named = httpx.post(f"{base}/corpus/ask", json={"question": "Does Instagram sell my data?"}, timeout=120)
        across = httpx.post(f"{base}/corpus/ask", json={"question": "Which of them use cookies to track me?"},
                            timeout=120)
        found = httpx.get(f"{base}/corpus/search", params={"text": "how long do you keep my content", "top": 2},
                          timeout=120)
    assert named.status_code == 200 and [a["service"] for a in named.json()["answers"]] == ["instagram.com"]
    assert named.json()["facet"] == "sale" and named.json()["answers"][0]["quote"]
    assert across.json()["facet"] == "cookies_tracking" and len(across.json()["answers"]) == 4
    assert found.json()[0]["service"] == "instagram.com"
    assert assistant.policies() == []  # nothing was ingested
    with running(create_app(assistant, load_models=False)) as base:
        refused = httpx.post(f"{base}/corpus/ask", json={"question": "Do they sell my data?"}, timeout=60)
    assert refused.status_code == 404 and "--corpus" in refused.json()["error"]


def test_the_report_page_opens_in_a_browser_with_its_plots(run, tmp_path, request):
    from tests.chat.test_webchat import CHROMIUM, CHROMIUM_ARGS

    if not CHROMIUM.exists():
        message = f"{CHROMIUM} is missing: `make chromium` installs Debian's chromium"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    out, _ = run
    page_path = write_report(build_report(out, dates=["2025-07-01", "2026-01-01"]), tmp_path / "report", "Corpus")
    browser = request.getfixturevalue("playwright_driver").chromium.launch(
        executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
    try:
        page = browser.new_page()
        page.goto(page_path.as_uri())
        sizes = page.eval_on_selector_all("img", "images => images.map(i => [i.complete, i.naturalWidth])")
        assert len(sizes) >= 4 and all(done and width > 300 for done, width in sizes), sizes
        assert page.locator("table").first.locator("tr").count() == 17  # a header and the sixteen questions
        assert "Do they sell my personal information?" in page.inner_text("body")
    finally:
        browser.close()
