"""How often a site's saved page that is not its privacy policy leads to it (`ingest.discovery`; prints numbers).

    .venv/bin/python scripts/measure_policy_links.py --mirrors DIR [--repos OpenTermsArchive/dating-snapshots …]

Reads Open Terms Archive snapshot repositories (git copies DIR/OWNER+NAME/repo, as `fetch` brings them; never
committed): each service's newest snapshot of its terms, guidelines or other documents (HTML), and the address
its privacy policy was fetched from (the `X-source-document-location` of the commit that recorded the policy's
snapshot). For every such page, `policy_links` ranks the page's links as ingest would; the page counts as found at
1 when the first link is the policy's address, at 3 when it is among the three ingest tries. Addresses are
compared without scheme, "www.", query, fragment or a trailing slash; a redirect the archive does not show counts
as a miss. A page whose own address is the policy's (one page holding both) is left out. Prints per site (its
"Terms of Service" page, else its first page) and per page, with the repositories' commits.
"""
from __future__ import annotations

import argparse
import re
import subprocess
from collections import defaultdict
from pathlib import Path
from urllib.parse import urlsplit

from assistant.ingest.discovery import policy_links

DEFAULT_REPOS = ("OpenTermsArchive/GenAI-snapshots", "OpenTermsArchive/genai-eu-snapshots",
                 "OpenTermsArchive/dating-snapshots", "OpenTermsArchive/demo-snapshots")
_LOCATION = re.compile(r"^X-source-document-location: (\S+)", re.MULTILINE)


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "--git-dir", str(repo / ".git") if (repo / ".git").exists() else str(repo),
                           *args], capture_output=True, check=True).stdout.decode("utf-8", "replace")


def key(url: str) -> str:
    parts = urlsplit(url)
    return (parts.hostname or "").removeprefix("www.") + parts.path.rstrip("/")


def location(repo: Path, path: str) -> str | None:
    found = _LOCATION.search(git(repo, "log", "-1", "--format=%B", "--", path))
    return found.group(1) if found else None


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mirrors", type=Path, required=True)
    parser.add_argument("--repos", nargs="+", default=list(DEFAULT_REPOS))
    arguments = parser.parse_args()
    pages: list[tuple[str, str, str, int | None]] = []  # site, document, how found, rank (None: missed)
    for name in arguments.repos:
        repo = arguments.mirrors / name.replace("/", "+") / "repo"
        print(f"{name} at {git(repo, 'rev-parse', 'HEAD').strip()}")
        files = git(repo, "ls-tree", "-r", "--name-only", "HEAD").splitlines()
        by_site = defaultdict(list)
        for path in files:
            if "/" in path:
                by_site[path.split("/", 1)[0]].append(path)
        for site, paths in sorted(by_site.items()):
            policies = [p for p in paths if p.split("/", 1)[1].lower().startswith("privacy policy")]
            targets = {key(url) for p in policies if (url := location(repo, p))}
            if not targets:
                continue
            for path in sorted(p for p in paths if p not in policies and p.endswith(".html")):
                page_url = location(repo, path)
                if not page_url or key(page_url) in targets:
                    continue
                links = policy_links(git(repo, "show", f"HEAD:{path}"), page_url)
                ranks = [i for i, link in enumerate(links[:3], start=1) if key(link.url) in targets]
                how = links[ranks[0] - 1].how if ranks else (
                    f"first: {links[0].url} (policy: {' '.join(sorted(targets))})" if links else "no link")
                pages.append((f"{name.split('/')[1]}/{site}", path.split("/", 1)[1], how,
                              ranks[0] if ranks else None))
    sites: dict[str, tuple[str, str, str, int | None]] = {}
    for page in pages:
        if page[0] not in sites or (page[1].startswith("Terms of Service")
                                    and not sites[page[0]][1].startswith("Terms of Service")):
            sites[page[0]] = page
    for site, document, how, rank in sites.values():
        print(f"  {'found' if rank else 'MISSED':<6} {rank or '-'}  {site:<48} {document[:40]:<40} {how if not rank else how[:70]}")
    for label, rows in (("sites", list(sites.values())), ("pages", pages)):
        first = sum(rank == 1 for *_, rank in rows)
        within = sum(rank is not None for *_, rank in rows)
        print(f"{label}: {len(rows)}; the policy first: {first} ({100 * first / len(rows):.1f} %); among the three "
              f"tried: {within} ({100 * within / len(rows):.1f} %)")


if __name__ == "__main__":
    main()
