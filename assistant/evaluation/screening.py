"""Training and evaluating the screening stage on the screening corpus (`assistant train
policy-detector`, `assistant eval policy-detector`).

Documents are read as the ingest reads them (`assistant.ingest.parsing`, then their visible text).
The detector learns from the English documents; the evaluation holds out whole organisations
(grouped cross-validation; each OPP-115 policy is its own group) and reports the current documents
and OPP-115 apart, the whole screening verdict on held-out documents of every language, and the
language identifier's accuracy.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from assistant.corpora.screening import SCREENING_DIR, ScreeningDocument, load_documents, opp115_documents
from assistant.foundation.errors import InputFileError
from assistant.ingest.parsing import load_document
from assistant.ingest.screening import detect_language, screen, visible_text
from assistant.models.policy_detector.evaluate import detection_scores, fold_of, grouped_folds
from assistant.models.policy_detector.model import RELEASE_DIR
from assistant.models.policy_detector.train import RECIPE, TrainConfig, fit, write_release

MAX_BYTES = 10_000_000
FOLDS = 5


@dataclass(frozen=True)
class ReadDocument:
    """A corpus document with its visible text."""

    document: ScreeningDocument
    text: str


def read_corpus(directory: Path = SCREENING_DIR, opp115_limit: int | None = None,
                select: Callable[[ScreeningDocument], bool] = lambda d: True) -> list[ReadDocument]:
    """The screening corpus and the OPP-115 policies (`opp115_limit` of them; 0 for none), read as
    the ingest reads them."""
    documents = [d for d in load_documents(directory) if select(d)]
    if opp115_limit != 0:
        documents += opp115_documents(opp115_limit)
    return [ReadDocument(d, _read(d.path)) for d in documents]


def _read(path: Path) -> str:
    """The visible text of a file; empty where the ingest finds none (a page that is all script)."""
    try:
        return visible_text(load_document(path, MAX_BYTES))
    except InputFileError:
        return ""


def train_release(directory: Path = SCREENING_DIR, release: Path = RELEASE_DIR, config: TrainConfig = RECIPE,
                  opp115_limit: int | None = None, command: str = "assistant train policy-detector",
                  log: Callable[[str], None] = print) -> dict:
    """Fit the detector on every English document, score it by grouped cross-validation, and write
    the release with its manifest; returns the cross-validated metrics."""
    corpus = read_corpus(directory, opp115_limit)
    english = [r for r in corpus if r.document.language == "en"]
    metrics = evaluate(corpus, config)
    detector = fit([r.text for r in english], [r.document.kind for r in english], config)
    counts = Counter(f"{r.document.era}/{r.document.kind}" for r in english)
    data = {
        "corpus": "data/screening/documents.tsv (sources and licences: data/screening/SOURCES.md) "
                  "+ OPP-115 sanitized_policies",
        "english_documents": len(english),
        "by_era_and_kind": dict(sorted(counts.items())),
        "organisations": len({r.document.group for r in english}),
    }
    write_release(detector, config, data, command, metrics, release)
    log(f"policy detector fitted on {len(english)} English documents ({dict(sorted(counts.items()))}); "
        f"written to {release}")
    return metrics


def evaluate(corpus: Sequence[ReadDocument], config: TrainConfig = RECIPE, folds: int = FOLDS) -> dict:
    """Grouped cross-validation of the detector and of the whole screening verdict, and the language
    identifier's accuracy."""
    english = [r for r in corpus if r.document.language == "en"]
    others = [r for r in corpus if r.document.language != "en"]
    detected: dict[int, bool] = {}
    verdicts: dict[int, tuple[ReadDocument, object]] = {}
    all_rows = english + others
    groups = [r.document.group for r in english]
    for fold, held_out, detector in grouped_folds([r.text for r in english], [r.document.kind for r in english],
                                                  groups, folds, config):
        for i in held_out:
            probability = detector.policy_probabilities([english[i].text])[0]
            detected[i] = detector.is_policy(float(probability))
        for j, row in enumerate(all_rows):  # the whole verdict, on every held-out document of any language
            if fold_of(row.document.group, folds) == fold:
                verdicts[j] = (row, screen(row.text, detector))
    return {
        "folds": folds,
        "split": "grouped by organisation (each OPP-115 policy its own group); every English document held out once",
        "policy_detection": {
            "current": _detection([english[i] for i in detected if english[i].document.era == "current"],
                                  [detected[i] for i in detected if english[i].document.era == "current"]),
            "opp115": _detection([english[i] for i in detected if english[i].document.era == "2015"],
                                 [detected[i] for i in detected if english[i].document.era == "2015"]),
            "all": _detection([english[i] for i in detected], [detected[i] for i in detected]),
        },
        "screening": _verdict_scores(list(verdicts.values())),
        "language": language_accuracy(corpus),
    }


def _detection(rows: Sequence[ReadDocument], predicted: Sequence[bool]) -> dict:
    scores = detection_scores([r.document.is_policy for r in rows], predicted)
    scores["missed"] = sorted(str(r.document.path.name) for r, p in zip(rows, predicted) if r.document.is_policy and not p)
    scores["wrongly_accepted"] = sorted(f"{r.document.path.parent.name}/{r.document.path.name}"
                                        for r, p in zip(rows, predicted) if p and not r.document.is_policy)
    return scores


def _verdict_scores(results: Sequence[tuple[ReadDocument, object]]) -> dict:
    """Accepted = an English privacy policy; the reason of each refusal against what the document is."""
    gold = [r.document.is_policy and r.document.language == "en" for r, _ in results]
    accepted = [s.accepted for _, s in results]
    scores = detection_scores(gold, accepted)
    expected = {"terms": "terms", "cookies": "cookies", "other": "other"}
    reasons = Counter()
    for row, result in results:
        if result.accepted:
            continue
        if row.document.language != "en":
            reasons["language: right" if "reads English only" in result.reason else "language: other reason"] += 1
        elif not row.document.is_policy:
            right = result.kind == expected[row.document.kind] or "words" in result.reason
            reasons[f"{row.document.kind}: {'right' if right else 'other reason'}"] += 1
    return {"accepted_precision": scores["precision"], "accepted_recall": scores["recall"],
            "documents": scores["documents"], "english_policies": scores["policies"],
            "refusal_reasons": dict(sorted(reasons.items())),
            "wrongly_refused": sorted(f"{r.document.path.parent.name}/{r.document.path.name}: {s.reason}"
                                      for (r, s), g in zip(results, gold) if g and not s.accepted),
            "wrongly_accepted": sorted(f"{r.document.path.parent.name}/{r.document.path.name}"
                                       for (r, s), g in zip(results, gold) if s.accepted and not g)}


def language_accuracy(corpus: Sequence[ReadDocument]) -> dict:
    """The language identifier against each document's known language, over the documents with
    visible text (it is not trained here, so every document is held out)."""
    right = Counter()
    total = Counter()
    wrong = []
    for row in corpus:
        if not row.text.strip():  # a page that is all script has no language to find
            continue
        code, _ = detect_language(row.text)
        total[row.document.language] += 1
        if code == row.document.language:
            right[row.document.language] += 1
        else:
            wrong.append(f"{row.document.path.name}: {row.document.language} read as {code}")
    documents = sum(total.values())
    return {"accuracy": round(100 * sum(right.values()) / max(documents, 1), 1), "documents": documents,
            "non_english_documents": documents - total["en"],
            "non_english_accuracy": round(100 * (sum(right.values()) - right["en"]) / max(documents - total["en"], 1), 1),
            "by_language": {lang: f"{right[lang]}/{total[lang]}" for lang in sorted(total)}, "wrong": wrong}
