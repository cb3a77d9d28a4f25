"""The tenth held-out answers set's labels, as written while reading each policy (data/heldout10/policies/,
rebuilt by `scripts/heldout_policies.py --set heldout10`), and the writer of `answers_heldout10.jsonl`: each
label's supporting sentence numbers are turned into their text as `lab.print_policy` numbers them.

    .venv/bin/python -m lab.heldout10_labels      # rewrites assistant/evaluation/data/answers_heldout10.jsonl

Labelled before the engine was run on any of these policies. The questions are worded differently from
the answers dev set's and the first nine held-out sets', one per facet, the same for every policy.
"""
from __future__ import annotations

from pathlib import Path

from lab.labelled_sets import write_set

ROOT = Path(__file__).resolve().parent.parent
POLICIES = ROOT / "data" / "heldout10" / "policies"
OUTPUT = ROOT / "assistant" / "evaluation" / "data" / "answers_heldout10.jsonl"

QUESTIONS = {
    "sale": "Would they ever sell my personal information?",
    "sharing_advertisers": "Does my personal data get shared with advertisers?",
    "sharing_third_parties": "Do they give my personal data to any third parties?",
    "law_enforcement": "Can law enforcement get hold of my personal data from them?",
    "collection_location": "Do they collect data on where I'm located?",
    "cookies_tracking": "Are cookies or other trackers used to monitor what I do?",
    "opt_out_ads": "Is there an option to turn off personalized ads?",
    "deletion": "Can I ask for my personal data to be deleted?",
    "access_correction": "Am I able to access my personal data and correct anything inaccurate?",
    "retention": "Does the policy tell me how long my data will be kept?",
    "security": "Do they keep my personal data safe with security measures?",
    "children": "Do they collect any personal information about children?",
    "international_transfer": "Is my data sent to other countries?",
    "policy_changes": "Will I be told if they update their privacy policy?",
    "ai_training": "Do they use my information to train their AI models?",
    "contact_dpo": "Is there a privacy contact or DPO I can email about my data?",
}

# policy file -> facet -> (verdict, supporting sentence numbers best first, ambiguous, note)
LABELS: dict[str, dict[str, tuple[str, list[int], bool, str]]] = {
}


def main() -> None:
    write_set(LABELS, QUESTIONS, POLICIES, OUTPUT)


if __name__ == "__main__":
    main()
