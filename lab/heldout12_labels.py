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
    "psf.md": {
        "sale": ("not_stated", [], False,
                 "Selling is not addressed; only rights for citizens of some US states and the EU are listed (73-81)."),
        "sharing_advertisers": ("no", [24, 51], True,
                                ("Only 'statistical or aggregated non-personal information' is shared with advertisers "
                                 "(24); personal information goes to service providers barred from other uses (50, 51). "
                                 "No denial of giving advertisers personal data: no, or not stated.")),
        "sharing_third_parties": ("yes", [50, 52, 56, 55], False,
                                  "Service providers, contractors and sub-contractors; legal process; protecting rights."),
        "law_enforcement": ("conditional", [56], False,
                            "In response to a subpoena, warrant or court order, or when a law requires or authorises it."),
        "collection_location": ("not_stated", [], False,
                                "IP addresses and domain names only (22); no location named."),
        "cookies_tracking": ("yes", [27, 28, 22], False,
                             "Sites may place cookies, 'strictly functional cookies' with no marketing purpose; pages viewed collected."),
        "opt_out_ads": ("not_stated", [], False,
                        "Aggregated data customises 'advertising' (25), but no ad opt-out; only a general right to object (79)."),
        "deletion": ("yes", [71, 76, 82], False,
                     "They will endeavour to remove the data you give them; a right to erasure for some states and the EU."),
        "access_correction": ("yes", [71, 74, 75, 82], False,
                              "Access, correct or update personal information; rights of access and rectification."),
        "retention": ("yes", [83, 87, 88], True,
                      "Only a general rule: no longer than necessary for the purposes, then destroyed; no period."),
        "security": ("yes", [85, 70, 84], False,
                     "Physical, business and technical security measures; reasonable procedures against unauthorised access."),
        "children": ("not_stated", [], False, "Children are not mentioned."),
        "international_transfer": ("yes", [59, 60, 65, 66], False,
                                   "Service providers in the US and other countries; transfers out of the EEA under SCCs."),
        "policy_changes": ("yes", [90, 91, 93], False,
                           "Updates posted online with an effective date; substantive ones announced on blog, forums or by email."),
        "ai_training": ("not_stated", [], False, "No AI or model training mentioned."),
        "contact_dpo": ("yes", [94, 67], False, "legal@python.org for questions, concerns or complaints; no DPO named."),
    },
    "formulaic.md": {
        "sale": ("no", [95], False, "'We do not sell personal data.'"),
        "sharing_advertisers": ("not_stated", [], False, "No advertising or advertisers mentioned."),
        "sharing_third_parties": ("yes", [70, 73, 79, 76], False,
                                  ("Third-Party Services (Google Cloud, Anyscale, OpenAI) receive what is needed to run "
                                   "queries through Third-Party Models.")),
        "law_enforcement": ("not_stated", [], False,
                            "No word on authorities; only retention 'as otherwise required by law' (31, 88)."),
        "collection_location": ("yes", [40, 39, 37], False,
                                "The IP address is used to approximate your location; device country received."),
        "cookies_tracking": ("yes", [47, 49, 51], False,
                             "Cookies, clear GIFs and third-party services; Sign in with Google's cookie; Google Analytics."),
        "opt_out_ads": ("not_stated", [], False,
                        "No advertising described; the only opt-out is Google Analytics' browser add-on (54)."),
        "deletion": ("yes", [87, 109, 24, 90], False,
                     "On request to terminate the account, account and information deleted from active databases; delete in settings."),
        "access_correction": ("yes", [84, 86, 109, 107], False,
                              "Review or change account information by email or in account settings; right of access."),
        "retention": ("yes", [39, 45, 22, 65], False,
                      "IP addresses and referral data deleted after 30 days; documents kept until you delete them."),
        "security": ("yes", [70, 61], True,
                     ("No measure of Mozilla's own is named: vendors are contracted to protect information (70) and "
                      "reCAPTCHA identifies fraudulent activity (61).")),
        "children": ("no", [81, 82], False,
                     "Not directed to under-18s; no knowing collection; such information deleted."),
        "international_transfer": ("not_stated", [], False,
                                   "Where data is processed is not said (only a DPO address in Brussels, 112-115)."),
        "policy_changes": ("not_stated", [], False, "Only a 'Last Updated' date (1); no word on telling users of changes."),
        "ai_training": ("not_stated", [], True,
                        ("Training is never mentioned: Mozilla operates no LLM (15) and caches model query data only to "
                         "answer (65), but inputs go to third-party models under their own terms (80).")),
        "contact_dpo": ("yes", [111, 91, 85], False,
                        "dpo@mozilla.com and a DPO (Bird & Bird DPO Services, Brussels); compliance@ and formulaic@mozilla.com."),
    },
}


def main() -> None:
    write_set(LABELS, QUESTIONS, POLICIES, OUTPUT)


if __name__ == "__main__":
    main()
