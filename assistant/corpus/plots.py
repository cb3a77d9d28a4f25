"""The report's plots (matplotlib, drawn off-screen), each returned as PNG bytes."""
from __future__ import annotations

import io

import matplotlib

matplotlib.use("Agg")  # no display: files only
import matplotlib.pyplot as plt
import pandas as pd

from assistant.corpus.report import (
    VERDICT_COLOURS,
    VERDICT_WORDS,
    VERDICTS,
    CorpusReport,
    latest_versions,
)
from assistant.understanding.facets import GLANCE_QUESTIONS


def _png(figure: plt.Figure) -> bytes:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=110, bbox_inches="tight")
    plt.close(figure)
    return buffer.getvalue()


def verdict_bars(report: CorpusReport) -> bytes:
    """Share of policies per verdict, one stacked bar per facet (its plain question)."""
    facets = list(GLANCE_QUESTIONS)
    figure, axes = plt.subplots(figsize=(9, 0.42 * len(facets) + 1.2))
    left = [0.0] * len(facets)
    for verdict in VERDICTS:
        rows = report.facets[report.facets["verdict"] == verdict].set_index("facet").reindex(facets)
        shares = rows["share"].fillna(0).tolist()
        axes.barh(range(len(facets)), shares, left=left, color=VERDICT_COLOURS[verdict], label=VERDICT_WORDS[verdict])
        left = [a + b for a, b in zip(left, shares, strict=True)]
    axes.set_yticks(range(len(facets)), [GLANCE_QUESTIONS[f] for f in facets], fontsize=8)
    axes.invert_yaxis()
    axes.set_xlim(0, 1)
    axes.xaxis.set_major_formatter(lambda value, _: f"{value:.0%}")
    axes.legend(ncols=4, loc="upper center", bbox_to_anchor=(0.5, -0.06), frameon=False, fontsize=8)
    axes.set_title("What the policies say (each service's latest version)", fontsize=10)
    return _png(figure)


def length_and_grade(report: CorpusReport) -> bytes:
    figure, (words, grade) = plt.subplots(1, 2, figsize=(9, 3))
    words.hist(report.stored["words"].dropna(), bins=30, color="#4263eb")
    words.set_xlabel("words in the policy")
    words.set_ylabel("policies")
    grade.hist(report.stored["reading_grade"].dropna(), bins=30, color="#7048e8")
    grade.set_xlabel("reading level (Flesch–Kincaid grade)")
    figure.suptitle("How long and how hard to read", fontsize=10)
    return _png(figure)


def trends(report: CorpusReport, facets: list[str]) -> bytes:
    """For each facet, the share saying "yes" or "only in some cases" at each date, with its 95 % interval."""
    columns = 3
    rows = -(-len(facets) // columns)
    figure, grid = plt.subplots(rows, columns, figsize=(9, 2.3 * rows), sharex=True, squeeze=False)
    for axes, facet in zip(grid.flat, facets, strict=False):
        data = report.trends[report.trends["facet"] == facet]
        dates = pd.to_datetime(data["date"])
        axes.plot(dates, data["share"], marker="o", color="#1c7ed6")
        axes.fill_between(dates, data["low"], data["high"], color="#1c7ed6", alpha=0.2)
        axes.set_ylim(0, 1)
        axes.yaxis.set_major_formatter(lambda value, _: f"{value:.0%}")
        axes.set_title(GLANCE_QUESTIONS[facet], fontsize=8)
        axes.tick_params(labelsize=7)
    for axes in list(grid.flat)[len(facets):]:
        axes.set_visible(False)
    figure.suptitle("Share of services whose policy in force says yes (or only in some cases), 95 % intervals",
                    fontsize=10)
    figure.tight_layout()
    return _png(figure)


def length_over_time(report: CorpusReport) -> bytes | None:
    dates = sorted(report.trends["date"].unique())
    if not dates:
        return None
    medians = [latest_versions(report.policies, on=d)["words"].median() for d in dates]
    figure, axes = plt.subplots(figsize=(5, 2.6))
    axes.plot(pd.to_datetime(dates), medians, marker="o", color="#2b8a3e")
    axes.set_ylabel("median words")
    axes.set_title("Policy length over time (version in force)", fontsize=10)
    return _png(figure)
