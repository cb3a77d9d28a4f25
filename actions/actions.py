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
from actions.policy_names import normalize, resolve
from actions.runtime import run_engine
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


async def answer(dispatcher: CollectingDispatcher, style: Style, question: str, policy: str) -> list[EventType]:
    """Ask the engine and show its answer; remember it for "why?" and follow-ups."""
    try:
        result, topics = await run_engine(_ask, question, policy)
    except InvalidQuestionError as error:
        dispatcher.utter_message(text=f"{style.text(error)} Please ask one question about the policy.")
        return [SlotSet("pending_question", None)]
    text = formatting.format_answer(result, topics, style)
    if style.markdown:  # the web page draws a card (web/chat.js)
        dispatcher.utter_message(json_message=formatting.answer_card(result, topics, text))
    else:
        dispatcher.utter_message(text=text)
    return [
        SlotSet("policy", result["policy"]),
        SlotSet("last_answer", json.dumps(result, ensure_ascii=False)),
        SlotSet("pending_question", None),
    ]


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
        try:
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
        if len(matches) != 1:
            shown = [p for p in policies if p["name"] in matches] or policies
            if matches:
                message = "Did you mean " + " or ".join(style.text(m) for m in matches) + "?"
            else:
                message = formatting.format_unknown_policy(typed or text, policies, style)
            dispatcher.utter_message(text=message, buttons=_policy_buttons(shown) if policies else [])
            return []
        chosen = next(p for p in policies if p["name"] == matches[0])
        text = formatting.format_chosen(chosen, style)
        if style.markdown:  # the web page marks the policy active
            dispatcher.utter_message(json_message=formatting.chosen_card(chosen, text))
        else:
            dispatcher.utter_message(text=text)
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
        question = " ".join((tracker.latest_message.get("text") or "").split())
        if len(question) > MAX_QUESTION_CHARS:
            dispatcher.utter_message(
                text=f"Your message is {len(question):,} characters long; I can take questions of up to "
                f"{MAX_QUESTION_CHARS:,} characters. Please ask one shorter question about the policy."
            )
            return []
        policies = await run_engine(_policy_infos)
        names = [p["name"] for p in policies]
        mentioned, _ = _mentioned_policies(tracker, names)
        policy = mentioned[0] if len(mentioned) == 1 else _current_policy(tracker, policies)
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
        return await answer(dispatcher, style, question, policy)


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
