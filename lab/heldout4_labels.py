"""The fourth held-out answers set's labels, as written while reading each policy (data/heldout4/policies/,
rebuilt by `scripts/heldout_policies.py --set heldout4`), and the writer of `answers_heldout4.jsonl`: each
label's supporting sentence numbers are turned into their text as `lab.print_policy` numbers them.

    .venv/bin/python -m lab.heldout4_labels      # rewrites assistant/evaluation/data/answers_heldout4.jsonl

Labelled before the engine was run on any of these policies. The questions are worded differently from
the answers dev set's and the first three held-out sets', one per facet, the same for every policy.
"""
from __future__ import annotations

from pathlib import Path

from lab.labelled_sets import write_set

ROOT = Path(__file__).resolve().parent.parent
POLICIES = ROOT / "data" / "heldout4" / "policies"
OUTPUT = ROOT / "assistant" / "evaluation" / "data" / "answers_heldout4.jsonl"

QUESTIONS = {
    "sale": "Do they make money by selling data about their users?",
    "sharing_advertisers": "Will marketers and ad platforms receive anything about me?",
    "sharing_third_parties": "Are other companies given access to what they know about me?",
    "law_enforcement": "Would they hand my records to authorities under a subpoena or court order?",
    "collection_location": "Can they work out what city or place I'm in?",
    "cookies_tracking": "Are there trackers or cookies following what I do?",
    "opt_out_ads": "Can I switch off ads that are tailored to my behaviour?",
    "deletion": "If I quit, can I make them erase everything about me?",
    "access_correction": "Am I able to download my data or fix mistakes in it?",
    "retention": "Do they put a time limit on keeping my data?",
    "security": "Do they do anything to keep my information safe?",
    "children": "Is this service allowed to gather info on kids or teenagers?",
    "international_transfer": "Can my information leave my country?",
    "policy_changes": "Will I hear about it when the privacy policy is changed?",
    "ai_training": "Are my chats or uploads fed into model training?",
    "contact_dpo": "Is there an address or officer I can write to with a privacy complaint?",
}

# policy file -> facet -> (verdict, supporting sentence numbers best first, ambiguous, note)
LABELS: dict[str, dict[str, tuple[str, list[int], bool, str]]] = {
    "lechat.md": {
        "sale": ("not_stated", [], False, ""),
        "sharing_advertisers": ("not_stated", [], False, "No advertising is mentioned."),
        "sharing_third_parties": ("yes", [110, 101, 112], False, "Service providers, financial institutions, regulators, professionals."),
        "law_enforcement": ("conditional", [109, 106, 107], True,
                            ("Only courts 'when appropriate' (109) and regulators such as the CNIL (107); requests from "
                             "police or government are not addressed.")),
        "collection_location": ("yes", [45, 46], True,
                                ("Part of the IP address is used to tailor Outputs to 'where you use' the products (45): "
                                 "location inferred from the IP address, never called location data.")),
        "cookies_tracking": ("yes", [78, 30, 87], False, ""),
        "opt_out_ads": ("not_stated", [], False, "No advertising is mentioned."),
        "deletion": ("yes", [127, 126, 150], False, "Account deletion control; right to deletion."),
        "access_correction": ("yes", [121, 124, 120], False, "Export control; rights of access and rectification."),
        "retention": ("yes", [82, 94, 93], False, "Chats until deleted; account data 1 year, identity 5 years after the account."),
        "security": ("yes", [111, 60], True,
                     ("Only audits of providers and a data protection agreement with each (111); no measure for "
                      "Mistral's own systems is named.")),
        "children": ("not_stated", [], False, ""),
        "international_transfer": ("conditional", [114, 115, 116], False,
                                   "EU providers first; non-EU providers only 'in exceptional cases', under SCCs."),
        "policy_changes": ("no", [153, 152], True,
                           ("Users are told to check the policy frequently; no notice is promised, but the policy "
                            "carries its effective date (1), which earlier sets count as telling users.")),
        "ai_training": ("yes", [65, 66, 132], False,
                        "Inputs and Outputs train the models subject to an opt-out; not for Team, Enterprise or paid APIs (67)."),
        "contact_dpo": ("yes", [12, 14, 13], False, "Privacy Requests form, Help Center, letter to the Privacy Team; no email."),
    },
    "cursor.md": {
        "sale": ("no", [98], False, "In the US state-law sense."),
        "sharing_advertisers": ("no", [98], False, "No 'sharing' for cross-context behavioural advertising, no targeted ads."),
        "sharing_third_parties": ("yes", [54, 55, 59], False, "Service providers, business partners, affiliates."),
        "law_enforcement": ("conditional", [58], False, "If necessary to comply with law or to respond to lawful requests."),
        "collection_location": ("yes", [36, 35], False, "Geographic location determined from the IP address."),
        "cookies_tracking": ("yes", [32, 33, 34], False, ""),
        "opt_out_ads": ("not_stated", [], False, "No targeted advertising (98)."),
        "deletion": ("yes", [89, 82, 80], False, "Rights 'depending on where you live', exercised at hi@cursor.com."),
        "access_correction": ("yes", [88, 90, 82], False, "Rights 'depending on where you live', exercised at hi@cursor.com."),
        "retention": ("yes", [70, 71, 73], True, "Only a general rule: as long as necessary; no period is given."),
        "security": ("yes", [75, 76], False, ""),
        "children": ("no", [38, 39], False, "Not knowingly from children under 18."),
        "international_transfer": ("yes", [100, 102, 101], False, "Servers in the US and other jurisdictions."),
        "policy_changes": ("yes", [120, 119], False, "Updated version and effective date published on the page."),
        "ai_training": ("conditional", [49, 50, 117], False,
                        "Not used for training unless flagged for security review, reported as Feedback, or agreed to."),
        "contact_dpo": ("yes", [82, 122], False, "hi@cursor.com."),
    },
    "midjourney.md": {
        "sale": ("no", [117, 128], False, "In the CCPA sense."),
        "sharing_advertisers": ("not_stated", [], False, "No advertising; marketing only of its own offers (35, 38)."),
        "sharing_third_parties": ("yes", [40, 41, 43], False, "Service providers, vendors, consultants, business partners."),
        "law_enforcement": ("conditional", [44, 45], False, "If required by law or valid requests; the user is notified."),
        "collection_location": ("no", [109, 108], False, "Geolocation 'Collected?: NO'; only the IP address (21)."),
        "cookies_tracking": ("yes", [23, 27], False, "Tracking technologies and cookies listed among the data collected."),
        "opt_out_ads": ("not_stated", [], False, "No advertising."),
        "deletion": ("yes", [88, 83, 124], False, "Account and data deletion from the account page."),
        "access_correction": ("yes", [83, 90, 129], True,
                              ("Access, correction and portability are listed under the EEA/UK/Swiss heading (77-83) and "
                               "for Californians (121, 129); everyone can review account information (90).")),
        "retention": ("yes", [52, 53, 55], True, "Only a general rule: as long as necessary; usage data 'a shorter period'."),
        "security": ("yes", [61, 59, 60], False, "Commercially acceptable means, no absolute guarantee."),
        "children": ("no", [63, 62, 65], False, "Not knowingly from anyone under 13."),
        "international_transfer": ("yes", [57, 56, 81], False, "Outside your jurisdiction; SCCs for Europe."),
        "policy_changes": ("yes", [74, 73], True,
                           ("Email or prominent notice before changes take effect (74), but 13 says notice is given "
                            "'when required under applicable law': the text contradicts itself.")),
        "ai_training": ("not_stated", [], True,
                        ("The policy covers 'data collected through the process of training Midjourney machine learning "
                         "algorithms' (4) but never says prompts or uploads are used to train.")),
        "contact_dpo": ("not_stated", [], False, "'Please contact Us' (64) without an address; requests through the account page (88)."),
    },
    "grok.md": {
        "sale": ("no", [74], False, ""),
        "sharing_advertisers": ("no", [74, 75], False, "No sharing for targeted advertising or marketing."),
        "sharing_third_parties": ("yes", [78, 82, 76], False, "Service providers, related companies, business transfers."),
        "law_enforcement": ("conditional", [81], False, "To comply with laws or respond to lawful requests and legal process."),
        "collection_location": ("yes", [44, 45, 46], False, "General area from the IP address; precise location with consent."),
        "cookies_tracking": ("yes", [57, 58, 59], False, ""),
        "opt_out_ads": ("not_stated", [], False, "No targeted advertising (74); 189 is about marketing communications."),
        "deletion": ("yes", [95, 109, 117], False, "Conversations and account deletable; deleted within 30 days."),
        "access_correction": ("yes", [109, 117, 183], False, "Rights 'depending on where you are located', with a request form."),
        "retention": ("yes", [95, 94, 85], False, "Deleted within 30 days of account or chat deletion; otherwise while needed."),
        "security": ("yes", [96, 97], False, ""),
        "children": ("no", [101, 105], True,
                     ("Not knowingly from children under 13 (101), but teenagers of 13-17 may use the service with a "
                      "parent's agreement (103), and the question asks about teenagers too.")),
        "international_transfer": ("yes", [176, 178], False, "All processed in the United States; DPF or SCCs."),
        "policy_changes": ("yes", [132, 131], False, "Updated version and effective date published on the page."),
        "ai_training": ("yes", [66, 162, 187], False, "User Content trains the models; an objection setting exists."),
        "contact_dpo": ("yes", [141, 136, 138], False, "DPO at privacy@x.ai; request portal; UK and EU representatives."),
    },
    "coffeemeetsbagel.md": {
        "sale": ("not_stated", [], False, "Only the sale of the business or its assets (101-104)."),
        "sharing_advertisers": ("yes", [91, 90], False, "Advertisers, advertising networks and measurement partners."),
        "sharing_third_parties": ("yes", [86, 85, 94], False, "Service providers, payment processors, corporate group."),
        "law_enforcement": ("conditional", [95, 96], False, "If legally required or reasonably necessary."),
        "collection_location": ("yes", [16], False, "Device location while the app is running."),
        "cookies_tracking": ("yes", [24, 27, 44], False, "Analytics companies' tracking technologies; device IDs."),
        "opt_out_ads": ("conditional", [44, 47, 45], True,
                        ("Only Apple's app-tracking permission on iOS 14.5 and later (44-50); no opt-out of targeted "
                         "ads is offered otherwise, though analytics providers serve them (90).")),
        "deletion": ("yes", [127, 38], False, "Deletion on request; account closure."),
        "access_correction": ("yes", [124, 126], False, "In the app or by email to the DPO."),
        "retention": ("yes", [57, 54, 51], False, "12 months after the account is closed; inactive accounts closed after 24 months."),
        "security": ("yes", [137, 139, 138], False, "Firewalls, password protection, encryption, restricted access."),
        "children": ("no", [129, 132], False, "No one under 18; not knowingly collected."),
        "international_transfer": ("yes", [105, 106], False, "Out of Singapore, by consent to the policy."),
        "policy_changes": ("conditional", [4, 68], False, "Material changes posted on the page; users must check."),
        "ai_training": ("not_stated", [], True,
                        ("AI features with opt-in consent (113-114) and AI processing vendors (86); training models on "
                         "member data is not stated.")),
        "contact_dpo": ("yes", [108, 63, 128], False, "DPO@coffeemeetsbagel.app."),
    },
    "brevo.md": {
        "sale": ("no", [213], False, ""),
        "sharing_advertisers": ("conditional", [32, 215, 216], False,
                                ("EU notice: not for marketing without express consent (32); US notice: cookie data shared "
                                 "for cross-context behavioural advertising unless you opt out (215-216).")),
        "sharing_third_parties": ("yes", [29, 151, 159], False, "Subsidiaries, processors, service providers, affiliates."),
        "law_enforcement": ("conditional", [35, 154, 156], False, "At the request of legal authorities; when required by law."),
        "collection_location": ("not_stated", [], False, "Only the IP address (116)."),
        "cookies_tracking": ("yes", [117, 122, 138], False, ""),
        "opt_out_ads": ("conditional", [216, 196], False,
                        "An opt-out of sharing for cross-context behavioural advertising, in the section for California residents."),
        "deletion": ("yes", [168, 166, 209], False, "Closing the account deletes the customer's data; CCPA deletion right."),
        "access_correction": ("yes", [39, 47, 166], False, "Right of access and rectification; profile editable."),
        "retention": ("yes", [37, 138, 133], False, "Two years after the contract ends (EU); cookie data 12 months (US)."),
        "security": ("yes", [61, 63, 233], False, "Firewalls, anti-virus, encryption, certified data centres."),
        "children": ("no", [124], False, "Not knowingly from children under 16."),
        "international_transfer": ("yes", [30, 29], False, "To EU or non-EU countries."),
        "policy_changes": ("yes", [71, 248, 249], False,
                           "EU notice: notice by site or email at least 30 days before, when possible; US notice: material changes."),
        "ai_training": ("not_stated", [], False, ""),
        "contact_dpo": ("yes", [16, 43, 44], False, "A DPO by email (address masked in the archived text) and by post."),
    },
}


def main() -> None:
    write_set(LABELS, QUESTIONS, POLICIES, OUTPUT)


if __name__ == "__main__":
    main()
