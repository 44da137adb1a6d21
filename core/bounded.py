"""Bounded input: text from repositories, comments and payloads is checked for size and shape before use.

Pure and cheap to import. Every refusal is a PermanentError (or a YAMLError for YAML) with a message a person
can act on, never a retry.
"""

from __future__ import annotations

import re
from typing import Any

import yaml

from core.errors import PermanentError

SHOWN_CHARS = 80


def shown(value: Any) -> str:
    """A value as a reply may echo it: short, whatever its size."""
    text = repr(value)
    return text if len(text) <= SHOWN_CHARS else text[:SHOWN_CHARS] + "…"


class YamlRefused(yaml.YAMLError):
    """YAML memfix will not expand: anchors and aliases (a few bytes can name gigabytes), nesting deeper than any
    setting needs, more values than a file of settings has, numbers longer than any setting takes."""


MAX_YAML_DEPTH = 32
MAX_YAML_VALUES = 20_000
MAX_NUMBER_CHARS = 64  # Python refuses to read an integer of more than 4,300 digits; nothing here needs 65
_NUMBERISH = re.compile(r"[-+]?[0-9][0-9a-fA-FxXoObB_:.eE+-]*|[-+]?\.[0-9][0-9_eE+-]*")
_LOADER = yaml.SafeLoader  # the pure one: its messages are the ones people are shown


def safe_yaml(text: str) -> Any:
    """`yaml.safe_load`, after one pass over the parser's events that stops at the first thing refused: anchors and
    aliases, nesting deeper than MAX_YAML_DEPTH, more than MAX_YAML_VALUES values, a plain scalar that would be read
    as a number of more than MAX_NUMBER_CHARS characters. Nothing recursive sees the text before that pass."""
    depth = values = 0
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate, from JSON's "\ud800" or a decoder's surrogateescape
        raise YamlRefused("text that is not valid Unicode (a lone surrogate) is not accepted") from None
    for event in yaml.parse(text, Loader=_LOADER):
        if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
            raise YamlRefused("anchors and aliases (`&name`, `*name`) are not accepted")
        if isinstance(event, yaml.CollectionStartEvent):
            depth += 1
            if depth > MAX_YAML_DEPTH:
                raise YamlRefused(f"values nested more than {MAX_YAML_DEPTH} levels deep are not accepted")
        elif isinstance(event, yaml.CollectionEndEvent):
            depth -= 1
        elif isinstance(event, yaml.ScalarEvent):
            values += 1
            if values > MAX_YAML_VALUES:
                raise YamlRefused(f"more than {MAX_YAML_VALUES:,} values are not accepted")
            plain = event.implicit[0]  # unquoted: YAML may read it as a number
            if plain and len(event.value) > MAX_NUMBER_CHARS and _NUMBERISH.fullmatch(event.value):
                raise YamlRefused(f"a number of {len(event.value):,} characters is not accepted (at most "
                                  f"{MAX_NUMBER_CHARS}; quote it if it is text)")
    return yaml.load(text, Loader=_LOADER)  # noqa: S506 — SafeLoader


def user_text(value: Any, *, limit: int, what: str) -> str:
    """Text a person sent, as memfix may store and show it: a string, no NUL byte, at most `limit` characters."""
    if value is None:
        return ""
    if not isinstance(value, str):
        raise PermanentError(f"{what} is not text")
    if "\x00" in value:
        raise PermanentError(f"{what} contains a NUL byte; remove it and try again")
    if not value.isascii():
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:  # JSON's "\ud800" decodes to a lone surrogate, which nothing can store or send
            raise PermanentError(f"{what} contains a lone surrogate (not valid Unicode); remove it and try "
                                 "again") from None
    if len(value) > limit:
        raise PermanentError(f"{what} is {len(value):,} characters; the limit is {limit:,}")
    return value
