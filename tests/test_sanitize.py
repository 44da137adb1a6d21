"""Text from tools and people stays data: in storage, in searches and in the comments memfix posts."""

from __future__ import annotations

import pytest

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
    ("an e-mail user@example.com", "an e-mail user@example.com"),  # not a mention: nothing to break
])
def test_inert_text_mentions_no_one_links_nowhere_and_shows_no_image(said, shown):
    assert inert(said) == shown


def test_code_holds_any_backticks_and_lines_in_one_span():
    assert code("app/util.py") == "`app/util.py`"
    assert code("a`b") == "``a`b``"
    assert code("`x`") == "`` `x` ``"
    assert code("two\nlines\x00") == "`two lines\\x00`"
