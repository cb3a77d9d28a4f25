"""Terminal rendering of answers and policy lists with rich. Policy text is never parsed as markup."""
from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from rich.console import Console, Group
from rich.panel import Panel
from rich.segment import Segment
from rich.table import Table
from rich.text import Text

from assistant.answering.label import PrivacyLabel, statement
from assistant.answering.reasons import explain_reason
from assistant.evaluation.metrics import Score, percent
from assistant.foundation.controls import escape_controls
from assistant.foundation.types import Answer, Facts
from assistant.store.database import PolicySummary

if TYPE_CHECKING:  # the harness imports the engine (torch): not needed to draw a report
    from assistant.answering.across import AnswersAcross
    from assistant.answering.changes import PolicyDiff
    from assistant.answering.compare import Comparison
    from assistant.evaluation.privacyqa import PrivacyQAReport


class SafeConsole(Console):
    """A rich console that writes control characters inside text as visible escapes, so nothing
    printed (policy text, names, file names, error messages) can drive the terminal. rich's own
    styling and cursor codes are separate segments and pass unchanged."""

    def _render_buffer(self, buffer: Iterable[Segment]) -> str:
        return super()._render_buffer(
            segment if segment.control else Segment(escape_controls(segment.text), segment.style)
            for segment in buffer
        )


def render_answer(answer: Answer) -> Group:
    """The answer first, then the quoted evidence with its citations."""
    header = Text(f"{answer.policy} (version {answer.version})", style="bold cyan")
    if answer.answerable and answer.verdict == "not_stated":
        body = Text(answer.headline, style="yellow")
        title = "Not stated"
        evidence_title = "Related passages (none answers the question)"
    elif answer.answerable:
        body = Text(answer.headline or answer.answer or "", style="bold")
        if answer.span and answer.span.text.strip() != (answer.answer or "").strip():
            body.append("\nIn the quote: ", style="dim")
            body.append(answer.span.text, style="bold")
        title = f"Answer · confidence {answer.confidence:.2f}"
        evidence_title = "Evidence (the first supports the answer)"
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
            span = answer.span if answer.span and answer.span.sentence_id == item.sentence_id else None
            if span:  # the short answer, underlined inside its sentence
                quote.append(item.text[: span.start], style="italic")
                quote.append(item.text[span.start : span.end], style="bold italic underline")
                quote.append(item.text[span.end :], style="italic")
            else:
                quote.append(item.text, style="italic")
            quote.append("”")
            citation = Text(f"   {item.citation()}  (score {item.score:.2f})", style="dim")
            parts.extend([quote, citation])
            facts = next((f for f in answer.facts if f.sentence_id == item.sentence_id), None)
            said = statement(Facts(facts.intent, tuple(facts.slots)), item.text) if facts else None
            if said:
                parts.append(Text(f"   → {said}", style="green"))
    return Group(*parts)


VERDICT_STYLE = {"yes": ("Yes", "bold green"), "no": ("No", "bold red"), "conditional": ("Only if …", "bold yellow"),
                 "not_stated": ("Not stated", "dim")}


def render_label(label: PrivacyLabel) -> Group:
    """The privacy label: each facet at a glance, then the facts by section, every cell with its
    verbatim examples and source sentences."""
    glance = Table(title=f"Privacy label · {label.policy} (version {label.version}) · at a glance", show_lines=False)
    for column in ("Question", "Answer", "Sentence"):
        glance.add_column(column, overflow="fold")
    for row in label.glance:
        word, style = VERDICT_STYLE.get(row.verdict, (row.verdict, ""))
        glance.add_row(Text(row.question), Text(word, style=style), str(row.sentence_id or ""))
    return Group(glance, _label_sections(label)) if label.glance else Group(_label_sections(label))


QUOTE_CHARS = 140  # a quote in a comparison cell is cut at a word before this many characters


def short_quote(text: str | None, sentence_id: int | None, limit: int = QUOTE_CHARS) -> str:
    """'“We do not sell …” (s. 40)': the quote cut at a word near `limit`, with its sentence number."""
    if not text:
        return ""
    cut = text if len(text) <= limit else text[:limit].rsplit(" ", 1)[0].rstrip(",;:") + " …"
    return f"“{cut}” (s. {sentence_id})"


def _verdict_cell(verdict: str, quote: str | None, sentence_id: int | None) -> Text:
    word, style = VERDICT_STYLE.get(verdict, (verdict, ""))
    cell = Text(word, style=style)
    if quote:
        cell.append("\n" + short_quote(quote, sentence_id), style="italic")
    return cell


def render_comparison(comparison: Comparison) -> Table:
    """Facets as rows, policies as columns: each cell the verdict word and a short quote; differing rows first."""
    table = Table(title="Policies compared (facets where they differ first)", show_lines=True)
    table.add_column("Facet", overflow="fold")
    for name, version in zip(comparison.policies, comparison.versions, strict=True):
        table.add_column(Text(f"{name} (v{version})"), overflow="fold")
    for row in comparison.facets:
        facet = Text(row.facet, style="bold" if row.differs else "")
        facet.append(f"\n{row.question}", style="dim")
        if row.differs:
            facet.append("\ndiffers", style="bold magenta")
        table.add_row(facet, *(_verdict_cell(c.verdict, c.quote, c.sentence_id) for c in row.cells))
    return table


def render_across(result: AnswersAcross) -> Table:
    """One question, one row per policy: the verdict with its quote, the policies that answer first."""
    table = Table(title=Text(f"“{result.question}” across {len(result.answers)} policies"), show_lines=True)
    for column in ("Policy", "Answer", "Confidence"):
        table.add_column(column, overflow="fold")
    for answer in result.answers:
        quote = answer.evidence[0] if answer.evidence and answer.answerable and answer.verdict != "not_stated" else None
        if answer.verdict is None and not answer.answerable:
            cell = Text(explain_reason(answer.reason), style="yellow")
        elif answer.verdict is None:
            cell = Text(answer.headline or "")
            if quote:
                cell.append("\n" + short_quote(quote.text, quote.sentence_id), style="italic")
        else:
            cell = _verdict_cell(answer.verdict, quote.text if quote else None, quote.sentence_id if quote else None)
        table.add_row(Text(f"{answer.policy} (v{answer.version})"), cell, f"{answer.confidence:.2f}")
    return table


def render_diff(diff: PolicyDiff) -> Group:
    """The facet changes in plain words, then the sentence changes by issue, each marked material or editorial."""
    heading = Text(f"{diff.policy}: version {diff.from_version} → version {diff.to_version}", style="bold cyan")
    counts = Text(f"{diff.count('added')} added, {diff.count('removed')} removed, {diff.count('reworded')} reworded, "
                  f"{diff.unchanged} unchanged sentences; {diff.count(material=True)} material, "
                  f"{diff.count(material=False)} editorial.", style="dim")
    parts: list = [heading, counts, Text("Facets (the label's questions)", style="bold")]
    if diff.facet_changes:
        parts.extend(Text(f"  MATERIAL  {change.statement()}", style="bold") for change in diff.facet_changes)
    else:
        parts.append(Text(f"  No facet changed ({diff.facets_compared} compared).", style="dim"))
    for group in diff.issues:
        table = Table(title=Text(group.issue), title_justify="left", show_lines=True)
        for column in ("Change", "Before", "After"):
            table.add_column(column, overflow="fold")
        for change in group.changes:
            kind = Text(change.kind, style="bold")
            kind.append("\nmaterial" if change.material else "\neditorial", style="magenta" if change.material else "dim")
            if change.similarity is not None:
                kind.append(f"\nsimilarity {change.similarity:.2f}", style="dim")
            before = Text(f"{change.before_id}. {change.before}", style="red") if change.before else Text("")
            after = Text(f"{change.after_id}. {change.after}", style="green") if change.after else Text("")
            table.add_row(kind, before, after)
        parts.append(table)
    if not diff.issues:
        parts.append(Text("No sentence changed.", style="dim"))
    return Group(*parts)


def _label_sections(label: PrivacyLabel) -> Table:
    table = Table(title=f"Privacy label · {label.policy} (version {label.version})", show_lines=True)
    for column in ("Section", "Item", "What the policy says", "Sentences"):
        table.add_column(column, overflow="fold")
    for section in label.sections:
        if not section.rows:
            table.add_row(Text(section.title, style="bold"), Text("not stated", style="dim"), "", "")
        for number, cell in enumerate(section.rows):
            item = Text(cell.item)
            if cell.only_negated:
                item.append("  (stated as NOT done)", style="bold yellow")
            elif cell.negated:
                denying = ", ".join(str(n) for n in cell.negated_sentences[:6])
                item.append(f"  (also stated as not done: sentence {denying})", style="yellow")
            examples = Text("; ".join(f"“{e}”" for e in cell.examples), style="italic")
            sentences = ", ".join(str(n) for n in cell.sentences[:12]) + (" …" if len(cell.sentences) > 12 else "")
            table.add_row(Text(section.title, style="bold") if number == 0 else "", item, examples, sentences)
    return table


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
    damaged = [f"{s.latest.name} {problem}" for s in policies for problem in s.damaged]
    if damaged:  # one line each, under the table
        table.caption = Text("\n".join(["Damaged (run `assistant repair`):", *damaged]), style="bold red")
        table.caption_justify = "left"
    return table


def print_error(console: Console, message: str) -> None:
    console.print(Text(f"error: {message}", style="bold red"), soft_wrap=True)


_BASELINE_LABELS = {
    "no_answer": "baseline: no answer",
    "word_count_top2": "baseline: word count, top 2",
    "word_count_top3": "baseline: word count, top 3",
    "word_count_top5": "baseline: word count, top 5",
}


def render_privacyqa_report(report: PrivacyQAReport) -> Group:
    """Rich tables: sentence-level P/R/F1 with baselines, answerability, F1 per OPP-115 category."""
    answerable = sum(r.question.answerable for r in report.results)
    heading = Text(
        f"PrivacyQA sentence-level evaluation: {report.data.name} ({report.format}), "
        f"{len(report.results)} questions, {answerable} answerable",
        style="bold",
    )
    main = Table()
    main.add_column("system")
    for column in ("precision", "recall", "F1"):
        main.add_column(column, justify="right")
    main.add_row("assistant", *_cells(report.score), style="bold")
    for name, score in report.baselines.items():
        main.add_row(_BASELINE_LABELS.get(name, name), *_cells(score))

    answerability = Table(title="Answerability (answerable class)", title_justify="left")
    for column in ("precision", "recall", "F1", "accuracy"):
        answerability.add_column(column, justify="right")
    a = report.answerability
    answerability.add_row(*(f"{percent(v):.1f}" for v in (a.precision, a.recall, a.f1, a.accuracy)))

    categories = Table(title="Assistant F1 by OPP-115 category (expert flags)", title_justify="left")
    categories.add_column("category")
    categories.add_column("questions", justify="right")
    categories.add_column("F1", justify="right")
    for name, (count, score) in report.by_category.items():
        categories.add_row(name, str(count), f"{percent(score.f1):.1f}")
    parts: list = [heading, main, answerability, categories]
    if report.uncategorised:
        parts.append(Text(f"{report.uncategorised} question(s) not found in the category flag files.", style="dim"))
    if not report.ordered:
        parts.append(Text("The file does not keep the policies' sentence order: sentences were stored in a "
                          "fixed shuffled order, with the neighbours' share off.", style="dim"))
    parts.append(Text(f"All numbers are percentages. {report.seconds:.0f} s.", style="dim"))
    return Group(*parts)


def _cells(score: Score) -> list[str]:
    return [f"{percent(v):.1f}" for v in (score.precision, score.recall, score.f1)]
