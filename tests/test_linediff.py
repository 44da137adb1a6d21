"""Which lines stay and which change (core/linediff.py), on the files that made difflib's matcher quadratic: many
identical lines, and every other line changed."""

from __future__ import annotations

import random

import pytest

from core.linediff import opcodes


def rebuilt(a: list[str], b: list[str]) -> list[str]:
    """`b` rebuilt from `a` by the opcodes, each equal run checked equal and each run following the last."""
    out, i, j = [], 0, 0
    for tag, i1, i2, j1, j2 in opcodes(a, b):
        assert (i1, j1) == (i, j) and (tag != "equal" or a[i1:i2] == b[j1:j2])
        out += b[j1:j2]
        i, j = i2, j2
    assert (i, j) == (len(a), len(b))
    return out


@pytest.mark.parametrize(("a", "b", "expected"), [
    (["}"] * 5000 + ["a"], ["}"] * 5000 + ["b"], [("equal", 0, 5000, 0, 5000), ("replace", 5000, 5001, 5000, 5001)]),
    (["a"] + ["}"] * 5000 + ["a"], ["b"] + ["}"] * 5000 + ["b"],  # no line found once: line for line
     [("replace", 0, 1, 0, 1), ("equal", 1, 5001, 1, 5001), ("replace", 5001, 5002, 5001, 5002)]),
    ([f"{n}" for n in range(4)], ["0", "x", "2", "y", "3"],  # lines found once anchor the rest
     [("equal", 0, 1, 0, 1), ("replace", 1, 2, 1, 2), ("equal", 2, 3, 2, 3), ("insert", 3, 3, 3, 4),
      ("equal", 3, 4, 4, 5)]),
    (["}"] * 3000, ["}"] * 2999, [("equal", 0, 2999, 0, 2999), ("delete", 2999, 3000, 2999, 2999)]),
])
def test_the_lines_that_change_among_many_identical_ones(a, b, expected):
    assert opcodes(a, b) == expected
    assert rebuilt(a, b) == b


def test_every_other_line_changed_is_each_its_own_change():
    a = [f"line {n}" for n in range(4000)]
    b = [line + ";" if n % 2 else line for n, line in enumerate(a)]
    changes = [op for op in opcodes(a, b) if op[0] != "equal"]
    assert changes == [("replace", n, n + 1, n, n + 1) for n in range(1, 4000, 2)]


def test_any_two_texts_are_rebuilt():
    rng = random.Random(7)
    for _ in range(500):
        a = [rng.choice(["}", "", "x", "y = 1"]) for _ in range(rng.randint(0, 40))]
        b = list(a)
        for _ in range(rng.randint(0, 6)):
            k = rng.randint(0, len(b))
            if rng.random() < 0.5 and b:
                del b[min(k, len(b) - 1)]
            else:
                b.insert(k, rng.choice(["}", "z"]))
        assert rebuilt(a, b) == b
