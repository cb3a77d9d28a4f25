"""The second held-out answers set's labels, as written while reading each policy (data/heldout2/policies/,
rebuilt by `scripts/heldout_policies.py --set heldout2`), and the writer of `answers_heldout2.jsonl`: each
label's supporting sentence numbers are turned into their text as `lab.print_policy` numbers them.

    .venv/bin/python -m lab.heldout2_labels      # rewrites assistant/evaluation/data/answers_heldout2.jsonl

Labelled before the engine was run on any of these policies. The questions are worded differently from
the answers dev set's and the first held-out set's, one per facet, the same for every policy.
"""
from __future__ import annotations

from pathlib import Path

from lab.labelled_sets import write_set

ROOT = Path(__file__).resolve().parent.parent
POLICIES = ROOT / "data" / "heldout2" / "policies"
OUTPUT = ROOT / "assistant" / "evaluation" / "data" / "answers_heldout2.jsonl"

QUESTIONS = {
    "sale": "Will they sell my info to other companies?",
    "sharing_advertisers": "Is my data passed on to ad companies?",
    "sharing_third_parties": "Do they share what they know about me with other businesses?",
    "law_enforcement": "Do they share user data with the police or the courts?",
    "collection_location": "Do they know where I am?",
    "cookies_tracking": "Does the site put cookies on my computer?",
    "opt_out_ads": "Can I stop seeing personalised ads?",
    "deletion": "Can I ask them to remove my data?",
    "access_correction": "Can I get a copy of my data and fix anything that is wrong?",
    "retention": "Does the policy say how long my information is stored?",
    "security": "Do they take steps to protect my data from hackers?",
    "children": "Do they gather information about children?",
    "international_transfer": "Is my data stored or processed in other countries?",
    "policy_changes": "Do they let users know when they update this policy?",
    "ai_training": "Does my data help train their AI?",
    "contact_dpo": "Is there someone I can contact about privacy concerns?",
}

# policy file -> facet -> (verdict, supporting sentence numbers best first, ambiguous, note)
LABELS: dict[str, dict[str, tuple[str, list[int], bool, str]]] = {
    "chatgpt.md": {
        "sale": ("not_stated", [], False, "Selling is not mentioned."),
        "sharing_advertisers": ("not_stated", [], True,
                                ("Advertisers are never mentioned; 118 says content is not used to create advertising "
                                 "profiles, which a reader could take as a 'no'.")),
        "sharing_third_parties": ("yes", [40, 43, 44], False, "Vendors and service providers, affiliates."),
        "law_enforcement": ("conditional", [43], False, "In compliance with the law, to meet a legal obligation."),
        "collection_location": ("yes", [21, 22], False, "General area from the IP address; GPS where you choose."),
        "cookies_tracking": ("yes", [23, 24, 25], False, ""),
        "opt_out_ads": ("not_stated", [], False, "No advertising; 70 is direct marketing, not ads."),
        "deletion": ("yes", [63, 72, 73], False, "The European version: the rights apply to its readers."),
        "access_correction": ("yes", [62, 64, 73], False, ""),
        "retention": ("yes", [52, 59], False, "As long as needed; temporary chats up to 30 days."),
        "security": ("yes", [87], False, ""),
        "children": ("no", [83, 82], False, "Not knowingly from children under 13."),
        "international_transfer": ("yes", [102, 103, 107], False, ""),
        "policy_changes": ("yes", [110, 109], False, "Updated version and effective date published on the page."),
        "ai_training": ("yes", [37, 120, 119], False, "Content trains the models unless you opt out."),
        "contact_dpo": ("yes", [113, 112], False, "dpo@openai.com and privacy@openai.com."),
    },
    "tinder.md": {
        "sale": ("not_stated", [], True,
                 ("Neither admits nor denies selling: 'if we \"sell\" or \"share\" your data ... we will provide an opt "
                  "out' (154, 155; US state-law senses).")),
        "sharing_advertisers": ("yes", [105, 104, 106], False, ""),
        "sharing_third_parties": ("yes", [98, 89, 108], False, "Service providers, partners, Match Group affiliates."),
        "law_enforcement": ("conditional", [111, 87], False, "To comply with legal process (court order, subpoena ...)."),
        "collection_location": ("yes", [66, 38], False, "Geolocation with permission; approximate location in profile."),
        "cookies_tracking": ("yes", [105, 61, 62], False, ""),
        "opt_out_ads": ("yes", [76, 154, 155], False, "Relevant ads can be controlled in settings."),
        "deletion": ("yes", [146, 147, 185], False, ""),
        "access_correction": ("yes", [142, 143, 144], False, ""),
        "retention": ("yes", [168, 173, 176], False, "Safety window of three months after closure; periods per data type."),
        "security": ("yes", [75, 74], True,
                     "Only a general statement that they work on the security of their systems; no measures named."),
        "children": ("no", [188, 187], True,
                     "Under-18s are not permitted on the platform; nothing said about collecting children's data."),
        "international_transfer": ("yes", [129, 136, 133], False, ""),
        "policy_changes": ("conditional", [193, 191], False, "Notice before material changes."),
        "ai_training": ("yes", [85, 182, 124], False, "Developing features through machine learning with member data."),
        "contact_dpo": ("yes", [221, 194, 230], False, "Data Protection Officer by post or online."),
    },
    "wordpress.md": {
        "sale": ("no", [220, 235], True,
                 ("Never sells 'in the conventional sense (i.e., for money)', but ad-program sharing may be a 'sale' "
                  "under some US state laws (222, 234).")),
        "sharing_advertisers": ("yes", [232, 233, 146], False, ""),
        "sharing_third_parties": ("yes", [130, 128, 126], False, ""),
        "law_enforcement": ("conditional", [134, 6], False, "In response to a subpoena, court order or governmental request."),
        "collection_location": ("yes", [73, 75], False, "Approximate location from IP; precise location with permission."),
        "cookies_tracking": ("yes", [83, 84], False, ""),
        "opt_out_ads": ("yes", [236, 223, 222], False, ""),
        "deletion": ("yes", [237, 190, 184], False, "Through account settings; GDPR and US-state rights too."),
        "access_correction": ("yes", [237, 189, 190], False, ""),
        "retention": ("yes", [160, 161, 163], False, "Discarded when no longer needed; logs about 30 days."),
        "security": ("yes", [167, 168], False, ""),
        "children": ("not_stated", [], False, "Only that data of under-16s is not knowingly sold or shared (228)."),
        "international_transfer": ("yes", [275, 278, 252], False, ""),
        "policy_changes": ("yes", [297, 295], False, "Change log revised; additional notice in some cases."),
        "ai_training": ("not_stated", [], False, ""),
        "contact_dpo": ("yes", [273, 274], False, "Web form, email or telephone; no DPO named."),
    },
    "uptimerobot.md": {
        "sale": ("no", [47], False, ""),
        "sharing_advertisers": ("yes", [109, 112, 113], True,
                                ("Google Ads is a sub-processor 'for ads targeting' and Clarity data serves advertising; "
                                 "no statement that data is given to advertisers as such.")),
        "sharing_third_parties": ("yes", [51, 49, 52], False, ""),
        "law_enforcement": ("conditional", [55], False, "In response to a subpoena, court order or governmental request."),
        "collection_location": ("yes", [27, 28], False, "Approximate location from the IP address."),
        "cookies_tracking": ("yes", [31, 112, 73], False, ""),
        "opt_out_ads": ("not_stated", [], False, "Serves relevant ads (40); rejecting cookies (73) is not an ad opt-out."),
        "deletion": ("yes", [82, 78, 74], False, "Through account settings, otherwise on request."),
        "access_correction": ("yes", [82, 77, 78], False, ""),
        "retention": ("yes", [32], True, "Only a general rule: as long as necessary, longer where the law requires."),
        "security": ("yes", [64], False, ""),
        "children": ("not_stated", [], False, ""),
        "international_transfer": ("yes", [85, 87], False, ""),
        "policy_changes": ("yes", [127, 128, 129], False,
                           "Advance notice of material changes (banner, pop-up, email); other changes in the change log."),
        "ai_training": ("not_stated", [], False, ""),
        "contact_dpo": ("yes", [84], False, "support@uptimerobot.com; no DPO named."),
    },
    "npm.md": {
        "sale": ("no", [94, 162], False, ""),
        "sharing_advertisers": ("not_stated", [], False, "No advertising; service providers listed (96-103) include none."),
        "sharing_third_parties": ("yes", [95, 151, 150], False, "Service providers."),
        "law_enforcement": ("conditional", [164], False, "When required by law or to protect the company or others."),
        "collection_location": ("yes", [145, 144], True,
                                "Calls the IP address 'imprecise location'; no longitude and latitude."),
        "cookies_tracking": ("yes", [104, 105, 106], False, "Strictly necessary and internal analytics cookies."),
        "opt_out_ads": ("not_stated", [], False, "No advertising."),
        "deletion": ("conditional", [155, 128, 172], False,
                     "Erasure is a right of EEA and California residents; closing the account keeps packages (173)."),
        "access_correction": ("yes", [165, 170, 126], False, "Account page; account settings."),
        "retention": ("yes", [81, 174], False, "Card data only as long as you use paid services; some data kept after closure."),
        "security": ("yes", [33, 47], True,
                     "Data is used to defend the registry and website from attacks; no safeguards for personal data described."),
        "children": ("no", [189, 190], False, "Not knowingly; under-16s' data deleted."),
        "international_transfer": ("yes", [122, 118], False, ""),
        "policy_changes": ("yes", [205, 207], False, "Announced on the npm blog; history in the Git repository."),
        "ai_training": ("not_stated", [], False, ""),
        "contact_dpo": ("yes", [192, 194, 191], False, "Support ticket or the (GitHub) Data Protection Officer."),
    },
    "grindr.md": {
        "sale": ("yes", [111], True,
                 ("Sharing with ad partners 'may be referred to' as a sale in some jurisdictions, with an opt-out; "
                  "no plain statement either way.")),
        "sharing_advertisers": ("yes", [79, 62, 111], False, "Ad / Marketing Partners (e.g. AppLovin)."),
        "sharing_third_parties": ("yes", [79, 73], False, ""),
        "law_enforcement": ("conditional", [64, 85], False, "Lawful legal requests, subpoenas, warrants, court orders."),
        "collection_location": ("yes", [42, 15], False, "Precise location to compute distance."),
        "cookies_tracking": ("yes", [48, 62, 120], False, ""),
        "opt_out_ads": ("yes", [111, 113, 114], False, "Opt out of behavioural advertising; ads remain."),
        "deletion": ("yes", [103, 104, 93], False, "Delete the account at any time; data deleted per the policy."),
        "access_correction": ("yes", [96, 98, 109], False,
                              "Copy on request (where the law allows, 95) or by download; profile editable any time."),
        "retention": ("yes", [86, 87], False, "No longer than necessary; device identifier and logs two years."),
        "security": ("yes", [145, 144, 146], False, ""),
        "children": ("no", [23, 24], True,
                     "Intended for adults 18 and over; nothing said about collecting children's data."),
        "international_transfer": ("yes", [20, 21], False, "To the United States and other third countries."),
        "policy_changes": ("conditional", [170, 169], False, "Advance notice of material changes only."),
        "ai_training": ("yes", [61, 59, 52], False, "Machine learning / AI training."),
        "contact_dpo": ("yes", [154, 165, 153], False, "privacy@grindr.com; EEA/UK and Brazil DPOs."),
    },
}


def main() -> None:
    write_set(LABELS, QUESTIONS, POLICIES, OUTPUT)


if __name__ == "__main__":
    main()
