"""The project's configuration files, read through the bounded reader (never run): what a file that is refused
or absent holds is nothing, and the reading goes on without it."""

from __future__ import annotations

import re

from core.bounded import ConfigFormat, ConfigRefused, Table, read_config


def read_as(text: str | None, fmt: ConfigFormat) -> Table:
    """A project file's data through the bounded reader, or nothing: what it refuses (too large, too deep, a number
    longer than any setting) tells memfix nothing, and the run goes on without it (read_profile says why)."""
    if not text:
        return {}
    try:
        data = read_config(text, fmt, fmt)
    except ConfigRefused:
        return {}
    return data if isinstance(data, dict) else {}


def toml_file(text: str | None) -> Table:
    return read_as(text, "toml")


def ruff_table(texts: dict[str, str | None]) -> Table:
    """ruff's own precedence: .ruff.toml, then ruff.toml, then [tool.ruff] in pyproject.toml."""
    for name in (".ruff.toml", "ruff.toml"):
        if texts.get(name) is not None:
            return {**toml_file(texts[name]), "__source__": name}
    ruff = toml_file(texts.get("pyproject.toml")).get("tool")
    ruff = ruff.get("ruff") if isinstance(ruff, dict) else None
    return {**ruff, "__source__": "[tool.ruff] in pyproject.toml"} if isinstance(ruff, dict) else {}


def ini_section(text: str | None, name: str) -> dict[str, str] | None:
    sections = read_as(text, "ini")
    found = next((section for section in sections if section.lower() == name), None)  # [MESSAGES CONTROL]
    section = sections[found] if found else None
    return {str(k): str(v) for k, v in section.items()} if isinstance(section, dict) else None


def codes_in(value: str | None) -> list[str]:
    """flake8's and pylint's comma- or line-separated codes, upper case; names and `all` left out."""
    return [c.strip().upper() for c in re.split(r"[,\s]+", value or "") if re.fullmatch(r"[A-Za-z]{1,8}\d{0,4}",
                                                                                       c.strip())]


def is_rule(code: str) -> bool:
    return bool(re.fullmatch(r"[A-Z]{1,8}[0-9]{0,4}|ALL", code))


def listed(value: str | None) -> list[str]:
    return [v for v in re.split(r"[,\s]+", value or "") if v]
