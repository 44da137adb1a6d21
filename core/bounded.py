"""Bounded input: text from repositories, comments and payloads is checked for size and shape before use.

Pure and cheap to import. Every refusal is a PermanentError with a message a person can act on, never a retry:
`ConfigRefused` for a configuration file (JSON, JSONC, JSON5, YAML, TOML, INI), all read by `read_config`.
"""

from __future__ import annotations

import configparser
import json
import re
import tomllib
from collections.abc import Callable
from typing import Any, Literal

import yaml

from core import deadline
from core.errors import PermanentError

SHOWN_CHARS = 80


def shown(value: object) -> str:
    """A value as a reply may echo it: short, whatever its size."""
    text = repr(value)
    return text if len(text) <= SHOWN_CHARS else text[:SHOWN_CHARS] + "…"


ConfigFormat = Literal["json", "jsonc", "json5", "yaml", "toml", "ini"]

MAX_CONFIG_CHARS = 1 << 20  # the most a repository file memfix reads may have (workspace.MAX_FILE_BYTES)
MAX_CONFIG_DEPTH = 32  # deeper than any setting needs, far shallower than a recursive parser's stack
MAX_CONFIG_VALUES = 20_000
MAX_NUMBER_CHARS = 64  # Python refuses to read an integer of more than 4,300 digits; nothing here needs 65
_CHECK_EVERY = 4096  # tokens, events or values read between two looks at the deadlines in force
_NUMBERISH = re.compile(r"[-+]?[0-9][0-9a-fA-FxXoObB_:.eE+-]*|[-+]?\.[0-9][0-9_eE+-]*")


class _Loader(yaml.SafeLoader):
    """YAML's safe loader, making only what JSON has: a date stays the text it is (`2001-13-45` is no crash, and no
    reader of a configuration wants a date object), a value its tag cannot be read as is refused at its line, and
    the tags that make bytes, sets and ordered pairs are refused by name."""

    def construct_object(self, node: yaml.Node, deep: bool = False) -> Any:
        try:
            return super().construct_object(node, deep)
        except (ValueError, TypeError, OverflowError, ArithmeticError) as exc:  # `!!int 0x`, `!!float abc`
            raise yaml.constructor.ConstructorError(
                None, None, f"a value its tag cannot be read as ({exc.__class__.__name__})", node.start_mark) from None


def _refused_tag(loader: yaml.SafeLoader, node: yaml.Node) -> Any:
    raise yaml.constructor.ConstructorError(None, None, f"the tag {node.tag.rsplit(':', 1)[-1]} is not accepted",
                                            node.start_mark)


def _text(loader: yaml.SafeLoader, node: yaml.ScalarNode) -> Any:
    return loader.construct_scalar(node)


_Loader.add_constructor("tag:yaml.org,2002:timestamp", _text)
for _tag in ("binary", "set", "omap", "pairs"):
    _Loader.add_constructor(f"tag:yaml.org,2002:{_tag}", _refused_tag)
_LOADER = _Loader  # the pure one (no C parts): its messages are the ones people are shown


class ConfigRefused(PermanentError):
    """A configuration file memfix will not read, and why: whoever asked skips that file, says so, and goes on.
    `line` is 1-based in the text read; `problem` is the parser's own words about the syntax."""

    def __init__(self, name: str, reason: str, *, line: int | None = None, problem: str = ""):
        self.name, self.reason, self.line, self.problem = name, reason, line, problem
        super().__init__(f"{name}: {reason}" + (f" at line {line}" if line else "") + (f" ({problem})" if problem
                                                                                        else ""))


def read_config(text: str, fmt: ConfigFormat, name: str, *, limit: int = MAX_CONFIG_CHARS,
                values: int = MAX_CONFIG_VALUES) -> Any:
    """A configuration file's data, read the same way whatever its format: at most `limit` characters, valid
    Unicode, nesting at most MAX_CONFIG_DEPTH deep, at most `values` keys and values (a lockfile has many more than
    a configuration), no number longer than MAX_NUMBER_CHARS, YAML without anchors. Nesting is counted by a flat scan
    before any recursive parser sees the text; anything else raises ConfigRefused naming `name`."""
    if len(text) > limit:
        raise ConfigRefused(name, f"larger than {_size(limit)}, more than any configuration file needs")
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate, from a decoder's surrogateescape
            raise ConfigRefused(name, "text that is not valid Unicode (a lone surrogate) is not accepted") from None
    try:
        with deadline.budget(deadline.SCAN_SECONDS, f"reading {name}") as share:
            data = _READERS[fmt](text, name, values)
            _measure(data, name, values)
    except deadline.Overrun as exc:
        if not exc.of(share):
            raise  # the job's own time ran out
        raise ConfigRefused(name, f"reading it took longer than {deadline.SCAN_SECONDS:g} s") from None
    except ConfigRefused:
        raise
    except RecursionError:  # the flat scan counts what the parser will nest; this only guards a mismatch
        raise ConfigRefused(name, _TOO_DEEP) from None
    except Exception as exc:  # noqa: BLE001 — any parser's own failure is the same refusal, never a crashed job
        raise ConfigRefused(name, f"not valid {fmt.upper()}", problem=f"its parser failed: {exc.__class__.__name__}"
                            ) from None
    return data


_TOO_DEEP = f"values nested more than {MAX_CONFIG_DEPTH} levels deep are not accepted"


def _too_many(values: int) -> str:
    return f"more than {values:,} values are not accepted"


def _size(chars: int) -> str:
    return f"{chars >> 20} MiB" if chars >= 1 << 20 and not chars % (1 << 20) else f"{chars // 1024} KiB"


def _long_number(name: str, token: str) -> ConfigRefused:
    return ConfigRefused(name, f"a number of {len(token):,} characters is not accepted (at most {MAX_NUMBER_CHARS}; "
                               "quote it if it is text)")


def _measure(data: object, name: str, most: int = MAX_CONFIG_VALUES) -> None:
    """Depth, count and text of parsed data, walked without recursion: what a dotted TOML key nests, and the lone
    surrogate a JSON `\\ud800` escape decodes to, are only seen here."""
    values, stack = 0, [(data, 1)]
    while stack:
        if not values % _CHECK_EVERY:
            deadline.check()
        value, depth = stack.pop()
        if isinstance(value, dict | list | tuple | set | frozenset):
            if depth > MAX_CONFIG_DEPTH:
                raise ConfigRefused(name, _TOO_DEEP)
            items = [*value.keys(), *value.values()] if isinstance(value, dict) else list(value)
            stack += [(item, depth + 1) for item in items]
            continue
        values += 1
        if values > most:
            raise ConfigRefused(name, _too_many(most))
        if isinstance(value, str) and not value.isascii():
            _unicode(value, name)


def _unicode(text: str, name: str) -> None:
    """ConfigRefused for text that is not valid Unicode."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise ConfigRefused(name, "text that is not valid Unicode (a lone surrogate, like the escape "
                                  "`\\ud800`) is not accepted") from None


# ---- JSON, JSONC (comments, trailing commas) and JSON5's cheap part (single quotes, unquoted keys) ----

_JSON_TOKEN = re.compile(r"""
    (?P<string>"[^"\\\n]*+(?:\\[\s\S][^"\\\n]*+)*+"?|'[^'\\\n]*+(?:\\[\s\S][^'\\\n]*+)*+'?)
  | (?P<comment>//[^\n]*|/\*[\s\S]*?(?:\*/|\Z))
  | (?P<open>[\[{]) | (?P<close>[\]}]) | (?P<comma>,) | (?P<colon>:)
  | (?P<space>\s+)
  | (?P<bare>[^\s"'/\[\]{},:]+|/)
""", re.VERBOSE)
_IDENTIFIER = re.compile(r"[A-Za-z_$][\w$]*")
_JSON5_ESCAPE = re.compile(r"\\(\r\n|[\s\S])|\"")
_TERMINATED = re.compile(r"""'[^'\\\n]*+(?:\\[\s\S][^'\\\n]*+)*+'|"[^"\\\n]*+(?:\\[\s\S][^"\\\n]*+)*+\"""")


def _json(text: str, name: str, fmt: ConfigFormat = "json") -> Any:
    try:
        return json.loads(_plain_json(text, name, fmt))
    except json.JSONDecodeError as exc:
        extra = ("; memfix reads JSON5's comments, trailing commas, single quotes and unquoted keys, not its other "
                 "forms (hexadecimal or signed numbers, escapes JSON lacks)") if fmt == "json5" else ""
        raise ConfigRefused(name, f"not valid {fmt.upper()}", line=exc.lineno, problem=exc.msg + extra) from None


def _plain_json(text: str, name: str, fmt: ConfigFormat) -> str:
    """The text as strict JSON, in one flat pass that refuses nesting past MAX_CONFIG_DEPTH and over-long numbers:
    JSONC's comments out (their line breaks kept, so a parser's line numbers stay the file's) and trailing commas
    dropped; JSON5's single-quoted strings and unquoted keys quoted as JSON. In strict JSON they stay, for the parser
    to refuse."""
    out: list[str] = []
    last = before = -1  # the last two tokens that are not space, by their place in `out`
    depth = 0
    relaxed = fmt != "json"
    for n, match in enumerate(_JSON_TOKEN.finditer(text)):
        if not n % _CHECK_EVERY:
            deadline.check()
        kind, part = match.lastgroup, match.group()
        if kind == "comment" and relaxed:
            out.append("\n" * part.count("\n"))
            continue
        depth = _depth_after(kind, part, depth, name)
        if relaxed and kind in _AMENDED:
            part = _as_json(kind, part, out, last, before, fmt)
        out.append(part)
        if kind != "space":
            last, before = len(out) - 1, last
    return "".join(out)


_AMENDED = frozenset({"close", "string", "colon"})  # the tokens JSONC or JSON5 may write otherwise than JSON


def _as_json(kind: str, part: str, out: list[str], last: int, before: int, fmt: ConfigFormat) -> str:
    """A token of relaxed JSON as strict JSON, the tokens before it in `out` amended: a trailing comma dropped
    before a closing bracket; JSON5's strings in double quotes and its unquoted keys quoted."""
    if kind == "close":
        if last >= 0 and out[last] == "," and out[before] not in ("[", "{", ","):
            out[last] = ""  # a trailing comma
    elif fmt != "json5":
        return part
    elif kind == "string":
        return _json5_string(part)
    elif last >= 0 and _IDENTIFIER.fullmatch(out[last]):
        out[last] = json.dumps(out[last])  # an unquoted key
    return part


def _depth_after(kind: str | None, part: str, depth: int, name: str) -> int:
    """The nesting depth after a token; ConfigRefused for nesting past MAX_CONFIG_DEPTH or an over-long number."""
    if kind == "open":
        depth += 1
        if depth > MAX_CONFIG_DEPTH:
            raise ConfigRefused(name, _TOO_DEEP)
    elif kind == "close":
        depth -= 1
    elif kind == "bare" and len(part) > MAX_NUMBER_CHARS and _NUMBERISH.fullmatch(part):
        raise _long_number(name, part)
    return depth


def _json5_string(token: str) -> str:
    """A JSON5 string as JSON: either quote, `\\'` and line continuations undone, `"` escaped; anything else JSON
    lacks is left for the parser to refuse. An unterminated string is left as it is."""
    if not _TERMINATED.fullmatch(token):
        return token

    def plain(match: re.Match[str]) -> str:
        escaped = match.group(1)
        if escaped is None:
            return '\\"'  # a bare `"` inside single quotes
        if escaped in ("\n", "\r\n", "\r", "\u2028", "\u2029"):
            return ""  # a line continuation
        return "'" if escaped == "'" else "\\" + escaped

    return '"' + _JSON5_ESCAPE.sub(plain, token[1:-1]) + '"'


# ---- TOML ----

_TOML_TOKEN = re.compile(r"""
    (?P<string>\"\"\"[^"\\]*+(?:(?:\\[\s\S]|"(?!""))[^"\\]*+)*+(?:\"\"\""{0,2}|\Z)
              | '''[\s\S]*?(?:'''\'{0,2}|\Z)
              | "[^"\\\n]*+(?:\\.[^"\\\n]*+)*+"? | '[^'\n]*+'?)
  | (?P<comment>\#[^\n]*)
  | (?P<open>[\[{]) | (?P<close>[\]}])
  | (?P<space>\s+)
  | (?P<bare>[^\s"'\#\[\]{},=]+|[,=])
""", re.VERBOSE)


_KEY_BREAKS = frozenset({"open", "close"})


def _toml(text: str, name: str) -> Any:
    """TOML after a flat pass over its tokens: tomllib recurses into arrays and inline tables, and its time grows with
    the square of a dotted key's parts (`a.a.a…`), so a key of more parts than MAX_CONFIG_DEPTH is refused here."""
    depth = dots = 0
    for n, match in enumerate(_TOML_TOKEN.finditer(text)):
        if not n % _CHECK_EVERY:
            deadline.check()
        kind, part = match.lastgroup, match.group()
        depth = _depth_after(kind, part, depth, name)
        dots = _key_dots(kind, part, dots)
        if dots > MAX_CONFIG_DEPTH:
            raise ConfigRefused(name, _TOO_DEEP)
    return _toml_loaded(text, name)


def _key_dots(kind: str | None, part: str, dots: int) -> int:
    """The dots of the key being read after a token: a key ends at `=`, a bracket, a comma or a line's end."""
    if kind in _KEY_BREAKS or part in ("=", ",") or kind == "space" and "\n" in part:
        return 0
    return dots + part.count(".") if kind == "bare" else dots


def _toml_loaded(text: str, name: str) -> dict[str, object]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        found = re.search(r"\(at line (\d+)", str(exc))
        raise ConfigRefused(name, "not valid TOML", line=int(found[1]) if found else None) from None
    except ValueError:  # an integer Python will not convert: the flat pass sees a number it cannot tell apart
        raise ConfigRefused(name, f"a number longer than {MAX_NUMBER_CHARS} characters is not accepted") from None


# ---- YAML ----

def _yaml(text: str, name: str, most: int = MAX_CONFIG_VALUES) -> Any:
    """`yaml.safe_load`, after one pass over the parser's events that stops at the first thing refused: anchors and
    aliases (a few bytes can name gigabytes), nesting, too many values, a plain scalar YAML would read as a number
    longer than MAX_NUMBER_CHARS. Nothing recursive sees the text before that pass."""
    depth = values = 0
    try:
        for n, event in enumerate(yaml.parse(text, Loader=_LOADER)):
            if not n % _CHECK_EVERY:
                deadline.check()
            if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
                raise ConfigRefused(name, "anchors and aliases (`&name`, `*name`) are not accepted")
            if isinstance(event, yaml.CollectionStartEvent | yaml.CollectionEndEvent):
                depth = _yaml_depth(event, depth, name)
            elif isinstance(event, yaml.ScalarEvent):
                values += 1
                _yaml_scalar(event, values, name, most)
        return yaml.load(text, Loader=_LOADER)  # noqa: S506 — SafeLoader
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise ConfigRefused(name, "not valid YAML", line=mark.line + 1 if mark else None,
                            problem=getattr(exc, "problem", None) or "") from None


def _yaml_depth(event: yaml.Event, depth: int, name: str) -> int:
    """The nesting after a collection starts or ends; ConfigRefused past MAX_CONFIG_DEPTH."""
    depth += 1 if isinstance(event, yaml.CollectionStartEvent) else -1
    if depth > MAX_CONFIG_DEPTH:
        raise ConfigRefused(name, _TOO_DEEP)
    return depth


def _yaml_scalar(event: yaml.ScalarEvent, values: int, name: str, most: int = MAX_CONFIG_VALUES) -> None:
    """ConfigRefused for the scalar that is one value too many, or a plain one YAML would read as a number too long."""
    if values > most:
        raise ConfigRefused(name, _too_many(most))
    plain = event.implicit[0]  # unquoted: YAML may read it as a number
    if plain and len(event.value) > MAX_NUMBER_CHARS and _NUMBERISH.fullmatch(event.value):
        raise _long_number(name, event.value)


# ---- INI ----

def _ini(text: str, name: str) -> dict[str, dict[str, str]]:
    """Sections as {name: {option: value}} (options in lower case, as configparser has them, DEFAULT's included)."""
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    try:
        parser.read_string(text)
    except configparser.Error as exc:  # its messages quote the file's lines: only where is said
        line = getattr(exc, "lineno", None) or next((n for n, _ in getattr(exc, "errors", ())), None)
        raise ConfigRefused(name, "not valid INI", line=line) from None
    return {section: dict(parser[section]) for section in parser.sections()}


_READERS: dict[str, Callable[[str, str, int], Any]] = {  # (text, name, the most values it may have)
    "json": lambda text, name, _: _json(text, name), "jsonc": lambda text, name, _: _json(text, name, "jsonc"),
    "json5": lambda text, name, _: _json(text, name, "json5"), "yaml": _yaml,
    "toml": lambda text, name, _: _toml(text, name), "ini": lambda text, name, _: _ini(text, name),
}


# A configuration's table as read: its keys are names, its values whatever the team wrote (a table, a list, text,
# a number), so each reader narrows what it takes.
Table = dict[str, object]


def table(value: object) -> Table:
    """A value that should be a table, or an empty one (a team's file may hold anything)."""
    return value if isinstance(value, dict) else {}


def array(value: object) -> list[object]:
    """A value that should be a list, or an empty one."""
    return value if isinstance(value, list) else []


def strings(value: object) -> list[str]:
    """The texts of a value that should be a list of them (anything else in it left out)."""
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def table_at(data: Table, *keys: str) -> Table:
    """The table under `keys` (`tool`, `ruff`: `[tool.ruff]`), or an empty one where any step is missing or is no
    table."""
    for key in keys:
        data = table(data.get(key))
    return data


def user_text(value: object, *, limit: int, what: str) -> str:
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
