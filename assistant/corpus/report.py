"""`assistant corpus report`: the corpus at a glance, as a page a person can open in a browser.

From the tables `assistant corpus ingest` wrote: one row per policy (its documents row and profile), shares of
policies per verdict for each facet with 95 % Wilson intervals, policy length and reading level, and, where the
documents are dated, each facet's share over time. A service counts once: at a date, by the version in force then
(its latest version dated on or before it); undated, by its latest. Intervals treat policies as a sample of the
services they stand for; the change between two dates is Newcombe's hybrid Wilson interval for a difference of
two proportions, which ignores that the same services appear at both dates (it is then wider than a paired
interval, never narrower).

Written to the report folder: index.html (the plots inline), policies.csv / policies.parquet (the table across
the corpus), facets.csv (the shares), trends.csv (shares by date)."""
from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from assistant.corpus.tables import OK, read_table
from assistant.foundation.errors import InputFileError
from assistant.understanding.facets import GLANCE_QUESTIONS

VERDICTS = ("yes", "conditional", "scoped", "no", "not_stated")  # scoped: said for some people or products only
VERDICT_WORDS = {"yes": "yes", "conditional": "only in some cases", "scoped": "only for some people or products",
                 "no": "no", "not_stated": "not stated"}
VERDICT_COLOURS = {"yes": "#2b8a3e", "conditional": "#e8a33d", "scoped": "#7950f2", "no": "#c92a2a",
                   "not_stated": "#adb5bd"}
Z95 = 1.959964


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float, float]:
    """The share k/n with its Wilson score interval (nan for n = 0)."""
    if n == 0:
        return math.nan, math.nan, math.nan
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return p, max(0.0, centre - half), min(1.0, centre + half)


def newcombe(k1: int, n1: int, k2: int, n2: int) -> tuple[float, float, float]:
    """The difference p2 − p1 with Newcombe's hybrid score interval (method 10)."""
    p1, l1, u1 = wilson(k1, n1)
    p2, l2, u2 = wilson(k2, n2)
    d = p2 - p1
    return d, d - math.sqrt((p2 - l2) ** 2 + (u1 - p1) ** 2), d + math.sqrt((u2 - p2) ** 2 + (p1 - l1) ** 2)


@dataclass(frozen=True)
class CorpusReport:
    """The report's tables (what index.html shows and the CSV files hold)."""

    policies: pd.DataFrame  # one row per document: its documents row and (when stored) its profile
    counts: dict[str, int]  # documents by status
    facets: pd.DataFrame  # facet, verdict, k, n, share, low, high (each service's latest version)
    trends: pd.DataFrame  # facet, date, k, n, share, low, high: "yes" or "only in some cases", in force at date
    changes: pd.DataFrame  # facet, first, last, change, low, high, n_first, n_last

    @property
    def stored(self) -> pd.DataFrame:
        """The documents stored as policies (not refused, no error)."""
        return self.policies[self.policies["status"] == OK]


def load_policies(corpus: Path) -> tuple[pd.DataFrame, dict[str, int]]:
    documents = read_table(corpus, "documents")
    if documents is None:
        raise InputFileError(f"{corpus}: no corpus tables here (run `assistant corpus ingest … --out {corpus}`).")
    documents = documents.to_pandas()
    counts = documents["status"].value_counts().to_dict()
    profiles = read_table(corpus, "profiles")
    if profiles is None:
        return documents.assign(**{f"{f}.verdict": pd.Series(dtype=str) for f in GLANCE_QUESTIONS}), counts
    profiles = profiles.to_pandas().drop(columns=["service", "date"])
    return documents.merge(profiles, on="doc_id", how="left"), counts


def latest_versions(policies: pd.DataFrame, on: str | None = None) -> pd.DataFrame:
    """Each service's latest version (dated on or before `on`, when given; undated versions count as latest), where
    that version was stored: a service whose version in force could not be read (refused, an error) is left out,
    not answered from an older one."""
    dated = policies.assign(_order=policies["date"].fillna("9999-12-31"))
    if on is not None:
        dated = dated[dated["date"].notna() & (dated["date"] <= on)]
    latest = dated.sort_values(["service", "_order"]).groupby("service", sort=False).tail(1).drop(columns="_order")
    return latest[latest["status"] == OK]


def facet_shares(policies: pd.DataFrame) -> pd.DataFrame:
    rows = []
    for facet in GLANCE_QUESTIONS:
        column = policies[f"{facet}.verdict"]
        for verdict in VERDICTS:
            k, n = int((column == verdict).sum()), int(column.notna().sum())
            rows.append({"facet": facet, "verdict": verdict, "k": k, "n": n, **_share(k, n)})
    return pd.DataFrame(rows)


def snapshot_dates(policies: pd.DataFrame) -> list[str]:
    """1 July of every year from the first year with two or more dated services to the last year with data; none
    when no service has two dated versions (a corpus of current policies dated by their last change)."""
    dates = policies["date"].dropna()
    if dates.empty or policies.dropna(subset=["date"]).groupby("service").size().max() < 2:
        return []  # no service has two dated versions: dates say when each policy changed, not how policies change
    first_years = policies.dropna(subset=["date"]).groupby("service")["date"].min().str[:4].astype(int)
    start = int(first_years.sort_values().iloc[min(1, len(first_years) - 1)])
    return [f"{year}-07-01" for year in range(start, int(dates.max()[:4]) + 1)]


def trend_shares(policies: pd.DataFrame, dates: list[str] | None = None) -> pd.DataFrame:
    """Each facet's share at each date (default `snapshot_dates`), dates with no service in force left out."""
    rows = []
    for date in dates or snapshot_dates(policies):
        in_force = latest_versions(policies, on=date)
        if in_force.empty:
            continue
        for facet in GLANCE_QUESTIONS:
            column = in_force[f"{facet}.verdict"]
            k, n = int(column.isin(("yes", "conditional")).sum()), int(column.notna().sum())
            rows.append({"facet": facet, "date": date, "k": k, "n": n, **_share(k, n)})
    return pd.DataFrame(rows, columns=["facet", "date", "k", "n", "share", "low", "high"])


def trend_changes(trends: pd.DataFrame) -> pd.DataFrame:
    """Each facet's change from the first snapshot date to the last, largest first."""
    rows = []
    if trends.empty:
        return pd.DataFrame(columns=["facet", "first", "last", "change", "low", "high", "n_first", "n_last"])
    first_date, last_date = trends["date"].min(), trends["date"].max()
    for facet, group in trends.groupby("facet", sort=False):
        first = group[group["date"] == first_date].iloc[0]
        last = group[group["date"] == last_date].iloc[0]
        change, low, high = newcombe(int(first.k), int(first.n), int(last.k), int(last.n))
        rows.append({"facet": facet, "first": first.share, "last": last.share, "change": change, "low": low,
                     "high": high, "n_first": int(first.n), "n_last": int(last.n)})
    return pd.DataFrame(rows).sort_values("change", key=abs, ascending=False)


def build_report(corpus: Path, dates: list[str] | None = None) -> CorpusReport:
    """`dates`: where shares over time are taken (default: 1 July of each year the corpus covers). A corpus that
    holds the versions in force at chosen dates (`scripts/corpus_build.py longitudinal`) is reported at those."""
    policies, counts = load_policies(corpus)
    trends = trend_shares(policies, dates)
    return CorpusReport(policies, counts, facet_shares(latest_versions(policies)), trends, trend_changes(trends))


def _share(k: int, n: int) -> dict[str, float]:
    share, low, high = wilson(k, n)
    return {"share": share, "low": low, "high": high}
