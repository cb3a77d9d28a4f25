"""Training of the question-facet classifier (`assistant train facets`): a class-balanced softmax
regression over the base model's question embeddings, on the labelled PrivacyQA train questions
(`data/privacyqa_train.tsv`) and our own wordings of the at-a-glance questions. C and the threshold are
chosen as the system runs (the model where it is confident, else the word rules): by 5-fold
cross-validation on the train questions, keeping every wording of the tuning answers sets the rules get
right when that set is left out. The release is written to weights/facets/ with its manifest.

The word rules come in as `FacetRules` (`assistant.understanding.facets.facet_rules()`, passed by the command
line), and so do the tuning answers sets' files (`WORDING_SETS`, found by `assistant.evaluation.sets`): a model
package imports nothing from the layers above it."""
from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from assistant.foundation.releases import write_manifest
from assistant.foundation.resources import package_path
from assistant.models.facets.model import NONE, RELEASE_DIR, FacetClassifier
from assistant.models.retriever.model import Embedder

DATA_DIR = package_path("models", "facets", "data")
C_GRID = (1.0, 4.0, 16.0, 64.0)
THRESHOLDS = tuple(round(float(t), 2) for t in np.arange(0.3, 0.96, 0.05))
NONE_THRESHOLDS = (*THRESHOLDS, 1.01)  # 1.01: the model's `none` never overrules a facet the rules name
FOLDS = 5
# Our wordings of the 16 at-a-glance questions, from the answers sets that are tuning sets (never the
# fourth held-out set, which checks the answers on questions and policies nothing was tuned on); the command line
# hands in each one's answers file.
WORDING_SETS = ("dev", "heldout1", "heldout2", "heldout3")


@dataclass(frozen=True)
class FacetRules:
    """The word rules the classifier is trained and scored beside (`assistant.understanding.facets`)."""

    names: tuple[str, ...]  # the facets, in the rules' order
    questions: Mapping[str, str]  # each facet's plain at-a-glance question
    facet_of: Callable[[str], str | None]  # the rules' facet of a question, or None

    @property
    def labels(self) -> list[str]:
        """The classifier's classes: the facets, then `none`."""
        return [*self.names, NONE]


@dataclass(frozen=True)
class LabelledQuestion:
    question: str
    facet: str  # a facet name or "none"
    source: str  # privacyqa_train, privacyqa_test, the tuning answers set it comes from, or written


def load_labelled(split: str) -> list[LabelledQuestion]:
    """The labelled PrivacyQA questions of `split` (train or test)."""
    lines = (DATA_DIR / f"privacyqa_{split}.tsv").read_text(encoding="utf-8").splitlines()[1:]
    rows = [line.split("\t") for line in lines if line.strip()]
    return [LabelledQuestion(question, facet, f"privacyqa_{split}") for _, facet, question in rows]


def written_questions(rules: FacetRules, wordings: Mapping[str, Path]) -> list[LabelledQuestion]:
    """Our questions: the at-a-glance ones, the tuning answers sets' wordings of them (`wordings`: set name →
    its answers file, JSON Lines), and `data/written.tsv` (more wordings of the facets PrivacyQA's app-store
    questions rarely ask about, and general questions about no facet), each once. A question in a tuning answers
    set has that set's name as its `source` (the first such set), the others "written"."""
    found = {question: facet for facet, question in rules.questions.items()}
    for line in (DATA_DIR / "written.tsv").read_text(encoding="utf-8").splitlines()[1:]:
        facet, question = line.split("\t")
        found.setdefault(question, facet)
    sources: dict[str, str] = {}
    for name, path in wordings.items():
        for line in path.read_text(encoding="utf-8").splitlines():
            item = json.loads(line)
            sources.setdefault(item["question"], name)
            if item.get("facet"):
                found.setdefault(item["question"], item["facet"])
    return [LabelledQuestion(question, facet, sources.get(question, "written")) for question, facet in found.items()]


def rule_facets(questions: list[LabelledQuestion], rules: FacetRules) -> list[str]:
    """What the word rules say of each question (`none` where they name no facet)."""
    return [rules.facet_of(q.question) or NONE for q in questions]


def combine(said: list[str], probabilities: np.ndarray, labels: list[str], threshold: float,
            none_threshold: float) -> list[str]:
    """The model's facet where its probability reaches `threshold`, `none` where that class's reaches
    `none_threshold`, else what the rules `said` (`FacetClassifier.decide`, on many questions)."""
    best = probabilities.argmax(axis=1)
    return [rule if p[b] < (none_threshold if labels[b] == NONE else threshold) else labels[b]
            for rule, b, p in zip(said, best, probabilities, strict=True)]


def macro_f1(gold: list[str], predicted: list[str]) -> float:
    """Macro F1 over the facets (not `none`) that occur in the gold or the predictions."""
    scores = []
    for label in sorted((set(gold) | set(predicted)) - {NONE}):
        tp = sum(g == p == label for g, p in zip(gold, predicted, strict=True))
        fp = sum(p == label != g for g, p in zip(gold, predicted, strict=True))
        fn = sum(g == label != p for g, p in zip(gold, predicted, strict=True))
        scores.append(2 * tp / (2 * tp + fp + fn) if tp else 0.0)
    return 100 * float(np.mean(scores)) if scores else 0.0


def accuracy(gold: list[str], predicted: list[str]) -> float:
    return 100 * float(np.mean([g == p for g, p in zip(gold, predicted, strict=True)]))


def fit(vectors: np.ndarray, targets_named: list[str], labels: list[str], c: float) -> FacetClassifier:
    """A class-balanced softmax regression of `targets_named` (each one of `labels`) on `vectors`."""
    from sklearn.linear_model import LogisticRegression  # training only

    targets = np.array([labels.index(label) for label in targets_named])
    model = LogisticRegression(C=c, class_weight="balanced", max_iter=3000)
    model.fit(vectors, targets)
    weights = np.zeros((len(labels), vectors.shape[1]), dtype=np.float32)
    intercepts = np.full(len(labels), -30.0, dtype=np.float32)  # a class never seen in training is never chosen
    weights[model.classes_] = model.coef_
    intercepts[model.classes_] = model.intercept_
    return FacetClassifier(labels, weights, intercepts, threshold=0.5, none_threshold=0.5)


def embed(questions: list[LabelledQuestion]) -> np.ndarray:
    return Embedder().encode([q.question for q in questions])  # the base model, as the question stage embeds


def cross_validate(train: list[LabelledQuestion], vectors: np.ndarray, written: list[LabelledQuestion],
                   written_vectors: np.ndarray, rules: FacetRules, log: Callable[[str], None],
                   names: tuple[str, ...] = WORDING_SETS) -> tuple[float, float, float, dict]:
    """(C, threshold, none threshold, scores), chosen on two checks of the system (the model where it is confident, else the
    rules): 5-fold cross-validation on the PrivacyQA train questions (the written ones in every training fold),
    and each tuning set's wordings (`names`: the sets among the sources of `written`) left out in turn (trained on
    the rest). Among the cells that get at least as many left-out wordings right as the rules do on every set, the
    best cross-validated macro F1 (accuracy breaking ties)."""
    rng = np.random.default_rng(13)
    fold_of = rng.permutation(len(train)) % FOLDS
    gold, said, labels = [q.facet for q in train], rule_facets(train, rules), rules.labels
    train_labels = [q.facet for q in train]
    sources = [q.source for q in written]
    probabilities = {c: np.zeros((len(train), len(labels))) for c in C_GRID}
    left_out = {c: {} for c in C_GRID}
    for c in C_GRID:
        for fold in range(FOLDS):
            held = fold_of == fold
            targets = [label for label, h in zip(train_labels, held, strict=True) if not h] + [q.facet for q in written]
            probabilities[c][held] = fit(np.vstack([vectors[~held], written_vectors]), targets, labels,
                                         c).probabilities(vectors[held])
        for name in names:
            keep = np.array([source != name for source in sources])
            model = fit(np.vstack([vectors, written_vectors[keep]]),
                        train_labels + [q.facet for q, k in zip(written, keep, strict=True) if k], labels, c)
            left_out[c][name] = model.probabilities(written_vectors[~keep])
    wordings = {name: [q for q, source in zip(written, sources, strict=True) if source == name] for name in names}
    rules_left_out = {name: accuracy([q.facet for q in qs], rule_facets(qs, rules)) for name, qs in wordings.items()}
    grid = {}
    for c in C_GRID:
        for threshold in THRESHOLDS:
            for none_threshold in NONE_THRESHOLDS:
                predicted = combine(said, probabilities[c], labels, threshold, none_threshold)
                wording_scores = {name: accuracy([q.facet for q in qs], combine(rule_facets(qs, rules), left_out[c][name],
                                                                                  labels, threshold, none_threshold))
                                  for name, qs in wordings.items()}
                keeps_wordings = all(wording_scores[n] >= rules_left_out[n] for n in names)
                grid[(c, threshold, none_threshold)] = (keeps_wordings, macro_f1(gold, predicted),
                                                        accuracy(gold, predicted), wording_scores)
    c, threshold, none_threshold = max(grid, key=lambda cell: grid[cell][:3])
    _, f1, acc, wording_scores = grid[(c, threshold, none_threshold)]
    scores = {"privacyqa_train_5_fold": {"rules": {"macro_f1": round(macro_f1(gold, said), 1),
                                                   "accuracy": round(accuracy(gold, said), 1)},
                                         "model_then_rules": {"macro_f1": round(f1, 1), "accuracy": round(acc, 1)}},
              "wordings_left_out_accuracy": {name: {"rules": round(rules_left_out[name], 1),
                                                    "model_then_rules": round(wording_scores[name], 1)}
                                             for name in names}}
    log(f"chosen: C={c}, threshold={threshold}, none threshold={none_threshold}: {json.dumps(scores)}")
    return c, threshold, none_threshold, scores


def train(rules: FacetRules, wordings: Mapping[str, Path], out: Path = RELEASE_DIR,
          log: Callable[[str], None] = print) -> Path:
    """Fit and write the release (`wordings`: the tuning answers sets' files, `WORDING_SETS`); returns the
    manifest's path."""
    train_questions, written = load_labelled("train"), written_questions(rules, wordings)
    log(f"embedding {len(train_questions) + len(written)} questions…")
    vectors, written_vectors = embed(train_questions), embed(written)
    c, threshold, none_threshold, scores = cross_validate(train_questions, vectors, written, written_vectors, rules,
                                                          log, tuple(wordings))
    model = fit(np.vstack([vectors, written_vectors]), [q.facet for q in train_questions + written], rules.labels, c)
    model = FacetClassifier(model.labels, model.weights, model.intercepts, threshold, none_threshold)
    model.save(out)
    counts = {label: sum(q.facet == label for q in train_questions + written) for label in rules.labels}
    return write_manifest(
        out,
        data={"train": {"privacyqa_train": len(train_questions), "written": len(written)}, "labels": counts,
              "files": ["assistant/models/facets/data/privacyqa_train.tsv", "assistant/models/facets/data/written.tsv",
                        *(f"answers set {name} ({path.name})" for name, path in wordings.items())]},
        command="assistant train facets",
        metrics={"selection": scores},
        recipe=(f"class-balanced softmax regression over the base model's question embedding; C from {list(C_GRID)} "
                f"and the thresholds from {THRESHOLDS[0]}–{THRESHOLDS[-1]} (for `none`, also never): the best {FOLDS}-fold "
                "cross-validated macro F1 on the train questions of the model where its facet's probability reaches "
                "the threshold (or its `none` the none threshold), else the rules, "
                "among the cells that lose no wording the rules get right when each tuning set's wordings are left "
                f"out; chosen C={c}, threshold={threshold}, none threshold={none_threshold}"),
    )
