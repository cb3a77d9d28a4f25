"""The labelled sentences the answer-sentence scorer learns from (`assistant train answer-sentences`).

For each answers set (dev and held-out sets 1–11; the twelfth is kept for checking), its policies are ingested
into a store of their own, every item's question is understood as the engine understands it, and each sentence of
the policy that speaks of the question's facet (`Facet.addressed_by`) becomes a `LabelledSentence`: supporting
when it is one of the sentences the item lists (`AnswerItem.supported_by`), else not. On a policy that does not
address the facet (gold `not_stated`), every such sentence is an "other" one. Ambiguous items are left out.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from assistant.corpora import corpus_dir
from assistant.engine import Assistant
from assistant.evaluation.answers import ANSWERS_FILE, _policy_name, load_items
from assistant.foundation.errors import AssistantError
from assistant.foundation.resources import package_path
from assistant.foundation.settings import Settings
from assistant.foundation.types import ProgressCallback
from assistant.models.answer_sentences.train import LabelledSentence, write_release
from assistant.understanding.facets import BY_NAME

# The held-out sets the scorer is trained on; the twelfth (`answers_heldout12.jsonl`) is its unseen check.
TRAINING_SETS = ("heldout", *(f"heldout{n}" for n in range(2, 12)))


@dataclass(frozen=True)
class AnswersSet:
    name: str
    data: Path  # the JSON Lines items
    policies: Path  # the folder of their policy files


def training_sets(policies_root: Path) -> list[AnswersSet]:
    """The dev set (over OPP-115's policies) and the held-out sets, whose policies are rebuilt under
    `policies_root`/<set>/policies by `scripts/heldout_policies.py`; a missing folder is an error, not a set
    left out."""
    sets = [AnswersSet("dev", ANSWERS_FILE, corpus_dir("opp115") / "sanitized_policies")]
    for name in TRAINING_SETS:
        folder = policies_root / name / "policies"
        if not folder.is_dir():
            raise AssistantError(f"{folder}: not found; rebuild it with "
                                 f"python scripts/heldout_policies.py --set {name} --mirrors DIR.")
        sets.append(AnswersSet(name, package_path("evaluation", "data", f"answers_{name}.jsonl"), folder))
    return sets


def labelled_sentences(answers_set: AnswersSet, home: Path,
                       progress: ProgressCallback | None = None) -> list[LabelledSentence]:
    """The set's labelled sentences, its policies ingested into the store at `home` (kept: a second run reads
    them back)."""
    items = [item for item in load_items(answers_set.data) if not item.ambiguous]
    assistant = Assistant(Settings(home=home))
    try:
        stored = set(assistant.policy_names())
        files = sorted({item.policy_file for item in items})
        for done, name in enumerate(files):
            if progress:
                progress(f"ingesting {answers_set.name}", done, len(files))
            if _policy_name(name) not in stored:
                assistant.ingest(answers_set.policies / name, name=_policy_name(name), force=True)
        search = assistant.search
        out = []
        for item in items:
            understood = assistant.understanding.run(item.question)
            facet = BY_NAME.get(understood.facet)
            if facet is None or understood.reason is not None or (item.verdict != "not_stated" and not item.evidence_text):
                continue
            version = assistant.version(_policy_name(item.policy_file))
            vectors = search.vectors(version)
            for sentence in search.sentences(version):
                if facet.addressed_by(sentence.text):
                    out.append(LabelledSentence(answers_set.name, f"{item.policy_file}: {item.question}", facet.name,
                                                vectors[sentence.ordinal - 1],
                                                item.verdict != "not_stated" and item.supported_by(sentence.text)))
        return out
    finally:
        if "store" in assistant.__dict__:
            assistant.store.close()


def train(policies_root: Path, home: Path, log: Callable[[str], None] = print) -> None:
    """Build the labelled sentences of every training set (stores under `home`/<set>) and write the release."""
    sentences = []
    for answers_set in training_sets(policies_root):
        rows = labelled_sentences(answers_set, home / answers_set.name)
        log(f"{answers_set.name}: {len(rows)} sentences, {sum(r.supports for r in rows)} supporting")
        sentences += rows
    write_release(sentences, log=log)
