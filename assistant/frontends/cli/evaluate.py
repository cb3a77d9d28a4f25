"""`assistant eval`: the assistant and its models measured on research benchmarks.

Each command imports its evaluation inside its function, for start-up speed: torch, the models and the
corpora take seconds to import, and `--help` must answer at once.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from assistant.foundation.errors import AssistantError
from assistant.frontends.cli.common import check_split, console, err_console, friendly_errors, print_json, progress_bar
from assistant.frontends.render import (
    render_alignment_report,
    render_attributes_report,
    render_facets_report,
    render_privacyqa_report,
)

app = typer.Typer(
    help="Measure the assistant on research benchmarks (each in a throwaway store).", no_args_is_help=True
)


@app.command("privacyqa")
@friendly_errors
def eval_privacyqa(
    data: Annotated[Path | None, typer.Option(
        "--data", help="PrivacyQA file: the official policy_test_data.csv (tab-separated) or the reconstructed "
        "JSON (default: the bundled privacyqa_lb_dev.json).",
    )] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the scores as JSON (percentages).")] = False,
    limit: Annotated[int | None, typer.Option(min=1, help="Evaluate only the first N questions.")] = None,
    max_evidence: Annotated[
        int | None, typer.Option(min=1, max=50, help="top_k passed to ask (default: the shipped selection's cap).")
    ] = None,
) -> None:
    """Sentence-level precision / recall / F1 on PrivacyQA, with answerability and baselines."""
    from assistant.corpora import corpus_dir  # lazy, for start-up speed
    from assistant.corpora.privacyqa import LB_DEV_FILE  # lazy, for start-up speed
    from assistant.evaluation.privacyqa import run_privacyqa  # lazy, for start-up speed

    data = data or corpus_dir("privacyqa") / LB_DEV_FILE
    with progress_bar("loading") as progress:
        report = run_privacyqa(data, limit=limit, max_evidence=max_evidence, progress=progress)
    if as_json:
        print_json(report.to_json())
    else:
        console.print(render_privacyqa_report(report))


@app.command("answers")
@friendly_errors
def eval_answers(
    set_names: Annotated[list[str] | None, typer.Option(
        "--set", help="An answers set by name (sets/answers/NAME/: dev, heldout1 … heldout12); repeatable.")] = None,
    every: Annotated[bool, typer.Option("--all", help="Every answers set whose policies are present.")] = False,
    data: Annotated[Path | None, typer.Option(
        "--data", help="JSON Lines of questions with gold verdicts, instead of a set (default: the dev set).")] = None,
    policies: Annotated[Path | None, typer.Option(
        "--policies", help="Folder of the policy files the --data items name (default: the OPP-115 policies).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the scores as JSON (percentages).")] = False,
    items: Annotated[Path | None, typer.Option(
        "--items", help="Also write each scored item's question, gold and answer to this JSON Lines file "
                        "(for reading a development set's errors).")] = None,
) -> None:
    """Does a person get the right answer: verdict accuracy, first-quote support, not-stated precision / recall.
    With several sets: one row per set and a pooled row (every set's items scored as one)."""
    from assistant.evaluation.answers import item_rows, pooled, run_answers  # lazy, for start-up speed

    if not set_names and not every:
        with progress_bar("loading") as progress:
            report = run_answers(data, policies, progress=progress)
        console.print_json(data=report.to_json()) if as_json else console.print(report.to_json())
        return
    if data is not None or policies is not None:
        raise AssistantError("Give --set or --all, or --data (with --policies), not both.")
    sets, missing = _answers_sets(set_names or [], every)
    reports = {}
    with progress_bar("loading") as progress:
        for answers_set in sets:
            def stage(name: str, done: int, total: int, prefix: str = answers_set.name) -> None:
                progress(f"{prefix}: {name}", done, total)

            reports[answers_set.name] = run_answers(answers_set.answers, answers_set.policies, progress=stage)
    if not reports:
        raise typer.Exit(code=1)
    if items is not None:
        rows = [{"set": name, **row} for name, report in reports.items() for row in item_rows(report)]
        items.write_text("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows), encoding="utf-8")
    if len(reports) == 1 and not every and len(set_names or []) == 1:
        report = next(iter(reports.values()))
        console.print_json(data=report.to_json()) if as_json else console.print(report.to_json())
    else:
        scores = {name: report.to_json() for name, report in reports.items()}
        scores_pooled = pooled(list(reports.values())).to_json()
        if as_json:
            console.print_json(data={"sets": scores, "pooled": scores_pooled})
        else:
            console.print(_answers_table(scores, scores_pooled))
    if missing and not every:  # a set asked for by name that could not be scored
        raise typer.Exit(code=1)


def _answers_sets(names: list[str], every: bool) -> tuple[list, list[str]]:
    """The sets to score (each named once, in the order given, or every set), and the names of those left out:
    each left out with a one-line message saying how to make it scorable."""
    from assistant.evaluation.sets import all_sets, find_set  # lazy, for start-up speed

    chosen = all_sets() if every else [find_set(name) for name in dict.fromkeys(names)]
    ready, missing = [], []
    for answers_set in chosen:
        if not answers_set.answers.is_file():
            err_console.print(f"{answers_set.name}: no answers.jsonl yet; write it with "
                              f"python -m lab.label_set {answers_set.name}", markup=False, highlight=False)
        elif not answers_set.has_policies():
            err_console.print(f"{answers_set.name}: its policies are not rebuilt; rebuild them with "
                              f"{answers_set.rebuild_command}", markup=False, highlight=False)
        else:
            ready.append(answers_set)
            continue
        missing.append(answers_set.name)
    return ready, missing


def _answers_table(scores: dict[str, dict], scores_pooled: dict) -> Table:
    """One row per set and the pooled row: items, verdict accuracy (and strict accuracy and unsupported claims
    where the report has them), first-quote support, not-stated precision / recall."""
    strict = any("strict_accuracy" in s for s in (*scores.values(), scores_pooled))
    table = Table(title="Answers sets", show_lines=False)
    for column in ("set", "items", "accuracy", *(("strict accuracy", "unsupported claims") if strict else ()),
                   "first quote", "not stated P", "not stated R"):
        table.add_column(column, justify="left" if column == "set" else "right")

    def row(name: str, s: dict) -> list[str]:
        return [name, str(s["items"]), f"{s['accuracy']:.1f}",
                *((f"{s['strict_accuracy']:.1f}" if "strict_accuracy" in s else "–",
                   f"{s['unsupported_claims']['share']:.1f}" if "unsupported_claims" in s else "–") if strict else ()),
                f"{s['first_quote_supports']:.1f} ({s['first_quote_items']})",
                f"{s['not_stated']['precision']:.1f}", f"{s['not_stated']['recall']:.1f}"]

    for name, s in scores.items():
        table.add_row(*row(name, s))
    table.add_section()
    table.add_row(*row("pooled", scores_pooled), style="bold")
    return table


@app.command("attributes")
@friendly_errors
def eval_attributes(
    split: Annotated[str, typer.Option(help="OPP-115 majority split: validation or test.")] = "test",
    limit: Annotated[int | None, typer.Option(min=1, help="Evaluate only the first N segments and N sentences.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the scores as JSON.")] = False,
) -> None:
    """Per attribute (Does/Does Not, Purpose, Retention Period, …) micro / macro F1 of the OPP-115 attribute
    heads on a split's segments and sentences, beside a majority-class baseline."""
    from assistant.models.attributes.evaluate import evaluate  # lazy, for start-up speed

    result = evaluate(check_split(split, ("validation", "test")), limit=limit)
    console.print_json(data=result) if as_json else console.print(render_attributes_report(result))


@app.command("facets")
@friendly_errors
def eval_facets(
    as_json: Annotated[bool, typer.Option("--json", help="Print the scores as JSON.")] = False,
) -> None:
    """Which privacy facet a question asks about: the facet classifier (where confident, else the word rules)
    beside the rules alone and the model alone, on the labelled PrivacyQA test questions."""
    from assistant.models.facets.evaluate import evaluate  # lazy, for start-up speed
    from assistant.understanding.facets import facet_rules  # lazy, for start-up speed

    result = evaluate(facet_rules(), "test")
    console.print_json(data=result) if as_json else console.print(render_facets_report(result))


@app.command("categories")
@friendly_errors
def eval_categories(
    split: Annotated[str, typer.Option(help="OPP-115 majority split: validation or test.")] = "test",
    sentences: Annotated[bool, typer.Option(
        "--sentences", help="Score single sentences labelled from the annotators' spans, not segments.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the scores as JSON.")] = False,
) -> None:
    """Macro / micro F1 of the practice-category classifier (PrivacyGLUE OPP-115 task), or its
    sentence-level scores."""
    from assistant.models.practices.evaluate import evaluate  # lazy, for start-up speed

    result = evaluate(check_split(split, ("validation", "test")), sentences=sentences)
    console.print_json(data=result) if as_json else console.print(result)


@app.command("alignment")
@friendly_errors
def eval_alignment(
    split: Annotated[str, typer.Option(help="OPP-115 majority split scored: test (k is chosen on validation).")] = "test",
    limit: Annotated[int | None, typer.Option(min=2, help="Use only the first N segments of each split.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the scores as JSON.")] = False,
) -> None:
    """Alignment by issue (Liu et al., COLING 2014): pairwise P / R / F1 of "same issue" decisions between
    segments of different OPP-115 policies, a bag-of-words clustering baseline beside ours."""
    from assistant.evaluation.alignment import evaluate  # lazy, for start-up speed

    result = evaluate(check_split(split, ("test",)), limit,
                      progress=lambda stage: err_console.print(f"[dim]{stage}…[/dim]"))
    if as_json:
        print_json(result)
    else:
        console.print(render_alignment_report(result))


@app.command("policyie")
@friendly_errors
def eval_policyie(
    split: Annotated[str, typer.Option(help="PolicyIE split: valid or test (test only for the final report).")] = "test",
    as_json: Annotated[bool, typer.Option("--json", help="Print the scores as JSON.")] = False,
    limit: Annotated[int | None, typer.Option(min=1, help="Evaluate only the first N sentences.")] = None,
) -> None:
    """Intent F1, type-I / type-II slot F1 and exact match of the PolicyIE model (Ahmad et al. 2021)."""
    from assistant.models.policyie.evaluate import evaluate  # lazy, for start-up speed

    result = evaluate(check_split(split, ("train", "valid", "test")), limit=limit)
    console.print_json(data=result) if as_json else console.print(result)


@app.command("piextract")
@friendly_errors
def eval_piextract(
    split: Annotated[str, typer.Option(
        help="PI-Extract split: test (the final report) or dev (10% of train, for tuning).")] = "test",
    as_json: Annotated[bool, typer.Option("--json", help="Print the scores as JSON.")] = False,
    limit: Annotated[int | None, typer.Option(min=1, help="Evaluate only the first N sentences.")] = None,
) -> None:
    """Entity-level (exact span) P / R / F1 per tag (COLLECT, NOT_COLLECT, SHARE, NOT_SHARE) and overall
    of the PI-Extract tagger (Bui et al. 2021, PrivacyGLUE's PI-Extract task)."""
    from assistant.models.piextract.evaluate import evaluate  # lazy, for start-up speed

    result = evaluate(check_split(split, ("dev", "test")), limit=limit)
    console.print_json(data=result) if as_json else console.print(result)


@app.command("policyqa")
@friendly_errors
def eval_policyqa(
    split: Annotated[str, typer.Option(help="PolicyQA split: dev or test (test only for the final report).")] = "test",
    as_json: Annotated[bool, typer.Option("--json", help="Print the scores as JSON.")] = False,
    limit: Annotated[int | None, typer.Option(min=1, help="Evaluate only the first N questions.")] = None,
) -> None:
    """SQuAD 1.1 exact match and F1 of the span reader on PolicyQA (gold contexts)."""
    from assistant.models.reader.evaluate import evaluate  # lazy, for start-up speed

    result = evaluate(check_split(split, ("dev", "test")), limit=limit)
    console.print_json(data=result) if as_json else console.print(result)


@app.command("stance")
@friendly_errors
def eval_stance(
    split: Annotated[str, typer.Option(help="OPP-115 majority split: train, validation or test.")] = "validation",
    as_json: Annotated[bool, typer.Option("--json", help="Print the scores as JSON.")] = False,
) -> None:
    """Precision / recall / F1 of reading denials ("we do not sell …") on OPP-115's Does/Does Not
    sentences: the word rules, PolicyIE's polarity slot, and their union (what the label uses)."""
    from assistant.evaluation.stance import evaluate  # lazy, for start-up speed

    result = evaluate(check_split(split, ("train", "validation", "test")))
    console.print_json(data=result) if as_json else console.print(result)


@app.command("policy-detector")
@friendly_errors
def eval_policy_detector() -> None:
    """Grouped cross-validation of screening on its corpus: policy precision / recall (current and
    OPP-115 apart), the whole verdict, language accuracy."""
    from assistant.evaluation.screening import evaluate, read_corpus  # lazy, for start-up speed

    print_json(evaluate(read_corpus()))



@app.command("corpus-opp115")
@friendly_errors
def eval_corpus_opp115(
    corpus: Annotated[Path, typer.Argument(help="The folder `assistant corpus ingest` wrote for OPP-115's policies "
                                                "(scripts/corpus_build.py opp115).")],
) -> None:
    """The corpus report's shares on OPP-115 beside the shares its annotators' practices give, with agreement."""
    from assistant.evaluation.corpus_validity import validity  # lazy: pandas and the corpus

    table = Table("facet", "OPP-115 practice", "policies", "report says it addresses", "annotators marked",
                  "agreement", "κ")
    for row in validity(corpus):
        share, low, high = row.report_share
        gold, gold_low, gold_high = row.annotated_share
        table.add_row(row.mapping.facet, row.mapping.describe(), str(row.policies),
                      f"{share:.0%} ({low:.0%}–{high:.0%})", f"{gold:.0%} ({gold_low:.0%}–{gold_high:.0%})",
                      f"{row.agreement:.0%}", f"{row.kappa:.2f}")
    console.print(table)
