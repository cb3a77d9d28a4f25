"""The answers sets: where they live and what each folder holds. The only code that knows where sets are.

A set is a folder NAME/ under the sets root (`sets/answers/` in a checkout of the repository, or
`ASSISTANT_SETS`) that holds a `policies.tsv`, with

- `answers.jsonl`: the questions with their gold verdicts and supporting sentences (`assistant eval answers`);
- `policies.tsv`: its policy files, each pinned to a repository, commit, path (and sha256), or named in a
  corpus (`source` = `opp115`: the dev set's OPP-115 policies);
- `labels.tsv` (or `labels.jsonl` for questions of every type): the labels as a person wrote them while reading
  the policies (`python -m lab.label_set NAME` writes `answers.jsonl` from it), where the set has one;
- `policies/`: the policy files, rebuilt from the pins by `scripts/heldout_policies.py --set NAME` (not in the
  repository: the documents are not ours to redistribute);
- `README.md`: who labelled it, when, how, and its counts.

Sets are not shipped in the wheel: outside a checkout, `ASSISTANT_SETS` names the folder.
"""
from __future__ import annotations

import csv
import os
import re
from dataclasses import dataclass
from pathlib import Path

from assistant.corpora import corpus_dir
from assistant.foundation.errors import AssistantError

SETS_ENV = "ASSISTANT_SETS"
DEV = "dev"
CORPORA = ("opp115",)  # policies.tsv sources read from a bundled corpus, not rebuilt


def sets_root() -> Path:
    """`ASSISTANT_SETS`, else the checkout's `sets/answers/`; a one-line error when there is neither."""
    configured = os.environ.get(SETS_ENV)
    if configured:
        root = Path(configured).expanduser()
        if not root.is_dir():
            raise AssistantError(f"{SETS_ENV}={configured}: no such folder.")
        return root
    root = Path(__file__).resolve().parents[2] / "sets" / "answers"
    if not root.is_dir():
        raise AssistantError(f"No answers sets here: set {SETS_ENV} to a folder of sets "
                             "(sets/answers/ in a checkout of the repository).")
    return root


@dataclass(frozen=True)
class AnswersSet:
    name: str
    folder: Path

    @property
    def answers(self) -> Path:
        """The JSON Lines items `assistant eval answers` scores."""
        return self.folder / "answers.jsonl"

    @property
    def index(self) -> Path:
        """`policies.tsv`: the set's pinned policy files."""
        return self.folder / "policies.tsv"

    @property
    def labels(self) -> Path:
        """The labels `lab.label_set` writes `answers.jsonl` from (not every set has them): `labels.tsv` (yes/no
        questions on the sixteen facets), or `labels.jsonl` (questions of every type, `blind1`)."""
        tsv = self.folder / "labels.tsv"
        return tsv if tsv.is_file() or not (self.folder / "labels.jsonl").is_file() else self.folder / "labels.jsonl"

    @property
    def corpus(self) -> str | None:
        """The bundled corpus the policies come from (`opp115` for the dev set), or None when they are pinned
        files rebuilt into `policies/`."""
        if not self.index.is_file():
            return None
        with self.index.open(encoding="utf-8", newline="") as handle:
            sources = {row.get("source") for row in csv.DictReader(handle, delimiter="\t")}
        return sources.pop() if len(sources) == 1 and sources <= set(CORPORA) else None

    @property
    def policies(self) -> Path:
        """The folder of the set's policy files: OPP-115's sanitized policies for the dev set, else `policies/`
        (present once rebuilt)."""
        if self.corpus is not None:
            return corpus_dir(self.corpus) / "sanitized_policies"
        return self.folder / "policies"

    @property
    def rebuild_command(self) -> str:
        return f"python scripts/heldout_policies.py --set {self.name} --mirrors DIR"

    def has_policies(self) -> bool:
        """Whether the policy files can be read (a corpus always can; a pinned set once rebuilt)."""
        return self.corpus is not None or (self.folder / "policies").is_dir()

    def require_policies(self) -> Path:
        """The policies folder, or a one-line error saying the command that rebuilds it."""
        if not self.has_policies():
            raise AssistantError(f"{self.folder / 'policies'}: not found; rebuild it with {self.rebuild_command}.")
        return self.policies


def _order(name: str) -> tuple[bool, str, int]:
    """dev first, then by name with its number read as a number (heldout2 before heldout10)."""
    match = re.fullmatch(r"(.*?)(\d*)", name)
    return name != DEV, match.group(1), int(match.group(2) or 0)


def all_sets(root: Path | None = None) -> list[AnswersSet]:
    """Every set under the root (a folder with a `policies.tsv`; one being labelled may have no answers.jsonl yet),
    dev first, then in number order."""
    root = root or sets_root()
    names = [p.parent.name for p in root.glob("*/policies.tsv")]
    return [AnswersSet(name, root / name) for name in sorted(names, key=_order)]


def find_set(name: str, root: Path | None = None) -> AnswersSet:
    """The set called `name`; a one-line error listing the known ones when there is none."""
    root = root or sets_root()
    if "/" in name or "\\" in name or name in ("", ".", "..") or not (root / name / "policies.tsv").is_file():
        known = ", ".join(s.name for s in all_sets(root)) or "none"
        raise AssistantError(f"Unknown answers set {name!r} (known: {known}).")
    return AnswersSet(name, root / name)
