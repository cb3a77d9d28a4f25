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
    "igorbox.md": {
        "sale": ("no", [49, 36, 10, 12], False,
                 "'We do not sell your personal information'; the California notice says each category is not sold."),
        "sharing_advertisers": ("no", [9, 11, 36, 29], False,
                                ("Identifiers and network activity 'not sold/shared for cross-context behavioral "
                                 "advertising'; mobile information not shared for marketing; session recordings not "
                                 "used for advertising profiles. No advertiser is named.")),
        "sharing_third_parties": ("yes", [51, 50, 52, 28], False,
                                  "Service providers, legal process, protecting rights; observability providers."),
        "law_enforcement": ("conditional", [52], False, "'When required by law or legal process.'"),
        "collection_location": ("yes", [12], False, "'Geolocation (coarse, from IP)' collected for security and fraud prevention."),
        "cookies_tracking": ("yes", [22, 30, 6, 23], False,
                             "Session recording, logging and observability tools; certain cookies under the Cookie Policy."),
        "opt_out_ads": ("yes", [73], True,
                        ("GPC honoured as an opt-out of targeted advertising 'where applicable', but the policy says "
                         "its data is not shared for cross-context behavioural advertising (9, 11): an ad opt-out "
                         "beside no described targeted advertising.")),
        "deletion": ("yes", [64, 58, 67], False,
                     "Right to request deletion 'depending on your jurisdiction', exercised at help@igorbox.com; deletion within 30 days."),
        "access_correction": ("yes", [63, 64, 67], False, "Access, copy and correction, exercised at help@igorbox.com."),
        "retention": ("yes", [57, 56, 58], False,
                      "Account records while the account exists, transactions up to 7 years, logs and recordings up to 24 months."),
        "security": ("yes", [60], False, "Reasonable administrative, technical and physical safeguards."),
        "children": ("not_stated", [], False,
                     ("No section on children; only the CCPA line that under-16s' information is not sold or shared "
                      "(14), which says nothing of collecting it.")),
        "international_transfer": ("yes", [75, 76, 74], False,
                                   "Hosted in the US; users outside it have data transferred there; SCCs for EEA/UK."),
        "policy_changes": ("yes", [78, 77], False, "Changes posted here with the Effective Date updated."),
        "ai_training": ("conditional", [43, 41, 39], True,
                        ("Anonymised or aggregated usage data may train AI models (39, 41), but no personally "
                         "identifiable information without explicit consent (43): yes for de-identified data, "
                         "conditional for personal data.")),
        "contact_dpo": ("yes", [67, 80, 79], False, "No DPO; rights requests and questions to help@igorbox.com."),
    },
    "everest.md": {
        "sale": ("not_stated", [], False,
                 "Selling is not addressed; only the California right to opt out of a sale is listed (56)."),
        "sharing_advertisers": ("not_stated", [], False, "No advertising or advertisers mentioned."),
        "sharing_third_parties": ("yes", [45, 44], False,
                                  ("Third-party analytics tools collect information sent by your device; Apple Sign "
                                   "In and StoreKit (41). No disclosure section.")),
        "law_enforcement": ("not_stated", [], False, "No word on authorities or legal requests."),
        "collection_location": ("not_stated", [], False, "Device model, OS, identifiers and mobile network information only."),
        "cookies_tracking": ("yes", [44, 45], True,
                             ("No cookies named; third-party analytics tools measure traffic and usage trends in the app: "
                              "tracking by similar tools, or not the cookies asked about.")),
        "opt_out_ads": ("not_stated", [], False, "No advertising described; only non-essential communications can be opted out of (61)."),
        "deletion": ("yes", [60, 58, 49], False,
                     "For all users: update or delete account information in the app settings; erasure and deletion rights listed."),
        "access_correction": ("yes", [62, 60, 47, 48], False,
                              "For all users: request a copy of your data, update account information; access and rectification rights."),
        "retention": ("not_stated", [], False, "No retention period or rule; data is mainly stored on the device (38)."),
        "security": ("yes", [39, 40], False,
                     "Technical and organisational measures; industry-standard encryption for data sent to the servers."),
        "children": ("no", [63], False, "Not intended for under-13s; no knowing collection from them."),
        "international_transfer": ("not_stated", [], False, "Where servers are is not said."),
        "policy_changes": ("yes", [65, 64], False, "Notice by posting the new policy and updating the 'Last Updated' date."),
        "ai_training": ("not_stated", [], False, "No AI or model training mentioned."),
        "contact_dpo": ("yes", [66, 67], False, "Questions about the policy to an email address; no DPO."),
    },
}


def main() -> None:
    write_set(LABELS, QUESTIONS, POLICIES, OUTPUT)


if __name__ == "__main__":
    main()
