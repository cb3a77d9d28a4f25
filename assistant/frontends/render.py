"""Terminal rendering of answers and policy lists with rich. Policy text is never parsed as markup."""
from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from rich.console import Console, Group
from rich.panel import Panel
from rich.segment import Segment
from rich.table import Table
from rich.text import Text

from assistant.answering.label import GlanceRow, PrivacyLabel
from assistant.evaluation.metrics import Score, percent
from assistant.foundation.reasons import explain_reason
from assistant.foundation.text import escape_controls
from assistant.foundation.types import Answer, Facts
from assistant.understanding.concepts import vocabulary
from assistant.understanding.graph import DOES_NOT, Statement
from assistant.understanding.statements import statement

if TYPE_CHECKING:  # the harness imports the engine (torch), the store FAISS: not needed to draw a report
    from assistant.answering.across import AnswersAcross
    from assistant.answering.alignment import IssueAlignment
    from assistant.answering.changes import PolicyDiff
    from assistant.answering.compare import Comparison
    from assistant.evaluation.privacyqa import PrivacyQAReport
    from assistant.ingest.pipeline import IngestResult
    from assistant.retrieval.across import SearchResults
    from assistant.store.database import PolicySummary


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
        # the span only where the headline neither decides (yes / no) nor quotes the answer itself (a period, an age,
        # the kinds of data): there it is underlined in its sentence below, and said again it reads as a fragment
        if (answer.span and answer.span.text.strip() != (answer.answer or "").strip() and answer.verdict is None
                and "“" not in (answer.headline or "")):
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
                 "scoped": ("Only for some", "bold yellow"), "not_stated": ("Not stated", "dim")}


def render_graph(statements: list[Statement]) -> Table:
    """The policy graph as a table: one row per statement, its concepts in plain words (their labels)."""
    words = vocabulary()
    table = Table(title=f"Policy graph: {len(statements)} statements", show_lines=False)
    for column in ("sentence", "does", "what", "with whom", "why", "condition / scope"):
        table.add_column(column, justify="right" if column == "sentence" else "left", overflow="fold")

    def named(names: tuple[str, ...]) -> str:
        return ", ".join(words.concepts[n].label for n in names)

    for s in statements:
        does = ("not " if s.polarity == DOES_NOT else "") + " / ".join(s.actions)
        qualifiers = "; ".join(q for q in (s.condition, f"for {s.scope}" if s.scope else "") if q)
        table.add_row(str(s.sentence_id), does, named(s.data), named(s.recipients), named(s.purposes),
                      escape_controls(qualifiers))
    return table


def render_label(label: PrivacyLabel) -> Group:
    """The privacy label: each facet at a glance, then the facts by section, every cell with its
    verbatim examples and source sentences."""
    glance = Table(title=f"Privacy label · {label.policy} (version {label.version}) · at a glance", show_lines=False)
    for column in ("Question", "Answer", "What it says", "Sentence"):
        glance.add_column(column, overflow="fold")
    for row in label.glance:
        word, style = VERDICT_STYLE.get(row.verdict, (row.verdict, ""))
        glance.add_row(Text(row.question), Text(word, style=style), _glance_said(row), str(row.sentence_id or ""))
    return Group(glance, _label_sections(label)) if label.glance else Group(_label_sections(label))


QUOTE_CHARS = 140  # a quote in a comparison cell is cut at a word before this many characters


def _glance_said(row: GlanceRow) -> Text:
    """The quote behind a glance row, cut; the value it states where the cut leaves it out (a period, a link, the
    data types); the OPP-115 attribute read in it, except under a "no" (what kind of third party a denial names
    says nothing a reader needs)."""
    said = Text()
    if row.quote:
        cut = f"“{cut_quote(row.quote)}”"
        said.append(cut, style="italic")
        if row.value and row.value not in cut:
            said.append(f" — {row.value}", style="bold")
    elif row.value:
        said.append(row.value, style="bold")
    if row.described and row.verdict != "no":
        said.append(("\n" if said else "") + row.described, style="dim")
    return said


def cut_quote(text: str, limit: int = QUOTE_CHARS) -> str:
    """The text cut at a word near `limit` ("We do not sell …")."""
    return text if len(text) <= limit else text[:limit].rsplit(" ", 1)[0].rstrip(",;:") + " …"


def short_quote(text: str | None, sentence_id: int | None, limit: int = QUOTE_CHARS) -> str:
    """'“We do not sell …” (s. 40)': the quote cut at a word near `limit`, with its sentence number."""
    if not text:
        return ""
    return f"“{cut_quote(text, limit)}” (s. {sentence_id})"


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


def render_search(result: SearchResults) -> Table | Text:
    """The sentences found, best first: policy and version, where (section, sentence, page), the sentence, score."""
    where = "all policies" if result.scope == "all" else result.scope
    if not result.matches:
        return Text(f"No sentence found in {where}.", style="yellow")
    table = Table(title=Text(f"“{result.query}” in {where} ({result.searched} sentences, {result.index} index)"),
                  show_lines=True)
    for column in ("Policy", "Where", "Sentence", "Score"):
        table.add_column(column, overflow="fold")
    for match in result.matches:
        page = f", p. {match.page}" if match.page else ""
        table.add_row(Text(f"{match.policy} (v{match.version})"),
                      Text(f"§ {match.section}, sentence {match.sentence_id}{page}"), Text(match.text),
                      f"{match.score:.3f}")
    return table


def render_alignment(aligned: IssueAlignment, shown: int = 5) -> Table:
    """One issue across policies: each policy's sentences on it (at most `shown`, then how many more)."""
    what = "facet" if aligned.kind == "facet" else "OPP-115 practice"
    table = Table(title=Text(f"What each policy says on {aligned.issue} ({what})"), show_lines=True)
    for column in ("Policy", "Sentences"):
        table.add_column(column, overflow="fold")
    for passages in aligned.policies:
        cell = Text()
        for sentence in passages.sentences[:shown]:
            cell.append(("\n" if cell.plain else "") + short_quote(sentence.text, sentence.sentence_id))
        if len(passages.sentences) > shown:
            cell.append(f"\n… and {len(passages.sentences) - shown} more", style="dim")
        if not passages.sentences:
            cell = Text("not stated (no sentence on it)", style="yellow")
        table.add_row(Text(f"{passages.policy} (v{passages.version})"), cell)
    return table


def render_alignment_report(report: dict) -> Table:
    """`assistant eval alignment`: one row per method, pairwise precision / recall / F1."""
    table = Table(title=Text(f"Alignment by issue, OPP-115 {report['split']}: {report['segments']} segments of "
                             f"{report['policies']} policies, {report['cross_policy_pairs']:,} cross-policy pairs "
                             f"({report['same_issue_pairs']:,} the same issue)"))
    for column in ("Method", "Setting", "P", "R", "F1"):
        table.add_column(column, overflow="fold")
    for row in report["methods"]:
        table.add_row(Text(row["method"]), Text(row["setting"]), f"{row['precision']:.1f}", f"{row['recall']:.1f}",
                      f"{row['f1']:.1f}")
    return table


def render_attributes_report(report: dict) -> Table:
    """`assistant eval attributes`: one row per attribute, our micro / macro F1 beside the majority baseline's."""
    table = Table(title=Text(f"OPP-115 attribute heads, {report['split']} split (F1 in %; with the TF-IDF "
                             "half, vectors alone, and the baseline: the most frequent train value)"))
    for column in ("Unit", "Attribute", "Examples", "Micro / macro F1", "Vectors alone", "Baseline"):
        table.add_column(column, overflow="fold")
    for unit in ("segments", "sentences"):
        for attribute, row in report[unit].items():
            pairs = [f"{scores['micro_f1']:.1f} / {scores['macro_f1']:.1f}"
                     for scores in (row, row["vectors_alone"], row["majority_baseline"])]
            table.add_row(unit, Text(attribute), str(row["examples"]), *pairs)
    table.caption = Text(report["polisis"])
    return table


def render_facets_report(report: dict) -> Table:
    """`assistant eval facets`: accuracy and macro F1 of each way of naming a question's facet."""
    table = Table(title=Text(f"Question facets, {report['split']} ({report['questions']} questions, "
                             f"{report['with_a_facet']} about a facet; %)"))
    for column in ("System", "Accuracy (17 classes)", "Macro F1 (facets)"):
        table.add_column(column)
    names = {"rules": "word rules alone", "model": "facet classifier alone",
             "model_then_rules": f"classifier where its probability ≥ {report['threshold']}, else the rules (shipped)"}
    for name, scores in report["systems"].items():
        table.add_row(names.get(name, name), f"{scores['accuracy']:.1f}", f"{scores['macro_f1']:.1f}")
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


def policy_row(summary: PolicySummary) -> dict[str, Any]:
    """A stored policy's latest version, as `policies --json` and the server's `GET /policies` list it."""
    latest = summary.latest
    return {"name": latest.name, "version": latest.version, "versions": summary.versions,
            "sections": latest.n_sections, "sentences": latest.n_sentences, "title": latest.title,
            "source": latest.source_path, "requested_url": latest.requested_url, "fetched_at": latest.fetched_at,
            "sha256": latest.sha256, "ingested_at": latest.ingested_at, "language": latest.language,
            "kept_text_ratio": (round(latest.kept_words / latest.visible_words, 3)
                                if latest.kept_words is not None and latest.visible_words else None),
            "damaged": list(summary.damaged)}


MIN_SOURCE_WIDTH = 24  # the source column narrows to this before less important columns are dropped,
LAST_SOURCE_WIDTH = 12  # and to this before the name has to fold
SOURCE_LINES = 4  # a longer source is shown by its start and end (`policies --json` has it whole)


def _when(row: dict[str, Any]) -> str:
    return row["ingested_at"].replace("T", " ")[:16]  # ISO 8601 UTC, to the minute


def _version_of(row: dict[str, Any]) -> str:
    return f"{row['version']} of {row['versions']}" if row["versions"] != 1 else str(row["version"])


# The columns between the name and the source, widest layout first; each cell from a row of `policy_row`.
_POLICY_LAYOUTS: tuple[tuple[tuple[str, Callable[[dict[str, Any]], str]], ...], ...] = (
    (("Version", lambda r: str(r["version"])), ("Versions", lambda r: str(r["versions"])),
     ("Sections", lambda r: str(r["sections"])), ("Sentences", lambda r: str(r["sentences"])),
     ("Ingested (UTC)", _when)),
    (("Version", _version_of), ("Sentences", lambda r: str(r["sentences"])), ("Ingested (UTC)", _when)),
    (("Version", _version_of), ("Ingested (UTC)", lambda r: _when(r)[:10])),
    (("Version", _version_of),),
)


def render_policies(rows: list[dict[str, Any]], width: int) -> Table:
    """The stored policies (rows of `policy_row`) as a table that fits `width` columns. The name is what the
    user types, so it is never cut; narrower terminals drop the less important columns first (sections, then
    sentences, the time of day, the date) and the source folds onto at most `SOURCE_LINES` lines."""
    name_width = max(len("Name"), *(len(row["name"]) for row in rows))
    columns, fits, source_width = _POLICY_LAYOUTS[-1], False, LAST_SOURCE_WIDTH
    for layout in _POLICY_LAYOUTS:  # each column costs its text, two of padding and one of rule
        fixed = 1 + (name_width + 3) + sum(_column_width(title, cell, rows) + 3 for title, cell in layout) + 3
        if width - fixed >= (MIN_SOURCE_WIDTH if layout is not _POLICY_LAYOUTS[-1] else LAST_SOURCE_WIDTH):
            columns, fits, source_width = layout, True, width - fixed
            break
    table = Table(title="Stored policies")
    # a name wider than the terminal allows folds onto more lines; it is never cut
    table.add_column("Name", no_wrap=fits, min_width=name_width if fits else None, overflow="fold")
    for title, cell in columns:  # a title may wrap; a cell never does
        table.add_column(title, min_width=_column_width(title, cell, rows))
    table.add_column("Source", overflow="fold", min_width=LAST_SOURCE_WIDTH)
    for row in rows:
        source = _shorten(row["source"], SOURCE_LINES * source_width)
        table.add_row(Text(row["name"]), *(cell(row) for _, cell in columns), Text(source, overflow="fold"))
    damaged = [f"{row['name']} {problem}" for row in rows for problem in row["damaged"]]
    if damaged:  # one line each, under the table
        table.caption = Text("\n".join(["Damaged (run `assistant repair`):", *damaged]), style="bold red")
        table.caption_justify = "left"
    return table


def _shorten(text: str, limit: int) -> str:
    """`text`, or its start and end around an ellipsis when it is longer than `limit` characters."""
    if len(text) <= limit:
        return text
    head = (limit - 1) // 2
    return text[:head] + "…" + text[len(text) - (limit - 1 - head):]


def _column_width(title: str, cell: Callable[[dict[str, Any]], str], rows: list[dict[str, Any]]) -> int:
    """A column's natural width: its widest cell, or the title's longest word (a title may wrap)."""
    return max(max(len(word) for word in title.split()), *(len(cell(row)) for row in rows))


def ingest_message(result: IngestResult) -> str:
    """What an ingest did, in one line (the CLI prints it; the server sends it as `message`)."""
    version = result.version
    case_note = " (names match without regard to case)" if result.requested_name not in ("", version.name) else ""
    if result.repaired:
        return (f"{version.name}{case_note}: unchanged (identical to version {version.version}); its damaged "
                f"index was rebuilt from the stored sentences in {result.seconds:.1f} s.")
    if result.unchanged:
        found = f"Found: {result.found}. " if result.found else ""
        return f"{found}{version.name}{case_note}: unchanged (identical to version {version.version}); nothing to do."
    named = f" ({result.name_note}; --name chooses another)" if result.name_note else ""
    found = f"Found: {result.found}. " if result.found else ""
    return (f"{found}Ingested {version.name} version {version.version}{case_note}: {version.n_sections} sections, "
            f"{version.n_sentences} sentences in {result.seconds:.1f} s{named}.")


def removal_message(name: str, removed: int) -> str:
    return f"Removed {name} ({removed} version{'s' if removed != 1 else ''})."


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
