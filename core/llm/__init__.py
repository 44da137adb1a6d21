"""Language models behind one port (`LLM.complete` → a schema-valid `Completion`). Provider modules, and with them
the openai and anthropic SDKs, are imported only when their provider is chosen."""

from __future__ import annotations

from typing import TypedDict

from core.llm.base import LLM, Completion, LLMError, LLMOutputError, LLMUnavailable, validate
from core.llm.offline import OfflineLLM
from core.settings import Settings, SettingsError

__all__ = [
    "LLM",
    "PROVIDERS",
    "Completion",
    "LLMError",
    "LLMOutputError",
    "LLMUnavailable",
    "OfflineLLM",
    "llm_from_settings",
    "validate",
]

PROVIDERS = ("offline", "openai", "anthropic", "local")


class _Limits(TypedDict):
    timeout: float
    max_retries: int
    max_tokens: int


def llm_from_settings(settings: Settings, *, provider: str | None = None, model: str | None = None) -> LLM:
    """The deployment's model, or the provider and model a repository's `.github/memfix.yml` chose."""
    provider = (provider or settings.llm_provider).strip().lower()
    if provider not in PROVIDERS:
        raise SettingsError(f"the LLM provider must be one of {', '.join(PROVIDERS)}, got {provider!r}")
    if provider == "offline":
        return OfflineLLM()
    model, base_url = _model_and_url(settings, provider, model)
    limits = _Limits(timeout=settings.llm_timeout_seconds, max_retries=settings.llm_max_retries,
                     max_tokens=settings.llm_max_tokens)
    if provider == "anthropic":
        from core.llm import anthropic_provider

        return anthropic_provider.AnthropicMessages(
            model or anthropic_provider.DEFAULT_MODEL, settings.anthropic_api_key, base_url, **limits
        )
    from core.llm import openai_provider

    if provider == "openai":
        return openai_provider.OpenAIChat(
            model or openai_provider.DEFAULT_MODEL, settings.openai_api_key, base_url, **limits
        )
    return _local(model, base_url, limits)


def _model_and_url(settings: Settings, provider: str, model: str | None) -> tuple[str | None, str | None]:
    """The model and base URL for the provider: the deployment's belong to its own provider, and another provider
    gets neither (nor a key sent astray)."""
    own = provider == settings.llm_provider
    return model or (settings.llm_model if own else None), settings.llm_base_url if own else None


def _local(model: str | None, base_url: str | None, limits: _Limits) -> LLM:
    """A local OpenAI-compatible server's model: both its name and its URL are needed."""
    from core.llm import openai_provider

    if not model:
        raise SettingsError("the local provider needs a model: set MEMFIX_LLM_MODEL, e.g. qwen2.5-coder:7b")
    if not base_url:
        raise SettingsError(
            "the local provider needs MEMFIX_LLM_PROVIDER=local and MEMFIX_LLM_BASE_URL, e.g. http://localhost:11434/v1"
        )
    return openai_provider.OpenAIChat(model, None, base_url, provider="local", **limits)  # never the OpenAI key
