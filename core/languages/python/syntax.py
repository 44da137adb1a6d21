"""A text's syntax tree, parsed and walked once: the checks of one patch read the same original and updated texts
many times (public surface, hidden uses, probes, locals), and the repository's other files are read once per run
(`RepositoryView.source`). Read with `ast`; nothing is run."""

from __future__ import annotations

import ast
import threading
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, TypeVar, overload

Node = TypeVar("Node", bound=ast.AST)
Other = TypeVar("Other", bound=ast.AST)
_BLOCKS = ("body", "orelse", "finalbody", "handlers", "cases")  # where statements hold statements
_RECENT = 16  # one patch's original and updated text, read by every check in turn, and a few more


@dataclass(eq=False)
class Source:
    text: str
    tree: ast.Module
    _kinds: dict[tuple[type, ...], list[Any]] = field(default_factory=dict, repr=False)

    @cached_property
    def nodes(self) -> list[ast.AST]:
        """Every node, in `ast.walk` order, walked once."""
        return list(ast.walk(self.tree))

    @cached_property
    def statements(self) -> list[ast.stmt]:
        """Every statement, nested ones included, without walking expressions (most of a tree's nodes)."""
        found: list[ast.stmt] = []
        stack: list[ast.AST] = list(reversed(self.tree.body))
        while stack:
            node = stack.pop()
            if isinstance(node, ast.stmt):
                found.append(node)
            for name in _BLOCKS:
                stack.extend(reversed(getattr(node, name, None) or ()))
        return found

    @overload
    def of(self, kind: type[Node], /) -> list[Node]: ...
    @overload
    def of(self, kind: type[Node], other: type[Other], /) -> list[Node | Other]: ...
    @overload
    def of(self, *kinds: type[ast.AST]) -> list[ast.AST]: ...

    def of(self, *kinds: type[ast.AST]) -> list[Any]:
        """The nodes of these kinds (kept: the checks ask for the same kinds again). Statement kinds are found
        without walking expressions."""
        if kinds not in self._kinds:
            pool = self.statements if all(issubclass(k, ast.stmt) for k in kinds) else self.nodes
            self._kinds[kinds] = [n for n in pool if isinstance(n, kinds)]
        return self._kinds[kinds]

    @cached_property
    def lines(self) -> list[str]:
        return self.text.splitlines()

    @cached_property
    def functions(self) -> dict[str, ast.FunctionDef | ast.AsyncFunctionDef]:
        return {n.name: n for n in self.of(ast.FunctionDef, ast.AsyncFunctionDef)}

    def segment(self, node: ast.AST) -> str:
        """The lines a statement spans, as written."""
        return "\n".join(self.lines[node.lineno - 1:node.end_lineno])  # type: ignore[attr-defined]

    @cached_property
    def bindings(self) -> set[str]:
        """Every name an import binds anywhere in the text."""
        return bound(self.of(ast.Import, ast.ImportFrom))


def assigned_to(node: ast.AST, names: tuple[str, ...]) -> ast.expr | None:
    """What a statement assigns to one of `names` (`=`, `+=` or annotated), or None for any other node."""
    if isinstance(node, ast.Assign):
        targets = node.targets
    elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
        targets = [node.target]
    else:
        return None
    return node.value if any(isinstance(t, ast.Name) and t.id in names for t in targets) else None


def strings_in(node: ast.AST) -> list[str]:
    """Every string literal inside an expression, in order."""
    return [c.value for c in ast.walk(node) if isinstance(c, ast.Constant) and isinstance(c.value, str)]


def bound(imports: Iterable[ast.Import | ast.ImportFrom]) -> set[str]:
    """The names these imports bind (`import a.b` binds `a`; `*` binds nothing that can be named)."""
    return {(a.asname or a.name).split(".")[0] for n in imports for a in n.names if a.name != "*"}


def parse(text: str) -> Source | None:
    """The text's Source, or None where it does not parse (that is another check's verdict)."""
    try:
        return Source(text, ast.parse(text))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


_recent: OrderedDict[str, Source | None] = OrderedDict()
_guard = threading.Lock()  # a server's workers verify in threads of one process


def parsed(text: str) -> Source | None:
    """`parse`, remembered for the few most recent texts."""
    with _guard:
        if text in _recent:
            _recent.move_to_end(text)
            return _recent[text]
    return remember(text, None)


def remember(text: str, tree: ast.Module | None) -> Source | None:
    """Keep a text's tree that another check already parsed (a parse for an older grammar gives the same tree)."""
    source = Source(text, tree) if tree is not None else parse(text)
    with _guard:
        _recent[text] = source
        while len(_recent) > _RECENT:
            _recent.popitem(last=False)
    return source
