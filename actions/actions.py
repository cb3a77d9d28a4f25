"""Rasa custom actions: each turn calls the one engine (actions/runtime.py) and formats its result.

No answering logic lives here. Per-conversation state is in slots (`policy`, `last_answer` as JSON,
`pending_question`), so two conversations never share a policy or an answer.
"""
from __future__ import annotations

import json
import logging
from abc import ABC, abstractmethod
from typing import Any

from rasa_sdk import Action, Tracker
from rasa_sdk.events import EventType, SlotSet
from rasa_sdk.executor import CollectingDispatcher

from actions import formatting
from actions.formatting import Style
from actions.policy_names import mentioned, normalize, question_beyond_name, resolve
from actions.runtime import run_engine, served_corpus
from assistant.foundation.errors import AssistantError, InvalidQuestionError
from assistant.foundation.settings import MAX_QUESTION_CHARS

logger = logging.getLogger(__name__)

TOP_K = 5  # evidence passages kept per answer; the first is shown with the answer, all on "why?"
POLICY_ENTITY = "policy_name"


# -- engine calls (run on the engine thread) -----------------------------------------------------

def _policy_infos(assistant: Any) -> list[dict]:
    return [
        {"name": s.latest.name, "version": s.latest.version, "sentences": s.latest.n_sentences}
        for s in assistant.policies()
    ]


def _label(assistant: Any, policy: str) -> dict:
    return assistant.label(policy).to_dict()


def _ask(assistant: Any, question: str, policy: str) -> tuple[dict, list[str]]:
    """The engine's answer as JSON-ready data; for an unanswerable question, the topics the policy covers."""
    answer = assistant.ask(question, policy=policy, top_k=TOP_K)
    topics: list[str] = []
    if not answer.answerable:
        topics = formatting.topics_from_sections(assistant.sections(answer.policy, answer.version))
    return answer.to_dict(), topics


def _compare(assistant: Any, policies: list[str], facet: str | None) -> dict:
    return assistant.compare(policies, facet).to_dict()


def _diff(assistant: Any, policy: str) -> dict:
    return assistant.diff(policy).to_dict()


def _ask_across(assistant: Any, question: str) -> dict:
    return assistant.ask_across(question).to_dict()


def _foreign_language(assistant: Any, text: str) -> str | None:
    return assistant.foreign_language(text)


def _resolve_followup(assistant: Any, previous: str | None, message: str) -> Any:
    """The engine's `Followup`: the question to ask, and what was carried over from the previous one."""
    return assistant.resolve_followup(previous, message)


def _facet_name(assistant: Any, words: str) -> str | None:
    facet = assistant.facet_of(words)
    return facet.name if facet else None


def _question_for_each_policy(assistant: Any, text: str) -> str | None:
    return assistant.question_for_each_policy(text)


def _corpus_named(assistant: Any, question: str) -> list[str]:
    """The served corpus's services the question names; none without a corpus."""
    corpus = served_corpus()
    if corpus is None:
        return []
    from assistant.corpus.catalogue import named_in  # lazy: pandas and FAISS, for a corpus only

    return named_in(corpus, question)


def _ask_corpus(assistant: Any, question: str) -> dict:
    """The question asked of the served corpus (the services it names, else all of them), as JSON-ready data; a
    question no profile answers, asked of many services, gets the corpus's closest passages instead."""
    from assistant.corpus.catalogue import ask, search  # lazy: as above
    from assistant.understanding.facets import GLANCE_QUESTIONS

    corpus = served_corpus()
    answers = ask(corpus, question, _encode(assistant))
    result = {"question": question, "facet": answers.facet, "summary": answers.summary(),
              "asked": GLANCE_QUESTIONS.get(answers.facet or ""),
              "answers": [a.to_dict() for a in answers.answers], "passages": []}
    if answers.facet is None and len(answers.answers) > MAX_CORPUS_DETAIL:
        result["answers"] = []
        result["passages"] = [vars(m) for m in search(corpus, _encode(assistant), question, top=TOP_K)]
    return result


def _encode(assistant: Any) -> Any:
    return lambda text: assistant.retriever.encode([text])[0]


MAX_CORPUS_DETAIL = 3  # services answered one by one; more get the counts per verdict


# -- helpers -------------------------------------------------------------------------------------

def _style(tracker: Tracker) -> Style:
    return Style.for_channel(tracker.get_latest_input_channel())


def _current_policy(tracker: Tracker, policies: list[dict]) -> str | None:
    """The conversation's chosen policy if it is still loaded."""
    chosen = tracker.get_slot("policy")
    if not chosen:
        return None
    for policy in policies:
        if policy["name"].lower() == str(chosen).lower():
            return policy["name"]
    return None


def _mentioned_policies(tracker: Tracker, names: list[str]) -> tuple[list[str], str | None]:
    """Policies designated by the message's policy_name entities (else its text), and what was typed."""
    typed_values = [str(v) for v in tracker.get_latest_entity_values(POLICY_ENTITY) if str(v).strip()]
    for typed in typed_values:
        matches = resolve(typed, names)
        if matches:
            return matches, typed
    return [], typed_values[0] if typed_values else None


def _policy_buttons(policies: list[dict]) -> list[dict]:
    return [
        {"title": p["name"], "payload": "/choose_policy" + json.dumps({POLICY_ENTITY: p["name"]})}
        for p in policies
    ]


async def answer(dispatcher: CollectingDispatcher, style: Style, question: str, policy: str,
                 followup: Any = None, switched: bool = False) -> list[EventType]:
    """Ask the engine and show its answer (saying what a follow-up was taken to mean, and a policy
    switch); remember it for "why?" and follow-ups."""
    try:
        result, topics = await run_engine(_ask, question, policy)
    except InvalidQuestionError as error:
        dispatcher.utter_message(text=f"{style.text(error)} Please ask one question about the policy.")
        return [SlotSet("pending_question", None)]
    text = formatting.format_answer(result, topics, style)
    note = formatting.conversation_note(result["policy"], switched, followup, style)
    if note:
        text = style.join([note, text])
    if style.markdown:  # the web page draws a card (web/chat.js)
        plain_note = formatting.conversation_note(result["policy"], switched, followup)
        dispatcher.utter_message(json_message=formatting.answer_card(result, topics, text, plain_note))
    else:
        dispatcher.utter_message(text=text)
    return [
        SlotSet("policy", result["policy"]),
        SlotSet("last_answer", json.dumps(result, ensure_ascii=False)),
        SlotSet("pending_question", None),
    ]


async def answer_from_corpus(dispatcher: CollectingDispatcher, style: Style, question: str) -> list[EventType]:
    """The question answered from the served corpus's stored profiles and sentences, without an ingest."""
    result = await run_engine(_ask_corpus, question)
    dispatcher.utter_message(text=formatting.format_corpus(result, style))
    return [SlotSet("pending_question", None)]


def _wordless_reply(text: str) -> str | None:
    """The reply to a message with no words in it (empty, spaces, only emoji or symbols), else None."""
    if text.startswith("/") or any(c.isalnum() for c in text):
        return None
    if not text.strip():
        return (
            "Your message was empty. Ask me a question about the policy, for example “Do they sell my data?”, "
            "or say “help”."
        )
    return (
        "I can only read words, not emoji or symbols. Ask me a question about the policy, for example "
        "“Do they sell my data?”, or say “help”."
    )


async def _is_exactly_a_policy_name(text: str) -> bool:
    """A message that is just a loaded policy's name ("Amazon.com", "markup-test") chooses it, whatever
    intent the NLU gave it: policy names are open-ended and cannot all be in the training data."""
    if not text.strip() or len(text) > 100 or "?" in text or text.startswith("/"):
        return False
    typed = normalize(text)
    return any(normalize(p["name"]) == typed for p in await run_engine(_policy_infos))


class EngineAction(Action, ABC):
    """Base: answers word-less messages, runs `act`, and turns any failure into a reply (a turn is never silent)."""

    async def run(self, dispatcher: CollectingDispatcher, tracker: Tracker, domain: dict) -> list[EventType]:
        style = _style(tracker)
        text = tracker.latest_message.get("text") or ""
        wordless = _wordless_reply(text)
        if wordless:
            dispatcher.utter_message(text=wordless)
            return []
        if not text.startswith("/") and len(" ".join(text.split())) > MAX_QUESTION_CHARS:
            dispatcher.utter_message(text=formatting.format_too_long(len(" ".join(text.split())), MAX_QUESTION_CHARS))
            return []
        try:
            if not text.startswith("/"):
                language = await run_engine(_foreign_language, text)
                if language:
                    dispatcher.utter_message(text=formatting.format_not_english(language, style))
                    return []
            if self.name() != ActionChoosePolicy.NAME and await _is_exactly_a_policy_name(text):
                return await ActionChoosePolicy().act(dispatcher, tracker, style)
            return await self.act(dispatcher, tracker, style)
        except AssistantError as error:
            dispatcher.utter_message(text=style.text(error))
        except Exception:
            logger.exception("Action %s failed for conversation %s", self.name(), tracker.sender_id)
            dispatcher.utter_message(text="Sorry, something went wrong on my side. Please try again in a moment.")
        return []

    @abstractmethod
    def name(self) -> str:
        """The action's name in domain.yml."""

    @abstractmethod
    async def act(self, dispatcher: CollectingDispatcher, tracker: Tracker, style: Style) -> list[EventType]:
        """The turn's work; `style` formats text for the conversation's channel."""


class ActionGreet(EngineAction):
    def name(self) -> str:
        return "action_greet"

    async def act(self, dispatcher, tracker, style):
        policies = await run_engine(_policy_infos)
        dispatcher.utter_message(text=formatting.format_greeting(policies, _current_policy(tracker, policies), style))
        return []


class ActionHelp(EngineAction):
    def name(self) -> str:
        return "action_help"

    async def act(self, dispatcher, tracker, style):
        policies = await run_engine(_policy_infos)
        dispatcher.utter_message(text=formatting.format_help(policies, _current_policy(tracker, policies), style))
        return []


class ActionListPolicies(EngineAction):
    def name(self) -> str:
        return "action_list_policies"

    async def act(self, dispatcher, tracker, style):
        policies = await run_engine(_policy_infos)
        current = _current_policy(tracker, policies)
        buttons = _policy_buttons(policies) if len(policies) > 1 else []
        dispatcher.utter_message(text=formatting.format_policy_list(policies, current, style), buttons=buttons)
        return []


class ActionChoosePolicy(EngineAction):
    """Choose a policy by (approximate) name; then answer the question that was waiting for it."""

    NAME = "action_choose_policy"

    def name(self) -> str:
        return self.NAME

    async def act(self, dispatcher, tracker, style):
        policies = await run_engine(_policy_infos)
        names = [p["name"] for p in policies]
        matches, typed = _mentioned_policies(tracker, names)
        text = tracker.latest_message.get("text") or ""
        if not matches and not text.startswith("/"):
            matches = resolve(text, names)
        in_corpus = [] if matches or text.startswith("/") else await run_engine(_corpus_named, text)
        if in_corpus:
            if question_beyond_name(text, typed or in_corpus[0]):
                return await answer_from_corpus(dispatcher, style, " ".join(text.split()))
            dispatcher.utter_message(text=formatting.format_corpus_services(in_corpus, style))
            return []
        if len(matches) != 1:
            shown = [p for p in policies if p["name"] in matches] or policies
            if matches:
                message = "Did you mean " + " or ".join(style.text(m) for m in matches) + "?"
            else:
                message = formatting.format_unknown_policy(typed or text, policies, style)
            dispatcher.utter_message(text=message, buttons=_policy_buttons(shown) if policies else [])
            return []
        chosen = next(p for p in policies if p["name"] == matches[0])
        if not text.startswith("/") and question_beyond_name(text, typed or matches[0]):
            # "has amazon been hacked?": switch to amazon.com AND answer the question
            switched = (tracker.get_slot("policy") or "").lower() != chosen["name"].lower()
            return [SlotSet("policy", chosen["name"]),
                    *await answer(dispatcher, style, " ".join(text.split()), chosen["name"], switched=switched)]
        reply = formatting.format_chosen(chosen, style)
        if style.markdown:  # the web page marks the policy active
            dispatcher.utter_message(json_message=formatting.chosen_card(chosen, reply))
        else:
            dispatcher.utter_message(text=reply)
        events: list[EventType] = [SlotSet("policy", chosen["name"])]
        pending = tracker.get_slot("pending_question")
        if pending:
            events += await answer(dispatcher, style, str(pending), chosen["name"])
        elif (tracker.get_slot("policy") or "").lower() != chosen["name"].lower():
            events.append(SlotSet("last_answer", None))
        return events


class ActionAnswerQuestion(EngineAction):
    """Any privacy question: the engine's answer on the conversation's policy."""

    def name(self) -> str:
        return "action_answer_question"

    async def act(self, dispatcher, tracker, style):
        message = " ".join((tracker.latest_message.get("text") or "").split())
        followup = await run_engine(_resolve_followup, _previous_question(tracker), message)
        question = followup.question
        policies = await run_engine(_policy_infos)
        names = [p["name"] for p in policies]
        named, _ = _mentioned_policies(tracker, names)
        if not named and not mentioned(question, names) and await run_engine(_corpus_named, question):
            return await answer_from_corpus(dispatcher, style, question)
        current = _current_policy(tracker, policies)
        policy = named[0] if len(named) == 1 else current
        if policy is None:
            if not policies:
                dispatcher.utter_message(text=formatting.no_policies_message(style))
                return []
            if len(policies) > 1:
                dispatcher.utter_message(
                    text=formatting.format_which_policy(policies, question, style), buttons=_policy_buttons(policies)
                )
                return [SlotSet("pending_question", question)]
            policy = names[0]
        switched = current is not None and policy.lower() != current.lower()
        return await answer(dispatcher, style, question, policy, followup, switched)


def _previous_question(tracker: Tracker) -> str | None:
    """The question of the conversation's last answer (as it was understood), for follow-ups."""
    raw = tracker.get_slot("last_answer")
    if not raw:
        return None
    try:
        return json.loads(raw).get("question")
    except (ValueError, AttributeError):
        return None


async def _policies_for(tracker: Tracker, dispatcher: CollectingDispatcher, style: Style) -> tuple[list[dict], str | None]:
    """The loaded policies and the one the conversation is about (the one named in the message, else the
    chosen one, else the only one); None after telling the user what is missing."""
    policies = await run_engine(_policy_infos)
    names = [p["name"] for p in policies]
    named, _ = _mentioned_policies(tracker, names)
    text = tracker.latest_message.get("text") or ""
    named = named or mentioned(text, names)
    policy = named[0] if named else _current_policy(tracker, policies) or (names[0] if len(names) == 1 else None)
    if policy is None:
        if not policies:
            dispatcher.utter_message(text=formatting.no_policies_message(style))
        else:
            dispatcher.utter_message(text=formatting.format_which_policy(policies, None, style),
                                     buttons=_policy_buttons(policies))
    return policies, policy


class ActionComparePolicies(EngineAction):
    """"compare amazon and instagram on sharing": the policies side by side (engine.compare), on the facet
    the words name, or on every facet with the differences first."""

    def name(self) -> str:
        return "action_compare_policies"

    async def act(self, dispatcher, tracker, style):
        policies = await run_engine(_policy_infos)
        names = [p["name"] for p in policies]
        text = tracker.latest_message.get("text") or ""
        chosen: list[str] = []
        for typed in tracker.get_latest_entity_values(POLICY_ENTITY):
            chosen += [name for name in resolve(str(typed), names)[:1] if name not in chosen]
        chosen += [name for name in mentioned(text, names) if name not in chosen]
        current = _current_policy(tracker, policies)
        if len(chosen) == 1 and current and current not in chosen:
            chosen.insert(0, current)  # "compare it with instagram"
        if len(chosen) < 2 and len(names) == 2:
            chosen = names
        if len(chosen) < 2:
            dispatcher.utter_message(text=formatting.format_compare_which(policies, style))
            return []
        words = text
        for name in chosen:
            words = words.replace(name, " ")
        facet = await run_engine(_facet_name, words)
        comparison = await run_engine(_compare, chosen, facet)
        dispatcher.utter_message(text=formatting.format_comparison(comparison, facet is not None, style))
        return []


class ActionPolicyChanges(EngineAction):
    """"what changed in amazon's policy?": the latest version against the one before (engine.diff)."""

    def name(self) -> str:
        return "action_policy_changes"

    async def act(self, dispatcher, tracker, style):
        _, policy = await _policies_for(tracker, dispatcher, style)
        if policy is None:
            return []
        try:
            diff = await run_engine(_diff, policy)
        except AssistantError as error:
            dispatcher.utter_message(text=formatting.format_no_diff(policy, str(error), style))
            return []
        dispatcher.utter_message(text=formatting.format_diff(diff, style))
        return []


class ActionAskAcross(EngineAction):
    """"which policies sell my data?": the question asked of every stored policy (engine.ask_across), and of the
    served corpus's services."""

    def name(self) -> str:
        return "action_ask_across"

    async def act(self, dispatcher, tracker, style):
        text = " ".join((tracker.latest_message.get("text") or "").split())
        question = await run_engine(_question_for_each_policy, text) or text
        policies = await run_engine(_policy_infos)
        if policies:  # the person's own policies first, then the corpus's
            across = await run_engine(_ask_across, question)
            dispatcher.utter_message(text=formatting.format_across(across, style))
        if served_corpus() is not None:
            return await answer_from_corpus(dispatcher, style, question)
        if not policies:
            dispatcher.utter_message(text=formatting.no_policies_message(style))
        return []


class ActionShowEvidence(EngineAction):
    """"why?" / "show me where it says that": the full evidence of the last answer."""

    def name(self) -> str:
        return "action_show_evidence"

    async def act(self, dispatcher, tracker, style):
        raw = tracker.get_slot("last_answer")
        last = json.loads(raw) if raw else None
        dispatcher.utter_message(text=formatting.format_evidence(last, style))
        return []


class ActionSummarize(EngineAction):
    """"summarize" / "what do they collect?": the privacy label of the chosen policy."""

    def name(self) -> str:
        return "action_summarize"

    async def act(self, dispatcher, tracker, style):
        policies = await run_engine(_policy_infos)
        current = _current_policy(tracker, policies) or (policies[0]["name"] if len(policies) == 1 else None)
        if current is None:
            if not policies:
                dispatcher.utter_message(text=formatting.no_policies_message(style))
            else:
                dispatcher.utter_message(text=formatting.format_which_policy(policies, None, style),
                                         buttons=_policy_buttons(policies))
            return []
        label = await run_engine(_label, current)
        dispatcher.utter_message(text=formatting.format_label(label, style))
        return [SlotSet("policy", current)]


class StaticReply(EngineAction, ABC):
    """A fixed reply from the domain's responses (through an action for the word-less message check)."""

    response: str

    async def act(self, dispatcher, tracker, style):
        dispatcher.utter_message(response=self.response)
        return []


class ActionGoodbye(StaticReply):
    response = "utter_goodbye"

    def name(self) -> str:
        return "action_goodbye"


class ActionThank(StaticReply):
    response = "utter_thank"

    def name(self) -> str:
        return "action_thank"


class ActionOutOfScope(StaticReply):
    response = "utter_out_of_scope"

    def name(self) -> str:
        return "action_out_of_scope"


class ActionFallback(StaticReply):
    """Low NLU confidence (nlu_fallback)."""

    response = "utter_fallback"

    def name(self) -> str:
        return "action_fallback"
