"""Embedding providers against the fake model server, and the fake's wire formats against the official SDKs."""

from __future__ import annotations

import json
import math
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from flask import request

from core.errors import PermanentError, TransientError
from core.memory.embeddings import (
    BATCH_SIZE,
    EMBEDDING_DIMS,
    EmbeddingError,
    EmbeddingUnavailable,
    NoEmbedder,
    OpenAIEmbedder,
    embedder_from_settings,
    pad,
)
from core.memory.types import Insight
from core.settings import Settings, SettingsError
from tests.fakes.llm import FakeModelServer, ToolCall

ROOT = Path(__file__).resolve().parents[1]
SQLI = "SQL injection in user input: build queries with parameters"


def cosine(a: list[float], b: list[float]) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True)) / (math.hypot(*a) * math.hypot(*b))


@pytest.fixture
def llm():
    with FakeModelServer() as server:
        yield server


def openai_embedder(server: FakeModelServer, max_retries: int = 0) -> OpenAIEmbedder:
    return OpenAIEmbedder("text-embedding-3-small", "sk-test", server.openai_url, max_retries=max_retries)


# ---- embedders ----


def test_openai_embedder_returns_the_providers_vectors_under_its_model_name(llm):
    texts = [SQLI, "Missing docstring in public function"]

    vectors = openai_embedder(llm).embed(texts)

    assert [len(v) for v in vectors] == [EMBEDDING_DIMS, EMBEDDING_DIMS]
    assert vectors == [llm.vector(t) for t in texts]
    path, body = llm.requests[-1]
    assert path == "/v1/embeddings"
    assert body == {"model": "text-embedding-3-small", "input": texts, "encoding_format": "float"}
    assert openai_embedder(llm).model == "text-embedding-3-small"


def test_local_embedder_pads_shorter_vectors_without_changing_cosine():
    with FakeModelServer(dims=768) as llm:
        settings = Settings(embeddings="local", embedding_model="nomic-embed-text", embedding_base_url=llm.openai_url)
        near, far = "SQL injection in the login query", "Typo in README heading"

        embedder = embedder_from_settings(settings)
        a, b, c = embedder.embed([SQLI, near, far])

    assert embedder.model == "local:nomic-embed-text"
    assert len(a) == EMBEDDING_DIMS and a[768:] == [0.0] * (EMBEDDING_DIMS - 768)
    assert cosine(a, b) == pytest.approx(cosine(llm.vector(SQLI), llm.vector(near)))
    assert cosine(a, b) > 0.3 > cosine(a, c)
    assert llm.requests[-1][1]["model"] == "nomic-embed-text"  # the prefix is ours, not the server's


def test_600_inputs_go_out_in_batches_of_at_most_256_and_come_back_in_order():
    texts = [f"finding number {i} in module m{i % 7}" for i in range(600)]

    with FakeModelServer(dims=32) as llm:  # small vectors keep 600 of them quick; padding is tested above
        vectors = [v[:32] for v in openai_embedder(llm).embed(texts)]

    assert [len(body["input"]) for _, body in llm.requests] == [BATCH_SIZE, BATCH_SIZE, 600 - 2 * BATCH_SIZE]
    assert vectors == [llm.vector(t) for t in texts]


def test_nothing_to_embed_sends_nothing(llm):
    assert openai_embedder(llm).embed([]) == []
    assert llm.requests == []


@pytest.mark.parametrize("status", [500, 503, 429, 408])
def test_provider_failures_are_transient(llm, status):
    llm.fail_next("/v1/embeddings", status)

    with pytest.raises(EmbeddingUnavailable, match=f"HTTP {status}") as caught:
        openai_embedder(llm).embed([SQLI])

    assert isinstance(caught.value, TransientError)
    assert len(llm.requests) == 1


def test_sdk_retries_before_giving_up(llm):
    llm.fail_next("/v1/embeddings", 503, times=1)
    assert openai_embedder(llm, max_retries=1).embed([SQLI]) == [llm.vector(SQLI)]

    llm.fail_next("/v1/embeddings", 503, times=2)
    with pytest.raises(EmbeddingUnavailable):
        openai_embedder(llm, max_retries=1).embed([SQLI])
    assert len(llm.requests) == 4


def test_unreachable_provider_is_transient():
    with socket.socket() as s:  # a port nobody listens on once closed
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    embedder = OpenAIEmbedder("m", base_url=f"http://127.0.0.1:{port}/v1", local=True, max_retries=0, timeout=2)

    with pytest.raises(EmbeddingUnavailable, match="unreachable"):
        embedder.embed([SQLI])


def test_rejected_request_is_permanent_with_the_providers_message(llm):
    llm.fail_next("/v1/embeddings", 401, message="Incorrect API key provided")

    with pytest.raises(EmbeddingError, match="HTTP 401.*Incorrect API key") as caught:
        openai_embedder(llm, max_retries=2).embed([SQLI])

    assert isinstance(caught.value, PermanentError)
    assert len(llm.requests) == 1  # not retried


def test_longer_vectors_are_refused_clearly():
    with FakeModelServer(dims=3072) as llm, pytest.raises(EmbeddingError, match="3072 dimensions.*at most 1536"):
        openai_embedder(llm).embed([SQLI])
    with pytest.raises(EmbeddingError):
        pad([0.1] * (EMBEDDING_DIMS + 1))


def test_pad():
    assert pad([1, 2]) == [1.0, 2.0] + [0.0] * (EMBEDDING_DIMS - 2)
    assert pad([0.5] * EMBEDDING_DIMS) == [0.5] * EMBEDDING_DIMS


def test_no_embedder_has_no_model_and_no_vectors():
    assert NoEmbedder().model is None
    assert NoEmbedder().embed([SQLI]) == []


# ---- settings ----


def test_embedder_from_settings(llm):
    assert isinstance(embedder_from_settings(Settings()), NoEmbedder)

    openai = embedder_from_settings(
        Settings(embeddings="openai", openai_api_key="sk-test", embedding_base_url=llm.openai_url)
    )
    assert isinstance(openai, OpenAIEmbedder) and openai.model == "text-embedding-3-small"
    assert openai.embed([SQLI]) == [llm.vector(SQLI)]

    local = embedder_from_settings(
        Settings(embeddings="local", embedding_model="bge-m3", embedding_base_url="http://x")
    )
    assert isinstance(local, OpenAIEmbedder) and local.model == "local:bge-m3"


def test_local_embeddings_never_receive_the_openai_key(llm):
    settings = Settings(embeddings="local", openai_api_key="sk-secret", embedding_base_url=llm.openai_url)
    seen = []
    llm.app.before_request(lambda: seen.append(request.headers["Authorization"]))

    embedder_from_settings(settings).embed([SQLI])

    assert seen and "sk-secret" not in seen[0]


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        (Settings(embeddings="openai"), "needs OPENAI_API_KEY"),
        (Settings(embeddings="local"), "needs MEMFIX_EMBEDDING_BASE_URL"),
    ],
)
def test_incomplete_settings_say_what_is_missing(settings, message):
    with pytest.raises(SettingsError, match=message):
        embedder_from_settings(settings)


def test_embedding_text_format():
    insight = Insight(
        repository="acme/shop",
        insight_type="pain_point",
        category="security",
        severity="high",
        title="SQL Injection in User Input",
        detail="Queries are built with f-strings.",
        suggestion="Use bound parameters.",
    )

    assert insight.embedding_text() == (
        "[pain_point] [Security] [high] SQL Injection in User Input:\n"
        "Queries are built with f-strings.\nSuggestion: Use bound parameters."
    )


def test_importing_the_module_does_not_import_openai():
    code = "import sys, core.memory.embeddings; assert 'openai' not in sys.modules, 'openai was imported'"
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)


# ---- the fake speaks the providers' wire formats ----


def test_fake_vectors_are_deterministic_unit_length_and_close_for_shared_words(llm):
    v = llm.vector(SQLI)

    assert v == FakeModelServer().vector(SQLI.upper())
    assert sum(x * x for x in v) == pytest.approx(1.0)
    assert cosine(v, llm.vector("SQL injection in user input")) > 0.7
    assert cosine(v, llm.vector("missing docstring")) < 0.2


def test_openai_sdk_parses_embeddings_in_its_default_base64_format(llm):
    from openai import OpenAI

    client = OpenAI(api_key="sk-test", base_url=llm.openai_url, max_retries=0)
    response = client.embeddings.create(model="text-embedding-3-small", input=SQLI)

    assert response.data[0].embedding == pytest.approx(llm.vector(SQLI), abs=1e-6)
    assert llm.requests[-1][1]["encoding_format"] == "base64"
    assert response.usage.prompt_tokens > 0


def test_openai_sdk_parses_tool_calls_json_and_text(llm):
    from openai import OpenAI

    client = OpenAI(api_key="sk-test", base_url=llm.openai_url, max_retries=0)
    tool = {"type": "function", "function": {"name": "propose_edit", "parameters": {"type": "object"}}}
    edit = {"search": "x = 1", "replace": "x = 2", "confidence": 0.9}
    llm.script_chat(edit, ToolCall("other", {"a": 1}), {"ok": True}, "plain answer")
    messages = [{"role": "user", "content": "fix this"}]

    pick = {"type": "function", "function": {"name": "propose_edit"}}
    forced = client.chat.completions.create(model="gpt-x", messages=messages, tools=[tool], tool_choice=pick)
    named = client.chat.completions.create(model="gpt-x", messages=messages, tools=[tool])
    as_json = client.chat.completions.create(model="gpt-x", messages=messages, response_format={"type": "json_object"})
    text = client.chat.completions.create(model="gpt-x", messages=messages)

    call = forced.choices[0].message.tool_calls[0]
    assert (call.function.name, json.loads(call.function.arguments)) == ("propose_edit", edit)
    assert forced.choices[0].finish_reason == "tool_calls"
    assert forced.usage.prompt_tokens > 0 and forced.usage.completion_tokens > 0
    assert named.choices[0].message.tool_calls[0].function.name == "other"
    assert json.loads(as_json.choices[0].message.content) == {"ok": True}
    assert (text.choices[0].message.content, text.choices[0].finish_reason) == ("plain answer", "stop")
    assert llm.requests[0][1]["tools"] == [tool] and llm.script_left == 0


def test_anthropic_sdk_parses_tool_use_and_text(llm):
    from anthropic import Anthropic

    client = Anthropic(api_key="sk-ant-test", base_url=llm.url, max_retries=0)
    tool = {"name": "propose_edit", "description": "Propose an edit", "input_schema": {"type": "object"}}
    edit = {"search": "x = 1", "replace": "x = 2"}
    llm.script_chat(edit, "plain answer")
    messages = [{"role": "user", "content": "fix this"}]

    pick = {"type": "tool", "name": "propose_edit"}
    used = client.messages.create(model="claude-x", max_tokens=500, messages=messages, tools=[tool], tool_choice=pick)
    text = client.messages.create(model="claude-x", max_tokens=500, system="be brief", messages=messages)

    block = used.content[0]
    assert (block.type, block.name, block.input, used.stop_reason) == ("tool_use", "propose_edit", edit, "tool_use")
    assert used.usage.input_tokens > 0 and used.usage.output_tokens > 0
    assert (text.content[0].text, text.stop_reason) == ("plain answer", "end_turn")


def test_an_empty_script_fails_loudly_in_both_formats(llm):
    import anthropic
    import openai

    with pytest.raises(openai.InternalServerError, match="chat script is empty"):
        openai.OpenAI(api_key="k", base_url=llm.openai_url, max_retries=0).chat.completions.create(
            model="gpt-x", messages=[{"role": "user", "content": "hi"}]
        )
    with pytest.raises(anthropic.InternalServerError, match="chat script is empty"):
        anthropic.Anthropic(api_key="k", base_url=llm.url, max_retries=0).messages.create(
            model="claude-x", max_tokens=10, messages=[{"role": "user", "content": "hi"}]
        )
