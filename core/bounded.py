"""Bounded input: text from repositories, comments and payloads is checked for size and shape before use.

Pure and cheap to import. Every refusal is a PermanentError (or a YAMLError for YAML) with a message a person
can act on, never a retry.
"""

from __future__ import annotations

from typing import Any

import yaml

from core.errors import PermanentError

SHOWN_CHARS = 80


def shown(value: Any) -> str:
    """A value as a reply may echo it: short, whatever its size."""
    text = repr(value)
    return text if len(text) <= SHOWN_CHARS else text[:SHOWN_CHARS] + "…"


class YamlRefused(yaml.YAMLError):
    """YAML memfix will not expand: anchors and aliases (a few bytes can name gigabytes)."""


def safe_yaml(text: str) -> Any:
    """`yaml.safe_load`, after one linear pass over the events refuses aliases and anchors."""
    for event in yaml.parse(text, Loader=yaml.SafeLoader):
        if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
            raise YamlRefused("anchors and aliases (`&name`, `*name`) are not accepted")
    return yaml.safe_load(text)


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
