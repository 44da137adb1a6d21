"""Text from tools and people on its way into storage, prompts and replies: it stays data wherever it goes.

- `printable`: no NUL or control character reaches a table, a search or a log (PostgreSQL's text refuses NUL).
- `escape_braces`: it never expands a template such as `{{project.wisdom}}` in a prompt.
- `inert` and `code`: in a comment memfix posts, it mentions no one, links nowhere and shows no image.
"""

from __future__ import annotations

import re

_OPEN = re.compile(r"\{(?=\{)")
_CLOSE = re.compile(r"\}(?=\})")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]|[\ud800-\udfff]")
_SPANS = re.compile(r"(`+)(.+?)(?<!`)\1(?!`)", re.S)  # a code span: a run of backticks closed by an equal run
_ZW = "\u200b"  # a zero-width space: GitHub then sees no mention, reference or autolink
_ACTIVE = re.compile(r"((?<![\w`])@(?=[\w-])|#(?=\w))|(?i:(https?|ftp)(?=://))|(?i:\b(www)(?=\.))|([\\\[\]<>!|])")


def escape_braces(text: str) -> str:
    """Put a space between every pair of adjacent braces: `{{x}}` → `{ {x} }`, `{{{` → `{ { {`.

    The result holds no `{{` or `}}`, so a template engine sees no placeholder in it, and escaping
    it again changes nothing (idempotent). Single braces (code, JSON) are left alone.
    """
    return _CLOSE.sub("} ", _OPEN.sub("{ ", text))


def printable(text: str) -> str:
    """Control characters (NUL included) and lone surrogates as visible escapes (`\\x00`); tabs and newlines kept."""
    if text.isprintable():
        return text
    return _CONTROL.sub(lambda m: m[0].encode("unicode_escape", "backslashreplace").decode("ascii"), text)


def inert(text: str) -> str:
    """Text as a comment may show it: code spans kept as they are (GitHub renders nothing in them); elsewhere
    mentions (`@team`), references (`#12`) and autolinks (`https://`, `www.`) broken by a zero-width space, and
    link, image, HTML and table characters escaped."""
    out, start = [], 0
    for span in _SPANS.finditer(text):
        out += [_quiet(text[start:span.start()]), span[0]]
        start = span.end()
    out.append(_quiet(text[start:]))
    return printable("".join(out))


def code(text: str) -> str:
    """Text as one inline code span, whatever backticks or line breaks it holds."""
    flat = printable(" ".join(text.splitlines()))
    fence = "`" * (max((len(run) for run in re.findall(r"`+", flat)), default=0) + 1)
    pad = " " if flat.startswith("`") or flat.endswith("`") else ""
    return f"{fence}{pad}{flat}{pad}{fence}"


def _quiet(text: str) -> str:
    def one(m: re.Match[str]) -> str:
        if m[1]:
            return m[1] + _ZW
        if m[2] or m[3]:
            return (m[2] or m[3]) + _ZW
        return "\\" + m[4]
    return _ACTIVE.sub(one, text)
