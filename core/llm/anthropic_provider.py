"""Anthropic's Messages API with one forced tool. The only module importing the anthropic SDK, and only when the
anthropic provider is chosen."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from core.llm.base import LLMError, ToolLLM, Turn, provider_errors
from core.settings import SettingsError

if TYPE_CHECKING:
    import anthropic

DEFAULT_MODEL = "claude-3-5-haiku-latest"
ANTHROPIC_BASE_URL = "https://api.anthropic.com"  # explicit, so the SDK never picks ANTHROPIC_BASE_URL up


class AnthropicMessages(ToolLLM):
    provider = "anthropic"

    def __init__(
        self,
        model: str,
        api_key: str | None,
        base_url: str | None = None,
        *,
        timeout: float = 60.0,
        max_retries: int = 2,
        max_tokens: int = 4096,
    ):
        if not api_key:
            raise SettingsError("the anthropic provider needs ANTHROPIC_API_KEY")
        try:
            import anthropic
        except ImportError:
            raise LLMError("the anthropic provider needs the anthropic package: pip install 'memfix[llm]'") from None
        self.model, self.max_tokens = model, max_tokens
        self._anthropic = anthropic
        self._client: anthropic.Anthropic = anthropic.Anthropic(
            api_key=api_key, base_url=base_url or ANTHROPIC_BASE_URL, timeout=timeout, max_retries=max_retries
        )

    def _ask(self, system: str, messages: list[dict[str, Any]], schema: dict[str, Any], name: str,
             description: str) -> Turn:
        with provider_errors(self._anthropic, self.label):
            response = self._client.messages.create(
                model=self.model,
                max_tokens=self.max_tokens,
                system=system,
                messages=cast("list[anthropic.types.MessageParam]", messages),
                tools=[{"name": name, "description": description, "input_schema": schema}],
                tool_choice={"type": "tool", "name": name},
            )
        uses = [block for block in response.content if block.type == "tool_use"]
        arguments, problems = (uses[0].input, []) if uses else (None, [f"the answer did not call {name}"])
        if response.stop_reason == "max_tokens":
            problems.append(f"the answer was cut off at {self.max_tokens} tokens: keep it shorter")
        return Turn(arguments, problems, response.usage.input_tokens, response.usage.output_tokens, reply=response)

    def _retry_messages(self, turn: Turn, feedback: str) -> list[dict[str, Any]]:
        blocks, results = [], []
        for block in turn.reply.content:
            if block.type == "text":
                blocks.append({"type": "text", "text": block.text})
            elif block.type == "tool_use":
                blocks.append({"type": "tool_use", "id": block.id, "name": block.name, "input": block.input})
                # every tool_use must be answered by a tool_result in the next user turn
                results.append({"type": "tool_result", "tool_use_id": block.id, "content": feedback, "is_error": True})
        return [
            {"role": "assistant", "content": blocks or [{"type": "text", "text": "(no answer)"}]},
            {"role": "user", "content": results or feedback},
        ]
