"""Terminal rendering of answers and policy lists with rich. Policy text is never parsed as markup."""
from __future__ import annotations

from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from assistant.answers import explain_reason
from assistant.models import Answer
from assistant.store import PolicySummary


def render_answer(answer: Answer) -> Group:
    """The answer first, then the quoted evidence with its citations."""
    header = Text(f"{answer.policy} (version {answer.version})", style="bold cyan")
    if answer.answerable:
        body = Text(answer.answer or "", style="bold")
        title = f"Answer · confidence {answer.confidence:.2f}"
        evidence_title = "Evidence"
    else:
        body = Text(explain_reason(answer.reason), style="yellow")
        body.append(f"  [{answer.reason}]", style="dim")
        title = "No answer"
        evidence_title = "Closest passages (none clearly answers)"
    parts: list = [header, Panel(body, title=title, title_align="left")]
    if answer.evidence:
        parts.append(Text(evidence_title, style="bold"))
        for rank, item in enumerate(answer.evidence, start=1):
            quote = Text(f"{rank}. “", style="default")
            quote.append(item.text, style="italic")
            quote.append("”")
            citation = Text(f"   {item.citation()}  (score {item.score:.2f})", style="dim")
            parts.extend([quote, citation])
    return Group(*parts)


def render_policies(policies: list[PolicySummary]) -> Table:
    table = Table(title="Stored policies")
    for column in ("Name", "Version", "Versions", "Sections", "Sentences", "Ingested (UTC)", "Source"):
        table.add_column(column)
    for summary in policies:
        latest = summary.latest
        table.add_row(
            Text(latest.name), str(latest.version), str(summary.versions), str(latest.n_sections),
            str(latest.n_sentences), latest.ingested_at, Text(latest.source_path, overflow="fold"),
        )
    return table


def print_error(console: Console, message: str) -> None:
    console.print(Text(f"error: {message}", style="bold red"), soft_wrap=True)
