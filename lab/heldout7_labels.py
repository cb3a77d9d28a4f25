"""The seventh held-out answers set's labels, as written while reading each policy (data/heldout7/policies/,
rebuilt by `scripts/heldout_policies.py --set heldout7`), and the writer of `answers_heldout7.jsonl`: each
label's supporting sentence numbers are turned into their text as `lab.print_policy` numbers them.

    .venv/bin/python -m lab.heldout7_labels      # rewrites assistant/evaluation/data/answers_heldout7.jsonl

Labelled before the engine was run on any of these policies. The questions are worded differently from
the answers dev set's and the first six held-out sets', one per facet, the same for every policy.
"""
from __future__ import annotations

from pathlib import Path

from lab.labelled_sets import write_set

ROOT = Path(__file__).resolve().parent.parent
POLICIES = ROOT / "data" / "heldout7" / "policies"
OUTPUT = ROOT / "assistant" / "evaluation" / "data" / "answers_heldout7.jsonl"

QUESTIONS = {
    "sale": "Do they sell the data they collect about me?",
    "sharing_advertisers": "Are advertisers allowed to get data about me from this service?",
    "sharing_third_parties": "Will my personal data be handed to other businesses or partners?",
    "law_enforcement": "Do they release user information to law enforcement agencies?",
    "collection_location": "Does the app or website figure out where I am located?",
    "cookies_tracking": "Is my activity tracked with cookies, pixels or similar tools?",
    "opt_out_ads": "Is it possible to stop them using my data for targeted ads?",
    "deletion": "Will they delete my data if I ask them to?",
    "access_correction": "Can I request a copy of my data and have errors fixed?",
    "retention": "Is there any information on how long they store my personal data?",
    "security": "Do they have measures in place to keep my data from being stolen or leaked?",
    "children": "Will they collect personal data from a child who uses the service?",
    "international_transfer": "Might my data be moved to a different country for processing?",
    "policy_changes": "Do they notify users about changes to the privacy policy?",
    "ai_training": "Might the content I provide be used for training AI systems?",
    "contact_dpo": "Can I reach a privacy officer or privacy team with questions about my data?",
}

# policy file -> facet -> (verdict, supporting sentence numbers best first, ambiguous, note)
LABELS: dict[str, dict[str, tuple[str, list[int], bool, str]]] = {
    "windsurf.md": {
        "sale": ("no", [124], True,
                 ("Information is not sold to third parties 'for their promotional purposes', 'unless described in "
                  "this notice' (124): the denial is limited to one purpose; the US rights list only names an opt-out "
                  "of 'sale' (199).")),
        "sharing_advertisers": ("no", [124], True,
                                ("Not disclosed to third parties for their promotional purposes (124), but "
                                 "third-party marketing partners use account and usage data for Windsurf's marketing "
                                 "(94), advertising cookies run on the site (164, 165) and 'interest-based advertising "
                                 "by advertisers on our Website' can be opted out of (233).")),
        "sharing_third_parties": ("yes", [120, 116, 131, 126], False,
                                  "Vendors and service providers, partners and affiliates, analytics providers."),
        "law_enforcement": ("conditional", [133, 108], False,
                            ("If they believe it is required or appropriate to comply with law enforcement requests "
                             "and legal process.")),
        "collection_location": ("yes", [42], False, "Country and location among the automatically collected data."),
        "cookies_tracking": ("yes", [145, 147, 148, 155], False,
                             "Cookies, web beacons and pixels; partners track activity across services."),
        "opt_out_ads": ("yes", [233, 199], False,
                        ("Interest-based advertising opted out of at aboutads.info; a right to opt out of targeted "
                         "advertising depending on where you live.")),
        "deletion": ("yes", [251, 228, 198, 205], False,
                     "On request through windsurf.com/contact or by email; account and data deleted on termination."),
        "access_correction": ("yes", [192, 251, 196, 197], False,
                              "Account settings; rights of access and correction, by request."),
        "retention": ("yes", [176, 177], True, "Only a general rule: as long as necessary; no period is given."),
        "security": ("yes", [183, 182], False, "Technical and organisational measures; none named."),
        "children": ("no", [188, 187, 190], True,
                     ("Data is not knowingly solicited from children under 18 (188), but a parent or guardian may "
                      "consent to a minor's use of the website (189).")),
        "international_transfer": ("yes", [170, 168, 172], False,
                                   "Servers in the United States; transfers to the US and other countries; SCCs."),
        "policy_changes": ("yes", [243, 244], False,
                           "Updated 'Revised' date; material changes by a prominent notice or direct notification."),
        "ai_training": ("yes", [71, 72], False,
                        "Log and usage data and prompts and outputs used to train the AI and models."),
        "contact_dpo": ("yes", [247, 3, 224], False, "privacy@windsurf.com; data-subject-request@windsurf.com."),
    },
    "murf.md": {
        "sale": ("no", [54], True,
                 ("Only the sale of Google user data to third parties is prohibited (54); the sale of other data is "
                  "not addressed.")),
        "sharing_advertisers": ("not_stated", [], False,
                                ("No advertiser is named: marketing platforms (HubSpot, Sendinblue, Clearbit ...) "
                                 "process data on Murf's behalf and may not use it for other purposes (65, 71).")),
        "sharing_third_parties": ("yes", [63, 65, 66, 70], False,
                                  "Marketing and communications platforms, cloud providers, Stripe, review platforms."),
        "law_enforcement": ("conditional", [89, 69, 88, 50], False,
                            ("When required by law, subpoena or legal process, or in the good-faith belief it is "
                             "necessary; reasonable requests of law enforcement.")),
        "collection_location": ("not_stated", [], False, "Only the IP address and time zone (33)."),
        "cookies_tracking": ("yes", [33, 38, 40], False, "Cookies, web beacons, pixels, log files."),
        "opt_out_ads": ("not_stated", [], False,
                        ("No targeted advertising is described; only advertising of Murf's own products 'in line with "
                         "the preferences you have shared' (46), browser cookie refusal (41) and email unsubscribe "
                         "(103).")),
        "deletion": ("yes", [104, 127, 154], False,
                     "Deleted on request; account data deleted within 30 days of termination; right to erasure."),
        "access_correction": ("yes", [104, 102, 144, 149], False,
                              "Access, review, update or rectify by contacting them; profile settings."),
        "retention": ("yes", [127, 113, 128], False,
                      "Account data deleted within 30 days of termination; otherwise while the account is open."),
        "security": ("yes", [109, 110], False, "HTTPS; systems monitored for vulnerabilities and attacks."),
        "children": ("no", [116, 119, 117], True,
                     ("Not knowingly from children under 13 (116), but users under 16 may use the services with a "
                      "parent's consent (117, 119).")),
        "international_transfer": ("yes", [99, 100, 101], False, "Processed globally; safeguards for Europe; DPF."),
        "policy_changes": ("conditional", [124, 126], False, "Notice only of material changes."),
        "ai_training": ("not_stated", [], False, "Only improving products and services (47); no word on training."),
        "contact_dpo": ("yes", [133, 129, 131], False,
                        "A grievance officer at legal@murf.ai; Prighter as EU and UK representative."),
    },
    "bardeen.md": {
        "sale": ("yes", [197], True,
                 ("They 'sell' and 'share' personal information for cross-context behavioural advertising of their "
                  "own products in the CCPA sense (197), but deny selling as Nevada law defines it (227).")),
        "sharing_advertisers": ("yes", [137, 139, 197], False,
                                "Shared with third-party advertising partners for interest-based advertising."),
        "sharing_third_parties": ("yes", [129, 121, 132, 135], False,
                                  "Service providers, business partners, affiliates, advertising partners."),
        "law_enforcement": ("conditional", [142], False,
                            ("If they believe in good faith it is required or appropriate to comply with law "
                             "enforcement or national security requests and legal process.")),
        "collection_location": ("yes", [43], False, "Location information, including approximate location (IP)."),
        "cookies_tracking": ("yes", [46, 62, 50], False, "Cookies, pixel tags; advertising and targeting tools."),
        "opt_out_ads": ("yes", [169, 168, 178, 199], False,
                        ("Industry opt-outs (NAI, DAA), mobile settings, a right to opt out of targeted advertising; "
                         "the cookie banner for Californians.")),
        "deletion": ("yes", [177, 183, 173], False,
                     "A right to request deletion under applicable law, by contacting them."),
        "access_correction": ("yes", [175, 176, 183], False, "Rights of access, portability and correction."),
        "retention": ("yes", [190, 81, 191], True,
                      ("Only a general rule: as long as you use the services or as necessary (190); data from "
                       "third-party APIs is not retained (81); no period is given.")),
        "security": ("yes", [146, 147, 150], False, "Industry-standard practices; SOC 2 Type 2, CASA Tier 2 and 3."),
        "children": ("no", [229, 231], False, "Not directed to children under 16; not knowingly collected."),
        "international_transfer": ("yes", [186, 188], False, "Anywhere in the world, including the US; SCCs."),
        "policy_changes": ("conditional", [8, 7], False, "Notice of material changes only, as required by law."),
        "ai_training": ("no", [80], True,
                        ("Data from third-party integrations (Google Drive, Gmail) is not used to train any "
                         "generalised AI models (80); nothing is said of other content, which serves 'developing new "
                         "products' (98).")),
        "contact_dpo": ("yes", [243, 247], False, "support+privacy@bardeen.ai; no DPO is named."),
    },
    "fireworks.md": {
        "sale": ("not_stated", [], False,
                 "110 is about selling the company; business partners' own use (108) is not called a sale."),
        "sharing_advertisers": ("yes", [125, 104, 133, 123], False,
                                ("Ad networks and advertising partners; hashed emails or user IDs shared with "
                                 "advertising partners and social networks.")),
        "sharing_third_parties": ("yes", [99, 103, 107, 100], False,
                                  "Service providers, business partners for their own purposes, affiliates."),
        "law_enforcement": ("conditional", [112, 114, 118], False,
                            "To comply with laws or respond to lawful requests and legal process."),
        "collection_location": ("yes", [87, 124], False,
                                "General location from the IP address; precise geolocation through ad tracking."),
        "cookies_tracking": ("yes", [78, 96, 80], False, "Cookies, web beacons, pixels, session recording."),
        "opt_out_ads": ("yes", [153, 140, 154, 135], False,
                        "DAA and NAI opt-outs, Google ad settings, mobile settings, social-network ad preferences."),
        "deletion": ("yes", [149, 150, 151], False, "By contacting them; not possible in all circumstances."),
        "access_correction": ("yes", [149, 150], False, "Reviewing and modifying your information by contacting them."),
        "retention": ("not_stated", [], False, "Only that card numbers are not retained (21)."),
        "security": ("not_stated", [], False, "No section or sentence on security measures."),
        "children": ("no", [161, 164, 163], False, "Not knowingly from children under 13; under-16s' data deleted."),
        "international_transfer": ("not_stated", [], False, ""),
        "policy_changes": ("yes", [174, 176], False,
                           "Material changes by email or a prominent notice; the 'Last Updated' date revised."),
        "ai_training": ("not_stated", [], False,
                        "User Content is used to provide the Service (33); training is not mentioned."),
        "contact_dpo": ("yes", [178], False, "help@fireworks.ai for questions about the notice; no DPO is named."),
    },
    "lex.md": {
        "sale": ("not_stated", [], False, "89 is about selling the company."),
        "sharing_advertisers": ("not_stated", [], True,
                                ("No advertising is described; the only denial is that real-time location is not "
                                 "shared with third parties for advertising or tracking (39), and AppsFlyer is among "
                                 "the providers (81).")),
        "sharing_third_parties": ("yes", [72, 73], False,
                                  "Service providers (Google, Amplitude, AppsFlyer, Sendinblue, AWS, Mapbox ...)."),
        "law_enforcement": ("conditional", [87], False,
                            ("When legally required, at the request of governmental authorities conducting an "
                             "investigation.")),
        "collection_location": ("yes", [25, 20, 21], False, "Precise GPS location if you opt in; area from the IP."),
        "cookies_tracking": ("yes", [121, 53, 73], False, "First- and third-party cookies, web beacons."),
        "opt_out_ads": ("not_stated", [], False,
                        ("No advertising; 129 is an opt-out of 'information sharing controls' for EEA and UK users, "
                         "134 resetting device identifiers.")),
        "deletion": ("yes", [101, 99, 106], False, "By email wherever you live; in the account; right to erasure."),
        "access_correction": ("yes", [99, 100, 104, 105], False,
                              "In the account or by email; rights of access and rectification."),
        "retention": ("yes", [40, 41, 44], True,
                      ("Only for some data and with no period: location data as long as the map feature needs it "
                       "(40), posts and messages as necessary under law (41, 44).")),
        "security": ("yes", [141, 145], False, "Physical, electronic and procedural safeguards; passwords."),
        "children": ("no", [157, 156, 158], False, "Adults only; not knowingly from anyone under the age of majority."),
        "international_transfer": ("yes", [138, 140], False, "Outside your country, for example to the US; SCCs."),
        "policy_changes": ("yes", [9, 7], False, "Changes posted with the date; material changes by pop-up or email."),
        "ai_training": ("not_stated", [], False, ""),
        "contact_dpo": ("yes", [159, 151], False, "support@lex.lgbt; no DPO is named."),
    },
    "match.md": {
        "sale": ("not_stated", [], False, "95 is about selling the company."),
        "sharing_advertisers": ("yes", [87, 88, 86], False,
                                "Given to advertising partners, or collected by them with cookies and SDKs."),
        "sharing_third_parties": ("yes", [80, 73, 81, 101], False,
                                  "Vendors and partners, Match Group affiliates, advertising partners."),
        "law_enforcement": ("yes", [93, 71], True,
                            ("To comply with legal process or a law enforcement investigation (93 (i)), but also to "
                             "'assist in the prevention or detection of crime' (93 (ii)) and to share data with law "
                             "enforcement 'to combat abusive or illegal behavior' (71), not tied to a legal duty.")),
        "collection_location": ("yes", [52, 25, 150], False,
                                "Geolocation with permission; approximate location in the profile."),
        "cookies_tracking": ("yes", [87, 47, 82], False, "Cookies, SDKs, advertising IDs, Facebook Pixel."),
        "opt_out_ads": ("yes", [61, 126, 128], False, "Relevant ads controlled in the settings."),
        "deletion": ("yes", [123, 124, 125], False, "In the service, by closing the account, or by contacting them."),
        "access_correction": ("yes", [119, 121, 120, 122], False,
                              "In the account; a copy on request; profile editable."),
        "retention": ("yes", [145, 148, 150, 143], False,
                      "Three months after closure; transactions 10 years; logs one year; closed after 2 years idle."),
        "security": ("yes", [60, 59], True,
                     ("No section on security and no measure named: only that they are 'always working to improve "
                      "the safety and security of our systems and processes' (60), mostly about members' safety.")),
        "children": ("no", [154, 153], True,
                     "Under-18s are not permitted on the platform; nothing said about collecting children's data."),
        "international_transfer": ("yes", [109, 116, 114], False,
                                   "To affiliates and providers in third countries such as the US; SCCs."),
        "policy_changes": ("conditional", [158, 156], False, "Notice only before material changes take effect."),
        "ai_training": ("yes", [152, 69, 103], True,
                        ("Data, content included, serves 'developing and improving new features ... including through "
                         "machine learning' (69) and 'machine learning development' across Match Group (103); "
                         "models or training are never named.")),
        "contact_dpo": ("yes", [165, 159, 133], False, "A data protection officer; contact forms; UK representative."),
    },
}


def main() -> None:
    write_set(LABELS, QUESTIONS, POLICIES, OUTPUT)


if __name__ == "__main__":
    main()
