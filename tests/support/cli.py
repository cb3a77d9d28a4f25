"""The `assistant` command as a user runs it: in its own process, on a given store."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ASSISTANT = str(Path(sys.executable).with_name("assistant"))


def cli_env(home: Path, **extra: str) -> dict[str, str]:
    env = dict(os.environ, ASSISTANT_HOME=str(home), COLUMNS="200", **extra)
    env.pop("FORCE_COLOR", None)
    return env


def run(home: Path, *args: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [ASSISTANT, *args], capture_output=True, text=True, env=cli_env(home, **env), timeout=300, check=False
    )


def run_long(home: Path, *args: str) -> subprocess.CompletedProcess:
    """`run` with twice the time: commands over several policies (compare, diff, ask --all, search, eval)."""
    return subprocess.run([ASSISTANT, *args], capture_output=True, text=True, env=cli_env(home), timeout=600,
                          check=False)
