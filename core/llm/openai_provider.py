"""Chat completions with one forced function call: OpenAI, or any OpenAI-compatible server (Ollama, vLLM, llama.cpp)
as the `local` provider. The only module importing the openai SDK for chat, and only when such a provider is chosen."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from core.llm.base import LLMError, ToolLLM, Turn, provider_errors
from core.settings import SettingsError

if TYPE_CHECKING:
    pass

DEFAULT_MODEL = "gpt-4o-mini"
OPENAI_BASE_URL = "https://api.openai.com/v1"  # explicit, so the SDK never picks OPENAI_BASE_URL from the environment
LOCAL_API_KEY = "unused"  # most local servers ignore the key, but the SDK insists on one


def strict_compatible(schema: dict[str, Any]) -> bool:
    """OpenAI's strict mode rejects a schema unless every object is closed and lists all its properties as required."""
    properties = schema.get("properties", {})
    if "properties" in schema or schema.get("type") == "object":
        if schema.get("additionalProperties") is not False or set(schema.get("required", ())) != set(properties):
            return False
    items = [schema["items"]] if isinstance(schema.get("items"), dict) else []
    return all(strict_compatible(child) for child in [*properties.values(), *items])


def openai_client(api_key: str | None, base_url: str | None, timeout: float, max_retries: int, *,
                  missing: Exception) -> tuple[Any, Any]:
    """The openai SDK and one client, for chat here and for embeddings: the only place the SDK is imported."""
    try:
        import openai
    except ImportError:
        raise missing from None
    client = openai.OpenAI(api_key=api_key or LOCAL_API_KEY, base_url=base_url or OPENAI_BASE_URL,
                           timeout=timeout, max_retries=max_retries)
    return openai, client


class OpenAIChat(ToolLLM):
    def __init__(
        self,
        model: str,
        api_key: str | None = None,
        base_url: str | None = None,
        *,
        timeout: float = 60.0,
        max_retries: int = 2,
        max_tokens: int = 4096,
        provider: str = "openai",
    ):
        if not (api_key or provider == "local"):
            raise SettingsError(f"the {provider} provider needs OPENAI_API_KEY")
        self.provider, self.model, self.max_tokens = provider, model, max_tokens
        self._openai, self._client = openai_client(
            api_key, base_url, timeout, max_retries,
            missing=LLMError(f"the {provider} provider needs the openai package: pip install 'memfix[llm]'"))

    def _ask(self, system: str, messages: list[dict[str, Any]], schema: dict[str, Any], name: str,
             description: str) -> Turn:
        strict = self.provider == "openai" and strict_compatible(schema)
        tool = {
            "type": "function",
            "function": {"name": name, "description": description, "parameters": schema, "strict": strict},
        }
        # OpenAI's reasoning models refuse max_tokens; compatible servers may not know its successor yet
        limit = {"max_completion_tokens" if self.provider == "openai" else "max_tokens": self.max_tokens}
        with provider_errors(self._openai, self.label):
            response = self._client.chat.completions.create(
                model=self.model,
                messages=[{"role": "system", "content": system}, *messages],
                tools=[tool],
                tool_choice={"type": "function", "function": {"name": name}},
                **limit,
            )
        usage = response.usage
        tokens = (usage.prompt_tokens, usage.completion_tokens) if usage else (0, 0)  # some local servers omit usage
        if not response.choices:
            return Turn(None, ["the answer was empty"], tokens[0], tokens[1], reply=None)
        choice = response.choices[0]
        arguments, problems = _arguments(choice.message, name)
        if choice.finish_reason == "length":
            problems.append(f"the answer was cut off at {self.max_tokens} tokens: keep it shorter")
        return Turn(arguments, problems, tokens[0], tokens[1], reply=choice.message)

    def _retry_messages(self, turn: Turn, feedback: str) -> list[dict[str, Any]]:
        message = turn.reply
        calls = (message.tool_calls or []) if message else []
        if not calls:
            return [
                {"role": "assistant", "content": (message and message.content) or ""},
                {"role": "user", "content": feedback},
            ]
        replay = [
            {"id": c.id, "type": "function", "function": {"name": c.function.name, "arguments": c.function.arguments}}
            for c in calls
        ]
        # the API requires a tool message answering every call before anything else is said
        return [
            {"role": "assistant", "content": message.content, "tool_calls": replay},
            *({"role": "tool", "tool_call_id": c.id, "content": feedback} for c in calls),
        ]


def _arguments(message: Any, name: str) -> tuple[Any, list[str]]:
    calls = message.tool_calls or []
    if not calls:
        return None, [f"the answer did not call {name}; answer only by calling it"]
    try:
        arguments = json.loads(calls[0].function.arguments or "")
    except json.JSONDecodeError as e:
        return None, [f"the arguments are not valid JSON: {e}"]
    if not isinstance(arguments, dict):
        return None, ["the arguments must be one JSON object"]
    return arguments, []
