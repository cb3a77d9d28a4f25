"""What changed between two versions of a policy: sentences added, removed and reworded, grouped by issue
(the OPP-115 categories stored with each sentence), and the facets whose verdict changed.

Alignment, not a text diff: sentences whose text is identical (whitespace aside) are matched first,
wherever they moved; the rest are paired greedily, most similar first, when their word-level
`difflib` ratio reaches `REWORDED`. The ratio measures editing, which is what "reworded" means: two
sentences about the same practice that say different things are far apart in words but close in
the retriever's embedding space (every policy sentence is about data), so embeddings would pair a
new sentence with an unrelated removed one. The ratio also needs no model, and its numbers say
plainly how much of a sentence changed (`SMALL_EDIT`).
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from difflib import SequenceMatcher

from assistant.answering.label import GlanceRow
from assistant.foundation.types import Sentence

REWORDED = 0.5  # word-level similarity from which an old and a new sentence are the same sentence reworded
# A rewording is a small edit (editorial, whatever its category) from this similarity, or when it only
# reorders words or changes function words ("de-identified or aggregated" → "aggregated and/or de-identified").
SMALL_EDIT = 0.9
_FUNCTION_WORDS = frozenset("a an and any are as at be by for from in is it its of on or our the their them they "
                            "this that these those to us we with you your".split())
# OPP-115's practice categories; its "Other" ones (introductory text, contact details, practices not covered) are not.
PRACTICES = ("First Party Collection/Use", "Third Party Sharing/Collection", "User Choice/Control",
             "User Access, Edit and Deletion", "Data Retention", "Data Security", "Policy Change", "Do Not Track",
             "International and Specific Audiences")
NO_CATEGORY = "No category"
# The practices in a reader's words, for the chat: what the sentences are about.
PLAIN_PRACTICES = {
    "First Party Collection/Use": "what they collect and how they use it",
    "Third Party Sharing/Collection": "sharing with other companies",
    "User Choice/Control": "your choices",
    "User Access, Edit and Deletion": "seeing, correcting and deleting your data",
    "Data Retention": "how long they keep data",
    "Data Security": "security",
    "Policy Change": "changes to the policy",
    "Do Not Track": "Do Not Track",
    "International and Specific Audiences": "children and people in some countries",
    NO_CATEGORY: "other topics",
}
ADDED, REMOVED, REWORDED_KIND = "added", "removed", "reworded"
_VERDICT_WORDS = {"not_stated": "not stated"}
_TOKEN = re.compile(r"\w+|[^\w\s]")


@dataclass(frozen=True)
class SentenceChange:
    """One sentence added, removed or reworded. Sentence numbers are each version's own."""

    kind: str  # added | removed | reworded
    issue: str  # the category it is grouped under (its likeliest stored category, or "No category")
    categories: list[str]  # every stored category of the old and the new sentence
    material: bool  # it carries a practice category and is more than a small edit
    before_id: int | None = None
    before: str | None = None
    after_id: int | None = None
    after: str | None = None
    similarity: float | None = None  # reworded only: word-level difflib ratio

    @property
    def position(self) -> tuple[int, int]:
        """Where it sits: the new version's sentence number, or the old one's for a removed sentence."""
        return (self.after_id or self.before_id or 0, 0 if self.after_id else 1)


@dataclass(frozen=True)
class FacetChange:
    """A facet whose verdict differs between the versions (from each version's glance)."""

    facet: str
    question: str
    before: str  # yes | no | conditional | not_stated
    before_sentence: int | None
    before_quote: str | None
    after: str
    after_sentence: int | None
    after_quote: str | None
    material: bool = True

    def statement(self) -> str:
        """'sale: now no (sentence 12); before: not stated'."""
        return f"{self.facet}: now {_said(self.after, self.after_sentence)}; before: {_said(self.before, self.before_sentence)}"


@dataclass(frozen=True)
class IssueChanges:
    """The sentence changes under one category."""

    issue: str
    changes: list[SentenceChange]


@dataclass
class PolicyDiff:
    """What changed from one version of a policy to another."""

    policy: str
    from_version: int
    to_version: int
    unchanged: int  # sentences found identical in both
    issues: list[IssueChanges]  # practice categories first, by number of material changes; "No category" last
    facet_changes: list[FacetChange] = field(default_factory=list)
    facets_compared: int = 0  # how many facets were compared (0: none, the glance was not run)

    @property
    def changes(self) -> list[SentenceChange]:
        return sorted((c for group in self.issues for c in group.changes), key=lambda c: c.position)

    def count(self, kind: str | None = None, material: bool | None = None) -> int:
        return sum((kind is None or c.kind == kind) and (material is None or c.material == material)
                   for c in self.changes)

    def to_dict(self) -> dict:
        return {"policy": self.policy, "from_version": self.from_version, "to_version": self.to_version,
                "unchanged": self.unchanged,
                "counts": {kind: self.count(kind) for kind in (ADDED, REMOVED, REWORDED_KIND)}
                | {"material": self.count(material=True) + len(self.facet_changes),
                   "editorial": self.count(material=False)},
                "facets_compared": self.facets_compared,
                "facet_changes": [asdict(f) | {"statement": f.statement()} for f in self.facet_changes],
                "issues": [{"issue": g.issue, "changes": [asdict(c) for c in g.changes]} for g in self.issues]}

    def summary_line(self) -> str:
        """One line for `assistant ingest`: the material changes, and how to see everything."""
        more = f"see `assistant diff {self.policy}`"
        material = self.count(material=True)
        if not material and not self.facet_changes:
            edits = self.count(material=False)
            return (f"No material changes from version {self.from_version} ({edits} editorial "
                    f"edit{'' if edits == 1 else 's'}; no facet changed); {more}.")
        parts = []
        if self.facet_changes:
            parts.append("; ".join(f.statement() for f in self.facet_changes[:3])
                         + (f"; {len(self.facet_changes) - 3} more facets" if len(self.facet_changes) > 3 else ""))
        else:
            parts.append("no facet changed")
        if material:
            kinds = ", ".join(f"{self.count(k, True)} {k}" for k in (ADDED, REMOVED, REWORDED_KIND)
                              if self.count(k, True))
            parts.append(f"{material} practice sentence{'' if material == 1 else 's'} changed ({kinds})")
        return f"Material changes from version {self.from_version}: {'; '.join(parts)}; {more}."


def diff_versions(policy: str, from_version: int, to_version: int, before: Sequence[Sentence],
                  after: Sequence[Sentence], before_glance: Sequence[GlanceRow] = (),
                  after_glance: Sequence[GlanceRow] = ()) -> PolicyDiff:
    """Stage: align the two versions' sentences and compare their glances (facet by facet)."""
    pairs, removed, added = align(before, after)
    changes = [_reworded(before[i], after[j], ratio) for i, j, ratio in pairs if ratio < 1.0]
    changes += [_single(REMOVED, before[i]) for i in removed] + [_single(ADDED, after[j]) for j in added]
    unchanged = sum(1 for _, _, ratio in pairs if ratio == 1.0)
    return PolicyDiff(policy, from_version, to_version, unchanged, _group(changes),
                      facet_changes(before_glance, after_glance), len(after_glance))


def align(before: Sequence[Sentence], after: Sequence[Sentence]) -> tuple[list[tuple[int, int, float]], list[int],
                                                                          list[int]]:
    """(old index, new index, similarity) for every matched pair (1.0: identical), then the old indexes
    left unmatched (removed) and the new ones (added)."""
    waiting: dict[str, list[int]] = {}
    for i, sentence in enumerate(before):
        waiting.setdefault(_normal(sentence.text), []).append(i)
    pairs = []
    for j, sentence in enumerate(after):
        same = waiting.get(_normal(sentence.text))
        if same:
            pairs.append((same.pop(0), j, 1.0))
    old = [i for i in range(len(before)) if i not in {p[0] for p in pairs}]
    new = [j for j in range(len(after)) if j not in {p[1] for p in pairs}]
    candidates = []
    matcher = SequenceMatcher(autojunk=False)
    old_tokens = {i: _tokens(before[i].text) for i in old}
    for j in new:
        matcher.set_seq2(_tokens(after[j].text))
        for i in old:
            matcher.set_seq1(old_tokens[i])
            if matcher.real_quick_ratio() >= REWORDED and matcher.quick_ratio() >= REWORDED:
                ratio = matcher.ratio()
                if ratio >= REWORDED:
                    candidates.append((ratio, i, j))
    used_old: set[int] = set()
    used_new: set[int] = set()
    for ratio, i, j in sorted(candidates, key=lambda c: (-c[0], c[1], c[2])):
        if i not in used_old and j not in used_new:
            pairs.append((i, j, min(round(ratio, 3), 0.999)))
            used_old.add(i)
            used_new.add(j)
    return (sorted(pairs, key=lambda p: p[1]), [i for i in old if i not in used_old],
            [j for j in new if j not in used_new])


def facet_changes(before: Sequence[GlanceRow], after: Sequence[GlanceRow]) -> list[FacetChange]:
    """The facets whose verdict differs, in label order."""
    old = {row.facet: row for row in before}
    return [FacetChange(row.facet, row.question, old[row.facet].verdict, old[row.facet].sentence_id,
                        old[row.facet].quote, row.verdict, row.sentence_id, row.quote)
            for row in after if row.facet in old and old[row.facet].verdict != row.verdict]


def _reworded(old: Sentence, new: Sentence, ratio: float) -> SentenceChange:
    categories = list(dict.fromkeys([*old.categories, *new.categories]))
    small = ratio >= SMALL_EDIT or _content_words(old.text) == _content_words(new.text)
    material = not small and any(c in PRACTICES for c in categories)
    return SentenceChange(REWORDED_KIND, _issue(new) if new.categories else _issue(old), categories, material,
                          old.ordinal, old.text, new.ordinal, new.text, ratio)


def _single(kind: str, sentence: Sentence) -> SentenceChange:
    categories = list(sentence.categories)
    material = any(c in PRACTICES for c in categories)
    ids = (sentence.ordinal, sentence.text, None, None) if kind == REMOVED else (None, None, sentence.ordinal,
                                                                                 sentence.text)
    return SentenceChange(kind, _issue(sentence), categories, material, *ids)


def _issue(sentence: Sentence) -> str:
    """The sentence's likeliest stored category, practice categories before the others."""
    if not sentence.categories:
        return NO_CATEGORY
    return max(sentence.categories, key=lambda c: (c in PRACTICES, sentence.practice_scores.get(c, 0.0)))


def _group(changes: list[SentenceChange]) -> list[IssueChanges]:
    groups: dict[str, list[SentenceChange]] = {}
    for change in sorted(changes, key=lambda c: c.position):
        groups.setdefault(change.issue, []).append(change)
    return [IssueChanges(issue, items) for issue, items in sorted(
        groups.items(), key=lambda g: (g[0] not in PRACTICES, g[0] == NO_CATEGORY, -sum(c.material for c in g[1]), g[0]))]


def _said(verdict: str, sentence: int | None) -> str:
    word = _VERDICT_WORDS.get(verdict, verdict)
    return f"{word} (sentence {sentence})" if sentence is not None else word


def _normal(text: str) -> str:
    return " ".join(text.split())


def _content_words(text: str) -> frozenset[str]:
    return frozenset(t for t in _tokens(text) if t.isalnum() and t not in _FUNCTION_WORDS)


def _tokens(text: str) -> list[str]:
    return _TOKEN.findall(text.lower())
