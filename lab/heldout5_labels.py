"""The fifth held-out answers set's labels, as written while reading each policy (data/heldout5/policies/,
rebuilt by `scripts/heldout_policies.py --set heldout5`), and the writer of `answers_heldout5.jsonl`: each
label's supporting sentence numbers are turned into their text as `lab.print_policy` numbers them.

    .venv/bin/python -m lab.heldout5_labels      # rewrites assistant/evaluation/data/answers_heldout5.jsonl

Labelled before the engine was run on any of these policies. The questions are worded differently from
the answers dev set's and the first four held-out sets', one per facet, the same for every policy.
"""
from __future__ import annotations

from pathlib import Path

from lab.labelled_sets import write_set

ROOT = Path(__file__).resolve().parent.parent
POLICIES = ROOT / "data" / "heldout5" / "policies"
OUTPUT = ROOT / "assistant" / "evaluation" / "data" / "answers_heldout5.jsonl"

QUESTIONS = {
    "sale": "Is any of my data sold for money?",
    "sharing_advertisers": "Do advertisers get my details from them?",
    "sharing_third_parties": "Does anyone outside the company receive my personal information?",
    "law_enforcement": "Could police or other authorities get my data from them?",
    "collection_location": "Do they gather information about where I am physically?",
    "cookies_tracking": "Does using the site leave cookies or tracking pixels on my device?",
    "opt_out_ads": "Can I say no to ads that are personalised for me?",
    "deletion": "Is there a way to get my personal data deleted?",
    "access_correction": "Can I find out what data they hold on me and get it corrected?",
    "retention": "Do they explain how long they hang on to my data?",
    "security": "Do they use encryption or other safeguards for my data?",
    "children": "Do they accept personal information from kids?",
    "international_transfer": "Does my personal data get sent across borders?",
    "policy_changes": "Do I get told when the privacy notice gets updated?",
    "ai_training": "Do they train machine-learning models on what I type or upload?",
    "contact_dpo": "Do they list contact details for privacy questions?",
}

# policy file -> facet -> (verdict, supporting sentence numbers best first, ambiguous, note)
LABELS: dict[str, dict[str, tuple[str, list[int], bool, str]]] = {
    "qwenchat.md": {
        "sale": ("not_stated", [], False, ""),
        "sharing_advertisers": ("not_stated", [], False, "No advertising is mentioned; marketing only of its own services (36)."),
        "sharing_third_parties": ("yes", [96, 95, 97], False, "Alibaba Group affiliates, service providers and partners, analytics providers."),
        "law_enforcement": ("conditional", [99], False, "Where disclosure is necessary as a matter of applicable law or to defend legal rights."),
        "collection_location": ("yes", [24], True,
                                ("Only 'your time zone, country' among the usage data (24); no location data is otherwise "
                                 "named, and a country is coarse.")),
        "cookies_tracking": ("yes", [78, 55, 81], False, "Cookies, tracking of behaviour on the Services, web beacons."),
        "opt_out_ads": ("not_stated", [], False, "No advertising is mentioned."),
        "deletion": ("yes", [124, 130, 131], False, "Erasure 'depending on the jurisdiction', through the account or the DPO address."),
        "access_correction": ("yes", [123, 125, 131], False, "Access and correction 'depending on the jurisdiction', through the account or the DPO address."),
        "retention": ("yes", [106, 108, 110], True, "Only a general rule: while there is a legitimate need; no period is given."),
        "security": ("yes", [113, 111], False, "Encryption in transit and at rest, a security programme, malware protection."),
        "children": ("no", [119, 118], False, "Not directed to anyone under 18; not knowingly from children under 13."),
        "international_transfer": ("yes", [101, 103, 105], False, "Processed in Singapore, Indonesia and/or China."),
        "policy_changes": ("yes", [134, 139, 136], False, "Updated policy posted in the Services with its date; email or notice at their discretion."),
        "ai_training": ("yes", [39, 20], False, "De-identified User Content and feedback improve 'our AI models'."),
        "contact_dpo": ("yes", [140, 142, 141], False, "A Data Protection Officer by email and post."),
    },
    "replit.md": {
        "sale": ("no", [148, 162], False, "In the CCPA and other US state-law sense."),
        "sharing_advertisers": ("yes", [28, 90], False,
                                "Advertising partners collect online activity through cookies on the Services; marketing vendors."),
        "sharing_third_parties": ("yes", [87, 89, 99], False, "Affiliates, vendors, connected third-party apps."),
        "law_enforcement": ("conditional", [101, 63], False, "Good-faith belief it is required or appropriate: law enforcement requests, court orders, subpoenas."),
        "collection_location": ("yes", [45, 46], False, "General region inferred from the IP address; no precise geolocation."),
        "cookies_tracking": ("yes", [23, 27, 28], False, "Cookies, pixel tags; third parties track across services."),
        "opt_out_ads": ("not_stated", [], True,
                        ("Advertising partners track users (28), but the only choices are blocking cookies in the browser "
                         "(115), a Google Analytics opt-out (40) and, for Californians, an opt-out of profiling (149).")),
        "deletion": ("yes", [132, 214, 146], False, "Account closure in settings; data deleted within 30 days."),
        "access_correction": ("yes", [214, 119, 144, 150], False, "Account and profile editable in settings; access and correction rights."),
        "retention": ("yes", [132, 130, 131], False, "Deleted within 30 days of an account deletion request; otherwise while necessary."),
        "security": ("yes", [133, 134], False, "Technical, organisational and physical safeguards; no guarantee."),
        "children": ("conditional", [137, 135, 97], True,
                     ("Not directed to children under 13, but a child's data is kept if parental consent is obtained "
                      "(137), and teachers create student profiles (97): 'no' and 'only with parental consent' are both defensible.")),
        "international_transfer": ("yes", [211, 212], False, "Hosted in the US and abroad (for example India)."),
        "policy_changes": ("yes", [216, 217], False, "Changes posted on the page; material changes by in-app notice and email."),
        "ai_training": ("yes", [84, 48], False,
                        "Information used to improve 'our machine learning technologies such as code generation'; usage includes commands typed."),
        "contact_dpo": ("yes", [215, 218, 138], False, "privacy@replit.com and a postal address."),
    },
    "speechify.md": {
        "sale": ("no", [71, 9, 217], False, ""),
        "sharing_advertisers": ("no", [70, 8], True,
                                ("Personal Data is not shared for third parties' own ads (70), but ad platforms' pixels (Meta, "
                                 "Google, TikTok, Bing) run on the site for Speechify's campaigns (82) and third parties collect "
                                 "activity through cookies (220).")),
        "sharing_third_parties": ("yes", [59, 60, 62], False, "Service providers; with explicit consent; business transfers (65)."),
        "law_enforcement": ("conditional", [64, 57], False, "When required by law, including lawful requests by public authorities."),
        "collection_location": ("yes", [31, 30, 179], False, "Geographic area from the IP address."),
        "cookies_tracking": ("yes", [73, 82, 258], False, "Cookies, tracking pixels, web beacons; ad and analytics trackers."),
        "opt_out_ads": ("yes", [270, 150, 159], True,
                        ("The ads are retargeted ads for Speechify's own products (68, 73); Cookie Settings can turn off "
                         "non-essential cookies (270), with 'marketing trackers' named only under the EEA heading (150).")),
        "deletion": ("yes", [117, 119, 208], False, "Account deletion in Settings removes Personal Data."),
        "access_correction": ("yes", [140, 133, 196, 247], True,
                              ("Name, email and language editable in settings (140), but the data report and correction "
                               "rights are listed under the EEA, California and Brazil headings.")),
        "retention": ("yes", [120, 121], True, "Only a general rule: some data kept as long as reasonably necessary; no period is given."),
        "security": ("yes", [111, 112, 109], False, "Encryption in transit and at rest; technical, physical and logical safeguards."),
        "children": ("conditional", [99, 255, 100], False,
                     "Not knowingly from children under 13 unless the account is part of a Speechify for Education licence."),
        "international_transfer": ("yes", [105, 252, 167], False, "Stored in the US; transfers among countries where it operates."),
        "policy_changes": ("yes", [126, 281], False, "Material changes by email; other revisions posted with their effective date."),
        "ai_training": ("yes", [55, 47], True,
                        ("User Content may be viewed 'to improve our algorithms as described in' the Terms (55); "
                         "machine learning or AI training is never named.")),
        "contact_dpo": ("yes", [256, 285, 257], False, "Help desk and email (address masked in the archived text); postal address."),
    },
    "scribe.md": {
        "sale": ("not_stated", [], False, "77 is about selling the company."),
        "sharing_advertisers": ("not_stated", [], False,
                                "No advertising; business partners may track usage through cookies (31); direct-marketing list 'if any' (99)."),
        "sharing_third_parties": ("yes", [70, 73, 85], False, "Service providers, the user's organisation, others with a legal basis."),
        "law_enforcement": ("conditional", [75], False, "Where required by law or subpoena, or for reasonable law enforcement requests."),
        "collection_location": ("not_stated", [], False, "Only the IP address in server logs (45)."),
        "cookies_tracking": ("yes", [30, 31, 25], False, "Cookies; Google Analytics."),
        "opt_out_ads": ("not_stated", [], False, "No advertising; 28 is a Google Analytics opt-out."),
        "deletion": ("yes", [94, 114, 120], False, "On request by email; right to erasure."),
        "access_correction": ("yes", [111, 113, 120, 98], False, "Rights of access and rectification; review and revise by email."),
        "retention": ("not_stated", [], False,
                      "Only that data may be kept after an opt-out or deletion request when law or fraud prevention requires it (5, 95)."),
        "security": ("yes", [92, 88], False, "Encryption, monitoring, access control; physical, administrative and technical safeguards."),
        "children": ("no", [101, 102], False, "Not intended for children under 13; their data deleted when found."),
        "international_transfer": ("yes", [87, 86], False, "Stored in the US, processed in other countries."),
        "policy_changes": ("conditional", [134, 132], False,
                           "Material changes: notice 'as required by law' and the 'last modified' date updated."),
        "ai_training": ("not_stated", [], True,
                        ("Training is denied only for data from the organisation's identity provider (59-63); captured "
                         "clicks, keystrokes and screenshots (15) are not addressed.")),
        "contact_dpo": ("yes", [120, 118, 122], False, "Privacy Team by email (address masked in the archived text); EU and UK representatives."),
    },
    "fal.md": {
        "sale": ("not_stated", [], False, "56 is about selling the company's assets."),
        "sharing_advertisers": ("yes", [44, 39, 40], False, "Disclosed to advertising partners through cookies, pixels and SDKs."),
        "sharing_third_parties": ("yes", [46, 54, 56], False, "Vendors and service providers, advisors, corporate transactions."),
        "law_enforcement": ("conditional", [50], False, "If in accordance with or required by law, including lawful requests by public authorities."),
        "collection_location": ("yes", [28, 17], False, "Approximate location inferred from the IP address; location of transactions."),
        "cookies_tracking": ("yes", [20, 40, 63], False, "Cookies, pixels, session replay."),
        "opt_out_ads": ("yes", [43, 36, 42], False, "Digital Advertising Alliance opt-out; browser cookie settings."),
        "deletion": ("yes", [61, 79], False, "Certain information deletable in the dashboard; right to erasure in Europe."),
        "access_correction": ("yes", [61, 79], False, "Access and correction in the dashboard; rights in Europe."),
        "retention": ("yes", [72], True, "Only a general rule (as long as necessary), in the section for Europe."),
        "security": ("not_stated", [], True,
                     ("No safeguard is named; information is used to detect and protect against security incidents (37) "
                      "and security vendors are used (46).")),
        "children": ("not_stated", [], False, ""),
        "international_transfer": ("yes", [69, 70], False, "US and other countries; contractual clauses."),
        "policy_changes": ("yes", [7, 8], False, "Date revised for every change; additional notice for material changes."),
        "ai_training": ("not_stated", [], False, "Model requests are mentioned only as visible to Team Account members (48)."),
        "contact_dpo": ("yes", [88, 81], False, "support@fal.ai."),
    },
    "her.md": {
        "sale": ("no", [192], False, "Under the heading on US state rights."),
        "sharing_advertisers": ("yes", [143, 88, 144], False, "Shared to select and display targeted ads (AppLovin)."),
        "sharing_third_parties": ("yes", [128, 162, 143], False, "Service providers, affiliates, ad vendors."),
        "law_enforcement": ("yes", [168], True,
                            ("Disclosed on requests from law enforcement 'without subpoenas or warrants', if HER believes in "
                             "good faith it is necessary; earlier sets label good-faith clauses 'conditional'.")),
        "collection_location": ("yes", [80, 36, 27], False, "Precise geolocation when location services are on."),
        "cookies_tracking": ("yes", [62, 65, 55], False, "Cookies, web beacons, Branch identifiers."),
        "opt_out_ads": ("yes", [253, 254, 146, 195], False, "'Stop using my data' in the app; by email; US opt-out page."),
        "deletion": ("yes", [256, 247], False, "'Delete my account and data' in the app."),
        "access_correction": ("yes", [249, 218, 187], False, "'Send me my data' in the app; correction for EEA and some US states."),
        "retention": ("yes", [262, 263, 264], True, "Only a general rule: as long as necessary; no period is given."),
        "security": ("yes", [132, 137, 259], False, "Encryption (TLS 1.2 in transit, AES at rest)."),
        "children": ("no", [241, 238, 242], False, "No one under 18 may use it; not knowingly from anyone under 16."),
        "international_transfer": ("yes", [11, 10, 232], False, "Processed in the US and other countries."),
        "policy_changes": ("conditional", [266, 265], False, "Material changes: new policy posted and the 'Last Updated' date changed."),
        "ai_training": ("not_stated", [], False, ""),
        "contact_dpo": ("yes", [270, 269], False, "A data protection lead by post; support@weareher.com."),
    },
}


def main() -> None:
    write_set(LABELS, QUESTIONS, POLICIES, OUTPUT)


if __name__ == "__main__":
    main()
