""""What information do they collect about me?": the kinds of data the policy says it collects, named in plain
words from PolicyIE's slots in the question's candidate sentences, each with the policy's own words for it.

The headline lists the kinds (contact details, device data, location …) with a verbatim example of each and the
sentences they come from; the first quote is the best-ranked sentence of the selected evidence that names several
kinds (so the evidence shown stays the selection's). A sentence that denies collecting ("We do not collect your
precise location") counts for nothing here.
"""
from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from assistant.answering.ranking import EvidenceRanking
from assistant.understanding.statements import UNTYPED, attribute, denied, informative, kind, role

# "What information do they collect?", "Which personal data do you gather about me?", "What do they know about me?"
ASKS_DATA_COLLECTED = re.compile(
    r"^(?:what|which)\b(?:(?!\b(?:shar\w*|sell\w*|disclos\w*|give|gives)\b).)*"
    r"(?:\b(?:information|info|data|details)\b.*\b(?:collect\w*|gather\w*|obtain\w*|record\w*|track\w*|have|has|get)\b|"
    r"\b(?:collect\w*|gather\w*)\b|\bknow about (?:me|us|you|users)\b)", re.IGNORECASE)
MAX_KINDS = 6  # the headline names at most this many kinds of data
MIN_KINDS_QUOTED = 2  # the first quote is the best-ranked sentence that names at least this many


@dataclass(frozen=True)
class CollectedData:
    """What the candidates say is collected: each kind's verbatim example, and the sentence to quote first."""

    kinds: list[tuple[str, str]]  # (kind in plain words, the policy's words for it), most often named first
    sentence_ids: list[int]  # the sentences that name them, in policy order
    support: int  # the position in the ranking of the sentence quoted first


def data_collected(ranking: EvidenceRanking, shown: Sequence[int] = ()) -> CollectedData | None:
    """The kinds of data the ranking's candidates say the company collects, or None when none names a kind. The
    sentence quoted first is one of the `shown` positions (the selected evidence) where one of them names a kind."""
    counts: Counter[str] = Counter()
    examples: dict[str, Counter[str]] = defaultdict(Counter)
    per_candidate: dict[int, set[str]] = {}
    ordinals: set[int] = set()
    for position, scored in enumerate(ranking.ranked):
        facts = scored.sentence.facts
        if facts is None or denied(facts, scored.sentence.text):
            continue
        typed = [s for s in facts.slots if role(s) == "data-collected" and informative(s) and kind(s) not in UNTYPED]
        for slot in typed:
            examples[attribute(slot)][slot.text] += 1
        named = {attribute(s) for s in typed}
        if named:
            per_candidate[position] = named
            ordinals.add(scored.sentence.ordinal)
            counts.update(sorted(named))  # ties keep first-named order, not the per-run string hashing's
    if not counts:
        return None
    kinds = [(name, examples[name].most_common(1)[0][0]) for name, _ in counts.most_common(MAX_KINDS)]
    # the best-ranked sentence that names several kinds (the retriever ranks what answers the question first),
    # else the one that names the most
    among = [p for p in sorted(per_candidate) if p in set(shown)] or sorted(per_candidate)
    support = next((p for p in among if len(per_candidate[p]) >= MIN_KINDS_QUOTED),
                   max(among, key=lambda p: (len(per_candidate[p]), -p)))
    return CollectedData(kinds, sorted(ordinals), support)


def collected_headline(policy: str, collected: CollectedData) -> str:
    """'The amazon.com policy says it collects contact details (“e-mail address”), device data (“IP address”) and location
    (“your location”) (sentences 15, 94, 95).'"""
    named = [f"{name} (“{example}”)" for name, example in collected.kinds]
    listed = named[0] if len(named) == 1 else ", ".join(named[:-1]) + " and " + named[-1]
    shown = collected.sentence_ids[:8]
    cited = ", ".join(str(n) for n in shown) + (" …" if len(collected.sentence_ids) > len(shown) else "")
    word = "sentence" if len(collected.sentence_ids) == 1 else "sentences"
    return f"The {policy} policy says it collects {listed} ({word} {cited})."
