"""The report as files: index.html with the plots inline (one file to open or send), and its tables as CSV and
Parquet. Every text from a policy or a source is escaped."""
from __future__ import annotations

import base64
import html
from pathlib import Path

import pandas as pd

from assistant.corpus import plots
from assistant.corpus.report import VERDICT_WORDS, CorpusReport
from assistant.understanding.facets import GLANCE_QUESTIONS

TREND_FACETS_SHOWN = 9  # the facets whose share moved most, in the trend plot

_STYLE = """body{font-family:system-ui,sans-serif;max-width:980px;margin:2em auto;color:#212529;padding:0 1em}
table{border-collapse:collapse;font-size:13px;margin:1em 0}td,th{border-bottom:1px solid #dee2e6;padding:4px 8px;
text-align:left;vertical-align:top}th{background:#f1f3f5}img{max-width:100%}.num{text-align:right}
.muted{color:#868e96;font-size:13px}"""


def write_report(report: CorpusReport, out: Path, title: str) -> Path:
    out.mkdir(parents=True, exist_ok=True)
    policies = _policies_table(report)
    policies.to_csv(out / "policies.csv", index=False)
    policies.to_parquet(out / "policies.parquet", index=False)
    report.facets.to_csv(out / "facets.csv", index=False)
    report.trends.to_csv(out / "trends.csv", index=False)
    report.changes.to_csv(out / "changes.csv", index=False)
    page = out / "index.html"
    page.write_text(_page(report, title), encoding="utf-8")
    return page


def _policies_table(report: CorpusReport) -> pd.DataFrame:
    keep = ["service", "date", "source", "sentences", "words", "reading_grade", "language", "kept_ratio"]
    for facet in GLANCE_QUESTIONS:
        keep += [f"{facet}.verdict", f"{facet}.quote", f"{facet}.sentence"]
    return report.stored[[c for c in keep if c in report.stored.columns]].sort_values(["service", "date"])


def _img(png: bytes | None, alt: str) -> str:
    if png is None:
        return ""
    return f'<p><img alt="{html.escape(alt)}" src="data:image/png;base64,{base64.b64encode(png).decode()}"></p>'


def _pct(value: float) -> str:
    return "–" if pd.isna(value) else f"{value:.0%}"


def _page(report: CorpusReport, title: str) -> str:
    policies = report.stored
    services = policies["service"].nunique()
    counts = ", ".join(f"{n} {status}" for status, n in sorted(report.counts.items()))
    parts = [f"<!doctype html><html lang=en><meta charset=utf-8><title>{html.escape(title)}</title>",
             f"<style>{_STYLE}</style><h1>{html.escape(title)}</h1>",
             (f"<p>{len(policies)} policies of {services} services stored ({counts} documents). Shares count each "
              "service once (its latest version); the intervals are 95 % Wilson score intervals.</p>"),
             ("<p class=muted>Each verdict is the assistant's own reading of the policy (what <code>assistant ask"
              "</code> answers to the question shown), not a person's: the intervals cover which services were "
              "sampled, not reading errors (the assistant's measured accuracy is in its docs/results.md).</p>")]
    if not policies.empty:
        parts.append(_img(plots.verdict_bars(report), "share of policies per verdict, by question"))
        parts.append(_facet_table(report))
        parts.append(_img(plots.length_and_grade(report), "policy length and reading level"))
        parts.append(f"<p>Median length {policies['words'].median():.0f} words ({policies['sentences'].median():.0f} "
                     f"sentences); median reading level grade {policies['reading_grade'].median():.1f}.</p>")
    if not report.trends.empty:
        shown = report.changes["facet"].head(TREND_FACETS_SHOWN).tolist()
        parts.append("<h2>Over time</h2><p>At 1 July of each year, each service by its policy in force then "
                     "(its latest version recorded on or before that day).</p>")
        parts.append(_img(plots.trends(report, shown), "share saying yes over time, by question"))
        parts.append(_change_table(report))
        parts.append(_img(plots.length_over_time(report), "median policy length over time"))
    parts.append('<p class=muted>Tables beside this page: policies.csv / policies.parquet (every policy, each facet\'s '
                 "verdict, quote and sentence), facets.csv, trends.csv, changes.csv.</p>")
    return "\n".join(parts)


def _facet_table(report: CorpusReport) -> str:
    rows = ["<table><tr><th>question</th>" + "".join(f"<th>{html.escape(w)}</th>" for w in VERDICT_WORDS.values())
            + "</tr>"]
    for facet, question in GLANCE_QUESTIONS.items():
        cells = []
        for verdict in VERDICT_WORDS:
            row = report.facets[(report.facets["facet"] == facet) & (report.facets["verdict"] == verdict)].iloc[0]
            cells.append(f"<td class=num>{_pct(row.share)} <span class=muted>({_pct(row.low)}–{_pct(row.high)})"
                         "</span></td>")
        rows.append(f"<tr><td>{html.escape(question)}</td>{''.join(cells)}</tr>")
    return "".join(rows) + "</table>"


def _change_table(report: CorpusReport) -> str:
    changes = report.changes
    first, last = report.trends["date"].min(), report.trends["date"].max()
    rows = [f"<table><tr><th>question</th><th>{first}</th><th>{last}</th><th>change (95 % interval)</th></tr>"]
    for row in changes.itertuples():
        rows.append(f"<tr><td>{html.escape(GLANCE_QUESTIONS[row.facet])}</td><td class=num>{_pct(row.first)} "
                    f"<span class=muted>n={row.n_first}</span></td><td class=num>{_pct(row.last)} <span class=muted>"
                    f"n={row.n_last}</span></td><td class=num>{row.change:+.0%} ({row.low:+.0%} to {row.high:+.0%})"
                    "</td></tr>")
    return "".join(rows) + "</table>"
