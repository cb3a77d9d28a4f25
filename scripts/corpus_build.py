"""Rebuild the corpora `assistant corpus ingest` is measured on, from pinned public sources; nothing is committed but
the pins (scripts/corpora/*.tsv: repository, commit, path, sha256, service, date).

    python scripts/corpus_build.py opp115 --out DIR                          # OPP-115's 115 policies (a list file)
    python scripts/corpus_build.py current --out DIR --mirrors M | --download   # current policies of distinct services
    python scripts/corpus_build.py longitudinal --out DIR --mirrors M | --download  # services' versions over years
    python scripts/corpus_build.py pin current|longitudinal --mirrors M      # choose and pin anew (writes the .tsv)

The current and longitudinal policies are Open Terms Archive's versions ("Privacy Policy.md" of each service, as the
archive recorded it). Pinning `current` takes each service's newest version in the pinned repositories at their
pinned commits, one per service (case-insensitive; the first repository listed with an English version wins, else
the first listed), then the 175 app policies PoliCond collected from the app stores' top charts (30 Nov – 2 Dec
2024), less the pages that describe an app rather than give its policy (THIRD_PARTY_PAGES), less those of a service already taken (the same name before any ":" or " - ", or a name that begins with a
taken one's: "Badoo Dating App" is Badoo) and those whose text is the
same document as one already taken (SAME_DOCUMENT of its word 6-grams shared: Tinder's policy is Match Group's,
X's is Twitter's). Template policies that many small apps share under their own names stay: they are those apps'
policies. Last, the policies the answers sets pin from companies' own repositories (sets/answers/*/policies.tsv), by
the same two rules. Pinning `longitudinal` takes
the services whose policy was recorded before 1 July of the first snapshot year and is still recorded, and, for
each snapshot date (1 July of SNAPSHOT_YEARS), the version in force on that date; each distinct version once,
dated by the commit that recorded it (the report counts a service at a date by the version in force then).
The documents are not ours to redistribute: they are written under DIR, never into the repository."""
from __future__ import annotations

import argparse
import csv
import hashlib
import re
import subprocess
import sys
import urllib.parse
from pathlib import Path

from pinned_sources import add_source_options, read_pinned, read_tsv

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from assistant.corpora.opp115 import opp115_policies
from assistant.ingest.screening import detect_language

PINS = Path(__file__).resolve().parent / "corpora"
# The Open Terms Archive collections read, each at the commit it was pinned at (English-language ones first).
REPOSITORIES = ("OpenTermsArchive/contrib-versions", "OpenTermsArchive/pga-versions",
                "OpenTermsArchive/vlopses-us-versions", "OpenTermsArchive/dating-versions",
                "OpenTermsArchive/GenAI-versions", "OpenTermsArchive/genai-contrib-versions",
                "OpenTermsArchive/p2b-compliance-versions", "OpenTermsArchive/user-rights-versions",
                "OpenTermsArchive/demo-versions", "OpenTermsArchive/genai-eu-versions", "OpenTermsArchive/france-versions",
                "OpenTermsArchive/sante-numerique-france-versions")
APPS_REPOSITORY = "SEG-DENSE/PoliCond"  # MIT; datasets/apps: websites.csv (No, Name, Category, URL), htmls/N_*/
APPS_COLLECTED = "2024-12-02"  # the last day of its collection, as its datasets/apps/README.md states
SAME_DOCUMENT = 0.8  # share of the shorter document's word 6-grams found in the other
# Listed addresses that describe an app rather than give its developer's policy: a store's data-safety form, a rating.
THIRD_PARTY_PAGES = ("play.google.com", "privacy.commonsense.org")
LONGITUDINAL_REPOSITORY = "OpenTermsArchive/contrib-versions"  # the collection with the longest history (Dec 2020 on)
SNAPSHOT_YEARS = (2021, 2023, 2026)  # 1 July of each: five years apart at the ends
LONGITUDINAL_SERVICES = 120  # the first this many qualifying services by name (refusals leave at least 100)
FIELDS = ("service", "date", "repository", "commit", "path", "sha256")
POLICY_FILE = "Privacy Policy.md"


def git(mirrors: Path, repository: str, *arguments: str) -> str:
    git_dir = mirrors / repository.replace("/", "+") / "repo"
    return subprocess.run(["git", "-C", str(git_dir), *arguments], capture_output=True, check=True,
                          text=True).stdout


def pin_current(mirrors: Path) -> list[dict[str, str]]:
    chosen: dict[str, dict[str, str]] = {}
    english: set[str] = set()
    for repository in REPOSITORIES:
        commit = git(mirrors, repository, "rev-parse", "HEAD").strip()
        for path in git(mirrors, repository, "ls-tree", "-r", "--name-only", commit).splitlines():
            if not (path.endswith("/" + POLICY_FILE) and path.count("/") == 1):
                continue
            service = path.split("/")[0]
            if service.lower() in english:
                continue
            row = _row(mirrors, service, "", repository, commit, path)
            text = read_pinned(repository, commit, path, mirrors).decode("utf-8", "replace")
            is_english = detect_language(text)[0] == "en"
            if service.lower() not in chosen or is_english:
                row["date"] = git(mirrors, repository, "log", "-1", "--format=%aI", commit, "--", path)[:10]
                chosen[service.lower()] = row
                if is_english:
                    english.add(service.lower())
    rows = list(chosen.values())
    rows += _app_policies(mirrors, rows)
    rows += _set_policies(mirrors, rows)
    return sorted(rows, key=lambda row: row["service"].lower())


def _set_policies(mirrors: Path, taken: list[dict[str, str]]) -> list[dict[str, str]]:
    """The policies the answers sets pin from companies' own repositories (sets/answers/*/policies.tsv), each at its
    pinned commit and named by its organisation, less those already taken by name or by text."""
    names = {_name_key(row["service"]) for row in taken}
    grams = [_grams(read_pinned(row["repository"], row["commit"], row["path"], mirrors)) for row in taken]
    rows, seen = [], set()
    for index in sorted((ROOT / "sets" / "answers").glob("*/policies.tsv")):
        for pin in read_tsv(index):
            where = (pin.get("repository") or "", pin.get("path") or "")
            if not where[0] or where[0].startswith("OpenTermsArchive/") or where in seen:
                continue
            seen.add(where)
            text = _grams(read_pinned(pin["repository"], pin["commit"], pin["path"], mirrors))
            if _name_key(pin["organisation"]) in names or any(_same_document(text, other) for other in grams):
                continue
            rows.append(_row(mirrors, pin["organisation"], pin["last_changed"], pin["repository"], pin["commit"],
                             pin["path"]))
            names.add(_name_key(pin["organisation"]))
            grams.append(text)
    return rows


def _app_policies(mirrors: Path, taken: list[dict[str, str]]) -> list[dict[str, str]]:
    """PoliCond's app policies (cleaned.html, the page's readable text) not already taken, by name or by text."""
    repository = APPS_REPOSITORY
    commit = git(mirrors, repository, "rev-parse", "HEAD").strip()
    folders = {folder.rsplit("/", 1)[-1].split("_", 1)[0]: folder for folder in
               git(mirrors, repository, "ls-tree", "-z", "--name-only", commit, "datasets/apps/htmls/").split("\0")
               if folder}
    listing = read_pinned(repository, commit, "datasets/apps/websites.csv", mirrors).decode("utf-8-sig")
    names = {_name_key(row["service"]) for row in taken}
    grams = [_grams(read_pinned(row["repository"], row["commit"], row["path"], mirrors)) for row in taken]
    rows = []
    for app in csv.DictReader(listing.splitlines()):
        if urllib.parse.urlsplit(app["URL"]).hostname in THIRD_PARTY_PAGES:
            continue
        path = f"{folders[app['No']]}/cleaned.html"
        text = _grams(read_pinned(repository, commit, path, mirrors))
        key = _name_key(app["Name"])
        if key in names or any(key.startswith(name + " ") for name in names) or any(
                _same_document(text, other) for other in grams):
            continue
        rows.append(_row(mirrors, app["Name"], APPS_COLLECTED, repository, commit, path))
        names.add(_name_key(app["Name"]))
        grams.append(text)
    return rows


def _name_key(name: str) -> str:
    return re.split(r":| - | – | — ", name)[0].strip().lower()


def _grams(data: bytes) -> set[str]:
    words = re.findall(r"[a-z]+", re.sub(r"<[^>]+>", " ", data.decode("utf-8", "replace")).lower())
    return {" ".join(words[i:i + 6]) for i in range(len(words) - 5)}


def _same_document(a: set[str], b: set[str]) -> bool:
    return bool(a and b) and len(a & b) / min(len(a), len(b)) >= SAME_DOCUMENT


def pin_longitudinal(mirrors: Path) -> list[dict[str, str]]:
    repository = LONGITUDINAL_REPOSITORY
    history: dict[str, list[tuple[str, str]]] = {}  # service → [(date, commit)], newest first
    commit = date = ""
    for line in git(mirrors, repository, "log", "--format=C %H %aI", "--name-only", "--", f"*/{POLICY_FILE}").splitlines():
        if line.startswith("C "):
            _, commit, date = line.split()
        elif line.endswith("/" + POLICY_FILE) and line.count("/") == 1:
            history.setdefault(line.split("/")[0], []).append((date[:10], commit))
    head = git(mirrors, repository, "rev-parse", "HEAD").strip()
    current = {p.split("/")[0] for p in git(mirrors, repository, "ls-tree", "-r", "--name-only", head).splitlines()
               if p.endswith("/" + POLICY_FILE)}
    first = f"{SNAPSHOT_YEARS[0]}-07-01"
    qualifying = sorted((s for s, versions in history.items() if s in current and versions[-1][0] <= first),
                        key=str.lower)[:LONGITUDINAL_SERVICES]
    rows = []
    for service in qualifying:
        chosen = {}
        for year in SNAPSHOT_YEARS:
            in_force = next((v for v in history[service] if v[0] <= f"{year}-07-01"), None)
            if in_force:
                chosen[in_force[1]] = in_force[0]
        for version_commit, version_date in chosen.items():
            rows.append(_row(mirrors, service, version_date, repository, version_commit, f"{service}/{POLICY_FILE}"))
    distinct = {}
    for row in rows:  # a version recorded again unchanged (the same text) is kept once, at its first date
        distinct.setdefault((row["service"], row["sha256"]), row)
    return sorted(distinct.values(), key=lambda row: (row["service"].lower(), row["date"]))


def _row(mirrors: Path, service: str, date: str, repository: str, commit: str, path: str) -> dict[str, str]:
    data = read_pinned(repository, commit, path, mirrors)
    return {"service": service, "date": date, "repository": repository, "commit": commit, "path": path,
            "sha256": hashlib.sha256(data).hexdigest()}


def write_pins(name: str, rows: list[dict[str, str]]) -> Path:
    path = PINS / f"{name}.tsv"
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, FIELDS, delimiter="\t", lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    return path


def file_name(service: str) -> str:
    return re.sub(r"[^\w.+-]+", "_", service).strip("_") or "service"


def rebuild(name: str, out: Path, mirrors: Path | None) -> Path:
    """Write the pinned documents under `out` and a list file (source, service, date) that names them."""
    rows = read_tsv(PINS / f"{name}.tsv")
    listed = []
    for row in rows:
        data = read_pinned(row["repository"], row["commit"], row["path"], mirrors)
        if hashlib.sha256(data).hexdigest() != row["sha256"]:
            raise SystemExit(f"{row['repository']}@{row['commit'][:10]}:{row['path']}: sha256 differs from the pin")
        suffix = Path(row["path"]).suffix  # .md (Open Terms Archive) or .html (PoliCond)
        relative = (Path(file_name(row["service"])) / f"{row['date']}{suffix}" if name == "longitudinal"
                    else Path(f"{file_name(row['service'])}{suffix}"))
        (out / relative).parent.mkdir(parents=True, exist_ok=True)
        (out / relative).write_bytes(data)
        listed.append({"source": str(relative), "service": row["service"], "date": row["date"]})
    return write_list(out, listed)


def write_list(out: Path, rows: list[dict[str, str]]) -> Path:
    path = out / "corpus.tsv"
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, ("source", "service", "date"), delimiter="\t", lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    return path


def opp115(out: Path) -> Path:
    """OPP-115's sanitized policies, listed in place (they ship with the project's corpus archive)."""
    out.mkdir(parents=True, exist_ok=True)
    return write_list(out, [{"source": str(path), "service": name, "date": ""}
                            for name, path in sorted(opp115_policies().items())])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("opp115").add_argument("--out", type=Path, required=True)
    for name in ("current", "longitudinal"):
        command = sub.add_parser(name)
        command.add_argument("--out", type=Path, required=True)
        add_source_options(command)
    pin = sub.add_parser("pin")
    pin.add_argument("corpus", choices=("current", "longitudinal"))
    pin.add_argument("--mirrors", type=Path, required=True)
    arguments = parser.parse_args()
    if arguments.command == "pin":
        rows = (pin_current if arguments.corpus == "current" else pin_longitudinal)(arguments.mirrors)
        print(f"{write_pins(arguments.corpus, rows)}: {len(rows)} documents, "
              f"{len({r['service'].lower() for r in rows})} services")
    elif arguments.command == "opp115":
        print(opp115(arguments.out))
    else:
        arguments.out.mkdir(parents=True, exist_ok=True)
        listed = rebuild(arguments.command, arguments.out, None if arguments.download else arguments.mirrors)
        print(f"{listed}: {len(read_tsv(listed))} documents")


if __name__ == "__main__":
    main()
