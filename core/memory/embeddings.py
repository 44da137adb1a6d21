"""Embedding providers: text → 1536-dim vectors, named by the model that made them. The only module importing
the openai SDK for embeddings, and only when a provider is configured."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from core.errors import PermanentError, TransientError
from core.settings import Settings, SettingsError

if TYPE_CHECKING:
    pass

EMBEDDING_DIMS = 1536
BATCH_SIZE = 256
TRANSIENT_STATUSES = {408, 409, 429}  # with 5xx: the statuses the SDK itself retries


class EmbeddingUnavailable(TransientError):
    """The provider timed out, failed or was unreachable: store without a vector; `memfix reembed` fills it."""


class EmbeddingError(PermanentError):
    """The provider refused the request or answered something memfix cannot store: a configuration problem."""


class Embedder(Protocol):
    @property
    def model(self) -> str | None: ...  # None: no provider, insights are stored without vectors

    def embed(self, texts: list[str]) -> list[list[float]]: ...


class NoEmbedder:
    """No provider: nothing is embedded and search falls back to text."""

    model: str | None = None

    def embed(self, texts: list[str]) -> list[list[float]]:
        return []


def pad(vector: list[float]) -> list[float]:
    """Zero-pad to EMBEDDING_DIMS; extra zeros change neither dot products nor norms, so cosine is unchanged."""
    if len(vector) > EMBEDDING_DIMS:
        raise EmbeddingError(
            f"the embedding model returned {len(vector)} dimensions; memfix stores at most {EMBEDDING_DIMS}: "
            "choose a smaller model (MEMFIX_EMBEDDING_MODEL)"
        )
    return [float(x) for x in vector] + [0.0] * (EMBEDDING_DIMS - len(vector))


class OpenAIEmbedder:
    """OpenAI's /v1/embeddings, or any OpenAI-compatible endpoint (Ollama, vLLM, llama.cpp) when `local`."""

    def __init__(
        self,
        model: str,
        api_key: str | None = None,
        base_url: str | None = None,
        *,
        timeout: float = 30.0,
        max_retries: int = 2,
        local: bool = False,
    ):
        from core.llm.openai_provider import openai_client

        if not (api_key or local):
            raise EmbeddingError("OpenAI embeddings need OPENAI_API_KEY")
        self.model = f"local:{model}" if local else model  # vectors of different providers are never compared
        self._api_model = model
        self._openai, self._client = openai_client(
            api_key, base_url, timeout, max_retries,
            missing=EmbeddingError("embeddings need the openai package: pip install 'memfix[llm]'"))

    def embed(self, texts: list[str]) -> list[list[float]]:
        return [v for start in range(0, len(texts), BATCH_SIZE) for v in self._batch(texts[start : start + BATCH_SIZE])]

    def _batch(self, texts: list[str]) -> list[list[float]]:
        openai = self._openai
        try:
            # float, not the SDK's default base64: not every OpenAI-compatible server speaks base64
            response = self._client.embeddings.create(model=self._api_model, input=texts, encoding_format="float")
        except openai.APIConnectionError as e:  # includes timeouts
            raise EmbeddingUnavailable(f"embedding provider {self.model} unreachable: {e}") from e
        except openai.APIStatusError as e:
            if e.status_code >= 500 or e.status_code in TRANSIENT_STATUSES:
                raise EmbeddingUnavailable(f"embedding provider {self.model} failed (HTTP {e.status_code})") from e
            raise EmbeddingError(
                f"embedding provider {self.model} refused the request (HTTP {e.status_code}): {e.message}"
            ) from e
        data = sorted(response.data, key=lambda d: d.index)
        if len(data) != len(texts):
            raise EmbeddingError(f"embedding provider {self.model} returned {len(data)} vectors for {len(texts)} texts")
        return [pad(d.embedding) for d in data]


def embedder_from_settings(settings: Settings) -> Embedder:
    if settings.embeddings == "none":
        return NoEmbedder()
    if settings.embeddings == "openai":
        if not settings.openai_api_key:
            raise SettingsError("MEMFIX_EMBEDDINGS=openai needs OPENAI_API_KEY")
        return OpenAIEmbedder(settings.embedding_model, settings.openai_api_key, settings.embedding_base_url)
    if not settings.embedding_base_url:
        raise SettingsError("MEMFIX_EMBEDDINGS=local needs MEMFIX_EMBEDDING_BASE_URL, e.g. http://localhost:11434/v1")
    # never send the OpenAI key to another host
    return OpenAIEmbedder(settings.embedding_model, base_url=settings.embedding_base_url, local=True)
