"""Text from tools and people stays data: in storage, in searches and in the comments memfix posts."""

from __future__ import annotations

import random
import re
from html.parser import HTMLParser

import cmarkgfm
import pytest
from cmarkgfm.cmark import Options

from core.change import Finding
from core.memory.sanitize import code, inert, printable


def test_control_characters_become_visible_escapes_and_lines_stay():
    assert printable("a\x00b\x1b[31mc\td\ne") == "a\\x00b\\x1b[31mc\td\ne"
    assert printable("lone \ud800 surrogate") == "lone \\ud800 surrogate"
    assert printable("plain — text ✓") == "plain — text ✓"


def test_a_tools_message_never_carries_a_nul_into_memory():
    found = Finding("a.py", 1, 1, "invalid-syntax", "Got unexpected token \x00")
    assert found.message == "Got unexpected token \\x00"


@pytest.mark.parametrize(("said", "shown"), [
    ("ping @admins and @acme/security", "ping @\u200badmins and @\u200bacme/security"),
    ("see #12 and acme/api#3", "see #\u200b12 and acme/api#\u200b3"),
    ("at https://evil.example/x or www.evil.example", "at https\u200b://evil.example/x or www\u200b.evil.example"),
    ("![pixel](http://t.example/p.png)", "\\!\\[pixel\\](http\u200b://t.example/p.png)"),
    ("<img src=x onerror=alert(1)> | cell |", "\\<img src=x onerror=alert(1)\\> \\| cell \\|"),
    ("`@kept` and `[kept](x)` in code", "`@kept` and `[kept](x)` in code"),  # GitHub renders nothing in code
    # GitHub links a bare e-mail address (mailto:); the old `inert` left it whole
    ("an e-mail user@example.com", "an e-mail user@\u200bexample.com"),
    ("GH-12, &#64;team, $x$", "GH-\u200b12, \\&#\u200b64;team, \\$x\\$"),
    ("`a\n\n@x` `", "\\`a\n\n@\u200bx` `"),  # a blank line ends the paragraph: no code span crosses it
    ("``a`b`` `@c``", "``a`b`` \\`@\u200bc\\`\\`"),  # two backticks are closed by exactly two
    ("\\`@x` `@y`", "\\\\\\`@\u200bx` `@\u200by\\`"),  # an escaped backtick opens nothing
    ("\\\\`@x`", "\\\\\\\\`@x`"),  # an escaped backslash escapes no backtick
    ("`a\\` @b`", "`a\\` @\u200bb\\`"),  # in a code span a backslash is only a backslash
    ("`a\nb`", "`a\nb`"),  # one paragraph: one code span
    ("`a\n# @b`", "\\`a\n# @\u200bb\\`"),  # a heading ends the paragraph
    ("| `a | @b` |", "\\| \\`a \\| @\u200bb\\` \\|"),  # a table cell ends at its `|`
    ("<!-- `x` --> <https://e.example>", "\\<\\!-- `x` --\\> \\<https\u200b://e.example\\>"),
])
def test_inert_text_mentions_no_one_links_nowhere_and_shows_no_image(said, shown):
    assert inert(said) == shown


def test_code_holds_any_backticks_and_lines_in_one_span():
    assert code("app/util.py") == "`app/util.py`"
    assert code("a`b") == "``a`b``"
    assert code("`x`") == "`` `x` ``"
    assert code("two\nlines\x00") == "`two lines\\x00`"


# What GitHub renders live. Mentions and `#12` references are GitHub's own pass over the HTML's text (outside code);
# links, images, HTML and footnotes are cmark-gfm's: its HTML may hold only the elements it makes of Markdown itself.
_MARKDOWN_ELEMENTS = {"p", "br", "em", "strong", "del", "code", "pre", "hr", "ul", "ol", "li", "blockquote", "table",
                      "thead", "tbody", "tr", "th", "td", "h1", "h2", "h3", "h4", "h5", "h6"}
_LIVE_TEXT = re.compile(r"@\w|#\d|gh-\d|(?:https?|ftp)://|www\.|(?:mailto|xmpp):", re.I)


class _Live(HTMLParser):
    """Whatever in rendered HTML would mention, reference, link, show an image or be HTML of the text's own."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self.in_code = 0

    def handle_starttag(self, tag, attrs):
        if tag not in _MARKDOWN_ELEMENTS:
            self.found.append(f"<{tag} {attrs}>")
        self.in_code += tag in ("code", "pre")

    def handle_endtag(self, tag):
        self.in_code -= tag in ("code", "pre")

    def handle_data(self, data):
        if not self.in_code and _LIVE_TEXT.search(data):
            self.found.append(data)

    def handle_comment(self, data):
        self.found.append(f"<!--{data}-->")

    def handle_decl(self, decl):
        self.found.append(decl)

    def handle_pi(self, data):
        self.found.append(data)

    def unknown_decl(self, data):
        self.found.append(data)


def github(markdown: str) -> str:
    """HTML as GitHub's cmark-gfm makes it: tables, autolinks, the tag filter, footnotes; raw HTML let through."""
    return cmarkgfm.github_flavored_markdown_to_html(markdown, Options.CMARK_OPT_UNSAFE | Options.CMARK_OPT_FOOTNOTES)


def live(markdown: str) -> list[str]:
    parser = _Live()
    parser.feed(github(markdown))
    parser.close()
    return parser.found


# Where memfix's comments put inert text (core/pipelines/present.py, core/learning/offers.py, core/memory/review.py)
_PLACES = ["{}", "- line 3: `E501` {}", "### Rationale\n{}\n\n### Record here", "memfix read your reply as: {}",
           "- Avoid E501 in `a.py`? Reply `/remember`. ({})", "> {}"]
_LIVE = [  # each rendered live by GitHub as it stands
    "`a\n\n@admins [x](https://e.example) `", "`a\n \t\n#12 `", "`a\r\r@r `", "\\`@z` `", "`a\\` @w`",
    "`a\n# @h `", "`a\n> @q `", "`a\n- @l `", "`a\n[^1]: @f `\n\n[^1]", "x\n`a\n@b`\n:-:", "a\n:-:\n`b\n@c`",
    "| `a | @b` |\n|---|---|", "`a\n===\n@s`", "`a\n<div>\n@h`", "<!-- `@hidden` -->", "`<!--` @x `-->`",
    "<https://evil.example>", "<mailto:a@b.example>", "https://e.example/x", "HTTP://E.EXAMPLE", "www.evil.example",
    "(www.e.example)", "ftp://f.example", "user@example.com", "a.b+c@d.example", "mailto:u@e.example",
    "xmpp:u@e.example/r", "[a](https://e.example)", "![i](https://e/p.png)", "[a]\n\n[a]: https://e.example",
    "[a]: https://e.example \"t\"\n[a]", "@user", "@org/team", "#12", "GH-12", "owner/repo#12", "&#64;user",
    "&commat;user", "&#x40;user", "&#35;12", "<img src=x onerror=alert(1)>", "<details><summary>s</summary></details>",
    "<b>x</b>", "| a | b |\n| - | - |\n| @c | d |", "[^1]\n\n[^1]: note", "<a href=x>y</a>", "- [ ] task @t",
]
_PARTS = [  # harmless alone, but not always beside others
    "``@x` `` ` `", "`` @y ``` ``", "\\\\`@kept`", "    `@code`\n`", "```\n@fence [l](http://x.example)\n```",
    "~~~\n@t\n~~~", "`a\n2. @o `", "&lt;img src=x&gt;", "&#60;b&#62;", "<script>x</script>", "$`@m`$", "\\", "`",
    "``", "```", "\n", "\n\n", "\r", "\r\n", "|", "<", "&", "\x00@nul", "-", ":-:", "===", "[", "]", "(", "!", "#",
    "@",
]
_ADVERSARIAL = _LIVE + _PARTS


def assert_inert(said: str) -> None:
    for shown in (inert(said), inert(inert(said))):
        for place in _PLACES:
            assert not live(place.format(shown)), (said, shown, place, live(place.format(shown)))


def test_the_check_finds_what_github_renders_live():  # so the tests below can fail
    assert [said for said in _LIVE if not live(said)] == []


@pytest.mark.parametrize("said", _ADVERSARIAL)
def test_inert_text_renders_nothing_live_on_github(said):
    assert_inert(said)


def test_inert_text_renders_nothing_live_whatever_the_fragments_around_it():
    rng = random.Random(20240611)
    joints = ["", " ", "\n", "\n\n", "\r", "`", "``", "\\", "|", " \n", "\n    ", "\n:-:\n", "\n- ", "\n===\n"]
    for _ in range(3000):
        pieces = rng.choices(_ADVERSARIAL, k=rng.randint(1, 6))
        assert_inert("".join(piece + rng.choice(joints) for piece in pieces))


@pytest.mark.parametrize(("said", "code_shown"), [
    ("`@kept` and `[kept](x)`", ["@kept", "[kept](x)"]),
    ("``a`b`` and ` `` `", ["a`b", "``"]),
    ("`a\nb` @x", ["a b"]),
    ("`a\nb`\n\n:-:", ["a b"]),  # a blank line, not a table's row, after a code span's lines
    ("- `<img src=x>`", ["&lt;img src=x&gt;"]),
])
def test_inert_keeps_the_code_spans_github_would_make(said, code_shown):
    assert re.findall(r"<code>(.*?)</code>", github(inert(said)), re.S) == code_shown


def test_inert_on_a_long_run_of_unclosed_backticks_returns_every_code_span():
    said = "`" + "``a" * 70_000  # 210 KB; a backtracking search for closers is quadratic on it
    shown = inert(said)
    assert shown == "\\`\\`\\`a" + said[4:-3] + "\\`\\`a"  # 69,999 runs of two: 34,999 pairs, one left over
    assert github(shown).count("<code>") == 34_999
