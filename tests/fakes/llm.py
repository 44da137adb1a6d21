"""Fake model providers over real HTTP on 127.0.0.1: OpenAI embeddings and chat completions, Anthropic messages.

Point the SDKs at it: `OpenAI(base_url=fake.openai_url)` (that is `fake.url + "/v1"`), `Anthropic(base_url=fake.url)`.
Embeddings are deterministic bags of words, so texts sharing words are close; chat answers come from a script.
"""

from __future__ import annotations

import base64
import hashlib
import itertools
import json
import math
import re
import struct
import threading
import time
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from flask import Flask, Response, jsonify, request

from tests.fakes.http import FakeServer

ERROR_TYPES = {  # status → (OpenAI error type, Anthropic error type)
    400: ("invalid_request_error", "invalid_request_error"),
    401: ("invalid_request_error", "authentication_error"),
    403: ("invalid_request_error", "permission_error"),
    404: ("invalid_request_error", "not_found_error"),
    429: ("rate_limit_exceeded", "rate_limit_error"),
    529: ("server_error", "overloaded_error"),
}


@dataclass(frozen=True)
class ToolCall:
    """A scripted answer that calls a named tool; a plain dict calls the forced tool, else the first one offered."""

    name: str
    arguments: dict


Answer = str | dict | ToolCall


@dataclass
class _Fault:
    path: re.Pattern
    status: int
    times: int
    message: str


def bag_of_words(text: str, dims: int) -> list[float]:
    """Each lower-cased word counts in one bucket (a stable hash), L2-normalised: shared words → high cosine."""
    vector = [0.0] * dims
    for word in re.findall(r"\w+", text.lower()):
        vector[int.from_bytes(hashlib.blake2b(word.encode(), digest_size=8).digest(), "big") % dims] += 1.0
    norm = math.sqrt(sum(x * x for x in vector))
    return [x / norm for x in vector] if norm else vector


def count_tokens(*parts: Any) -> int:
    """About one token per word or punctuation mark of every string inside `parts`."""
    return sum(len(re.findall(r"\w+|[^\w\s]", s)) for s in _strings(parts))


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from _strings(v)


class FakeModelServer(FakeServer):
    """`with FakeModelServer() as llm:` starts it; `llm.script_chat(...)` queues chat answers."""
    name = "fake-llm"

    def __init__(self, *, dims: int = 1536):
        self.dims = dims
        self.requests: list[tuple[str, dict]] = []
        self._script: deque[Answer] = deque()
        self._faults: list[_Fault] = []
        self._ids = itertools.count(1)
        self._lock = threading.Lock()
        self.app = self._build_app()


    @property
    def openai_url(self) -> str:
        return f"{self.url}/v1"

    # ---- arranging ----

    def script_chat(self, *answers: Answer) -> None:
        """Queue answers: a string is assistant text; a dict (or ToolCall) is a tool call when the request offers
        tools, else JSON text."""
        with self._lock:
            self._script.extend(answers)

    @property
    def script_left(self) -> int:
        with self._lock:
            return len(self._script)

    def fail_next(self, path: str, status: int, times: int = 1, message: str = "injected failure") -> None:
        """The next `times` requests whose path fully matches the regex `path` get `status` with a provider-style
        error body."""
        with self._lock:
            self._faults.append(_Fault(re.compile(path), status, times, message))

    def vector(self, text: str) -> list[float]:
        """The embedding this server returns for `text` (before any client-side padding)."""
        return bag_of_words(text, self.dims)

    def paths(self) -> list[str]:
        with self._lock:
            return [path for path, _ in self.requests]

    # ---- HTTP ----

    def _build_app(self) -> Flask:
        app = Flask("fake_llm")
        app.add_url_rule("/v1/embeddings", "embeddings", self._embeddings, methods=["POST"])
        app.add_url_rule("/v1/chat/completions", "chat", self._chat_completions, methods=["POST"])
        app.add_url_rule("/v1/messages", "messages", self._messages, methods=["POST"])
        app.before_request(self._before)
        return app

    def _before(self) -> Response | None:
        with self._lock:
            self.requests.append((request.path, request.get_json(silent=True) or {}))
            for fault in self._faults:
                if fault.times > 0 and fault.path.fullmatch(request.path):
                    fault.times -= 1
                    return _error(fault.status, fault.message)
        return None

    def _next_answer(self) -> Answer | None:
        with self._lock:
            return self._script.popleft() if self._script else None

    def _embeddings(self):
        data = request.get_json()
        inputs = [data.get("input")] if isinstance(data.get("input"), str) else data.get("input")
        if not data.get("model"):
            return _error(400, "you must provide a model parameter")
        if not inputs or not all(isinstance(t, str) and t for t in inputs):
            return _error(400, "'$.input' is invalid: expected a non-empty string or list of non-empty strings")
        dims = data.get("dimensions") or self.dims
        items = []
        for index, text in enumerate(inputs):
            vector: Any = bag_of_words(text, dims)
            if data.get("encoding_format") == "base64":  # the openai SDK's default: little-endian float32
                vector = base64.b64encode(struct.pack(f"<{dims}f", *vector)).decode()
            items.append({"object": "embedding", "index": index, "embedding": vector})
        tokens = count_tokens(inputs)
        return jsonify(
            object="list", data=items, model=data["model"], usage={"prompt_tokens": tokens, "total_tokens": tokens}
        )

    def _chat_completions(self):
        data = request.get_json()
        if not data.get("model") or not data.get("messages"):
            return _error(400, "model and messages are required")
        if data.get("stream"):
            return _error(400, "FakeModelServer does not stream")
        answer = self._next_answer()
        if answer is None:
            return _error(500, "FakeModelServer: the chat script is empty; call script_chat(...) first")
        tools = [t["function"]["name"] for t in data.get("tools") or []]
        choice = data.get("tool_choice")
        forced = choice["function"]["name"] if isinstance(choice, dict) else None
        message: dict[str, Any] = {"role": "assistant", "content": None, "refusal": None}
        if isinstance(answer, dict | ToolCall) and tools and choice != "none":
            name, arguments = _tool_call(answer, forced or tools[0])
            message["tool_calls"] = [
                {
                    "id": f"call_fake{next(self._ids)}",
                    "type": "function",
                    "function": {"name": name, "arguments": json.dumps(arguments)},
                }
            ]
            finish, output = "tool_calls", arguments
        else:
            message["content"] = _text(answer)
            finish, output = "stop", message["content"]
        prompt, completion = count_tokens(data["messages"], data.get("tools")), count_tokens(output)
        return jsonify(
            id=f"chatcmpl-fake{next(self._ids)}",
            object="chat.completion",
            created=int(time.time()),
            model=data["model"],
            choices=[{"index": 0, "message": message, "finish_reason": finish, "logprobs": None}],
            usage={"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion},
            system_fingerprint=None,
        )

    def _messages(self):
        data = request.get_json()
        if not data.get("model") or not data.get("messages") or not data.get("max_tokens"):
            return _error(400, "model, messages and max_tokens are required")
        if data.get("stream"):
            return _error(400, "FakeModelServer does not stream")
        answer = self._next_answer()
        if answer is None:
            return _error(500, "FakeModelServer: the chat script is empty; call script_chat(...) first")
        tools = [t["name"] for t in data.get("tools") or []]
        choice = data.get("tool_choice") or {}
        forced = choice.get("name") if choice.get("type") == "tool" else None
        if isinstance(answer, dict | ToolCall) and tools and choice.get("type") != "none":
            name, arguments = _tool_call(answer, forced or tools[0])
            content = [{"type": "tool_use", "id": f"toolu_fake{next(self._ids)}", "name": name, "input": arguments}]
            stop, output = "tool_use", arguments
        else:
            content = [{"type": "text", "text": _text(answer)}]
            stop, output = "end_turn", content[0]["text"]
        return jsonify(
            id=f"msg_fake{next(self._ids)}",
            type="message",
            role="assistant",
            model=data["model"],
            content=content,
            stop_reason=stop,
            stop_sequence=None,
            usage={
                "input_tokens": count_tokens(data.get("system"), data["messages"], data.get("tools")),
                "output_tokens": count_tokens(output),
                "cache_creation_input_tokens": 0,
                "cache_read_input_tokens": 0,
            },
        )


def _tool_call(answer: dict | ToolCall, default_name: str) -> tuple[str, dict]:
    return (answer.name, answer.arguments) if isinstance(answer, ToolCall) else (default_name, answer)


def _text(answer: Answer) -> str:
    if isinstance(answer, ToolCall):
        return json.dumps(answer.arguments)
    return answer if isinstance(answer, str) else json.dumps(answer)


def _error(status: int, message: str) -> Response:
    """OpenAI's error body on OpenAI paths, Anthropic's on /v1/messages; both SDKs read `message` from them."""
    openai_type, anthropic_type = ERROR_TYPES.get(status, ("server_error", "api_error"))
    if request.path == "/v1/messages":
        response = jsonify(type="error", error={"type": anthropic_type, "message": message})
    else:
        response = jsonify(error={"message": message, "type": openai_type, "param": None, "code": None})
    response.status_code = status
    return response
