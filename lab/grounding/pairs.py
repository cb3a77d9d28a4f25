"""The question–sentence pairs the grounding verifier learns from (`lab.grounding.probe`).

For each answers set it is trained on, the set's policies are ingested into a store of their own, and every item's
question is ranked as the engine ranks it. The pairs are the item's `CANDIDATES` best candidates (the order the
verdict stage reads them in) and every sentence the readers labelled as supporting the answer: a pair is positive
when the sentence is one of those (`AnswerItem.supported_by`) and the policy answers the question, else negative.
On an item whose gold is "not stated", every candidate is a negative: the sentences closest to a question the
policy is silent on are the ones a verifier must learn to refuse ("We collect your date of birth" for "Do you
collect biometric data?"). Ambiguous items are left out.

The blind sets (`blind1`, `blind2`, `blind3`) are never read here: they measure the engine, nothing is trained on
them.
"""
from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import asdict, replace
from pathlib import Path

from assistant.engine import Assistant
from assistant.evaluation.answers import _policy_name, load_items
from assistant.evaluation.sets import DEV, AnswersSet, find_set
from assistant.foundation.settings import Settings
from assistant.understanding.concepts import DATA, RECIPIENT, vocabulary
from lab.grounding.train import GroundingPair

TRAINING_SETS = (DEV, *(f"heldout{n}" for n in range(1, 13)))  # the yes/no sets on sixteen facets
VALIDATION_SETS = ("freedev",)  # questions of every type, worded freely: the threshold is chosen on it
CANDIDATES = 10  # the best candidates of each question paired with it


def pairs_of_set(answers_set: AnswersSet, home: Path, log: Callable[[str], None] = print) -> list[GroundingPair]:
    """The set's pairs, its policies ingested into the store at `home` (kept: a second run reads them back)."""
    items = [item for item in load_items(answers_set.answers) if not item.ambiguous]
    assistant = Assistant(Settings(home=home))
    try:
        stored = set(assistant.policy_names())
        folder = answers_set.require_policies()
        for name in sorted({item.policy_file for item in items}):
            if _policy_name(name) not in stored:
                log(f"{answers_set.name}: ingesting {name}")
                assistant.ingest(folder / name, name=_policy_name(name), force=True)
        out: list[GroundingPair] = []
        for item in items:
            policy = _policy_name(item.policy_file)
            ranking = assistant.rank_evidence(item.question, policy=policy)
            if ranking.reason is not None and not ranking.ranked:
                continue
            answers = item.verdict != "not_stated"
            if answers and not item.evidence_text:
                continue
            order = sorted(range(len(ranking.ranked)),
                           key=lambda i: -(ranking.ranked[i].selection_logit + ranking.ranked[i].answer_score))
            chosen = [ranking.ranked[i].sentence for i in order[:CANDIDATES]]
            if answers:
                seen = {s.ordinal for s in chosen}
                chosen += [s for s in assistant.search.sentences(ranking.version)
                           if s.ordinal not in seen and item.supported_by(s.text)]
            for sentence in chosen:
                out.append(GroundingPair(answers_set.name, f"{item.policy_file}: {item.question}", item.question,
                                         sentence.section or "", sentence.text,
                                         answers and item.supported_by(sentence.text), _verdict(item.verdict)))
        return out
    finally:
        if "store" in assistant.__dict__:
            assistant.store.close()


def _verdict(gold: str) -> str:
    """The gold verdict in the verifier's words: the older sets' "conditional" is "only_if"."""
    return "only_if" if gold == "conditional" else gold


def build_pairs(home: Path, sets: tuple[str, ...], log: Callable[[str], None] = print,
                root: Path | None = None) -> list[GroundingPair]:
    """The pairs of every named set (stores under `home`/<set>)."""
    out: list[GroundingPair] = []
    for name in sets:
        if name.startswith("blind"):
            raise ValueError(f"{name} is a blind set: nothing is trained or tuned on it.")
        rows = pairs_of_set(find_set(name, root), home / name, log)
        log(f"{name}: {len(rows)} pairs, {sum(r.positive for r in rows)} positive")
        out += rows
    return out


def load_or_build(home: Path, sets: tuple[str, ...], path: Path | None, log: Callable[[str], None] = print,
                  root: Path | None = None) -> list[GroundingPair]:
    """The pairs read from `path` (JSON Lines) when it exists; else built (`build_pairs`) and written there."""
    if path is not None and path.is_file():
        rows = [GroundingPair(**json.loads(line)) for line in path.read_text().splitlines() if line.strip()]
        log(f"{path}: {len(rows)} pairs")
        return [r for r in rows if r.answers_set in sets]
    rows = build_pairs(home, sets, log, root)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("".join(json.dumps(asdict(r), ensure_ascii=False) + "\n" for r in rows))
    return rows


SWAPPED_KINDS = (DATA, RECIPIENT)


def object_swaps(pairs: list[GroundingPair], seed: int = 13) -> list[GroundingPair]:
    """Negatives made from the positives: a question that names a kind of data or a recipient the sentence states,
    asked again of another kind the sentence does not name ("Do you collect my email address?" → "Do you collect
    biometric data?" beside "We collect your email address"). The class a verifier must learn is that a statement
    about other data or another recipient does not answer; the other kind is drawn from the concepts' vocabulary
    (`lang/concepts.toml`), never broader or narrower than the one asked, never a generic "your data"."""
    words = vocabulary()
    rng = random.Random(seed)
    kinds = {kind: [c for c in words.concepts.values() if c.kind == kind and not c.generic] for kind in SWAPPED_KINDS}
    out = []
    for pair in pairs:
        if not pair.positive:
            continue
        for name in words.named_in(pair.question, SWAPPED_KINDS):
            asked = words.concepts[name]
            if asked.generic or not words.states(pair.sentence, name):
                continue
            related = {name, *words.below(name)} | {c for c in words.concepts if name in words.below(c)}
            others = [c for c in kinds[asked.kind] if c.name not in related and not words.states(pair.sentence, c.name)
                      and not words.states(pair.question, c.name)]
            if not others:
                continue
            match = asked.matches(pair.question)[0]
            other = rng.choice(others)
            question = pair.question[:match.start()] + other.label + pair.question[match.end():]
            out.append(replace(pair, item=f"{pair.item} [asked of {other.name}]", question=question, positive=False))
            break
    return out
