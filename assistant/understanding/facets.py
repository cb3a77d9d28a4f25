"""What a question asks, in the words people use: its type (yes/no, how long, how do I …) and its
privacy facet from a fixed taxonomy (sale of data, sharing with advertisers, deletion …).

Each facet names the words that mark a question about it and the words a policy sentence uses
when it addresses it, and how a headline says "does" and "does not". Rules written from the
issue's facet list and the questions in PolicyQA / PrivacyQA; measured by `assistant eval answers`.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from assistant.models.facets.train import FacetRules

YES_NO = "yes_no"
QUESTION_TYPES = (YES_NO, "how_long", "how_to", "what", "who", "where", "other")

_YES_NO_START = re.compile(
    r"^(?:and |so |but |also )?(?:do|does|did|is|are|was|were|can|could|will|would|may|might|should|shall|"
    r"have|has|had|am)\b", re.IGNORECASE)


@dataclass(frozen=True)
class Facet:
    """One thing people ask about a policy."""

    name: str
    question: Words  # words that put a question on this facet
    sentence: Words  # words a policy sentence uses when it addresses it
    does: str  # "sells your personal information": what a "yes" headline says it does
    does_not: str  # "does not sell your personal information"
    about_you: bool = False  # a "can I …" facet: the headline says what you can do
    also: Words | None = None  # a sentence must match this too (opting out *of ads*)
    not_about: Words | None = None  # a sentence matching this is about something else (a merger's "sale")
    # a question matching this is about something else even though it uses the facet's words ("Do outside
    # companies get access to my data?" is about sharing, not about your access)
    question_not: Words | None = None
    denials_first: bool = False  # policies deny this in one sentence ("we do not sell"): prefer that sentence
    # For "can I …" facets: a sentence addressed to the user ("you can …", "request …") is preferred
    # over one about the company's own practice ("we delete your data once the period expires").
    preferred: Words | None = None
    # A sentence matching this speaks of the facet only in passing (a merger under "sharing", a disclaimer
    # under "security"): it supports the answer only when no other of the facet's best sentences does.
    aside: Words | None = None
    # Search every sentence for the facet's words, not only the retriever's best: the retriever was trained on
    # 2015–16 policies (PolicyQA), which never speak of this topic, and ranks its statements below their neighbours.
    beyond_retriever: bool = False
    # Search every sentence for the facet's preferred words (`preferred`), not only the retriever's best: "Is there
    # an email or person I can contact about my data?" ranks sentences about collecting e-mail addresses first,
    # and the privacy mailbox 26th to 44th.
    preferred_anywhere: bool = False
    # The parts of a two-part question ("Can I see my data and correct it?"): (question words, sentence words) for
    # each. When a question asks for every part, a sentence that speaks of every part is preferred.
    parts: tuple[tuple[Words, Words], ...] = ()
    # A sentence matching this speaks of one case only ("In case you have had contact with customer support: this
    # data will be stored up to 6 months …"): among the facet's preferred sentences, one for every case comes first.
    one_case: Words | None = None
    # A narrower question within another facet, chosen by the word rules even where the facet classifier names the
    # broader one ("Can children use the site?" within "children", whose plain question is about collecting).
    refines: str | None = None
    # Words that make a supporting sentence a "no" or "only if" for this facet where the general denial rules do not
    # read one ("The service is not intended for children under 13", "only with the involvement of a parent").
    # A sentence speaks of the facet only where its practice has your data as its object ("we do not sell it", not "a
    # device you sell or return"): words that must follow or precede the facet's words closely.
    data_object: Words | None = None
    denial: Words | None = None
    condition: Words | None = None
    conditional_opening: str = ""  # how a headline opens when `condition` matches ("Only with a parent or guardian")
    # The question words name the topic beyond doubt ("Do Not Track"): the word rules' facet stands over the facet
    # classifier's, which was trained without it.
    decisive: bool = False
    # The facet's `denial` words are its only "no": its sentences' other negations deny other practices ("turn on
    # … Do Not Sell or Share", "GitHub will not share your data" on detecting the signal).
    denial_only: bool = False

    def covers_parts(self, question: str, sentence: str) -> bool | None:
        """Whether `sentence` speaks of every part of the facet `question` asks for; None when the question does
        not ask for more than one part."""
        asked = [words for question_words, words in self.parts if question_words.search(question)]
        if len(asked) < 2:
            return None
        return all(words.search(sentence) for words in asked)

    def addressed_by(self, sentence: str) -> bool:
        """Whether a policy sentence speaks of this facet."""
        return bool(self.sentence.search(sentence) and (self.also is None or self.also.search(sentence))
                    and not (self.not_about and self.not_about.search(sentence))
                    and (self.data_object is None or self.data_object.search(sentence)))


class Words:
    """A case-insensitive regular expression compiled on its first search: a question needs the words of the
    facets it is matched against and of its own facet, not all 56 patterns (about 10 ms at every start)."""

    __slots__ = ("_compiled", "source")

    def __init__(self, source: str) -> None:
        self.source = source
        self._compiled: re.Pattern | None = None

    def search(self, text: str) -> re.Match | None:
        if self._compiled is None:
            self._compiled = re.compile(self.source, re.IGNORECASE)
        return self._compiled.search(text)


def _words(pattern: str) -> Words:
    return Words(pattern)


# Aggregated, anonymous or de-identified data is not "your personal information": a sentence about selling or
# sharing it is an aside to the question of selling or sharing yours.
# (Not a sentence that speaks of both: "We provide personally identifiable information and non-personally-identifiable
# information to our subsidiaries …")
_NOT_PERSONAL = (r"^(?!.*(?<!non-)(?<!\bnot )\bpersonally identifiable information\b.*\bnon-personal).*(?:"
                 r"\baggregated?\b|\banonymi[sz]ed\b|\banonymous\b|\bde-?identified\b|\bnon-personal(?:ly)?\b)")
# A sentence addressed to the user about what they can do ("you can …", "the right to …", "request …").
_YOUR_RIGHT = (r"\byou (?:can|may|could|have the right)\b|"
               r"\brequest(?:s|ing)? (?:that|to|the|a|an|your|deletion|access|correction|erasure)\b|\bright to\b|"
               r"\bask us\b|^\W*(?:have|request|ask)\b|"
               # a list of rights in the imperative: "Delete your Personal Data from our records."
               # (not what the company does: "Access and utilize your Personal Data …")
               r"^\W*(?:delete|erase|remove|rectify|correct|update|access|obtain|receive|port|restrict|object)"
               r"(?:,?\s+(?:or|and)\s+(?:delete|erase|remove|rectify|correct|update|access|obtain|receive))?"
               r"\s+(?:your|a copy)\b")
# A limit on a right ("We may not be able to modify or delete your information in all circumstances"): it supports
# the answer only when nothing states the right itself.
_LIMITED_RIGHT = r"\bnot (?:always )?(?:be )?able to\b"
# Sharing verbs: the sentence says the data goes to someone, not only that someone is there (not "the preferences
# you have shared with us").
_HANDS_OVER = (r"\b(?:share[sd]?(?! with us\b)|sharing|disclos\w*|provide[sd]?(?! you\b)|transfer\w*|sell|sold|rent|give|release|"
               r"hand)\b")

# Within one item of a list: no item marker (" - ", "•", a dash between table cells) or semicolon in between.
_IN_ONE_ITEM = r"(?:(?!\s[-–—•]\s)[^;•])*?"

# Browser privacy signals: Do Not Track, and Global Privacy Control with the other opt-out preference signals.
_DNT = r"\bdo[- ]not[- ]track\b|\bDNT\b"
_GPC = r"\bglobal privacy controls?\b|\bGPC\b|\bopt-?out preference signals?\b|\buniversal opt-?out(?: mechanisms?)?\b"
# what the service does on the signal
_RESPONDS = (r"\b(?:respond\w*|response|honou?r\w*|recogni[sz]\w*|support\w*|process\w*|treat\w*|comply|complies|"
             r"obey\w*|act on|acts on|action|detect\w*|accept\w*|accommodat\w*|affected|configured|designed|"
             r"as (?:a|an|your) (?:valid )?(?:request|opt-out)|stop\w*|turns? off|opt(?:s|ed)? (?:you )?out|frictionless)\b")
_IGNORES_SIGNAL = (r"(?:\bnot\b|n[’']t\b|\bnever\b|\bno longer\b|\bunable to\b|\bcannot\b)(?:\s+\w+){0,5}?\s+"
                   r"(?:respond|honou?r|recogni[sz]e|support|process|act|take (?:any )?action|comply|obey|alter|change|"
                   r"treat|accept|detect|accommodate|be affected)\w*|\bno (?:action|response)\b|\bignores?\b")
_SOME_PLACES = (r"\b(?:where|when|if|as) (?:it is |legally |technically )?(?:required|feasible|possible|capable|applicable)\b|"
                r"\b(?:in accordance with|under|as required by) (?:the )?applicable (?:laws?|legislation)\b|"
                r"\bin (?:certain |some )?(?:jurisdictions|states|regions)\b|\bresidents\b|"
                r"\bto the extent (?:required|permitted|technically|feasible|possible)\b|"
                # an extent clause that is itself negative is the reason for a "no", not a case where the answer is
                # yes ("To the extent that uniform standards for DNT have not been adopted, … do not respond")
                r"\bto the extent that\b(?![^,;]{0,80}?\b(?:not|no|never|none)\b)")
# a pointer to where the answer is, or a plan for later: no statement of what the service does
_POINTER = (r"\bhow (?:we|to|they|it) (?:respond|handle|treat)|\bfor (?:more )?(?:details|information)\b|\bto learn more\b|"
            r"\bplease (?:see|visit|refer)\b|\bin the future\b|\bmay (?:develop|adopt)\b")

# Order matters: the first facet whose question words match wins (specific before general).
FACETS = (
    Facet("ai_training", _words(r"\b(?:AI|artificial intelligence|machine[- ]learning|train(?:ing)? (?:\w+ )?models?|"
                                r"models? training|(?:used|fed|go|goes) (?:in)?to (?:\w+ )?train\w*)\b"),
          # or data that improves or develops "our AI" ("To improve … our services (including our AI models)", "developing
          # and improving new features …, including through machine learning")
          # or data used for machine learning ("using anonymized data for machine learning", "for our machine learning")
          _words(r"\b(?:train|trains|trained|training)\b|\b(?:improv\w*|develop\w*|enhanc\w*|refin\w*)\b"
                 r"[^.]{0,60}\b(?:AI|artificial intelligence|machine[- ]learning)\b|\b(?:use|uses|used|using)\b"
                 r"[^.]{0,80}\b(?:for|including) (?:our |its |their |advanced )*(?:machine[- ]learning|AI|artificial "
                 r"intelligence)\b"),
          "uses your data to train AI models", "does not use your data to train AI models", denials_first=True,
          beyond_retriever=True,
          # what is trained is a model, named ("our AI", "models", "algorithms") or implied by data used for training
          # ("No data will be used for training"): "training" alone is as often people's ("training sessions"), and
          # using machine learning ("to detect fraud") is no training on your data
          also=_words(r"\b(?:AI|A\.I\.|artificial intelligence|machine[- ]learning|deep learning|models?|algorithms?|"
                      r"LLMs?|neural|generative|datasets?|training data)\b|\b(?:use|uses|used|using)\b(?:\W+\w+){0,4}?"
                      r"\W+for (?:\w+ )?training\b"),
          # people trained, not models ("support, or training needs", "deliver training, consulting …", "train the
          # customer service of ROMEO")
          not_about=_words(r"\b(?:employees?|staff|personnel|workforce|contractors?)\b|\bquality (?:and|&) training\b|"
                           r"\btraining (?:and|&) quality\b|\btraining (?:needs|sessions?|"
                           r"courses?|programs?|programmes?|materials?)\b|\b(?:deliver|provide|offer)\w* training\b|"
                           r"\btrain (?:the |our |its )?(?:customer service|support|team)\b")),
    Facet("sale", _words(r"\b(?:sell|sells|sold|selling|sale)\b"),
          _words(r"\b(?:sell|sells|sold|selling|rent|rents|rented|renting|trade|trades|traded|trading)\b"),
          "sells your personal information", "does not sell your personal information", denials_first=True,
          # what is sold is your data, within a dozen words after the sale word or six before it (every labelled statement
          # of a sale in the answers sets so far: 40 of 40 that use a sale word)
          data_object=_words(r"\b(?:sell|sells|selling|sold|rent|rents|renting|rented|trade|trades|sale|sales)\b"
                             r"(?:\W+\w+){0,12}?\W+(?:information|info|data|details|it|them|this|that|such|personal|"
                             r"identifiers?)\b|\b(?:information|info|data|details|it|them|personal)\b(?:\W+\w+){0,6}?\W+"
                             r"(?:sold|sell|sells|selling|rent|rented|renting|traded|sale)\b"),
          # nor a sale that may come one day ("If in the future we do sell your personal information, we will notify you")
          # nor a promise the recipients make ("a company … which agrees not to sell or use personal information")
          aside=_words(_NOT_PERSONAL + r"|\bif (?:in the future |ever )?we (?:do |ever |were to |decide to |begin to )*sell\b|"
                       r"\b(?:which|who|that|they) (?:agrees?|are required|is required|must|shall) not (?:to )?sell\b"),
          not_about=_words(r"\b(?:merger|acquisition|acquired|bankruptcy|reorgani[sz]ation|divestiture|"
                           r"(?:sale|sell|sold) of (?:all|substantially|some|part|any)|(?:sell|sold) (?:all|substantially|some|part)\b|"
                           r"products? (?:we|they) sell|"
                           r"goods|tickets|subscriptions?|business units?|subsidiaries|stores|business transfers?|assets|"
                           # "trade" as a noun ("the Paris Trade and Companies Register", "trade union membership")
                           r"trade (?:and companies )?regist\w*|trade[- ]?unions?|trade[- ]?marks?|trade secrets?|"
                           # what the law asks of others ("the CCPA sets forth certain obligations for businesses that
                           # “sell” personal information"): the company's own answer is in the next sentence
                           r"businesses that [\"“‘']?sell|"
                           # a right listed by law ("Right to know whether personal information is sold or disclosed",
                           # "Right to opt-out of the sale of personal information"), not the company's practice
                           r"^\W*(?:the |your )?right to (?:know|opt[- ]?out|request|limit)\b|"
                           # the company itself sold, not "The Company does not sell Your Personal Information"
                           r"(?:sale|sell|sold) (?:of )?(?:the |our )?company)\b")),
    Facet("sharing_advertisers", _words(r"(?:\badvertis\w*|\bad (?:compan\w*|networks?|partners?|agenc\w*|tech\w*)|"
                                        r"\bmarketers?)\b.*\b(?:share|give|pass|passed|disclos\w*|send|sent|provide|"
                                        # advertisers as the subject: "Are advertisers allowed to get data about me?"
                                        r"get|gets|receive|obtain|access)|"
                                        r"\b(?:share|give|pass|passed|disclos\w*|send|sent|provide)\b.*(?:\badvertis|"
                                        r"\bad (?:compan|networks?|partners?|agenc|tech)|\bmarketers?\b)"),
          # "marketing" of others, not the company's own ("measuring our marketing", "marketing our services",
          # "to send you marketing-related communications")
          # (or the quoted legal term: "does not ‘sell’ or ‘share’ personal information, as defined by any U.S. state
          # privacy law": to "share" there is to hand data over for cross-context behavioural advertising)
          _words(r"[‘'\"“]sell[’'\"”],? (?:or|and|nor) [‘'\"“]shar(?:e|ing)[’'\"”]|\b(?:advertis\w*|marketers?|promotional)\b|(?<!\bour )(?<!\bown )(?<!\bemail )(?<!\be-mail )\bmarketing\b"
                 r"(?! (?:of )?our\b)"
                 r"(?![- ](?:related )?(?:communications?|e-?mails?|messages?|materials?|campaigns?)\b)"),
          "shares your information with advertisers", "does not share your information with advertisers",
          denials_first=True, preferred=_words(_HANDS_OVER),
          # aggregated or anonymous data, not yours ("Web beacons allow ad networks to provide anonymized, aggregated
          # auditing … for advertisers")
          # nor ads shown on the site ("Our site includes third-party advertising and links to other Web sites")
          aside=_words(_NOT_PERSONAL + r"|\b(?:site|service|app|website|platform)s? (?:also )?(?:includes?|contains?|"
                       r"displays?|shows?|features?) (?:third[- ]party )?(?:advertis\w*|ads)\b|"
                       # nor a pointer to another document ("For more information about third-party advertising …, please
                       # read our Interest-Based Ads policy")
                       r"^\W*for more information\b"),
          # nor what governs other sites ("… a link or advertisement on our Site is subject to that third party's own
          # policies")
          not_about=_words(r"\bsubject to (?:that|the|such|those|their|its)\b[^.]{0,40}\bown (?:privacy )?"
                           r"(?:policies|policy|terms|practices)\b|"
                           # where data comes from ("Third-party sources: Payment processors, … or advertising networks."),
                           # not where it goes
                           r"^\W*(?:third[- ]party |other |external )?sources?\b[^:.]{0,30}:|"
                           r"\b(?:receive|obtain|collect)\w* (?:\w+ ){0,6}from (?:\w+ ){0,3}(?:advertis\w*|ad networks?)\b|"
                           # a list of what comes in ("Examples of information we receive from other sources include …")
                           r"\b(?:information|data) (?:that )?we (?:may )?(?:receive|obtain|collect) (?:about you )?from "
                           r"(?:other|third[- ]part\w*|outside)\b"),
          # someone outside the company, or data handed over: not the company's own campaigns ("… determining the
          # effectiveness of our promotional campaigns and to … improve our Service, products, services, marketing")
          also=_words(_HANDS_OVER + r"|\bthird[- ]part\w*|\bpartners?\b|\bnetworks?\b|\badvertisers\b|\bmarketers\b|"
                      r"\bcompan(?:y|ies)\b|\bvendors?\b|\bproviders?\b|\bplatforms?\b|\b(?:Google|Meta|Facebook)\b")),
    Facet("opt_out_ads", _words(r"\bopt(?:[- ]?out)?\b.*\b(?:ads?|advertis\w*)|\b(?:targeted|personali[sz]ed|"
                                r"interest[- ]based)\b.*\b(?:ads?|advertis\w*)"),
          _words(r"\bopt(?:ing)?[- ]?out\b|\bad ?choices\b|\baboutads\b|\bNAI\b|\bnetwork ?advertising\b|"
                 r"\b(?:disable|decline|refuse|block|choices?|preferences?)\b|"
                 # ads tailored only with your consent ("… will ask for your explicit consent to tailor ads for you")
                 r"\byour (?:\w+ )?consent\b|"
                 r"\byou can (?:control|manage|adjust|change|turn off|switch off)\b"),
          "you can opt out of personalised ads", "you cannot opt out of personalised ads", about_you=True,
          also=_words(r"\b(?:interest[- ]based|targeted|behaviou?ral|personali[sz]ed|tailored|relevant)\b.*\b(?:ads|"
                      r"advertis\w*)|\b(?:ads|advertis\w*)\b.*\b(?:interest[- ]based|targeted|behaviou?ral|"
                      r"personali[sz]ed|tailored|your interests)|\bNAI\b|\baboutads\b|\bnetwork advertising|"
                      r"\bad ?choices\b|\badvertising (?:networks?|partners?|companies)\b|\bnetworkadvertising\b|"
                      r"\btailor (?:ads|advertis\w*)|\bpersonali[sz]e (?:the )?(?:ads|advertis\w*)")),
    Facet("law_enforcement", _words(r"\b(?:law enforcement|police|government|authorities|subpoena|court)\b"),
          _words(r"\b(?:law enforcement|subpoenas?|court orders?|legal process|government\w*|required by law|"
                 r"comply with (?:the |applicable |any )?(?:law|legal)|legal (?:obligations?|requirements?)|"
                 r"police|authorities|judicial)\b"),
          "gives your information to law enforcement",
          "does not give your information to law enforcement",
          # handing data over when the law requires it (a subpoena, a court order, legal process) is an "only if"
          condition=_words(r"\b(?:required|compelled|obligated|obliged|mandated) (?:to do so )?by (?:\w+ ){0,2}law|"
                           r"\blegal(?:ly)? (?:process|obligations?|obligated|required|requirements?|requests?)|"
                           r"\bsubpoenas?\b|\bcourt orders?\b|\bwarrants?\b|\blawful (?:requests?|process)|"
                           r"\bcomply with (?:the |applicable |any |a )?(?:\w+ )?(?:laws?|legal|regulations?|requests?)|"
                           r"\bbinding (?:request|order)|\bgood[- ]faith belief\b|\bif we believe\b|"
                           r"\bwhere (?:required|permitted) by law\b"),
          conditional_opening="When the law requires it",
          # keeping data because the law requires it, not handing it over ("We may also retain personal information if
          # required by law")
          aside=_words(r"\b(?:retain|retained|keep|kept|store|stored|preserve)\b(?:(?!\b(?:disclos\w*|share|provide|give)\b)"
                       r"[^.;]){0,80}\b(?:required by law|comply with|legal)"),
          # handing data over to the law ("disclose … in response to a subpoena"), not processing it to comply with it
          # in one item of a list: not "- Provide the services … - Comply with law" in a table of uses
          preferred=_words(_HANDS_OVER + _IN_ONE_ITEM + r"\b(?:law|legal|subpoenas?|courts?|authorit\w*|government\w*|police)\b|"
                           r"\b(?:law|legal|subpoenas?|courts?|authorit\w*|government\w*|police)\b" + _IN_ONE_ITEM + _HANDS_OVER +
                           r"|\brespond\w* to (?:\w+ ){0,3}(?:subpoenas?|court orders?|legal process|lawful requests?)")),
    Facet("collection_location", _words(r"\b(?:location|where I am|whereabouts|GPS|geo-?locat\w*)\b"),
          _words(r"\b(?:location|geo-?locat\w*|GPS|whereabouts)\b"),
          "collects your location", "does not collect your location", denials_first=True,
          # where the data is kept, or "regardless of / depending on your location": not where you are
          not_about=_words(r"\b(?:storage|processing|server|hosting)(?: and (?:storage|processing))? locations?\b|"
                           r"\b(?:regardless of|depending on) (?:\w+ ){0,2}locations?\b")),
    # whether the service honours a browser's privacy signal: Do Not Track, or Global Privacy Control and other opt-out
    # preference signals, which many policies answer differently ("we do not respond to DNT …; we honor GPC") — each
    # asked of the statements naming it (`tests/fixtures/browser_signal_sentences.tsv`: real sentences, labelled
    # blind). Ahead of cookies: "Do you respect Do Not Track?" asks about the signal, not the tracking.
    Facet("do_not_track", _words(_DNT + r"|\bbrowser(?:['’]s)? (?:privacy )?signals?\b"),
          # "… respond to this signal, and we do not take any action in response to this signal": the sentence after
          # the one that names it
          _words(_DNT + r"|\b(?:this|these|such) (?:browser )?(?:signals?|requests?|settings?)\b"),
          "honours Do Not Track signals", "does not honour Do Not Track signals", refines="cookies_tracking",
          decisive=True, denial_only=True, beyond_retriever=True, also=_words(_RESPONDS), not_about=_words(_POINTER),
          denial=_words(_IGNORES_SIGNAL), condition=_words(_SOME_PLACES), conditional_opening="Only in some cases"),
    Facet("privacy_signal", _words(_GPC), _words(_GPC), "honours Global Privacy Control (opt-out preference) signals",
          "does not honour Global Privacy Control (opt-out preference) signals", refines="cookies_tracking",
          decisive=True, denial_only=True, beyond_retriever=True, also=_words(_RESPONDS), not_about=_words(_POINTER),
          denial=_words(_IGNORES_SIGNAL), condition=_words(_SOME_PLACES), conditional_opening="Only in some cases"),
    Facet("cookies_tracking", _words(r"\b(?:cookies?|track|tracks|tracking|beacons?|pixels?)\b"),
          _words(r"\b(?:cookies?|web beacons?|pixel tags?|pixels|clear gifs?|tracking technolog\w*|local storage|"
                 r"flash|tracking)\b"),
          "uses cookies or similar technologies to track you",
          "does not use cookies or similar technologies to track you"),
    Facet("deletion", _words(r"\b(?:delete|deleted|deletion|erase|erased|erasure|remove|close my account|deactivate)\b"),
          _words(r"\b(?:delet\w*|eras\w*|remov\w*|close your account|deactivat\w*|cancel your (?:account|registration|"
                 r"membership))\b"),
          "you can delete your account or data", "you cannot delete your account or data", about_you=True,
          preferred=_words(_YOUR_RIGHT), aside=_words(_LIMITED_RIGHT),
          also=_words(r"\b(?:account|registration|membership|(?:your|personal|the) (?:information|data|profile|details)|personally "
                      r"identifiable|conversations?|chats?|(?:your|the) (?:activity|history|content))\b")),
    Facet("access_correction", _words(r"\b(?:access|correct|update|edit|see|review|export|download|fix|(?:get|obtain|request|receive|have) (?:a )?copy)\b.*\b(?:my|"
                                      r"personal)\b|\b(?:my|personal)\b.*\b(?:wrong|inaccurate|incorrect)\b"),
          _words(r"\b(?:access(?:ing)?|correct\w*|update|updating|edit|review(?:ing)?|change (?:your|the|any) (?:\w+ )?"
                 r"(?:information|data|details|profile)|change your|modify|modifying|rectif\w*)\b"),
          "you can access or correct your personal information",
          "you cannot access or correct your personal information", about_you=True,
          parts=((_words(r"\b(?:access|see|view|check|look at|copy|know what)\b"),
                  _words(r"\baccess\w*|\bright to know\b|\bcop(?:y|ies) of\b")),
                 (_words(r"\b(?:correct\w*|rectif\w*|fix\w*|update|amend|edit|inaccura\w*|mistakes?|wrong|errors?)\b"),
                  _words(r"\b(?:correct(?:ed|ion|ions|ing)?|rectif\w*|updat\w*|amend\w*|fix\w*|modif\w*|edit\w*)\b"))),
          # a limit on the right, or reading the policy itself ("you should review the Policy periodically")
          aside=_words(_LIMITED_RIGHT + r"|\breview (?:this|the|our) (?:\w+ )?(?:policy|notice|statement)\b|"
                       # access to the product, not to your data ("a requirement for access to the product", "each
                       # time you make a request to access (i.e., visit) a web page")
                       r"\baccess (?:and \w+ )?(?:(?:to|for) )?(?:the|our|a|an|its) (?:\w+ ){0,2}(?:products?|site|website|services?|app|"
                       r"web page|page|games?)\b|\brequest to access \(i\.e\.|"
                       # the company's access to your things ("Instagram will access your contacts list")
                       r"(?<!\byou )\b(?:will|might|would) (?:also )?access\b|\bwe (?:may |can |will |might )?(?:also )?access\b|"
                       # software updated, not your data ("automatically update the Instagram application on your device")
                       r"\bupdat\w* (?:the|our|its) (?:\w+ )?(?:application|app|software|browser|operating system)\b|"
                       # others' access ("you allow them to access your User Content")
                       r"\b(?:them|they|third[- ]part\w*|others|providers?|partners?) (?:\w+ ){0,2}access\b|"
                       # the company's staff, or its lack of access ("Authorized OpenAI employees will only ever access
                       # your conversations …", "If Inshallah does not have access to this data, the Service will not
                       # function")
                       r"\b(?:employees?|staff|personnel)\b[^.]{0,40}\baccess\b|\b(?:does|do|did|will|would) not have access\b"),
          question_not=_words(r"\b(?:outside|third[- ]part\w*|other|compan(?:y|ies)|partners?|advertisers?|vendors?|"
                              r"government|police|authorities|anyone|others)\b[^?]{0,40}?\b(?:get|gets|have|has|"
                              r"gain|given|obtain)\s+access\b"),
          # what you can do ("you can update …", "the right to access …"), not "we reserve the right to access"
          preferred=_words(r"(?:\byou (?:can|may|could)(?: also)?|\byou have the right to|(?<!reserve )\bthe right to|"
                           r"\byour right to|\brequest|\bask us to|^\W*(?:update|review|access|correct|rectify|obtain|receive))\W+(?:\w+\W+){0,4}?"
                           r"(?:access|correct\w*|update|edit|review|modify|change|rectif\w*|see|obtain|know)\b|"
                           # a list of rights in the imperative: "Access your Personal Data …"
                           r"^\W*(?:access|rectify|correct|update|obtain|receive)(?:,?\s+(?:or|and)\s+(?:access|rectify|"
                           r"correct|update|obtain|receive|delete|erase))?\s+(?:your|a copy)\b|"
                           # how to ask ("questions about reviewing, modifying, or deleting your information, you can
                           # contact us"), not the company updating its services
                           # "If you … wish to review, access, amend or correct it"
                           r"\bwish to (?:\w+,? (?:or )?){0,2}(?:review|access|amend|correct|update)\b|"
                           r"\b(?:reviewing|accessing|modifying|correcting|updating)\b[^.]{0,40}\byour (?:personal )?"
                           r"(?:information|data)\b")),
    # before retention: "Is my data stored or processed in other countries?" asks where, not how long
    # where the data goes, not any "transfer" ("Do they transfer my data to third parties?" is about sharing)
    Facet("international_transfer", _words(r"\b(?:countr\w*|abroad|overseas|international\w*|cross-border|"
                                           r"outside (?:of )?(?:the|my|your|Europe|EU|EEA|US|U\.S\.)|jurisdictions?)\b"),
          _words(r"\b(?:other countr\w*|countr\w* other than|outside (?:of )?(?:the|your)|abroad|overseas|"
                 r"international\w*|cross-border|United States|Privacy Shield|Safe Harbor|(?:any|another) countr\w*|"
                 # another jurisdiction, not the law of "certain jurisdictions"
                 r"(?:other|another|different|foreign|any) jurisdictions?|jurisdictions? (?:other than|outside)|"
                 r"(?:out|outside) of (?:the )?(?-i:[A-Z][a-z]+)|non-(?:EU|EEA|European))\b"),
          "transfers your data to other countries", "does not transfer your data to other countries",
          preferred_anywhere=True,
          # a court's or an authority's jurisdiction is not where the data goes
          aside=_words(r"\b(?:exclusive |competent )?jurisdiction of (?:the )?courts?\b|\bsubmit to (?:the )?(?:exclusive )?"
                       r"jurisdiction\b"),
          # data moved or kept abroad, not which company is responsible "if you live outside the EEA"
          preferred=_words(r"\btransfer\w*|\bcross-border\b|\b(?:stor|process|host|locat|sen[dt])\w* (?:\w+ ){0,8}?"
                           r"(?:in|to|outside)\b")),
    # "kept secure", "keep my data safe" ask about security, not retention
    Facet("retention", _words(r"\b(?:how long|retain|retention|(?:keep|kept|store|stored)(?!(?:\s+\w+){0,3}\s+"
                              r"(?:secure|securely|safe|safely|protected|private|confidential)\b))\b"),
          _words(r"\b(?:retain\w*|retention|as long as (?:necessary|needed|required|reasonably|your|you|is|we)|"
                 r"(?:for|up to|within|after) (?:a period of )?(?:(?:approximately|about|around|up to|at least|at most|"
                 r"no (?:more|longer) than|a (?:maximum|minimum) of) )?(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|"
                 r"twelve|fifteen|eighteen|twenty|twenty-four|thirty|sixty|ninety) (?:\(\d+\) )?"
                 r"(?:days?|months?|years?)|indefinitely|(?:keeps?|kept|stores?|stored) (?:it|them|this|such|your|"
                 r"the|personal|information|data)\b[^.]*\b(?:for|until|as long))"),
          "keeps your data for a stated period", "does not limit how long it keeps your data",
          # not keeping card numbers at all is no period ("we do not retain … financial information in connection
          # with credit card payments")
          not_about=_words(r"\b(?:not|never) (?:\w+ )?(?:retain|store|keep|hold)\b[^.]{0,80}\b(?:credit card|card numbers?|"
                           r"payment card|card details|financial information)\b"),
          # the period itself ("for 5 years", "until you delete your account"), not the heading of a list of them
          preferred=_words(r"\b(?:\d+|one|two|three|six|twelve|thirty|ninety)\s+(?:\(\d+\)\s+)?(?:days?|weeks?|months?|years?)\b|"
                           r"\buntil (?:you|your|the|it|we)\b|\bas long as\b|\bindefinitely\b"),
          one_case=_words(r"^\W*(?:in (?:the )?case (?:of|that|you)|if you|when you|for (?:\w+ ){0,3}(?:data|information|"
                          r"records|logs|recordings|applicants?|candidates?)\b)")),
    Facet("contact_dpo", _words(r"\b(?:contact|data protection officer|DPO|privacy officer|reach|email|write)\b"),
          _words(r"\b(?:contact us|data protection officer|DPO|privacy officer|grievance officer|e-?mail us|write to us|"
                 r"questions|concerns|queries|get in touch|contact)\b|\b(?<![-.])(?:privacy|dpo|gdpr|data-?protection)@"),
          "can be contacted about privacy questions", "cannot be contacted about privacy questions",
          preferred_anywhere=True,
          # contact details as data collected ("Basic contact details, such as name, address …", "When you contact
          # us, we collect …"), not a way to reach the company
          aside=_words(r"\b(?:collect\w*|provide|receive|process\w*)\b[^.]{0,60}\bcontact (?:details|information|data|info)\b|"
                       r"\bcontact (?:details|information|data|info)\b,? (?:such as|including|like|e\.g\.|\()|"
                       r"\bwhen you contact us\b|\bcontact lists?\b|^\W*contact (?:details|information|data|info)\s*:\s*[\w ]{1,30},|"
                       # a parent's contact about a child's data ("If you are a parent … you may contact us by sending
                       # an email to privacy@…"): the privacy contact, but for one case
                       r"\bif you are a parent\b|\b(?:your|a) child\b[^.]{0,80}\bcontact\b|"
                       # a regulator ("you have the right to contact your local supervisory authority")
                       r"\b(?:contact|complain\w* to|complaint with) (?:your|the|a|their) (?:local |competent |relevant |"
                       r"national )?(?:supervisory|data protection) authorit\w*|"
                       # the company contacting you ("Contact you regarding our products …")
                       r"\b(?:to )?contact(?:ing)? you\b|"
                       # a pointer to the details elsewhere ("via the information in the “Contact Us” section")
                       r"\b(?:in|at|under|see) (?:the |our )?[\"“]?contact(?: us)?[\"”]? section\b|"
                       r"\b(?:details|information) (?:provided |set out |listed |given )?at the (?:end|bottom)\b|"
                       # someone else to ask ("… please contact the organization who has provided your information")
                       r"\bcontact (?:the|that|your|their) (?:\w+ )?(?:organi[sz]ation|company|controller|employer|"
                       r"administrator|customer|school|provider|third part\w*|operators?)\b"),
          # questions about *this* policy or *our* practices (not "the privacy practices of those external sites"),
          # a privacy officer, or a privacy mailbox
          preferred=_words(r"\b(?:questions?|concerns?|comments?|complaints?)\b.*\b(?:this|our) (?:privacy )?(?:policy|policies|"
                           r"statement|notice|practices)\b|\b(?:this|our) (?:privacy )?(?:policy|statement|notice|practices)\b.*"
                           r"\b(?:questions?|concerns?)\b|"
                           # questions about your data or rights ("Please contact [email protected] if you have any
                           # questions pertaining to GDPR and your rights"; not "answering questions, and providing
                           # information about yourself" in a list of services)
                           r"\b(?:questions?|concerns?|quer(?:y|ies))(?:,? (?:or|and) \w+)? (?:about|regarding|pertaining to|concerning|"
                           r"relating to)\b[^.]{0,40}\b(?:GDPR|data protection|(?:the use of )?your (?:privacy|personal \w+|"
                           r"private \w+|data|information|rights))\b|\b(?:data protection|grievance) officer\b|\bDPO\b|\bprivacy "
                           r"(?:officer|coordinator|agent|team|issues?)\b|\b(?<![-.])(?:privacy|dpo|gdpr|data-?protection)@|"
                           r"\bprivacy[- ]related (?:matters|questions|issues|concerns|requests)\b")),
    Facet("security", _words(r"\b(?:secure|securely|security|protect\w*|encrypt\w*|safe|hack\w*|breach\w*)\b"),
          _words(r"\b(?:secur\w*|encrypt\w*|SSL|TLS|safeguard\w*|protect\w*|firewalls?)\b"),
          "protects your data with security measures", "does not protect your data with security measures",
          # the measures ("encrypted", "safeguards"), not a disclaimer or a pointer to another document
          preferred=_words(r"\bencrypt\w*|\bSSL\b|\bTLS\b|\bsafeguards?\b|\bmeasures\b|\bfirewalls?\b|"
                           r"\b(?:take|takes|use|uses) (?:\w+ ){0,3}(?:steps|means|precautions|efforts)\b|"
                           r"\b(?:protect|secure)s? (?:your|the|all) (?:personal )?(?:data|information)\b|\btreated securely\b"),
          aside=_words(r"\bguarantee\w*|\b(?:100|completely|perfectly) secure\b|\bplease (?:review|see|read|refer to|"
                       r"visit|consult)\b"),
          # disclosure "to protect our rights and property" (a legal ground), not a measure
          not_about=_words(r"\bprotect (?:the |our |its |their )?(?:legal |business )?(?:rights|interests)\b|"
                           r"\brights,? (?:and|or) property\b|"
                           # nor safety, e-mails about security, or pages behind a log-in
                           r"\bprotect (?:the )?(?:health|safety|vital interests)\b|\bsecurity (?:notices|alerts)\b|"
                           r"\bsecure areas?\b")),
    # whether children may use the service at all: its minimum age ("Can kids use this app?", "How old do I have to
    # be?"), not what it collects from them
    Facet("children_use", _words(r"^(?=.*\b(?:child\w*|kids?|minors?|teen\w*|under 1[0-9]|young people|sons?|daughters?|"
                                 r"\d{1,2}[- ]years?[- ]olds?)\b)"
                                 r"(?!.*\b(?:collect\w*|gather\w*|data|information|info|details|sell\w*|shar\w*)\b).*"
                                 r"\b(?:use|using|join|sign up|register|create an account|open an account|allowed|permitted)\b|"
                                 r"\bminimum age\b|\bhow old\b|\bage (?:limits?|requirements?|restrictions?)\b|\bold enough\b|"
                                 r"\bage to (?:use|join|register|sign up)\b"),
          _words(r"\b(?:child\w*|minors?|kids|teens?|teenagers?|under (?:the )?(?:age (?:of )?)?(?:1[0-9]|thirteen|sixteen|"
                 r"eighteen)|(?:at least|over|older than) (?:the age of )?1[0-9]|age of (?:1[0-9]|majority|consent)|"
                 r"1[0-9] years (?:of age|old)|years of age|legal adults|parental|parents? or (?:legal )?guardians?)\b"),
          "lets children use its service", "does not let children use its service", refines="children",
          # who may use or join, not what is collected from them (nor "please use the reporting mechanism", "the laws
          # designed to protect children")
          also=_words(r"\b(?:use|using|access|register for|sign up for|join)\b[^.;]{0,30}\b(?:service|services|site|website|"
                      r"app|application|platform|properties|products?)\b|\b(?:register|sign up|create an account|"
                      r"open an account|intended|directed|direct|designed|meant|aimed|targeted|allowed|permitted|permit|"
                      r"eligible|restricted to|must be|only with|not for|(?:does|do) not address)\b|"
                      r"\b(?:affirm|represent|warrant|confirm|promise)\w* (?:\w+ ){0,4}that (?:\(\w+\) )?you are\b|"
                      r"\bonly for (?:users|adults|"
                      r"individuals|persons|people)\b"),
          not_about=_words(r"\b(?:laws?|acts?|code)\b[^.]{0,40}\b(?:protect children|children)\b|\bnot responsible\b|"
                           r"\bnumber of children\b"),
          preferred=_words(r"\bmust be\b|\b(?:at least|over|older than) (?:the age of )?1[0-9]|\bnot (?:intended|directed|"
                           r"designed|meant|aimed|targeted)\b|\bonly with\b|\bminimum age\b|\b(?:may|can) (?:only )?use\b|"
                           r"\brestricted to\b|\b(?:do|does) not (?:permit|allow|address)\b"),
          # a minimum age: "not intended for …", "you must be at least 18", "you affirm that you are over 16",
          # "intended only for users 18 years of age or older", "please do not attempt to register"
          denial=_words(r"\bnot (?:be )?(?:intended|directed|designed|meant|aimed|targeted|allowed|permitted|eligible|for)\b|"
                        r"\bnot (?:\w+ ){0,3}direct (?:\w+ ){0,5}to children\b|\b(?:do|does) not address\b|"
                        r"\bmust (?:be|have reached)\b|\b(?:may|can|should|must) not (?:use|access|register|sign up|create)\b|"
                        r"\b(?:please )?do not (?:attempt to )?(?:use|access|register|sign up|create)\b|"
                        r"\bno one under\b|\bprohibit\w*|\b(?:do|does) not (?:allow|permit)\b|\brestricted to\b|"
                        r"\b(?:at least|over|older than) (?:the age of )?(?:1[0-9]|thirteen|sixteen|eighteen)\b|"
                        r"\b(?:1[0-9]|thirteen|sixteen|eighteen)(?: \(\d+\))? years? (?:of age |old )?(?:and|or) (?:older|over|above)\b|"
                        r"\bintended (?:only )?for (?:\w+ ){0,3}(?:adults|aged?)\b|\blegal adults\b"),
          # with a parent's consent: "only with the involvement of a parent or guardian", "your parent or guardian has
          # granted you permission", "we require the consent of a parent or legal guardian"
          condition=_words(r"\bwith (?:the )?(?:involvement|consent|permission|supervision|approval|authori[sz]ation) of "
                           r"(?:a |your |their |the )?(?:parents?|guardians?)\b|\bparental(?:/legal guardian’s)? (?:consent|"
                           r"permission|approval|supervision)\b|\b(?:parent|guardian)(?:'s|’s)? (?:consent|permission|approval|"
                           r"supervision)\b|\b(?:consent|permission) of (?:a |your |the )?parent\b|\bparent or (?:legal )?guardian\b"
                           r"[^.]{0,60}\b(?:consent|permission)\b"),
          conditional_opening="Only with a parent or guardian"),
    Facet("children", _words(r"\b(?:child|children|kids?|minors?|under 1[0-9]|teen\w*|COPPA)\b"),
          _words(r"\b(?:child\w*|minors?|under (?:the )?(?:age (?:of )?)?1[0-9]|age of majority|kids|COPPA|parental)\b"),
          "collects information from children", "does not knowingly collect information from children",
          denials_first=True,
          # the headline speaks of collecting: a sentence that only sells or shares children's data answers
          # another question ("We don't knowingly sell or share personal information of those under 16")
          also=_words(r"\b(?:collect\w*|gather\w*|obtain\w*|solicit\w*|receiv\w*|"
                      r"process\w*|stor(?:e|es|ed|ing)|maintain\w*|(?:information|data) (?:from|about)|"
                      # or does not let them in at all ("No one under age 13 is allowed to register")
                      r"(?:allowed|permitted|able|eligible) to (?:register|sign up|create an account|use)|"
                      r"(?:not|never) (?:allow|permit)\w*|may not (?:register|sign up|create|use)|"
                      # "If you are under 13, we don’t want your personal information, and you must not provide it"
                      r"want (?:your |any )?(?:personal )?(?:information|data)|must not (?:provide|submit|send|give))\b"),
          # collecting children's information, not whom the service is meant for
          preferred=_words(r"\b(?:collect\w*|gather\w*|knowingly|personal(?:ly identifiable)? (?:information|data))\b")),
    Facet("policy_changes", _words(r"\b(?:policy|notice|statement|terms)\b.*\b(?:change|changes|update\w*|modif\w*)|"
                                   r"\b(?:change|changes|update\w*|modif\w*)\b.*\b(?:policy|notice|statement|terms)\b"),
          _words(r"\b(?:chang\w*|updat\w*|modif\w*|revis\w*|amend\w*)\b"),
          "tells you when the policy changes", "does not tell you when the policy changes",
          # a change to the policy, not any change ("If you ever change your mind …", "a new change of date of birth")
          also=_words(r"\b(?:policy|policies|notice|statement|terms|this (?:page|document|version)|post(?:s|ed|ing)?|"
                      r"effective|material(?:ly)?)\b"),
          # the date line alone ("Last updated: 02.01.2025") says nothing of telling you
          not_about=_words(r"^\W*(?:last|date (?:last )?)\s*(?:updated|revised|modified)\b[^.]{0,30}$"),
          preferred=_words(r"\b(?:notif\w*|notice|inform(?!ation)\w*|let you know|alert|aware|e-?mail)\b"),
          aside=_words(r"\bcontinu\w* (?:to )?use\b")),
    Facet("sharing_third_parties", _words(r"\b(?:share|shares|shared|sharing|give|disclos\w*|pass|third[- ]part\w*|"
                                          r"(?:other|outside) compan\w*|partners?|(?:get|gets|have|has|gain|given) "
                                          r"access)\b"),
          _words(r"\b(?:share|shares|shared|sharing|disclos\w*|provide|transfer|third[- ]part\w*|affiliates?|"
                 r"partners?|service providers?)\b"),
          "shares your personal information with other companies",
          "does not share your personal information with other companies",
          # the company hands data over ("we may share …", "Anthropic will disclose …"), not a right to ask who
          # got it ("If a business sells or shares your Personal Information, you have the right …") nor what
          # the company shows from others ("we may display content from third parties")
          preferred=_words(r"(?:\bwe\s+(?:also\s+|only\s+)?|\b(?:may|will|can|might|would)\s+(?:also\s+|only\s+)?)"
                           r"(?:share|disclose|provide|transfer|give|make available)\b"),
          # a merger, the law, data that is not personal, or what the recipients may not do with it
          aside=_words(r"\b(?:merger|acquisition|acquired|bankruptcy|reorgani[sz]ation|dissolution|liquidation|"
                       r"successor|subpoenas?|court orders?|legal process|law enforcement|required by law|corporate "
                       r"transaction|(?:portion|all|part) of (?:our|the) business)\b|" + _NOT_PERSONAL +
                       r"|\b(?:they|who|which|but) (?:may|will|shall|must|are) not (?:\w+ )?(?:use|share|disclose|sell)\b|"
                       # disclosure to protect rights or answer the law ("if we believe in good faith that …")
                       r"\bin good faith\b|\bviolated? (?:the|any|applicable) (?:law|terms)\b|"
                       # data coming in, not going out ("we may receive information about you", "the social platform
                       # will share your name … back with us")
                       r"\bwe (?:may |might |will |also |can |could )*(?:receive|obtain)\b|"
                       r"\b(?:may|might|will|can|also) (?:receive|obtain) [^.;]{0,80}?\bfrom (?:third[- ]part|other)|"
                       r"\bshares? [^.;]{0,60}?\b(?:back )?with us\b|"
                       # your right to ask who got it ("If a business sells or shares your Personal Information, you also
                       # have the right to ask …")
                       r"\byou (?:also )?have the right\b")),
)
BY_NAME = {facet.name: facet for facet in FACETS}
# One plain yes/no question per facet, in the order of a privacy label: what the label's "at a glance"
# rows ask of every policy (and the questions of the answers set, assistant/evaluation/data/).
GLANCE_QUESTIONS = {
    "sale": "Do they sell my personal information?",
    "sharing_advertisers": "Do they share my information with advertisers?",
    "sharing_third_parties": "Do they share my personal information with other companies?",
    "law_enforcement": "Do they give my information to law enforcement or the government?",
    "collection_location": "Do they collect my location?",
    "cookies_tracking": "Do they use cookies or similar technologies to track me?",
    "opt_out_ads": "Can I opt out of personalised or targeted ads?",
    "deletion": "Can I delete my account or my personal data?",
    "access_correction": "Can I access or correct my personal information?",
    "retention": "Do they say how long they keep my data?",
    "security": "Do they protect my data with security measures?",
    "children": "Do they knowingly collect information from children?",
    "international_transfer": "Do they transfer my data to other countries?",
    "policy_changes": "Will they tell me when the privacy policy changes?",
    "ai_training": "Do they use my data to train AI or machine-learning models?",
    "contact_dpo": "Can I contact them or a data protection officer about privacy questions?",
}


# The practice a facet asks about, as the question frame names actions (`frame.py`'s question actions): where the
# facet chosen is about collecting the data the question names and its verb asks another practice, the verb decides
# ("Do they sell my location data?" asks about selling, not about collecting a location): the word rules' facet if it
# asks that practice, else the practice's own (`understanding.question.practice_asked`).
FACET_ACTIONS = {"sale": "sell", "sharing_advertisers": "share", "sharing_third_parties": "share",
                 "law_enforcement": "share", "international_transfer": "transfer", "retention": "keep",
                 "collection_location": "collect", "cookies_tracking": "collect", "ai_training": "use"}
# The facet a verb asks about when the word rules name none that asks it ("do they monetize my browsing history?").
ACTION_FACETS = {"sell": "sale", "share": "sharing_third_parties", "transfer": "international_transfer",
                 "keep": "retention"}


# A condition put first ("If the government asks, will they turn over my data?"): the question is the main clause.
_LEADING_CONDITION = re.compile(r"^(?:if|when|whenever|once|in case|suppose|assuming|after|before|while)\b[^,?]*,\s*",
                                re.IGNORECASE)


# A question about the age itself ("Is there a minimum age?", "How old do I have to be?"): answered with the age.
ASKS_AGE = re.compile(r"\b(?:minimum age|age (?:limits?|requirements?|restrictions?)|how old|old enough)\b", re.IGNORECASE)


# "Where is my data stored?" asks a place: the transfers facet answers it, not retention (how long).
# Who runs the service or answers for the data ("Who is the data controller?", "Which Netflix company is responsible for
# my data?"): a company, not a list of recipients — answered by the sentence that names it
# (`understanding.statements.NAMES_CONTROLLER`).
ASKS_CONTROLLER = re.compile(r"\b(?:controller|responsible for|in charge of|owns|own|operates|runs|behind)\b",
                             re.IGNORECASE)
WHERE_INSTEAD = {"retention": "international_transfer"}


# A leading condition without its comma, then the main clause's auxiliary: the main clause starts there.
_UNMARKED_CONDITION = re.compile(r"^(?:if|when|whenever|once|after|before)\b(?:\s+(?!(?:what|which|who|whom|how|where|why)"
                                 r"\b)[\w'’-]+){2,8}?\s+((?:do|does|did|will|"
                                 r"would|can|could|is|are|should|may|might)\s.*)$", re.IGNORECASE)


def question_type(question: str) -> str:
    """yes_no, how_long, how_to, what, who, where or other, from the opening words of the question's main clause
    (after a leading condition: "If I close my account, do they delete my data?" is yes/no)."""
    text = _LEADING_CONDITION.sub("", question.strip().lower(), count=1)
    unmarked = _UNMARKED_CONDITION.match(text)  # "if i delete my account do my posts get deleted too?" (no comma)
    if _YES_NO_START.match(text) or (unmarked and _YES_NO_START.match(unmarked.group(1))):
        return YES_NO  # "Do they say how long they keep it?" is still yes/no
    if re.search(r"\bhow long\b", text):
        return "how_long"
    if re.match(r"^(?:how (?:do|can|could|would|should) (?:i|we|you)|how to)\b", text):
        return "how_to"
    for word, kind in (("what", "what"), ("which", "what"), ("who", "who"), ("whom", "who"), ("where", "where")):
        if text.startswith(word):
            return kind
    return "other"


def facet_of(question: str) -> Facet | None:
    """The first facet whose question words the question's main clause uses (after a leading condition: "If I
    close my account, how long do they keep my data?" asks about retention), else the whole question's, or None."""
    main = _LEADING_CONDITION.sub("", question.strip(), count=1)
    for text in dict.fromkeys((main, question)):
        facet = next((facet for facet in FACETS if facet.question.search(text)
                      and not (facet.question_not and facet.question_not.search(text))), None)
        if facet is not None:
            return facet
    return None


def facet_rules() -> FacetRules:
    """These rules as the facet classifier's training and evaluation take them (`assistant/models/facets`)."""
    from assistant.models.facets.train import FacetRules  # lazy: training and evaluation only

    return FacetRules(tuple(f.name for f in FACETS if f.refines is None), GLANCE_QUESTIONS, _rule_facet_name)


def _rule_facet_name(question: str) -> str | None:
    """The rules' facet as the classifier knows it: a narrower question counts as the facet it refines."""
    facet = facet_of(question)
    return (facet.refines or facet.name) if facet else None
