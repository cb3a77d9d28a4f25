"""Does a person get the right answer? `assistant eval answers [--set NAME ... | --all | --data FILE --policies DIR]
[--json]`.

FILE is JSON Lines, one question per line: `{"policy_file": "name.html", "question": "…", "verdict":
"yes|no|conditional|not_stated", "ambiguous": false}` (other keys are kept, `evidence` is read when
present: the sentence numbers that support the verdict). The policy files are read from DIR (HTML,
Markdown, text), each ingested once into a throwaway store. Without `--data` it runs the dev answers set
(`sets/answers/dev/`, its procedure in its README.md) over the OPP-115 policies; `--set NAME` runs a set of
`assistant.evaluation.sets` (its answers.jsonl over its policies/), and several sets are scored each on its own and
pooled (`run_sets`, `pooled`).

Scores (percentages), on the items not marked ambiguous:

- `accuracy`: the answer's `verdict` equals the gold one; a gold `conditional` also accepts `yes`;
- `by_verdict`: the same per gold verdict;
- `first_quote_supports`: of the items whose gold verdict is not `not_stated` and that list
  supporting sentences, how often the answer's first quoted sentence is one of them (matched by
  text, `AnswerItem.supported_by`: the sentence numbers move when parsing changes);
- `not_stated`: precision and recall of answering `not_stated`;
- `baselines`: `always_yes` (accuracy), and the previous engine's first sentence (the best-ranked
  candidate: its first-quote support, with the verdict "yes" whenever it answered).

A set of questions of every type (`blind1`: items with a `type`) is also scored

- `strict_accuracy` (yes/no items): "only if" must be said as "only if", "only for some" as a scoped answer;
  `accuracy` stays the lenient rule (a gold `only_if` or `scoped` accepts "yes");
- `unsupported_claims`: of the yes / no / only-if answers, those whose quoted sentences include none of the gold
  supporting ones (a claim about something the policy does not say, or from the wrong sentence), and of those,
  `on_not_stated`: claims where the policy says nothing;
- `by_type`: per question type, how often the answer addresses it or says "not stated" as the gold does, and
  `content`: the share of the gold content (e-mail addresses, links, periods, data types …, verbatim in the
  policy) found in the headline or the quoted sentences, and how often all of it is.
"""
from __future__ import annotations

import json
import tempfile
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from assistant.corpora import corpus_dir
from assistant.engine import Assistant
from assistant.evaluation.metrics import binary_score, percent
from assistant.evaluation.sets import DEV, AnswersSet, find_set
from assistant.foundation.errors import AssistantError
from assistant.foundation.settings import Settings
from assistant.foundation.types import ProgressCallback

VERDICTS = ("yes", "no", "conditional", "not_stated")  # an answers set's gold verdicts (the engine also says "scoped")
# a set of questions of every type adds these gold verdicts (its LABELLING.md): "only_if" is the engine's
# "conditional"; "scoped" answers for some people, places or products only; "answered" for a question not yes/no
GOLD_VERDICTS = (*VERDICTS, "only_if", "scoped", "answered")
CLAIMS = ("yes", "no", "conditional", "scoped")  # verdicts that claim something the quote must state
YES_NO = "yes_no"
MIN_MATCH_CHARS = 20  # a shorter fragment ("Yes.") matches only exactly


@dataclass(frozen=True)
class AnswerItem:
    policy_file: str
    question: str
    verdict: str
    evidence: tuple[int, ...] = ()  # sentence numbers when the set was labelled (for reading it)
    facet: str | None = None
    ambiguous: bool = False
    evidence_text: tuple[str, ...] = ()  # those sentences' text: what a quote is matched against
    type: str = YES_NO  # the question's type (a set of every type: yes_no, how_to, contact, how_long, what …)
    content: tuple[str, ...] = ()  # what a correct answer must carry, verbatim from the policy (not yes/no)

    @property
    def gold(self) -> str:
        """The gold verdict in the engine's words: "only if" is `conditional`."""
        return "conditional" if self.verdict == "only_if" else self.verdict

    def supported_by(self, quote: str | None) -> bool:
        """Whether a quoted sentence is one of the supporting sentences. Matched by text, not number, so
        a parser change that adds or merges sentences elsewhere does not move the gold; containment
        either way allows a sentence split or joined differently; case, spacing and the kind of apostrophe or
        quotation mark aside (a policy that repeats a sentence as "MURF Group's" and "Murf Group’s")."""
        if not quote:
            return False
        quote = _plain(quote)
        return any(quote == gold or (min(len(quote), len(gold)) >= MIN_MATCH_CHARS and (gold in quote or quote in gold))
                   for gold in map(_plain, self.evidence_text))


_QUOTE_MARKS = str.maketrans({"‘": "'", "’": "'", "‛": "'", "“": '"', "”": '"', "„": '"'})


def _plain(text: str) -> str:
    """Lower case, straight quotation marks, single spaces: what two copies of one sentence share."""
    return " ".join(text.translate(_QUOTE_MARKS).lower().split())


@dataclass
class ItemResult:
    item: AnswerItem
    verdict: str | None
    first_quote: str | None  # the first quoted sentence
    best_ranked: str | None  # the previous engine's first sentence: the best-ranked candidate
    headline: str = ""
    quotes: tuple[str, ...] = ()  # every quoted sentence, first first
    reason: str | None = None  # why the answer has none (refused, or the policy is silent)

    @property
    def correct(self) -> bool:
        """Lenient: a gold "only if" or "only for some" also accepts "yes"; a question not yes/no is right when
        the answer addresses it (or says "not stated") as the gold does."""
        gold = self.item.gold
        if self.item.type != YES_NO:  # a refusal ("out of scope") does not address it either
            addressed = self.verdict != "not_stated" and self.reason is None
            return addressed == (gold != "not_stated")
        return self.verdict == gold or (gold in ("conditional", "scoped") and self.verdict == "yes")

    @property
    def strictly_correct(self) -> bool:
        """Strict: the verdict itself ("only if" must be said; a scoped answer must be said as scoped)."""
        if self.item.type != YES_NO:
            return self.correct
        return self.verdict == self.item.gold

    @property
    def claims(self) -> bool:
        return self.verdict in CLAIMS

    @property
    def unsupported(self) -> bool:
        """A claim none of whose quotes is a gold supporting sentence (a claim where the policy is silent
        included)."""
        return self.claims and (self.item.gold == "not_stated" or not any(
            self.item.supported_by(q) for q in self.quotes or (self.first_quote,)))

    def content_found(self) -> list[bool]:
        """For each gold content string: is it in the headline or a quoted sentence?"""
        said = _plain(" ".join((self.headline, *self.quotes)))
        return [_plain(c) in said for c in self.item.content]


@dataclass
class AnswersReport:
    results: list[ItemResult]
    skipped_ambiguous: int
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        scored = self.results
        by_verdict = defaultdict(list)
        for r in scored:
            by_verdict[r.item.gold].append(r.correct)
        supported = [r for r in scored if r.item.verdict != "not_stated" and r.item.evidence_text]
        said_silent = binary_score((r.verdict == "not_stated", r.item.verdict == "not_stated") for r in scored)
        yes_no = [r for r in scored if r.item.type == YES_NO]
        answered_yes = [r.item.gold in ("yes", "conditional", "scoped") for r in yes_no]
        typed = any(r.item.type != YES_NO or r.item.verdict in ("only_if", "scoped") for r in scored)
        return {
            "items": len(scored),
            "skipped_ambiguous": self.skipped_ambiguous,
            "accuracy": _share([r.correct for r in scored if r.item.type == YES_NO]),
            **(_typed_scores(scored) if typed else {}),
            "by_verdict": {v: {"items": len(by_verdict[v]), "accuracy": _share(by_verdict[v])}
                           for v in (*VERDICTS, "scoped", "answered") if by_verdict[v]},
            "first_quote_supports": _share([r.item.supported_by(r.first_quote) for r in supported]),
            "first_quote_items": len(supported),
            "not_stated": {"precision": percent(said_silent.precision), "recall": percent(said_silent.recall)},
            "baselines": {
                "always_yes": {"accuracy": _share(answered_yes)},
                "previous_engine_first_sentence": {
                    "accuracy": _share([_previous_verdict(r) == r.item.gold or (
                        r.item.gold in ("conditional", "scoped") and _previous_verdict(r) == "yes") for r in yes_no]),
                    "first_quote_supports": _share([r.item.supported_by(r.best_ranked) for r in supported]),
                },
            },
        }


def item_rows(report: AnswersReport) -> list[dict[str, Any]]:
    """One row per scored item — the question, the gold and the answer — for reading a set's errors (a
    development set's; a blind set is scored, not read)."""
    return [{"policy_file": r.item.policy_file, "question": r.item.question, "type": r.item.type,
             "gold": r.item.verdict, "verdict": r.verdict, "correct": r.correct, "strict": r.strictly_correct,
             "unsupported": r.unsupported, "headline": r.headline, "quotes": list(r.quotes),
             "gold_evidence": list(r.item.evidence_text), "content": list(r.item.content),
             "content_found": r.content_found()} for r in report.results]


def _typed_scores(scored: list[ItemResult]) -> dict[str, Any]:
    """The scores of a set of questions of every type: strict accuracy, unsupported claims, per-type table."""
    yes_no = [r for r in scored if r.item.type == YES_NO]
    claims = [r for r in scored if r.claims]
    by_type: dict[str, Any] = {}
    for kind in dict.fromkeys(r.item.type for r in scored):
        rows = [r for r in scored if r.item.type == kind]
        with_content = [r for r in rows if r.item.content and r.item.gold != "not_stated"]
        found = [flag for r in with_content for flag in r.content_found()]
        supported = [r for r in rows if r.item.gold != "not_stated" and r.item.evidence_text]
        by_type[kind] = {
            "items": len(rows),
            "accuracy": _share([r.correct for r in rows]),
            **({"strict_accuracy": _share([r.strictly_correct for r in rows])} if kind == YES_NO else {}),
            "first_quote_supports": _share([r.item.supported_by(r.first_quote) for r in supported]),
            **({"content_found": _share(found), "all_content_found": _share(
                [all(r.content_found()) for r in with_content]), "content_items": len(with_content)}
               if with_content else {}),
        }
    return {
        "strict_accuracy": _share([r.strictly_correct for r in yes_no]),
        "unsupported_claims": {"claims": len(claims), "unsupported": sum(r.unsupported for r in claims),
                               "share": _share([r.unsupported for r in claims]),
                               "on_not_stated": sum(r.item.gold == "not_stated" for r in claims)},
        "by_type": by_type,
    }


def _policy_name(file_name: str) -> str:
    """'105_amazon.com.html' → 'amazon.com': OPP-115's numeric prefix and the suffix off."""
    stem = Path(file_name).stem
    return stem.split("_", 1)[1] if stem.split("_", 1)[0].isdigit() and "_" in stem else stem


def _previous_verdict(result: ItemResult) -> str:
    return "not_stated" if result.best_ranked is None else "yes"


def _share(flags: list[bool]) -> float:
    return round(100 * sum(flags) / len(flags), 1) if flags else 0.0


def load_items(path: Path) -> list[AnswerItem]:
    """The JSON Lines file; a line that is not a valid item is a one-line error naming it."""
    if not path.is_file():
        raise AssistantError(f"{path}: no such file.")
    items = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            item = AnswerItem(row["policy_file"], row["question"], row["verdict"],
                              tuple(int(n) for n in row.get("evidence") or ()), row.get("facet"),
                              bool(row.get("ambiguous", False)), tuple(str(t) for t in row.get("evidence_text") or ()),
                              str(row.get("type") or YES_NO), tuple(str(c) for c in row.get("content") or ()))
        except (json.JSONDecodeError, KeyError, TypeError, ValueError) as error:
            raise AssistantError(f"{path}:{number}: not an answers item ({error}).") from None
        if item.verdict not in GOLD_VERDICTS:
            raise AssistantError(f"{path}:{number}: verdict {item.verdict!r} is not one of {', '.join(GOLD_VERDICTS)}.")
        items.append(item)
    if not items:
        raise AssistantError(f"{path}: no items.")
    return items


def run_answers(data: Path | None = None, policies: Path | None = None, progress: ProgressCallback | None = None,
                **models: Any) -> AnswersReport:
    """Ingest each policy once into a temporary store, ask every item's question, and score (without `data`: the
    dev set)."""
    if data is None:
        dev = find_set(DEV)
        data, policies = dev.answers, policies or dev.policies
    items = load_items(data)
    folder = policies or corpus_dir("opp115") / "sanitized_policies"
    kept = [item for item in items if not item.ambiguous]
    files = sorted({item.policy_file for item in kept})
    missing = [name for name in files if not (folder / name).is_file()]
    if missing:
        raise AssistantError(f"{folder}: policy file {missing[0]} not found ({len(missing)} missing).")
    results = []
    with tempfile.TemporaryDirectory(prefix="answers-eval-") as home:
        assistant = Assistant(Settings(home=Path(home)), **models)
        try:
            for done, name in enumerate(files):
                if progress:
                    progress("ingesting policies", done, len(files))
                assistant.ingest(folder / name, name=_policy_name(name), force=True)  # known policies: no screening
            for done, item in enumerate(kept):
                if progress:
                    progress("asking", done, len(kept))
                answer = assistant.ask(item.question, policy=_policy_name(item.policy_file))
                ranking = assistant.rank_evidence(item.question, policy=_policy_name(item.policy_file))
                best = ranking.ranked[0].sentence.text if ranking.reason is None and ranking.ranked else None
                first = answer.evidence[0].text if answer.evidence else None
                results.append(ItemResult(item, answer.verdict, first, best, answer.headline,
                                          tuple(e.text for e in answer.evidence), answer.reason))
        finally:
            if "store" in assistant.__dict__:
                assistant.store.close()
    return AnswersReport(results, len(items) - len(kept))


def run_sets(sets: list[AnswersSet], progress: ProgressCallback | None = None,
             **models: Any) -> dict[str, AnswersReport]:
    """Each set scored on its own (its answers over its policies; a missing policies folder is a one-line error
    saying the command that rebuilds it)."""
    return {s.name: run_answers(s.answers, s.require_policies(), progress=progress, **models) for s in sets}


def pooled(reports: list[AnswersReport]) -> AnswersReport:
    """The sets' items scored as one set: each figure over every set's items, not an average of the sets'."""
    return AnswersReport([r for report in reports for r in report.results],
                         sum(report.skipped_ambiguous for report in reports))
