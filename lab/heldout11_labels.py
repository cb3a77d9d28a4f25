"""The eleventh held-out answers set's labels, as written while reading each policy (data/heldout11/policies/,
rebuilt by `scripts/heldout_policies.py --set heldout11`), and the writer of `answers_heldout11.jsonl`: each
label's supporting sentence numbers are turned into their text as `lab.print_policy` numbers them.

    .venv/bin/python -m lab.heldout11_labels      # rewrites assistant/evaluation/data/answers_heldout11.jsonl

Labelled before the engine was run on any of these policies. The questions are worded differently from
the answers dev set's and the first ten held-out sets', one per facet, the same for every policy.
"""
from __future__ import annotations

from pathlib import Path

from lab.labelled_sets import write_set

ROOT = Path(__file__).resolve().parent.parent
POLICIES = ROOT / "data" / "heldout11" / "policies"
OUTPUT = ROOT / "assistant" / "evaluation" / "data" / "answers_heldout11.jsonl"

QUESTIONS = {
    "sale": "Could this company sell my personal info to someone?",
    "sharing_advertisers": "Could advertisers end up with my personal information through them?",
    "sharing_third_parties": "Will they let other companies see my personal information?",
    "law_enforcement": "Can authorities like the police make them disclose my data?",
    "collection_location": "Are my whereabouts collected by this service?",
    "cookies_tracking": "Are tracking cookies or similar tools used on me?",
    "opt_out_ads": "Is there a setting to stop ads being tailored to me?",
    "deletion": "If I want my information gone, will they delete it?",
    "access_correction": "Is there a way to review my personal information and fix what's wrong?",
    "retention": "Is there a stated period for how long they keep my information?",
    "security": "Do they protect my information against unauthorized access?",
    "children": "Are children's personal details collected through this service?",
    "international_transfer": "Can my personal data end up being processed abroad?",
    "policy_changes": "Will they give me notice when the privacy policy is revised?",
    "ai_training": "Are their AI models trained using my data or content?",
    "contact_dpo": "Do they give a contact, like a data protection officer, for privacy requests?",
}

# policy file -> facet -> (verdict, supporting sentence numbers best first, ambiguous, note)
LABELS: dict[str, dict[str, tuple[str, list[int], bool, str]]] = {
}


def main() -> None:
    write_set(LABELS, QUESTIONS, POLICIES, OUTPUT)


if __name__ == "__main__":
    main()
