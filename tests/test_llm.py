"""Model providers through the real openai and anthropic SDKs against the fake model server, and the validator."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from flask import jsonify, request

from core.errors import PermanentError, TransientError
from core.llm import (
    Completion,
    LLMError,
    LLMOutputError,
    LLMUnavailable,
    OfflineLLM,
    llm_from_settings,
    validate,
)
from core.llm.anthropic_provider import AnthropicMessages
from core.llm.openai_provider import OpenAIChat, strict_compatible
from core.settings import Settings, SettingsError
from tests.fakes.llm import count_tokens

ROOT = Path(__file__).resolve().parents[1]
SYSTEM, PROMPT = "You fix Python code.", "Fix F401 in app.py: `import os` is unused."
TOOL, ABOUT = "propose_edit", "Propose one search/replace edit"
EDIT = {
    "type": "object",
    "properties": {
        "search": {"type": "string", "minLength": 1},
        "replace": {"type": "string"},
        "confidence": {"type": "number", "minimum": 0, "maximum": 1},
    },
    "required": ["search", "replace", "confidence"],
    "additionalProperties": False,
}
GOOD = {"search": "import os\n", "replace": "", "confidence": 0.9}
MISSING = {"search": "import os\n", "replace": ""}
WRONG_TYPE = {"search": "import os\n", "replace": "", "confidence": "high"}
CHAT, MESSAGES = "/v1/chat/completions", "/v1/messages"


def openai_chat(server) -> OpenAIChat:
    return OpenAIChat("gpt-4o-mini", "sk-test", server.openai_url, max_retries=0, max_tokens=1000)


def local_chat(server) -> OpenAIChat:
    return OpenAIChat("qwen2.5-coder:7b", None, server.openai_url, max_retries=0, max_tokens=1000, provider="local")


def claude(server) -> AnthropicMessages:
    return AnthropicMessages("claude-x", "sk-ant-test", server.url, max_retries=0, max_tokens=1000)


PROVIDERS = {"openai": (openai_chat, CHAT), "local": (local_chat, CHAT), "anthropic": (claude, MESSAGES)}


def ask(llm) -> Completion:
    return llm.complete(SYSTEM, PROMPT, EDIT, name=TOOL, description=ABOUT)


def answer_raw_once(server, arguments: str, finish_reason: str = "tool_calls") -> None:
    """The next chat completion calls the tool with `arguments` verbatim: the script only sends valid JSON."""
    pending = [arguments]

    def raw():
        if request.path == CHAT and pending:
            call = {"id": "call_raw", "type": "function", "function": {"name": TOOL, "arguments": pending.pop()}}
            message = {"role": "assistant", "content": None, "tool_calls": [call]}
            choice = {"index": 0, "message": message, "finish_reason": finish_reason}
            usage = {"prompt_tokens": 7, "completion_tokens": 3, "total_tokens": 10}
            return jsonify(
                id="chatcmpl-raw", object="chat.completion", created=0, model="m", choices=[choice], usage=usage
            )
        return None

    server.app.before_request(raw)  # runs after the fake has recorded the request


# ---- structured output ----


def test_openai_forces_one_strict_function_and_returns_its_arguments(model_server):
    model_server.script_chat(GOOD)

    completion = ask(openai_chat(model_server))

    assert completion == Completion(GOOD, completion.input_tokens, completion.output_tokens, "openai", "gpt-4o-mini", 1)
    [(path, body)] = model_server.requests
    assert path == CHAT and body["model"] == "gpt-4o-mini"
    assert body["messages"] == [{"role": "system", "content": SYSTEM}, {"role": "user", "content": PROMPT}]
    assert body["tools"] == [
        {"type": "function", "function": {"name": TOOL, "description": ABOUT, "parameters": EDIT, "strict": True}}
    ]
    assert body["tool_choice"] == {"type": "function", "function": {"name": TOOL}}
    assert body["max_completion_tokens"] == 1000 and "max_tokens" not in body
    assert completion.input_tokens == count_tokens(body["messages"], body["tools"]) > 0
    assert completion.output_tokens == count_tokens(GOOD) > 0


def test_openai_sends_strict_false_for_a_schema_strict_mode_would_reject(model_server):
    open_schema = {"type": "object", "properties": {"note": {"type": "string"}}}
    model_server.script_chat({"note": "ok"})

    completion = openai_chat(model_server).complete(SYSTEM, PROMPT, open_schema, name=TOOL, description=ABOUT)

    assert completion.data == {"note": "ok"}
    assert model_server.requests[0][1]["tools"][0]["function"]["strict"] is False


def test_local_speaks_the_openai_wire_format_without_strict_and_with_max_tokens(model_server):
    model_server.script_chat(GOOD)

    completion = ask(local_chat(model_server))

    assert (completion.data, completion.provider, completion.model) == (GOOD, "local", "qwen2.5-coder:7b")
    body = model_server.requests[0][1]
    assert body["model"] == "qwen2.5-coder:7b" and body["messages"][0] == {"role": "system", "content": SYSTEM}
    assert body["tools"][0]["function"]["strict"] is False
    assert body["tool_choice"] == {"type": "function", "function": {"name": TOOL}}
    assert body["max_tokens"] == 1000 and "max_completion_tokens" not in body


def test_anthropic_forces_one_tool_with_the_system_prompt_apart(model_server):
    model_server.script_chat(GOOD)

    completion = ask(claude(model_server))

    assert (completion.data, completion.provider, completion.model, completion.asks) == (
        GOOD,
        "anthropic",
        "claude-x",
        1,
    )
    [(path, body)] = model_server.requests
    assert path == MESSAGES and body["model"] == "claude-x" and body["max_tokens"] == 1000
    assert body["system"] == SYSTEM
    assert body["messages"] == [{"role": "user", "content": PROMPT}]
    assert body["tools"] == [{"name": TOOL, "description": ABOUT, "input_schema": EDIT}]
    assert body["tool_choice"] == {"type": "tool", "name": TOOL}
    assert completion.input_tokens == count_tokens(body["system"], body["messages"], body["tools"]) > 0
    assert completion.output_tokens == count_tokens(GOOD) > 0


# ---- the re-ask ----


@pytest.mark.parametrize(
    ("bad", "problem"),
    [
        (MISSING, "$: missing required property 'confidence'"),
        (WRONG_TYPE, "$.confidence: expected number, got string"),
    ],
)
@pytest.mark.parametrize("provider", ["openai", "local"])
def test_openai_re_asks_once_answering_the_bad_call_with_its_problems(model_server, provider, bad, problem):
    model_server.script_chat(bad, GOOD)

    completion = ask(PROVIDERS[provider][0](model_server))

    assert (completion.data, completion.asks) == (GOOD, 2)
    first, second = (body for _, body in model_server.requests)
    assert second["messages"][:2] == first["messages"]
    assistant, answer = second["messages"][2:]
    [call] = assistant["tool_calls"]
    assert assistant["role"] == "assistant" and call["function"] == {"name": TOOL, "arguments": json.dumps(bad)}
    assert answer["role"] == "tool" and answer["tool_call_id"] == call["id"]
    assert problem in answer["content"] and TOOL in answer["content"]
    assert completion.input_tokens == sum(count_tokens(b["messages"], b["tools"]) for b in (first, second))
    assert completion.output_tokens == count_tokens(bad) + count_tokens(GOOD)


@pytest.mark.parametrize(
    ("bad", "problem"),
    [(MISSING, "missing required property 'confidence'"), (WRONG_TYPE, "$.confidence: expected number, got string")],
)
def test_anthropic_re_asks_with_an_error_tool_result(model_server, bad, problem):
    model_server.script_chat(bad, GOOD)

    completion = ask(claude(model_server))

    assert (completion.data, completion.asks) == (GOOD, 2)
    second = model_server.requests[1][1]
    assert second["system"] == SYSTEM
    user, assistant, feedback = second["messages"]
    [use] = assistant["content"]
    assert user == {"role": "user", "content": PROMPT} and assistant["role"] == "assistant"
    assert (use["type"], use["name"], use["input"]) == ("tool_use", TOOL, bad)
    [result] = feedback["content"]
    assert feedback["role"] == "user"
    assert (result["type"], result["tool_use_id"], result["is_error"]) == ("tool_result", use["id"], True)
    assert problem in result["content"]


def test_arguments_that_are_not_json_are_re_asked(model_server):
    answer_raw_once(model_server, '{"search": "import os\\n", "replace": ')
    model_server.script_chat(GOOD)

    completion = ask(openai_chat(model_server))

    assert (completion.data, completion.asks) == (GOOD, 2)
    second = model_server.requests[1][1]
    assert completion.input_tokens == 7 + count_tokens(second["messages"], second["tools"])
    tool_message = second["messages"][-1]
    assert tool_message["role"] == "tool" and "not valid JSON" in tool_message["content"]


def test_an_answer_cut_off_at_max_tokens_says_so(model_server):
    answer_raw_once(model_server, '{"search": "imp', finish_reason="length")
    model_server.script_chat(GOOD)

    assert ask(openai_chat(model_server)).asks == 2
    problems = model_server.requests[1][1]["messages"][-1]["content"]
    assert "not valid JSON" in problems and "cut off at 1000 tokens" in problems


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_a_text_answer_instead_of_a_call_is_re_asked_as_a_user_message(model_server, provider):
    make, _ = PROVIDERS[provider]
    model_server.script_chat("Just delete the import.", GOOD)

    completion = ask(make(model_server))

    assert (completion.data, completion.asks) == (GOOD, 2)
    assistant, feedback = model_server.requests[1][1]["messages"][-2:]
    assert assistant["role"] == "assistant" and "Just delete the import." in str(assistant["content"])
    assert feedback["role"] == "user" and f"did not call {TOOL}" in feedback["content"]


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_two_bad_answers_fail_with_the_problems_and_the_tokens_spent(model_server, provider):
    make, _ = PROVIDERS[provider]
    model_server.script_chat(MISSING, {**WRONG_TYPE, "extra": 1})

    with pytest.raises(LLMOutputError) as caught:
        ask(make(model_server))

    assert caught.value.problems == ["$.confidence: expected number, got string", "$: unexpected property 'extra'"]
    assert "answered propose_edit twice" in str(caught.value) and "$.confidence" in str(caught.value)
    assert isinstance(caught.value, PermanentError)
    assert caught.value.input_tokens > 0 and caught.value.output_tokens > 0
    assert len(model_server.requests) == 2 and model_server.script_left == 0


# ---- provider failures ----


@pytest.mark.parametrize("status", [503, 429, 529])
@pytest.mark.parametrize("provider", ["openai", "local", "anthropic"])
def test_provider_failures_are_transient(model_server, provider, status):
    make, path = PROVIDERS[provider]
    model_server.fail_next(path, status)

    with pytest.raises(LLMUnavailable, match=f"HTTP {status}") as caught:
        ask(make(model_server))

    assert isinstance(caught.value, TransientError)
    assert len(model_server.requests) == 1


@pytest.mark.parametrize("status", [401, 404])
@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_refused_requests_are_permanent_with_the_providers_message(model_server, provider, status):
    make, path = PROVIDERS[provider]
    model_server.fail_next(path, status, message="invalid x-api-key")

    with pytest.raises(LLMError, match=f"HTTP {status}.*invalid x-api-key") as caught:
        ask(make(model_server))

    assert isinstance(caught.value, PermanentError) and not isinstance(caught.value, LLMOutputError)


def test_the_sdk_retries_transient_failures_before_giving_up(model_server):
    model_server.fail_next(CHAT, 503)
    model_server.script_chat(GOOD)
    llm = OpenAIChat("gpt-4o-mini", "sk-test", model_server.openai_url, max_retries=1)

    assert ask(llm).data == GOOD
    assert len(model_server.requests) == 2


@pytest.mark.parametrize("make", [local_chat, claude])
def test_an_unreachable_provider_is_transient(make):
    with socket.socket() as s:  # a port nobody listens on once closed
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]

    class Nowhere:
        url, openai_url = f"http://127.0.0.1:{port}", f"http://127.0.0.1:{port}/v1"

    with pytest.raises(LLMUnavailable, match="unreachable"):
        ask(make(Nowhere))


def test_offline_has_no_model_and_refuses_to_complete():
    offline = OfflineLLM()

    assert (offline.provider, offline.model) == ("offline", None)
    with pytest.raises(LLMError, match="MEMFIX_LLM_PROVIDER=offline"):
        ask(offline)


# ---- settings ----


def test_llm_from_settings_builds_each_provider(model_server):
    assert isinstance(llm_from_settings(Settings()), OfflineLLM)

    openai = llm_from_settings(
        Settings(
            llm_provider="openai",
            openai_api_key="sk-test",
            llm_base_url=model_server.openai_url,
            llm_max_retries=0,
            llm_max_tokens=321,
        )
    )
    anthropic = llm_from_settings(
        Settings(llm_provider="anthropic", anthropic_api_key="sk-ant", llm_base_url=model_server.url)
    )
    local = llm_from_settings(
        Settings(llm_provider="local", llm_model="llama3.1", llm_base_url=model_server.openai_url)
    )

    assert (openai.provider, openai.model) == ("openai", "gpt-4o-mini")
    assert (anthropic.provider, anthropic.model) == ("anthropic", "claude-3-5-haiku-latest")
    assert (local.provider, local.model) == ("local", "llama3.1")
    model_server.script_chat(GOOD, GOOD, GOOD)
    assert [ask(llm).data for llm in (openai, anthropic, local)] == [GOOD] * 3
    assert model_server.paths() == [CHAT, MESSAGES, CHAT]
    assert model_server.requests[0][1]["max_completion_tokens"] == 321


def test_a_repository_may_choose_the_provider_and_model():
    settings = Settings(
        llm_provider="openai",
        llm_model="gpt-4.1",
        llm_base_url="http://proxy.internal/v1",
        openai_api_key="sk-o",
        anthropic_api_key="sk-a",
    )

    assert llm_from_settings(settings).model == "gpt-4.1"
    assert llm_from_settings(settings, model="o4-mini").model == "o4-mini"
    other = llm_from_settings(settings, provider="anthropic")
    assert (other.provider, other.model) == ("anthropic", "claude-3-5-haiku-latest")  # not gpt-4.1
    assert "proxy.internal" not in str(other._client.base_url)  # the Anthropic key never goes to the OpenAI proxy
    assert isinstance(llm_from_settings(settings, provider="offline"), OfflineLLM)


def test_local_never_receives_the_openai_key(model_server):
    settings = Settings(
        llm_provider="local", llm_model="llama3.1", llm_base_url=model_server.openai_url, openai_api_key="sk-secret"
    )
    seen = []
    model_server.app.before_request(lambda: seen.append(request.headers["Authorization"]))
    model_server.script_chat(GOOD)

    ask(llm_from_settings(settings))

    assert seen and "sk-secret" not in seen[0]


@pytest.mark.parametrize(
    ("settings", "provider", "message"),
    [
        (Settings(llm_provider="openai"), None, "needs OPENAI_API_KEY"),
        (Settings(llm_provider="anthropic", openai_api_key="sk-o"), None, "needs ANTHROPIC_API_KEY"),
        (
            Settings(llm_provider="local", llm_base_url="http://localhost:11434/v1"),
            None,
            "needs a model.*MEMFIX_LLM_MODEL",
        ),
        (Settings(llm_provider="local", llm_model="llama3.1"), None, "needs .*MEMFIX_LLM_BASE_URL"),
        (Settings(llm_model="llama3.1", llm_base_url="http://localhost:11434/v1"), "local", "MEMFIX_LLM_MODEL"),
        (Settings(), "gemini", "must be one of offline, openai, anthropic, local"),
    ],
)
def test_incomplete_settings_say_what_is_missing(settings, provider, message):
    with pytest.raises(SettingsError, match=message):
        llm_from_settings(settings, provider=provider)


def test_limits_come_from_the_environment():
    env = {"MEMFIX_LLM_TIMEOUT_SECONDS": "12.5", "MEMFIX_LLM_MAX_RETRIES": "0", "MEMFIX_LLM_MAX_TOKENS": "2048"}

    settings = Settings.from_env(env)

    assert (settings.llm_timeout_seconds, settings.llm_max_retries, settings.llm_max_tokens) == (12.5, 0, 2048)
    assert (Settings.from_env({}).llm_timeout_seconds, Settings.from_env({}).llm_max_tokens) == (60.0, 4096)
    with pytest.raises(SettingsError, match="MEMFIX_LLM_MAX_TOKENS must be a whole number"):
        Settings.from_env({"MEMFIX_LLM_MAX_TOKENS": "lots"})


def test_importing_core_llm_does_not_import_the_sdks():
    code = (
        "import sys, core.llm; from core.llm import llm_from_settings; from core.settings import Settings; "
        "llm_from_settings(Settings()); "
        "assert not {'openai', 'anthropic'} & set(sys.modules), 'an SDK was imported'"
    )
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)


# ---- the validator ----

FINDINGS = {
    "type": "object",
    "properties": {
        "findings": {
            "type": "array",
            "minItems": 1,
            "items": {
                "type": "object",
                "properties": {
                    "line": {"type": "integer", "minimum": 1},
                    "severity": {"enum": ["low", "medium", "high"]},
                    "fixable": {"type": "boolean"},
                    "note": {"type": ["string", "null"]},
                },
                "required": ["line", "severity"],
                "additionalProperties": False,
            },
        },
        "meta": {"type": "object", "additionalProperties": {"type": "string"}},
    },
    "required": ["findings"],
}


def test_a_valid_document_has_no_problems():
    data = {
        "findings": [{"line": 3, "severity": "high", "fixable": True, "note": None}, {"line": 4.0, "severity": "low"}],
        "meta": {"tool": "ruff"},
        "free": "any",
    }  # additionalProperties defaults to allowed

    assert validate(data, FINDINGS) == []


def test_problems_are_reported_with_their_json_paths():
    data = {
        "findings": [
            {"line": 0, "severity": "urgent", "fixable": 1, "why": "?"},
            {"line": True, "severity": "low", "note": 5},
            "not an object",
            {"severity": "low"},
        ],
        "meta": {"tool": 1, "odd key": 2},
    }

    assert validate(data, FINDINGS) == [
        "$.findings[0].line: 0 is below the minimum 1",
        '$.findings[0].severity: "urgent" is not one of ["low", "medium", "high"]',
        "$.findings[0].fixable: expected boolean, got number",
        "$.findings[0]: unexpected property 'why'",
        "$.findings[1].line: expected integer, got boolean",  # True is not 1 here
        "$.findings[1].note: expected string or null, got number",
        "$.findings[2]: expected object, got string",
        "$.findings[3]: missing required property 'line'",
        "$.meta.tool: expected string, got number",
        '$.meta["odd key"]: expected string, got number',
    ]


@pytest.mark.parametrize(
    ("data", "schema", "problems"),
    [
        (None, {"type": "object"}, ["$: expected object, got null"]),
        (
            {},
            {"type": "object", "required": ["a", "b"]},
            ["$: missing required property 'a'", "$: missing required property 'b'"],
        ),
        ([], {"type": "array", "minItems": 1}, ["$: has 0 items, fewer than 1"]),
        ([1, 2, 3], {"type": "array", "maxItems": 2, "items": {"type": "integer"}}, ["$: has 3 items, more than 2"]),
        ([1, "2"], {"type": "array", "items": {"type": "integer"}}, ["$[1]: expected integer, got string"]),
        ("", {"type": "string", "minLength": 1}, ["$: has 0 characters, fewer than 1"]),
        (1.5, {"type": "number", "maximum": 1}, ["$: 1.5 is above the maximum 1"]),
        (1.5, {"type": "integer"}, ["$: expected integer, got number"]),
        (0.5, {"type": "number", "minimum": 0, "maximum": 1}, []),
        ("x", {}, []),
    ],
)
def test_validator_keywords(data, schema, problems):
    assert validate(data, schema) == problems


def test_strict_mode_needs_every_object_closed_and_fully_required():
    assert strict_compatible(EDIT) and strict_compatible({"type": "string"})
    assert not strict_compatible({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]})
    assert not strict_compatible({**EDIT, "required": ["search"]})
    nested_open = {
        **EDIT,
        "properties": {**EDIT["properties"], "more": {"type": "array", "items": {"type": "object"}}},
        "required": [*EDIT["required"], "more"],
    }
    assert not strict_compatible(nested_open)
