"""The model port: one structured answer per call, as a forced tool call validated against a JSON schema, with
one re-ask that shows the model its problems. Nothing here imports a provider's SDK."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Protocol

from core.errors import PermanentError, TransientError

TRANSIENT_STATUSES = {408, 409, 429}  # with 5xx: the statuses both SDKs themselves retry


class LLMUnavailable(TransientError):
    """The model timed out, was overloaded, rate-limited or unreachable: worth retrying later."""


class LLMError(PermanentError):
    """The provider refused the request (key, model, request shape), or no model is configured."""


class LLMOutputError(PermanentError):
    """The model's answer did not match the schema, even after it was shown the problems once."""

    def __init__(self, message: str, problems: list[str], *, input_tokens: int = 0, output_tokens: int = 0):
        super().__init__(message)
        self.problems = problems
        self.input_tokens, self.output_tokens = input_tokens, output_tokens  # spent all the same


@dataclass(frozen=True)
class Completion:
    data: dict[str, Any]  # the tool's arguments, valid under the schema
    input_tokens: int
    output_tokens: int
    provider: str
    model: str | None
    asks: int = 1  # 2 when the first answer had to be re-asked


class LLM(Protocol):
    provider: str

    @property
    def model(self) -> str | None: ...  # None: no model, deterministic fixes only

    def complete(self, system: str, prompt: str, schema: dict[str, Any], *, name: str,
                 description: str) -> Completion: ...


# ---- the JSON-schema subset our prompts use ----

_TYPES: dict[str, Callable[[Any], bool]] = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "number": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
    "integer": lambda v: (isinstance(v, int) and not isinstance(v, bool)) or (isinstance(v, float) and v.is_integer()),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}


def _type_name(value: Any) -> str:
    return next((name for name, test in _TYPES.items() if name != "integer" and test(value)), type(value).__name__)


def _child(path: str, key: str) -> str:
    return f"{path}.{key}" if key.isidentifier() else f"{path}[{json.dumps(key)}]"


def validate(data: Any, schema: dict[str, Any], path: str = "$") -> list[str]:
    """Problems with `data` under `schema`, each led by its JSON path; [] when valid. Supports type (a name or a
    list), enum, minimum/maximum, minLength/maxLength, properties, required, additionalProperties, items,
    minItems/maxItems; other keywords are ignored."""
    if wrong := _type_problem(data, schema, path):
        return [wrong]  # nothing below makes sense then
    problems = []
    if "enum" in schema and data not in schema["enum"]:
        problems.append(f"{path}: {json.dumps(data)} is not one of {json.dumps(schema['enum'])}")
    if _TYPES["number"](data):
        problems += _range_problems(data, schema, path)
    if isinstance(data, str | list):
        problems += _size_problems(data, schema, path)
    if isinstance(data, dict):
        problems += _object_problems(data, schema, path)
    if isinstance(data, list) and isinstance(schema.get("items"), dict):
        for index, item in enumerate(data):
            problems += validate(item, schema["items"], f"{path}[{index}]")
    return problems


def _type_problem(data: object, schema: dict[str, Any], path: str) -> str:
    """Data of none of the schema's types (a name or a list of them), in words; "" where it has one."""
    types = schema.get("type")
    types = [types] if isinstance(types, str) else types or []
    if types and not any(_TYPES[t](data) for t in types):
        return f"{path}: expected {' or '.join(types)}, got {_type_name(data)}"
    return ""


def _range_problems(number: float, schema: dict[str, Any], path: str) -> list[str]:
    """A number below the schema's minimum or above its maximum."""
    problems = []
    if "minimum" in schema and number < schema["minimum"]:
        problems.append(f"{path}: {number} is below the minimum {schema['minimum']}")
    if "maximum" in schema and number > schema["maximum"]:
        problems.append(f"{path}: {number} is above the maximum {schema['maximum']}")
    return problems


def _size_problems(data: str | list[Any], schema: dict[str, Any], path: str) -> list[str]:
    """A string's characters or an array's items, fewer or more than the schema allows."""
    problems = []
    kind, suffix = ("characters", "Length") if isinstance(data, str) else ("items", "Items")
    if f"min{suffix}" in schema and len(data) < schema[f"min{suffix}"]:
        problems.append(f"{path}: has {len(data)} {kind}, fewer than {schema[f'min{suffix}']}")
    if f"max{suffix}" in schema and len(data) > schema[f"max{suffix}"]:
        problems.append(f"{path}: has {len(data)} {kind}, more than {schema[f'max{suffix}']}")
    return problems


def _object_problems(data: dict[str, Any], schema: dict[str, Any], path: str) -> list[str]:
    """An object's missing required properties, its unexpected ones, and each property's own problems."""
    properties, extra = schema.get("properties", {}), schema.get("additionalProperties", True)
    problems = [f"{path}: missing required property {key!r}" for key in schema.get("required", ()) if key not in data]
    for key, value in data.items():
        if key in properties:
            problems += validate(value, properties[key], _child(path, key))
        elif extra is False:
            problems.append(f"{path}: unexpected property {key!r}")
        elif isinstance(extra, dict):
            problems += validate(value, extra, _child(path, key))
    return problems


# ---- what every tool-calling provider shares ----


@dataclass(frozen=True)
class Turn:
    """One answer: the tool arguments (None when there were none to read), why they could not be read, the tokens
    it cost, and the provider's own message, replayed on a re-ask."""

    arguments: Any
    problems: list[str]
    input_tokens: int
    output_tokens: int
    reply: Any


def feedback(name: str, problems: list[str]) -> str:
    listed = "\n".join(f"- {p}" for p in problems)
    return f"Your call to {name} did not match its schema:\n{listed}\nCall {name} again with corrected arguments."


class ToolLLM:
    """Forces one tool call and re-asks once on output that does not validate; a provider sends the messages
    (`_ask`) and says how to show the model its answer and the problems (`_retry_messages`)."""

    provider: str
    model: str

    def complete(self, system: str, prompt: str, schema: dict[str, Any], *, name: str, description: str) -> Completion:
        messages: list[dict[str, Any]] = [{"role": "user", "content": prompt}]
        input_tokens = output_tokens = 0
        for asks in (1, 2):
            turn = self._ask(system, messages, schema, name, description)
            input_tokens, output_tokens = input_tokens + turn.input_tokens, output_tokens + turn.output_tokens
            problems = turn.problems or validate(turn.arguments, schema)
            if not problems:
                return Completion(turn.arguments, input_tokens, output_tokens, self.provider, self.model, asks)
            messages += self._retry_messages(turn, feedback(name, problems))
        raise LLMOutputError(
            f"{self.label} answered {name} twice with output that does not match its schema: {'; '.join(problems)}",
            problems,
            input_tokens=input_tokens,
            output_tokens=output_tokens,
        )

    @property
    def label(self) -> str:
        return f"{self.provider} model {self.model}"

    def _ask(self, system: str, messages: list[dict[str, Any]], schema: dict[str, Any], name: str,
             description: str) -> Turn:
        raise NotImplementedError

    def _retry_messages(self, turn: Turn, feedback: str) -> list[dict[str, Any]]:
        raise NotImplementedError


@contextmanager
def provider_errors(sdk: ModuleType, label: str) -> Iterator[None]:
    """Map an SDK's errors to retry-or-report; the openai and anthropic SDKs share their shape."""
    try:
        yield
    except sdk.APIConnectionError as e:  # includes timeouts
        raise LLMUnavailable(f"{label} unreachable: {e}") from e
    except sdk.APIStatusError as e:
        if e.status_code >= 500 or e.status_code in TRANSIENT_STATUSES:
            raise LLMUnavailable(f"{label} failed (HTTP {e.status_code})") from e
        raise LLMError(f"{label} refused the request (HTTP {e.status_code}): {e.message}") from e
