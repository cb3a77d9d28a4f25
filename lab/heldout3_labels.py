"""The third held-out answers set's labels, as written while reading each policy (data/heldout3/policies/,
rebuilt by `scripts/heldout_policies.py --set heldout3`), and the writer of `answers_heldout3.jsonl`: each
label's supporting sentence numbers are turned into their text as `lab.print_policy` numbers them.

    .venv/bin/python -m lab.heldout3_labels      # rewrites assistant/evaluation/data/answers_heldout3.jsonl

Labelled before the engine was run on any of these policies. The questions are worded differently from
the answers dev set's and the first two held-out sets', one per facet, the same for every policy.
"""
from __future__ import annotations

from pathlib import Path

from lab.labelled_sets import write_set

ROOT = Path(__file__).resolve().parent.parent
POLICIES = ROOT / "data" / "heldout3" / "policies"
OUTPUT = ROOT / "assistant" / "evaluation" / "data" / "answers_heldout3.jsonl"

QUESTIONS = {
    "sale": "Are they selling my personal details?",
    "sharing_advertisers": "Does my info go to advertising networks?",
    "sharing_third_parties": "Do outside companies get access to my personal data?",
    "law_enforcement": "If the government asks, will they turn over my data?",
    "collection_location": "Does the app or site record my location?",
    "cookies_tracking": "Am I tracked with cookies or similar tech?",
    "opt_out_ads": "Is there a way to opt out of ads based on my activity?",
    "deletion": "Can I get my account and data wiped?",
    "access_correction": "Can I view and correct the information they have on me?",
    "retention": "Is it stated how long they hold on to my information?",
    "security": "Is my personal information protected against breaches?",
    "children": "Do they collect personal data from minors?",
    "international_transfer": "Could my data be sent to servers in another country?",
    "policy_changes": "If they change their privacy terms, will they let me know?",
    "ai_training": "Is my content used to improve their AI models?",
    "contact_dpo": "Is there an email or person I can contact about my data?",
}

# policy file -> facet -> (verdict, supporting sentence numbers best first, ambiguous, note)
LABELS: dict[str, dict[str, tuple[str, list[int], bool, str]]] = {
    "claude.md": {
        "sale": ("no", [106, 257], False, "Does not 'sell' as defined by applicable laws (the broader, legal sense)."),
        "sharing_advertisers": ("yes", [107, 35], True,
                                ("Only implied: an opt-out of 'sharing your personal data for targeted advertising' of "
                                 "Anthropic's own products (107); advertising networks are never named.")),
        "sharing_third_parties": ("yes", [65, 61, 63], False, "Service providers, business partners, affiliates."),
        "law_enforcement": ("conditional", [74, 75], False, "As required by law, in response to requests, investigations."),
        "collection_location": ("yes", [26, 150], False, "Location derived from the IP address and device location (with consent)."),
        "cookies_tracking": ("yes", [34, 35, 36], False, ""),
        "opt_out_ads": ("yes", [107, 36], False, "Opt-out of sharing for targeted advertising; global privacy controls honoured."),
        "deletion": ("yes", [91, 92, 83], False, "Right to request deletion by email; conversations deletable directly."),
        "access_correction": ("yes", [89, 94, 83], False, "Rights 'depending on where you live', requested by email."),
        "retention": ("yes", [92, 122], False, "Deleted conversations removed from the back-end within 30 days; otherwise as long as necessary."),
        "security": ("yes", [131], False, ""),
        "children": ("no", [132, 133], False, "Not knowingly from children under 18."),
        "international_transfer": ("yes", [111, 120, 215], False, "To the US and other countries; SCCs."),
        "policy_changes": ("conditional", [135, 134], False, "Notice of material changes only, 'as appropriate'."),
        "ai_training": ("yes", [58, 41, 59], False, "Inputs and outputs train the models unless you opt out."),
        "contact_dpo": ("yes", [143, 83], False, "privacy@anthropic.com and dpo@anthropic.com."),
    },
    "deepseek.md": {
        "sale": ("no", [94], False, ""),
        "sharing_advertisers": ("not_stated", [], True,
                                ("Advertisers are never mentioned; 94 says DeepSeek does not engage in targeted advertising, "
                                 "which a reader could take as a 'no'.")),
        "sharing_third_parties": ("yes", [57, 60, 65], False, "Service providers, search APIs, corporate group."),
        "law_enforcement": ("conditional", [70, 71, 73], False, "Good-faith belief it is necessary to comply with law or government requests."),
        "collection_location": ("yes", [28], False, "Approximate location from the IP address, stated as 'Location Personal Data'."),
        "cookies_tracking": ("yes", [30, 31, 18], False, "Not in the app (36), on the website."),
        "opt_out_ads": ("not_stated", [], True,
                        ("Lists a right to opt out of targeted advertising (93) but says it does no targeted advertising (94); "
                         "'yes' and 'not stated' are both defensible.")),
        "deletion": ("yes", [97, 98, 91], False, "Chat history and account deletable; right to delete."),
        "access_correction": ("yes", [95, 89, 90], False, "Some data through settings; rights to access and correct."),
        "retention": ("yes", [113, 110], False, "As long as you have an account; otherwise as long as necessary."),
        "security": ("yes", [104, 105], False, ""),
        "children": ("no", [120], False, "Not knowingly."),
        "international_transfer": ("yes", [118, 117, 156], False, "Stored in the People's Republic of China."),
        "policy_changes": ("yes", [124], False, "Updated date, posting the new policy or other notice."),
        "ai_training": ("yes", [49, 50], False, "Used to train and improve machine learning models."),
        "contact_dpo": ("yes", [4, 126, 173], False, "privacy@deepseek.com; EU/UK representative; no DPO named."),
    },
    "bumble.md": {
        "sale": ("yes", [340, 325, 339], True,
                 "A list of data 'Sold or Shared' to marketing and advertising partners, in the US state-law sense only."),
        "sharing_advertisers": ("conditional", [265, 168, 264], False,
                                "Advertising partners and marketing service providers, with consent (cookie banner, settings)."),
        "sharing_third_parties": ("yes", [240, 244, 242], False, "Service providers."),
        "law_enforcement": ("conditional", [273, 275], False, "When required by law; lawful requests, court orders."),
        "collection_location": ("yes", [55, 57], False, "Device location when permitted."),
        "cookies_tracking": ("yes", [77, 78], False, ""),
        "opt_out_ads": ("yes", [78, 326, 338], False, "Cookie choices for targeted ads; US right to opt out; GPC."),
        "deletion": ("yes", [292, 133, 321], False,
                     "Account deletion is presupposed (deletion starts 28 days after it); US right to delete."),
        "access_correction": ("conditional", [319, 323, 324], False,
                              "Stated as rights of residents of some US states; the GDPR rights are only referred to (127)."),
        "retention": ("yes", [133, 129, 76], False, "Profile data 28 days after deletion; other data six years and more."),
        "security": ("yes", [8, 9, 10], False, ""),
        "children": ("no", [314, 313], False, "Not knowingly from anyone under 18."),
        "international_transfer": ("yes", [301, 298, 304], False, "Sent to the US and UK whatever the country."),
        "policy_changes": ("not_stated", [], False, "The archived text has no section on changes to the policy."),
        "ai_training": ("not_stated", [], True,
                        ("AI-powered features and matching algorithms that predict matches from profile embeddings "
                         "(99, 134); training models on member data is not stated.")),
        "contact_dpo": ("yes", [367, 368, 282], False, "DPO@bumble.com."),
    },
    "perplexity.md": {
        "sale": ("no", [118], False, "In the US residents' section, in the CCPA sense (which includes 'sharing')."),
        "sharing_advertisers": ("yes", [76, 70], False, "Advertising partners are a category of recipients."),
        "sharing_third_parties": ("yes", [72, 70, 71], False, "Service providers, company group, business partners."),
        "law_enforcement": ("conditional", [80], False, "As needed to comply with applicable law; judicial orders."),
        "collection_location": ("yes", [36, 109], False, "Approximate location."),
        "cookies_tracking": ("yes", [33, 63, 64], False, ""),
        "opt_out_ads": ("yes", [158], False, "Stop personalised advertising by contacting them."),
        "deletion": ("yes", [166, 167, 146], False, "Account deletion in settings; data deleted within 30 days."),
        "access_correction": ("yes", [144, 148, 159], False, "Rights 'depending on where you live', requested by contacting them."),
        "retention": ("yes", [167, 100], False, "Within 30 days of account deletion; otherwise as long as reasonably necessary."),
        "security": ("yes", [97], True,
                     "Only 'despite our reasonable efforts to protect your information, no security measures are impenetrable'."),
        "children": ("no", [93, 95], False, "Not knowingly; under-13s not permitted."),
        "international_transfer": ("yes", [125, 126, 130], False, "Servers in the US; SCCs, DPF."),
        "policy_changes": ("yes", [9, 10], False, "Date updated; reasonable efforts to notify material changes."),
        "ai_training": ("yes", [165, 51], False, "Search information improves the AI models unless you opt out."),
        "contact_dpo": ("yes", [5, 171, 169], False, "UK DPO; support@perplexity.ai, privacy@perplexity.ai."),
    },
    "opencollective.md": {
        "sale": ("not_stated", [], False, "Only the sale of company assets (50)."),
        "sharing_advertisers": ("not_stated", [], False, "No advertising; analytics companies (93-95) are not advertisers."),
        "sharing_third_parties": ("yes", [46, 41, 53], False, "Service providers, hosts and organisers of a collective."),
        "law_enforcement": ("conditional", [48], False, "If disclosure is in accordance with or required by law or legal process."),
        "collection_location": ("not_stated", [], False, "Only the IP address (15, 94)."),
        "cookies_tracking": ("yes", [16, 17, 94], False, ""),
        "opt_out_ads": ("not_stated", [], False, "No advertising; 108 is about promotional emails."),
        "deletion": ("yes", [104, 77, 85], False, "Account deletion on request by email."),
        "access_correction": ("yes", [103, 75, 76], False, "Profile editable in the account; rights to access and rectify."),
        "retention": ("yes", [69, 70, 71], False, "Financial data at least 7 years; communications 2 years."),
        "security": ("yes", [96, 97], False, ""),
        "children": ("no", [115, 114], False, "Not knowingly from children under 18."),
        "international_transfer": ("yes", [99, 98, 100], False, "To the United States; SCCs."),
        "policy_changes": ("yes", [4, 121, 119], False, "Date revised; email for material changes."),
        "ai_training": ("not_stated", [], False, ""),
        "contact_dpo": ("yes", [8, 125, 122], False, "Data Protection Officer by email."),
    },
    "buffer.md": {
        "sale": ("no", [168, 170], True,
                 ("'Not sold' is stated for California residents only, and advertising cookies 'may be considered a sale' "
                  "under California law (256).")),
        "sharing_advertisers": ("yes", [232, 233, 221], False, "Advertising partners' cookies (Meta Pixel, Google Ads)."),
        "sharing_third_parties": ("yes", [103, 104, 110], False, "Service providers, affiliates, business partners."),
        "law_enforcement": ("conditional", [107, 329, 106], False, "For legal process, as necessary to comply with the law."),
        "collection_location": ("no", [177], True,
                                "Precise geolocation not collected (177), but the city is asked at registration (14) and the IP address logged."),
        "cookies_tracking": ("yes", [63, 200, 69], False, ""),
        "opt_out_ads": ("yes", [221, 247, 257], False, "Advertisement cookies can be disabled; industry opt-outs."),
        "deletion": ("yes", [191, 129, 190], False, "By deleting the Buffer account."),
        "access_correction": ("yes", [193, 196, 190], False, "Copy on request; changes made on request."),
        "retention": ("yes", [362, 363, 379], False, "Invoices up to 7 years; leads 2 years; user content indefinitely."),
        "security": ("yes", [113, 330], False, ""),
        "children": ("no", [139, 137], False, "Not knowingly from children under 16."),
        "international_transfer": ("yes", [131, 132, 133], False, ""),
        "policy_changes": ("yes", [142, 144, 145], False, "New version posted with its date; material changes notified."),
        "ai_training": ("not_stated", [], False, "AI providers are sub-processors (280, 295); training is not mentioned."),
        "contact_dpo": ("yes", [151, 197], False, "hello@buffer.com, privacy@buffer.com."),
    },
}


def main() -> None:
    write_set(LABELS, QUESTIONS, POLICIES, OUTPUT)


if __name__ == "__main__":
    main()
