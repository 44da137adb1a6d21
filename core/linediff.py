"""Which lines of two texts stay and which change, in time near linear in their length: difflib's matcher is
quadratic on a file of many identical lines, and on one whose every other line changed.

The common ends first; then, between them, the lines that occur once on each side, paired in order (a patience
diff), and the same again between each two pairs a few levels deep; what is left is paired line for line where both
sides have as many lines, else replaced whole. Opcodes as difflib's `get_opcodes` gives them. Pure.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from collections.abc import Sequence
from typing import Literal

Tag = Literal["replace", "delete", "insert", "equal"]
Opcode = tuple[Tag, int, int, int, int]
Block = tuple[int, int, int]  # (where in a, where in b, how many lines alike)
MAX_DEPTH = 8  # levels of pairing inside the gaps between pairs; each level reads every line at most once


def opcodes(a: Sequence[str], b: Sequence[str]) -> list[Opcode]:
    """How to turn `a` into `b`, as difflib's opcodes: (tag, a from, a to, b from, b to)."""
    found: list[Block] = []
    _match(a, (0, len(a)), b, (0, len(b)), 0, found)
    i = j = 0
    answer: list[Opcode] = []
    for ai, bj, size in [*_joined(found), (len(a), len(b), 0)]:
        tag: Tag | None = "replace" if i < ai and j < bj else "delete" if i < ai else "insert" if j < bj else None
        if tag:
            answer.append((tag, i, ai, j, bj))
        i, j = ai + size, bj + size
        if size:
            answer.append(("equal", ai, i, bj, j))
    return answer


def _match(a: Sequence[str], arange: tuple[int, int], b: Sequence[str], brange: tuple[int, int], depth: int,
           found: list[Block]) -> None:
    """The alike lines of a[arange] and b[brange], added to `found` in order."""
    (alo, ahi), (blo, bhi) = arange, brange
    head, tail = _common_ends(a, arange, b, brange)
    if head:
        found.append((alo, blo, head))
    alo, blo, ahi, bhi = alo + head, blo + head, ahi - tail, bhi - tail
    if alo < ahi and blo < bhi:
        _match_middle(a, (alo, ahi), b, (blo, bhi), depth, found)
    if tail:
        found.append((ahi, bhi, tail))


def _common_ends(a: Sequence[str], arange: tuple[int, int], b: Sequence[str],
                 brange: tuple[int, int]) -> tuple[int, int]:
    """How many lines a[arange] and b[brange] share at their start, and then at their end."""
    (alo, ahi), (blo, bhi) = arange, brange
    head = 0
    while alo + head < ahi and blo + head < bhi and a[alo + head] == b[blo + head]:
        head += 1
    tail = 0
    while ahi - tail > alo + head and bhi - tail > blo + head and a[ahi - tail - 1] == b[bhi - tail - 1]:
        tail += 1
    return head, tail


def _match_middle(a: Sequence[str], arange: tuple[int, int], b: Sequence[str], brange: tuple[int, int], depth: int,
                  found: list[Block]) -> None:
    """Between the shared ends: matched around the lines found once on each side, else line for line where both
    sides have as many lines."""
    (alo, ahi), (blo, bhi) = arange, brange
    pairs = _anchors(a, alo, ahi, b, blo, bhi) if depth < MAX_DEPTH else []
    if pairs:
        for i, j in pairs:
            _match(a, (alo, i), b, (blo, j), depth + 1, found)
            found.append((i, j, 1))
            alo, blo = i + 1, j + 1
        _match(a, (alo, ahi), b, (blo, bhi), depth + 1, found)
    elif ahi - alo == bhi - blo:  # nothing to pair by: line for line
        found += [(alo + k, blo + k, 1) for k in range(ahi - alo) if a[alo + k] == b[blo + k]]


def _anchors(a: Sequence[str], alo: int, ahi: int, b: Sequence[str], blo: int, bhi: int) -> list[tuple[int, int]]:
    """The lines found once in a[alo:ahi] and once in b[blo:bhi], as many pairs as stay in order on both sides."""
    in_a, in_b = Counter(a[alo:ahi]), Counter(b[blo:bhi])
    where = {b[j]: j for j in range(blo, bhi) if in_b[b[j]] == 1 and in_a[b[j]] == 1}
    return _increasing([(i, where[a[i]]) for i in range(alo, ahi) if a[i] in where])


def _increasing(pairs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The longest run of `pairs` (in order of their first member) whose second members increase too."""
    tops: list[int] = []  # the smallest last second member of a run of each length
    ends: list[int] = []  # the index in `pairs` of that run's last pair
    before = [-1] * len(pairs)
    for n, (_, j) in enumerate(pairs):
        k = bisect_left(tops, j)
        before[n] = ends[k - 1] if k else -1
        if k == len(tops):
            tops.append(j)
            ends.append(n)
        else:
            tops[k], ends[k] = j, n
    run, n = [], ends[-1] if ends else -1
    while n >= 0:
        run.append(pairs[n])
        n = before[n]
    return run[::-1]


def _joined(blocks: list[Block]) -> list[Block]:
    """Blocks that touch, made one."""
    joined: list[Block] = []
    for i, j, size in blocks:
        if joined and joined[-1][0] + joined[-1][2] == i and joined[-1][1] + joined[-1][2] == j:
            joined[-1] = (joined[-1][0], joined[-1][1], joined[-1][2] + size)
        else:
            joined.append((i, j, size))
    return joined
