"""Does the corpus report count what OPP-115's annotators found? For each mapped facet, the share of OPP-115's
policies the report says address it (its verdict is anything but "not stated") beside the share whose annotations
hold the matching practice (or practice and attribute value), and how often the two agree policy by policy
(agreement and Cohen's κ).

A policy holds a practice when at least two annotators marked it on the same segment (OPP-115's majority; most
segments have three annotators). The mappings are the closest OPP-115 has to each facet, listed in `MAPPINGS`;
OPP-115 annotated what a policy addresses, so the comparison is on "addresses it at all", not on the verdict.

    assistant eval corpus-opp115 CORPUS_DIR   # the folder `assistant corpus ingest` wrote for OPP-115's policies"""
from __future__ import annotations

import collections
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from assistant.corpora.opp115 import annotated_policy, opp115_policies
from assistant.corpus.report import latest_versions, load_policies, wilson


@dataclass(frozen=True)
class Mapping:
    facet: str
    practice: str
    attribute: str | None = None  # with this attribute's value among `values`
    values: tuple[str, ...] = ()

    def describe(self) -> str:
        return self.practice + (f" with {self.attribute} = {' or '.join(self.values)}" if self.attribute else "")


MAPPINGS = (
    Mapping("retention", "Data Retention"),
    Mapping("security", "Data Security"),
    Mapping("policy_changes", "Policy Change"),
    Mapping("sharing_third_parties", "Third Party Sharing/Collection"),
    Mapping("deletion", "User Access, Edit and Deletion", "Access Type", ("Deactivate account", "Delete account (full)",
                                                                            "Delete account (partial)")),
    Mapping("access_correction", "User Access, Edit and Deletion", "Access Type", ("View", "Export", "Edit information")),
    Mapping("children", "International and Specific Audiences", "Audience Type", ("Children",)),
    Mapping("collection_location", "First Party Collection/Use", "Personal Information Type", ("Location",)),
    Mapping("cookies_tracking", "First Party Collection/Use", "Personal Information Type",
            ("Cookies and tracking elements",)),
    Mapping("international_transfer", "International and Specific Audiences", "Audience Type",
            ("Europeans", "Citizens from other countries")),
)


@dataclass(frozen=True)
class FacetValidity:
    mapping: Mapping
    policies: int
    report_share: tuple[float, float, float]  # share, low, high
    annotated_share: tuple[float, float, float]
    agreement: float
    kappa: float


@cache
def annotated(policy: str) -> frozenset[tuple[str, str | None, str | None]]:
    """(practice, attribute, value) marked by two or more annotators on one segment of the policy."""
    _, rows = annotated_policy(opp115_policies()[policy])
    voters: dict[tuple, set[str]] = collections.defaultdict(set)
    for row in rows:
        voters[(row.segment_id, row.practice, None, None)].add(row.annotator)
        for attribute, value in row.attributes.items():
            voters[(row.segment_id, row.practice, attribute, value.get("value"))].add(row.annotator)
    return frozenset(key[1:] for key, who in voters.items() if len(who) >= 2)


def holds(policy: str, mapping: Mapping) -> bool:
    marks = annotated(policy)
    if mapping.attribute is None:
        return (mapping.practice, None, None) in marks
    return any((mapping.practice, mapping.attribute, value) in marks for value in mapping.values)


def validity(corpus: Path) -> list[FacetValidity]:
    policies, _ = load_policies(corpus)
    latest = latest_versions(policies)
    known = opp115_policies()
    latest = latest[latest["service"].isin(known)]
    results = []
    for mapping in MAPPINGS:
        said = (latest[f"{mapping.facet}.verdict"] != "not_stated").tolist()
        gold = [holds(service, mapping) for service in latest["service"]]
        n = len(gold)
        both = sum(a and b for a, b in zip(said, gold, strict=True))
        neither = sum(not a and not b for a, b in zip(said, gold, strict=True))
        observed = (both + neither) / n
        p_said, p_gold = sum(said) / n, sum(gold) / n
        expected = p_said * p_gold + (1 - p_said) * (1 - p_gold)
        kappa = (observed - expected) / (1 - expected) if expected < 1 else 1.0
        results.append(FacetValidity(mapping, n, wilson(sum(said), n), wilson(sum(gold), n), observed, kappa))
    return results
