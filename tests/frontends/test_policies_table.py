"""`assistant policies` fits an 80-column terminal without cutting a policy name (issue 21): less important
columns go first and the source folds onto a few lines."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.cli import cli_env

LONG_NAME = "example-company-international-holdings-privacy"  # 46 characters: typed as shown
LONG_URL = ("https://www.example-company-international-holdings.com/legal/privacy-policy/2026/v3/full-text"
            "?lang=en-US&region=eu&utm_source=newsletter")
SENTENCES = ["We collect your email address when you sign up for an account.",
             "We do not sell your personal information to anyone.",
             "We keep your account data for two years after you close your account."]


@pytest.fixture(scope="module")
def home(tmp_path_factory, embedder, retriever, policyie) -> Path:
    from assistant.engine import Assistant
    from assistant.foundation.sentences import policy_from_sentences
    from assistant.foundation.settings import Settings

    home = tmp_path_factory.mktemp("table") / "home"
    engine = Assistant(Settings(home=home), embedder=embedder, retriever=retriever, policyie=policyie)
    engine.store_policy(policy_from_sentences(SENTENCES), LONG_NAME, LONG_URL, "0" * 64)
    engine.store_policy(policy_from_sentences(SENTENCES[:2]), LONG_NAME, LONG_URL, "1" * 64)
    engine.store_policy(policy_from_sentences(SENTENCES), "amazon", "/home/someone/policies/amazon.com.html", "2" * 64)
    return home


def policies(home: Path, columns: int) -> list[str]:
    env = cli_env(home, ASSISTANT_SERVER="off")
    env["COLUMNS"] = str(columns)
    result = subprocess.run([sys.executable, "-m", "assistant.frontends.cli", "policies"], capture_output=True,
                            text=True, env=env, timeout=120, check=True)
    return result.stdout.splitlines()


def cells(lines: list[str], name: str) -> list[list[str]]:
    """The cells of a policy's table lines: its first line (the name) and the lines under it up to the next name."""
    rows = [[cell.strip() for cell in line.split("│")[1:-1]] for line in lines if line.startswith("│")]
    start = next(i for i, row in enumerate(rows) if row[0] == name)
    end = next((i for i in range(start + 1, len(rows)) if rows[i][0]), len(rows))
    return rows[start:end]


def test_policies_fit_80_columns_with_whole_names(home):
    lines = policies(home, 80)
    assert max(len(line) for line in lines) <= 80, "\n".join(lines)
    header = next(line for line in lines if "Name" in line)
    assert "Source" in header and "Version" in header and "Sections" not in header  # less important ones went
    long_rows = cells(lines, LONG_NAME)  # the whole name on one line: cells() found it
    assert long_rows[0][1] == "2 of 2"  # the version, and how many there are
    head, tail = "".join(row[-1] for row in long_rows).split("…")  # too long for 4 lines: its start and end
    assert len(long_rows) <= 4 and LONG_URL.startswith(head) and LONG_URL.endswith(tail) and len(head) > 20
    assert "".join(row[-1] for row in cells(lines, "amazon")) == "/home/someone/policies/amazon.com.html"


def test_wide_terminals_show_every_column(home):
    lines = policies(home, 200)
    header = next(line for line in lines if "Name" in line)
    for column in ("Version", "Versions", "Sections", "Sentences", "Ingested (UTC)", "Source"):
        assert column in header
    assert "".join(row[-1] for row in cells(lines, LONG_NAME)) == LONG_URL


def test_a_name_wider_than_the_terminal_folds_but_is_never_cut():
    from assistant.frontends.render import SafeConsole, render_policies

    name = "n" * 60 + "-the-end-of-a-hundred-character-name-" + "x" * 3
    row = {"name": name, "version": 1, "versions": 1, "sections": 1, "sentences": 3, "source": LONG_URL,
           "ingested_at": "2026-11-24T02:02:30+00:00", "damaged": []}
    console = SafeConsole(width=80, record=True)
    console.print(render_policies([row], console.width))
    lines = console.export_text().splitlines()
    assert max(len(line) for line in lines) <= 80
    rows = [[cell.strip() for cell in line.split("│")[1:-1]] for line in lines if line.startswith("│")]
    assert "".join(row[0] for row in rows) == name  # folded, whole
    assert len(rows) <= 4 and "".join(row[-1] for row in rows).startswith("https://")
