"""The held-out answers set's labels, as written while reading each policy (data/heldout/policies/,
rebuilt by scripts/heldout_policies.py), and the writer of `answers_heldout.jsonl`: each label's
supporting sentence numbers are turned into their text as `lab.print_policy` numbers them.

    .venv/bin/python -m lab.heldout_labels      # rewrites assistant/evaluation/data/answers_heldout.jsonl

The questions are worded differently from the answers dev set's (and from the label's at-a-glance
questions), one per facet, the same for every policy.
"""
from __future__ import annotations

from pathlib import Path

from lab.labelled_sets import write_set

ROOT = Path(__file__).resolve().parent.parent
POLICIES = ROOT / "data" / "heldout" / "policies"
OUTPUT = ROOT / "assistant" / "evaluation" / "data" / "answers_heldout.jsonl"

QUESTIONS = {
    "sale": "Is my personal data sold to anyone?",
    "sharing_advertisers": "Do they give my data to advertisers?",
    "sharing_third_parties": "Is my information shared with third parties?",
    "law_enforcement": "Will they hand my data to the police if asked?",
    "collection_location": "Is my location collected?",
    "cookies_tracking": "Does the website use cookies?",
    "opt_out_ads": "Can I turn off targeted advertising?",
    "deletion": "Can I have my data erased?",
    "access_correction": "Can I see the personal data they hold about me?",
    "retention": "Do they tell me how long my data is kept?",
    "security": "Is my data kept secure?",
    "children": "Do they collect data from kids?",
    "international_transfer": "Is my data transferred abroad?",
    "policy_changes": "Will I be notified if the privacy policy changes?",
    "ai_training": "Is my data used to train artificial intelligence?",
    "contact_dpo": "Is there a privacy contact or data protection officer I can reach?",
}

# policy file -> facet -> (verdict, supporting sentence numbers best first, ambiguous, note)
LABELS: dict[str, dict[str, tuple[str, list[int], bool, str]]] = {
    "letsencrypt.md": {
        "sale": ("no", [42], False, ""),
        "sharing_advertisers": ("not_stated", [], True,
                                ("Uses Google Analytics and mentions opting out of 'Google Analytics for Display "
                                "Advertising' (48); no statement that data goes to advertisers.")),
        "sharing_third_parties": ("conditional", [55, 56, 29], False,
                                  ("Discloses to third parties in limited circumstances (consent, law); donations "
                                  "processed by payment partners.")),
        "law_enforcement": ("conditional", [56, 58], False, "Only when it believes the law requires it."),
        "collection_location": ("not_stated", [], False, "Only IP addresses in logs."),
        "cookies_tracking": ("yes", [44, 45], False, "Google Analytics and Salesforce engagement tracking."),
        "opt_out_ads": ("yes", [48], False, "Google Ads Settings opt-out named."),
        "deletion": ("conditional", [80, 75], False,
                     "EEA residents can request deletion; IP addresses may not be deletable (19, 69)."),
        "access_correction": ("conditional", [75, 77, 80], False, "Stated as EEA rights."),
        "retention": ("yes", [9, 17, 47], False, "Logs under seven days; subscriber data at least two years."),
        "security": ("not_stated", [], False, "Only transfer safeguards (73); no security measures described."),
        "children": ("not_stated", [], False, ""),
        "international_transfer": ("yes", [71, 73], False, ""),
        "policy_changes": ("not_stated", [], False, ""),
        "ai_training": ("not_stated", [], False, ""),
        "contact_dpo": ("yes", [86, 77], False, "privacy@ address; no DPO named."),
    },
    "basecamp.md": {
        "sale": ("no", [5, 24, 116], False, ""),
        "sharing_advertisers": ("yes", [75, 46], True,
                                ("A hash of the email goes to ad companies only to exclude you from ads; ad scripts "
                                "send click data to ad networks for users who clicked an ad.")),
        "sharing_third_parties": ("yes", [64, 66, 68], False, "Subprocessors and processors."),
        "law_enforcement": ("conditional", [88, 89], False, "Only when compelled by legal process."),
        "collection_location": ("not_stated", [], False, "Only IP addresses."),
        "cookies_tracking": ("yes", [47, 46], False, ""),
        "opt_out_ads": ("not_stated", [], False, "Contextual ads; blocking cookies (51) is not an ad opt-out."),
        "deletion": ("yes", [109, 33, 154], False, ""),
        "access_correction": ("yes", [105, 107, 128], False, ""),
        "retention": ("yes", [32, 33, 153, 157], False, ""),
        "security": ("yes", [139, 140, 141], False, ""),
        "children": ("not_stated", [], False, ""),
        "international_transfer": ("yes", [162, 166], False, ""),
        "policy_changes": ("yes", [172, 170], False, ""),
        "ai_training": ("not_stated", [], False, ""),
        "contact_dpo": ("yes", [174, 133], False, ""),
    },
    "whereby.md": {
        "sale": ("not_stated", [], False, ""),
        "sharing_advertisers": ("not_stated", [], False,
                                "Only 'marketing and email providers' among service providers (121)."),
        "sharing_third_parties": ("yes", [115, 128], False, ""),
        "law_enforcement": ("conditional", [115, 125], False, "Lawful order / good-faith belief required by law."),
        "collection_location": ("yes", [49, 50, 51, 35], False, "Approximate location from IP or business address."),
        "cookies_tracking": ("yes", [55, 36, 44], False, "Cookie policy; analytics tracking system."),
        "opt_out_ads": ("not_stated", [], False, "No advertising."),
        "deletion": ("yes", [160, 168], False, ""),
        "access_correction": ("yes", [160, 165, 166], False, ""),
        "retention": ("yes", [142, 145], False, ""),
        "security": ("yes", [110, 108], False, ""),
        "children": ("no", [150, 152], True,
                     "Only for people 16 and over, accounts of under-16s terminated; no statement about collection."),
        "international_transfer": ("yes", [130, 137], False, ""),
        "policy_changes": ("conditional", [157], False, "Notice for material changes (the text says 'Terms')."),
        "ai_training": ("not_stated", [], False, ""),
        "contact_dpo": ("yes", [177, 179], False, ""),
    },
    "desmos.md": {
        "sale": ("no", [71], True, "The denial covers Student Data and Customer Personal Data only."),
        "sharing_advertisers": ("no", [56, 42], False, ""),
        "sharing_third_parties": ("yes", [83, 95], False, ""),
        "law_enforcement": ("conditional", [95], False, ""),
        "collection_location": ("no", [42], False, "Does not knowingly collect exact geolocation."),
        "cookies_tracking": ("yes", [48, 53], False, ""),
        "opt_out_ads": ("not_stated", [], True, "No targeted advertising (56), so there is nothing to opt out of."),
        "deletion": ("yes", [105, 109], False, ""),
        "access_correction": ("yes", [104, 109], False, ""),
        "retention": ("yes", [137, 138], False, ""),
        "security": ("yes", [127, 129, 130], False, ""),
        "children": ("conditional", [140, 147], False, "Not without school or parental consent."),
        "international_transfer": ("yes", [151, 154, 148], False, ""),
        "policy_changes": ("yes", [180, 181], True,
                           ("Date updated and a GitHub history to subscribe to; advance notice only for schools and "
                           "Professional customers.")),
        "ai_training": ("not_stated", [], False, ""),
        "contact_dpo": ("yes", [176, 177], False, ""),
    },
    "github.md": {
        "sale": ("no", [224, 286], False, ""),
        "sharing_advertisers": ("yes", [267, 196, 74], False, ""),
        "sharing_third_parties": ("yes", [72, 83, 265], False, ""),
        "law_enforcement": ("conditional", [78], False, "In response to lawful requests."),
        "collection_location": ("yes", [43, 61], False, ""),
        "cookies_tracking": ("yes", [37, 178, 192], False, ""),
        "opt_out_ads": ("yes", [227, 211, 258], False, ""),
        "deletion": ("yes", [118, 242], False, ""),
        "access_correction": ("yes", [115, 117, 237], False, ""),
        "retention": ("yes", [150], False, "As long as the account is active."),
        "security": ("yes", [149, 152], False, ""),
        "children": ("no", [157], False, ""),
        "international_transfer": ("yes", [130, 129], False, ""),
        "policy_changes": ("conditional", [160], False, "30 days' notice of material changes."),
        "ai_training": ("not_stated", [], False, ""),
        "contact_dpo": ("yes", [280, 124, 153], False, ""),
    },
}


def main() -> None:
    write_set(LABELS, QUESTIONS, POLICIES, OUTPUT)


if __name__ == "__main__":
    main()
