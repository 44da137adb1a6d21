"""No model: the default, so memfix works without keys; pipelines check `model is None` and fix deterministically."""

from __future__ import annotations

from typing import Any

from core.llm.base import Completion, LLMError


class OfflineLLM:
    provider = "offline"
    model: str | None = None

    def complete(self, system: str, prompt: str, schema: dict[str, Any], *, name: str, description: str) -> Completion:
        raise LLMError("no model is configured (MEMFIX_LLM_PROVIDER=offline)")
