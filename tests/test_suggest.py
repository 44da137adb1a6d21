"""Verified patches as GitHub suggestion blocks, placed only where a PR's diff lets GitHub take them."""

from __future__ import annotations

from core.change import Patch
from core.pipelines.suggest import hunks, placeable, suggestions


def _patch(before: str, after: str) -> Patch:
    return Patch("pkg/mod.py", before, after, (), "ruff")


def _apply(before: str, found) -> str:
    """Apply suggestions bottom-up, as a person clicking each would."""
    lines = before.splitlines()
    for s in sorted(found, key=lambda s: -s.start_line):
        lines[s.start_line - 1:s.end_line] = s.replacement
    return "\n".join(lines) + "\n"


def test_replacements_deletions_and_insertions_each_become_one_suggestion_that_reproduces_the_patch():
    before = "import os\nimport sys\n\n\ndef f(x):\n    return x\n"
    after = "import sys\n\n\ndef f(x):\n    y = x\n    return y\n"
    found = suggestions(_patch(before, after))
    assert _apply(before, found) == after
    assert found[0].start_line == 1 and found[0].replacement == []  # `import os` deleted


def test_an_insertion_at_the_top_is_anchored_on_the_first_line():
    before, after = "x = 1\n", "from __future__ import annotations\nx = 1\n"
    [s] = suggestions(_patch(before, after))
    assert (s.start_line, s.end_line) == (1, 1) and _apply(before, [s]) == after


def test_comment_shape_and_a_fence_the_text_cannot_close():
    before, after = "a = 1\nb = 2\nc = 3\n", "a = 1\nb = '```'\nc = 4\n"
    [s] = suggestions(_patch(before, after))
    comment = s.comment()
    assert comment["path"] == "pkg/mod.py" and comment["side"] == "RIGHT"
    assert (comment["start_line"], comment["line"]) == (2, 3)
    assert comment["body"].startswith("````suggestion\n") and comment["body"].endswith("\n````")


def test_only_lines_inside_one_hunk_of_the_pr_diff_are_placeable():
    shown = hunks("@@ -1,3 +1,4 @@\n a\n+b\n c\n d\n@@ -20,2 +21,3 @@\n x\n+y\n z")
    assert shown == [range(1, 5), range(21, 24)]
    [inside] = suggestions(_patch("a\nb\nc\n", "a\nB\nc\n"))
    assert placeable(inside, shown)
    many = "\n".join(f"l{i}" for i in range(1, 30)) + "\n"
    [outside] = suggestions(_patch(many, many.replace("l10\n", "L10\n")))
    assert not placeable(outside, shown) and "-l10" in outside.diff(many.splitlines())
    [spanning] = suggestions(_patch(many, many.replace("l4\nl5\nl6\n", "x\n")))
    assert not placeable(spanning, [range(1, 5), range(5, 9)])  # a comment cannot span two hunks
    assert hunks(None) == [] and hunks("@@ -0,0 +1 @@\n+new") == [range(1, 2)]
