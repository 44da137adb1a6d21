"""The oldest Python a project supports, as a patch must respect it: its grammar, and the annotations that version
evaluates at import."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from core.change import Patch
from core.languages.python.syntax import parsed, remember

_GENERICS = {"list", "dict", "tuple", "set", "frozenset", "type"}


def compatibility(patch: Patch, oldest: tuple[int, int], feature_version: tuple[int, int]) -> str | None:
    """Why the patched file would not work on the project's oldest Python, or None.

    It must parse as that version's grammar (`ast.parse(feature_version=…)`), and annotations Python evaluates at
    run time (no `from __future__ import annotations`: parameters, returns, module and class variables) must not
    gain syntax that version lacks: `X | Y` before 3.10, `list[int]` and kin before 3.9.
    """
    try:
        updated = ast.parse(patch.updated, feature_version=feature_version)
    except SyntaxError as exc:
        return f"not valid Python {feature_version[0]}.{feature_version[1]}: {exc.msg} (line {exc.lineno})"
    remember(patch.updated, updated)  # the later checks read the same tree
    if oldest >= (3, 10) or _future_annotations(updated):
        return None
    original = parsed(patch.original)
    before = _runtime_annotation_syntax(original.tree, oldest) if original is not None else {}
    for what, count in _runtime_annotation_syntax(updated, oldest).items():
        if count > before.get(what, 0):
            return (f"an annotation evaluated at import uses {what}, which Python {oldest[0]}.{oldest[1]} "
                    "cannot evaluate")
    return None


def _future_annotations(tree: ast.Module) -> bool:
    return any(isinstance(n, ast.ImportFrom) and n.module == "__future__" and any(a.name == "annotations"
               for a in n.names) for n in tree.body)


def _runtime_annotation_syntax(tree: ast.Module, oldest: tuple[int, int]) -> dict[str, int]:
    found: dict[str, int] = {}
    for annotation in _runtime_annotations(tree):
        for node in ast.walk(annotation):
            if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
                found["`X | Y`"] = found.get("`X | Y`", 0) + 1
            elif oldest < (3, 9) and isinstance(node, ast.Subscript) and getattr(node.value, "id", "") in _GENERICS:
                found["`list[...]`-style generics"] = found.get("`list[...]`-style generics", 0) + 1
    return found


def _runtime_annotations(tree: ast.Module) -> Iterator[ast.expr]:
    """Annotations Python evaluates: of every def, and of variables outside function bodies."""
    def visit(node: ast.AST, in_function: bool) -> Iterator[ast.expr]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                args = child.args
                for arg in (*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg):
                    if arg is not None and arg.annotation is not None:
                        yield arg.annotation
                if child.returns is not None:
                    yield child.returns
                yield from visit(child, True)
            elif isinstance(child, ast.AnnAssign) and not in_function:
                yield child.annotation
            else:
                yield from visit(child, in_function)

    yield from visit(tree, False)
