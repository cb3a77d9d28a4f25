"""The labelled sentences the answer-sentence scorer learns from (`assistant train answer-sentences`).

For each answers set (`assistant.evaluation.sets`: dev and held-out sets 1–11; the twelfth is kept for checking),
its policies are ingested into a store of their own, every item's question is understood as the engine understands
it, and each sentence of the policy that speaks of the question's facet (`Facet.addressed_by`) becomes a
`LabelledSentence`: supporting when it is one of the sentences the item lists (`AnswerItem.supported_by`), else not.
On a policy that does not address the facet (gold `not_stated`), every such sentence is an "other" one. Ambiguous
items are left out.
"""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from assistant.engine import Assistant
from assistant.evaluation.answers import _policy_name, load_items
from assistant.evaluation.sets import DEV, AnswersSet, find_set
from assistant.foundation.settings import Settings
from assistant.foundation.types import ProgressCallback
from assistant.models.answer_sentences.train import LabelledSentence, write_release
from assistant.understanding.facets import BY_NAME

# The held-out sets the scorer is trained on (with the dev set); the twelfth (`heldout12`) is its unseen check.
TRAINING_SETS = tuple(f"heldout{n}" for n in range(1, 12))


def training_sets(root: Path | None = None) -> list[AnswersSet]:
    """The dev set (over OPP-115's policies) and the held-out sets (`assistant.evaluation.sets`, under `root` or the
    sets root), whose policies are rebuilt into each set's policies/ by `scripts/heldout_policies.py`; a missing
    folder is an error, not a set left out."""
    sets = [find_set(name, root) for name in (DEV, *TRAINING_SETS)]
    for answers_set in sets:
        answers_set.require_policies()
    return sets


def labelled_sentences(answers_set: AnswersSet, home: Path,
                       progress: ProgressCallback | None = None) -> list[LabelledSentence]:
    """The set's labelled sentences, its policies ingested into the store at `home` (kept: a second run reads
    them back)."""
    items = [item for item in load_items(answers_set.answers) if not item.ambiguous]
    assistant = Assistant(Settings(home=home))
    try:
        stored = set(assistant.policy_names())
        files, folder = sorted({item.policy_file for item in items}), answers_set.policies
        for done, name in enumerate(files):
            if progress:
                progress(f"ingesting {answers_set.name}", done, len(files))
            if _policy_name(name) not in stored:
                assistant.ingest(folder / name, name=_policy_name(name), force=True)
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


def train(home: Path, log: Callable[[str], None] = print, root: Path | None = None) -> None:
    """Build the labelled sentences of every training set (stores under `home`/<set>) and write the release."""
    sentences = []
    for answers_set in training_sets(root):
        rows = labelled_sentences(answers_set, home / answers_set.name)
        log(f"{answers_set.name}: {len(rows)} sentences, {sum(r.supports for r in rows)} supporting")
        sentences += rows
    write_release(sentences, log=log)
