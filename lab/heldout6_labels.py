"""The sixth held-out answers set's labels, as written while reading each policy (data/heldout6/policies/,
rebuilt by `scripts/heldout_policies.py --set heldout6`), and the writer of `answers_heldout6.jsonl`: each
label's supporting sentence numbers are turned into their text as `lab.print_policy` numbers them.

    .venv/bin/python -m lab.heldout6_labels      # rewrites assistant/evaluation/data/answers_heldout6.jsonl

Labelled before the engine was run on any of these policies. The questions are worded differently from
the answers dev set's and the first five held-out sets', one per facet, the same for every policy.
"""
from __future__ import annotations

from pathlib import Path

from lab.labelled_sets import write_set

ROOT = Path(__file__).resolve().parent.parent
POLICIES = ROOT / "data" / "heldout6" / "policies"
OUTPUT = ROOT / "assistant" / "evaluation" / "data" / "answers_heldout6.jsonl"

QUESTIONS = {
    "sale": "Does this company sell information about me?",
    "sharing_advertisers": "Will advertisers be given any of my personal information?",
    "sharing_third_parties": "Is my data disclosed to other organisations?",
    "law_enforcement": "Would they disclose my information in response to a government or police request?",
    "collection_location": "Does the service track my location?",
    "cookies_tracking": "Does the site use cookies to track what I do?",
    "opt_out_ads": "Is there any way to avoid being shown targeted ads?",
    "deletion": "Can I request that my personal information be deleted?",
    "access_correction": "Am I allowed to see and update the personal information they keep about me?",
    "retention": "Does the policy mention how long they retain my personal data?",
    "security": "Are there security measures in place to protect my personal information?",
    "children": "Is information collected from children who use the service?",
    "international_transfer": "Will my data be moved outside my home country?",
    "policy_changes": "Am I informed if they make changes to the privacy policy?",
    "ai_training": "Could what I submit be used to train their AI?",
    "contact_dpo": "Is there a data protection officer or privacy team I can get in touch with?",
}

# policy file -> facet -> (verdict, supporting sentence numbers best first, ambiguous, note)
LABELS: dict[str, dict[str, tuple[str, list[int], bool, str]]] = {
    "lovable.md": {
        "sale": ("no", [196, 188], False, ""),
        "sharing_advertisers": ("no", [115], True,
                                ("Not sold or shared 'for cross-context behavioral advertising' (115), but marketing "
                                 "cookies of TikTok, Meta and Google Ads run for conversion tracking (114).")),
        "sharing_third_parties": ("yes", [194, 32, 78, 26], False,
                                  ("Infrastructure and AI providers (Supabase, OpenAI, Google, OpenRouter), "
                                   "sub-processors, Stripe.")),
        "law_enforcement": ("conditional", [93, 92, 63], False,
                            ("If they believe in good faith it is necessary to comply with legal process or a "
                             "governmental request.")),
        "collection_location": ("yes", [99, 174], False, "Approximate location with the IP address; city level only."),
        "cookies_tracking": ("yes", [106, 110, 114], False, "Cookies and pixels; analytics and marketing cookies."),
        "opt_out_ads": ("yes", [117, 116, 187], True,
                        ("No ads are shown in the service; marketing cookies (Meta, Google Ads, TikTok) measure "
                         "Lovable's own campaigns and can be refused or withdrawn (116, 117).")),
        "deletion": ("yes", [146, 143, 184, 144], False,
                     "By email to privacy@lovable.dev; deleted within 30 days of termination."),
        "access_correction": ("yes", [183, 185, 132, 182], False,
                              ("Access and correction rights 'depending on where you live', by email; inaccurate "
                               "data corrected.")),
        "retention": ("yes", [142, 144, 105, 145], False,
                      "Customer data up to 90 days; 30 days after termination; logs 90 days."),
        "security": ("yes", [133, 122, 123, 124], False, "Encryption in transit and at rest, access controls."),
        "children": ("no", [36, 38], False, "Not intended for anyone under 18; not knowingly collected."),
        "international_transfer": ("yes", [86, 88, 157], False,
                                   "From Europe to the United States and elsewhere; DPF and SCCs."),
        "policy_changes": ("yes", [200, 199], False,
                           ("Material changes: 30 days' notice by email or banner; revisions posted with the "
                            "effective date.")),
        "ai_training": ("yes", [191, 193, 22, 68], False,
                        ("Customer Data (excluding Personal Data) licensed for training AI models, anonymised; "
                         "opt-out by email.")),
        "contact_dpo": ("yes", [169, 166, 167], False,
                        "A Data Protection Officer (dpo@lovable.dev); privacy@lovable.dev."),
    },
    "openrouter.md": {
        "sale": ("no", [164], False, "As 'sell' is defined by applicable laws."),
        "sharing_advertisers": ("not_stated", [], True,
                                ("No advertisers are named, but first- and third-party cookies collect activity "
                                 "across third-party websites 'to deliver content tailored to your interests' (41).")),
        "sharing_third_parties": ("yes", [116, 112, 206, 113], False, "Service providers, affiliates and partners."),
        "law_enforcement": ("conditional", [126, 125, 124], False,
                            ("If required by law or in the good-faith belief it is necessary to comply with legal "
                             "process.")),
        "collection_location": ("yes", [193, 34], False,
                                "General area from the IP address, or precise location you provide."),
        "cookies_tracking": ("yes", [38, 41, 76], False, "Cookies, embedded scripts, web beacons, session replay."),
        "opt_out_ads": ("not_stated", [], False,
                        ("No advertising; only browser cookie controls (62-64) and marketing-email opt-outs (128, "
                         "158).")),
        "deletion": ("yes", [138, 153, 142], False, "Account and data deleted on request to privacy@openrouter.ai."),
        "access_correction": ("yes", [135, 136, 150, 155], False, "In the account profile page, or by email."),
        "retention": ("yes", [178, 180], True,
                      "Only a general rule: as long as reasonably necessary; no period is given."),
        "security": ("yes", [165, 166, 179], False,
                     "Physical, technical and administrative measures; firewalls; audits."),
        "children": ("no", [181, 182], True,
                     ("Only an age requirement: 13 or older, minors with a parent's permission (182); nothing is "
                      "said about collecting children's data, and teenagers may use it.")),
        "international_transfer": ("yes", [184, 186], False,
                                   "To servers in the US or elsewhere outside the EEA and UK; SCCs."),
        "policy_changes": ("yes", [13, 12], False,
                           ("Advance email notice to account holders of material changes; revised policy posted with "
                            "its date.")),
        "ai_training": ("not_stated", [], True,
                        ("OpenRouter says nothing of training its own models; it does not control the model "
                         "providers' use of Inputs 'for use in their model training' (22).")),
        "contact_dpo": ("yes", [145, 138, 136], False, "privacy@openrouter.ai; support@openrouter.ai."),
    },
    "wordtune.md": {
        "sale": ("no", [30, 300], False, "Not sold or shared for cross-contextual behavioural advertising."),
        "sharing_advertisers": ("no", [30, 300], True,
                                ("No sale, sharing or targeted advertising (30), but vendors for "
                                 "'Advertisement/marketing activities' receive data (175) and advertisements are "
                                 "tailored (22).")),
        "sharing_third_parties": ("yes", [165, 166, 164], False,
                                  "Affiliates and partners; vendors and service providers."),
        "law_enforcement": ("conditional", [176, 154, 25], False,
                            "To the extent necessary to comply with laws, law-enforcement requests or court orders."),
        "collection_location": ("yes", [10, 117, 94], False, "Geolocation from the IP address (country only)."),
        "cookies_tracking": ("yes", [29, 227, 116, 263], False,
                             "Cookies, Google Analytics, tracking of movement around the site."),
        "opt_out_ads": ("not_stated", [], True,
                        ("It states it does no targeted advertising (30, 300), but also that it tailors "
                         "advertisements (22); no ad opt-out is offered beyond marketing emails (214).")),
        "deletion": ("yes", [194, 161, 212, 205], False,
                     "Right to erasure 'depending on your location', by email; account deletion through support."),
        "access_correction": ("yes", [192, 193, 205], False,
                              "Rights of access and rectification, by email to privacy@wordtune.com."),
        "retention": ("yes", [161, 31, 163], False, "Kept until they delete it or you send a valid deletion request."),
        "security": ("yes", [158], False, "Technical, organisational and security measures; none named."),
        "children": ("no", [217, 219], False, "Not intentionally from children under 18."),
        "international_transfer": ("yes", [185, 186, 189], False,
                                   "Processed outside the EEA, including in the United States."),
        "policy_changes": ("conditional", [53, 52], False, "Notice only of significant changes in the use of data."),
        "ai_training": ("yes", [215, 22, 27, 216], True,
                        ("Content aggregated 'to develop AI21 products' (215), 'training' new products (22), "
                         "improvement 'through the use of artificial intelligence' (27); models are never named. "
                         "Opt-out by email.")),
        "contact_dpo": ("yes", [205, 308, 183], False, "privacy@wordtune.com; no DPO is named."),
    },
    "togetherai.md": {
        "sale": ("no", [111, 126], False, "As defined under the CCPA, in the California section."),
        "sharing_advertisers": ("not_stated", [], False, "No advertising is mentioned."),
        "sharing_third_parties": ("yes", [50, 49, 96], False,
                                  "Service providers, vendors, consultants and business partners."),
        "law_enforcement": ("conditional", [53, 54], False,
                            ("If required by law or in response to valid requests by public authorities; the user is "
                             "notified.")),
        "collection_location": ("not_stated", [], False, "Only the IP address (30)."),
        "cookies_tracking": ("yes", [77, 32, 36], False,
                             "Cookies and tracking technologies; an analytics cookie on the website."),
        "opt_out_ads": ("not_stated", [], False, "No advertising is mentioned."),
        "deletion": ("yes", [71, 10, 99, 121], False, "Delete options in settings; deletion on request."),
        "access_correction": ("yes", [99, 71, 104], True,
                              ("Access and correction are listed under the Europe heading (99) and access under "
                               "California (117); for everyone, the summary table shows prompts and responses in the "
                               "user history (71).")),
        "retention": ("yes", [61, 64, 62], True, "Only a general rule: as long as necessary; no period is given."),
        "security": ("yes", [70, 68], False, "Commercially acceptable means; no measure named."),
        "children": ("no", [79, 78, 81], False, "Not knowingly from anyone under 13."),
        "international_transfer": ("yes", [66, 65, 97], False, "Outside your state or country; SCCs for Europe."),
        "policy_changes": ("yes", [89, 88, 20], True,
                           ("Email or prominent notice before a change takes effect (89), but the first section says "
                            "notice is given only 'when required under applicable law' (20).")),
        "ai_training": ("conditional", [9, 38, 10], False,
                        "Not used to train their models without explicit opt-in consent."),
        "contact_dpo": ("yes", [151, 105, 128], False, "security-privacy@together.ai."),
    },
    "happn.md": {
        "sale": ("not_stated", [], False, ""),
        "sharing_advertisers": ("conditional", [213, 280, 208], True,
                                ("Email and phone number (hashed) go to social networks for HAPPN's own campaigns: "
                                 "'if you have given your consent' (213), but 'unless you oppose that' (280); ads "
                                 "shown in the app are personalised without saying anything is shared (217).")),
        "sharing_third_parties": ("yes", [273, 274, 279, 283], False,
                                  "Service providers, marketing partners, corporate operations."),
        "law_enforcement": ("conditional", [282, 152], False,
                            "At the request of state bodies, to comply with a judicial or legal request."),
        "collection_location": ("yes", [133, 131, 138], False,
                                "Geographical position with consent; otherwise the city."),
        "cookies_tracking": ("yes", [269, 268, 160], False,
                             "Cookies and tracking tools in the app and on the website."),
        "opt_out_ads": ("yes", [222, 221, 223], False, "Consent to personalised ads withdrawn in 'Manage my Choices'."),
        "deletion": ("yes", [307, 306, 308, 293], False, "Account deletion in the app; right to erasure."),
        "access_correction": ("yes", [291, 299, 296, 298], False,
                              "Access and rectification; profile editable in the app."),
        "retention": ("yes", [320, 321, 336, 337], False,
                      "Registration plus 24 months; positions one month; crossings six months."),
        "security": ("yes", [339, 287], False,
                     "Every effort to keep stored data as secure as possible; no measure named."),
        "children": ("no", [341, 343, 342], False, "Not from minors; their data deleted."),
        "international_transfer": ("yes", [285, 286, 288], False,
                                   "Hosted in the EU but sent to subcontractors outside it; SCCs."),
        "policy_changes": ("not_stated", [], False, "No section on changes; only the 'Updated' date at the top."),
        "ai_training": ("not_stated", [], False, "Automated analysis of photos and profiles (234, 249); no training."),
        "contact_dpo": ("yes", [346, 347, 289, 345], False,
                        "Data Protection Officer by email (dpo@happn.fr) and post."),
    },
    "eharmony.md": {
        "sale": ("not_stated", [], False, "294 is about selling the business."),
        "sharing_advertisers": ("yes", [289, 167], True,
                                ("Data goes to 'providers of marketing tracking technologies' (289) and advertising "
                                 "IDs are stored (167); no advertiser is named and the details are in a separate "
                                 "cookies policy.")),
        "sharing_third_parties": ("yes", [288, 286, 287], False,
                                  "Group companies, service providers, tracking providers."),
        "law_enforcement": ("yes", [293, 290, 359], True,
                            ("Where obliged by law or an official order (290), but also to investigating authorities "
                             "such as the police 'in connection with possible criminal offences' (293), not tied to "
                             "a legal duty.")),
        "collection_location": ("yes", [139, 176, 336], False,
                                "Country, state and city from the IP address; GPS for radius search."),
        "cookies_tracking": ("yes", [149, 167, 406], False, "Cookies, advertising IDs and tracking technologies."),
        "opt_out_ads": ("yes", [396, 407, 123], True,
                        ("Advertising can be objected to in the profile settings (396), but the advertising "
                         "described is eharmony's own emails and push messages; tracking-based ads are left to the "
                         "cookies policy (407).")),
        "deletion": ("yes", [360, 397, 352, 347], False, "On request, or in the profile settings."),
        "access_correction": ("yes", [371, 374, 396, 394], False,
                              "Rights of access and rectification; settings in the profile."),
        "retention": ("yes", [349, 358, 350, 343], False,
                      "Basic profiles erased after 24 months of inactivity; logs 30 days."),
        "security": ("yes", [319, 322, 321, 323], False,
                     "Encryption, two-factor authentication, firewalls, monitoring."),
        "children": ("not_stated", [], False, ""),
        "international_transfer": ("yes", [313, 327, 315], False,
                                   "Outside the UK and EEA, including US service providers."),
        "policy_changes": ("not_stated", [], False, "No section on changes; only a version date at the top."),
        "ai_training": ("yes", [224], False,
                        "Data records anonymised 'for training purposes of our artificial intelligence systems'."),
        "contact_dpo": ("yes", [10, 13, 12], False, "A data protection officer; privacy@eharmony.co.uk."),
    },
}


def main() -> None:
    write_set(LABELS, QUESTIONS, POLICIES, OUTPUT)


if __name__ == "__main__":
    main()
