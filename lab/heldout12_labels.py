"""The twelfth held-out answers set's labels, as written while reading each policy (data/heldout12/policies/,
rebuilt by `scripts/heldout_policies.py --set heldout12`), and the writer of `answers_heldout12.jsonl`: each
label's supporting sentence numbers are turned into their text as `lab.print_policy` numbers them.

    .venv/bin/python -m lab.heldout12_labels      # rewrites assistant/evaluation/data/answers_heldout12.jsonl

Labelled before the engine was run on any of these policies. The questions are worded differently from
the answers dev set's and the first eleven held-out sets', one per facet, the same for every policy.
"""
from __future__ import annotations

from pathlib import Path

from lab.labelled_sets import write_set

ROOT = Path(__file__).resolve().parent.parent
POLICIES = ROOT / "data" / "heldout12" / "policies"
OUTPUT = ROOT / "assistant" / "evaluation" / "data" / "answers_heldout12.jsonl"

QUESTIONS = {
    "sale": "Is my personal information ever sold by them?",
    "sharing_advertisers": "Do advertising companies receive my personal data from this service?",
    "sharing_third_parties": "Is my personal data shared with outside organisations?",
    "law_enforcement": "Would they give my information to the police or a court if required?",
    "collection_location": "Is information about my location gathered?",
    "cookies_tracking": "Do they use cookies or trackers when I visit?",
    "opt_out_ads": "Can I opt out of personalised advertising?",
    "deletion": "Can I ask them to erase the data they have on me?",
    "access_correction": "Can I see the personal data they keep and correct errors in it?",
    "retention": "Do they say how long they store my personal data before deleting it?",
    "security": "Do they use safeguards to protect my personal data?",
    "children": "Does this service gather personal information from kids?",
    "international_transfer": "Could my personal data be stored in another country?",
    "policy_changes": "Will they tell me if this privacy policy changes?",
    "ai_training": "Is my data used to develop or train AI models?",
    "contact_dpo": "Do they name a data protection officer or another contact for privacy questions?",
}

# policy file -> facet -> (verdict, supporting sentence numbers best first, ambiguous, note)
LABELS: dict[str, dict[str, tuple[str, list[int], bool, str]]] = {
}


def main() -> None:
    write_set(LABELS, QUESTIONS, POLICIES, OUTPUT)


if __name__ == "__main__":
    main()
