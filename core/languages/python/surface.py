"""The public-surface and dynamic-use check: a patch may not take away what the rest of the repository, or the
module's own dynamic code, still uses. No lint sees these; each is a named check in the verification.

- public surface: a module-level name that goes away must not be imported or referenced as `module.name` by
  another file of the repository, listed in `__all__`, or re-exported by an `__init__.py`;
- import probes: an import inside `try:` stays, whatever its handler catches — the
  module's behaviour depends on whether it succeeds;
- dynamic use: no name is removed from a scope that calls `locals()`, `vars()` or `globals()`, or runs `exec`/
  `eval` on text that mentions it;
- side-effect imports: an import of one of the repository's own modules whose top level does more than define
  things (registers a hook, patches something) stays.

Everything is read with `ast`; nothing from the repository is ever imported or run.
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property

from core.change import Patch
from core.languages.python.hidden import (
    binding_still_read,
    bindings,
    data_reason,
    doctest_code,
    hidden_use,
    read_as_data,
    reads_beside,
)
from core.languages.python.rules import module_name
from core.languages.python.syntax import Source, assigned_to, bound, parse, parsed, strings_in

_INTROSPECTION = {"locals", "vars", "globals", "exec", "eval"}
_CALLS_INTROSPECTION = re.compile(r"\b(?:locals|vars|globals|exec|eval)\s*\(")


_TEXT_SUFFIXES = (".txt", ".rst", ".md", ".ini", ".cfg", ".toml", ".yml", ".yaml")


def read_with_sources(name: str) -> bool:
    """A file read beside the Python sources: text a doctest run may name, and the files that name them."""
    return name.endswith(_TEXT_SUFFIXES) or name == "Makefile"


@dataclass(frozen=True)
class RepositoryView:
    """The repository's Python sources (path → text) and its other text files, or an incomplete view that says
    why."""

    sources: Mapping[str, str]
    complete: bool = True
    reason: str = ""
    texts: Mapping[str, str] = field(default_factory=dict)
    _trees: dict[str, Source | None] = field(default_factory=dict, compare=False, repr=False)

    def source(self, path: str) -> Source | None:
        """A file's syntax tree, parsed once per run (a view lives for one run): its Python, or the examples of a
        text file that a doctest run names."""
        if path not in self._trees:
            text = self.sources.get(path, self.doctests.get(path))
            self._trees[path] = None if text is None else parse(text)
        return self._trees[path]

    @cached_property
    def doctests(self) -> dict[str, str]:
        return doctest_code(self.sources, self.texts)

    @cached_property
    def copiers(self) -> dict[str, str]:
        """The sources that read a module's text: with `inspect.getsource`, or by opening a file beside their own
        `__file__` (found once per run)."""
        return {path: text for path, text in self.sources.items() if "getsource(" in text or reads_beside(text)}

    @cached_property
    def modules(self) -> dict[str, str]:
        """Module name → path, for every Python source."""
        return {module_name(p): p for p in self.sources}


@dataclass(frozen=True)
class SurfaceProblem:
    """Why a patch takes away something still used, and the rules that says are at fault (none named: whichever
    fix removed it)."""

    text: str
    rules: frozenset[str] = frozenset()


def surface_problem(patch: Patch, view: RepositoryView, *, imports_chosen: bool = False) -> SurfaceProblem | None:
    """Why the patch takes away something still used, or None. `imports_chosen`: the team's own ruff configuration
    selects F401, so an unused import of a public module is theirs to remove."""
    if not patch.path.endswith(".py"):
        return None
    before, after = parsed(patch.original), parsed(patch.updated)
    if before is None or after is None:
        return None  # parsing is another check's verdict
    if problem := _text_read_as_data(patch, view):
        return problem
    removed = _module_names(before.tree) - _module_names(after.tree)
    if problem := _still_read_in_file(before, after, removed):
        return problem
    if removed and (problem := _removed_names_in_use(patch.path, before, removed, view, imports_chosen)):
        return problem
    if problem := _namespace_read_dynamically(before, after):
        return problem
    return _repository_acts(patch.path, before, after, view)


def _still_read_in_file(before: Source, after: Source, removed: set[str]) -> SurfaceProblem | None:
    """What the file itself still reads of what the patch removes: hidden uses, bindings, import probes."""
    if hidden := hidden_use(before, after, removed):
        return SurfaceProblem(hidden)
    if read := binding_still_read(before, after):
        return SurfaceProblem(read)
    if probe := _removed_probe(before, after):
        return SurfaceProblem(f"removes `{probe}`, an import inside try/except: the module's behaviour depends on "
                              "whether it imports")
    return None


def _repository_acts(path: str, before: Source, after: Source, view: RepositoryView) -> SurfaceProblem | None:
    """What the repository's own modules do in the file: one imported for its top level, one a test exercises."""
    if side := _side_effect_import(before, after, path, view):
        return SurfaceProblem(f"removes `import {side}`, a module of this repository imported for what its top "
                              "level does")
    if subject := _subject_rewritten(path, before, after, view):
        return SurfaceProblem(subject)
    return None


_TEST_NAME = re.compile(r"(?:^|/)(?:tests?/|test_[^/]*\.py$|[^/]*_test\.py$)")


def _subject_rewritten(path: str, before: Source, after: Source, view: RepositoryView) -> str | None:
    """A test's code that uses what it imports from the repository's own modules, rewritten: that code is what the
    test exercises (nested `Literal[...]` in typing_extensions' own tests), however equal the linter finds it."""
    if not _TEST_NAME.search(path):
        return None
    subjects = _from_repository(path, before.tree, view)
    if not subjects:
        return None
    was, now = _loads(before.tree, subjects), _loads(after.tree, subjects)
    changed = sorted(name for name in subjects if now[name] < was[name] and name in _imported_names(after.tree))
    if not changed:
        return None
    them = "it" if len(changed) == 1 else "them"
    return (f"rewrites code using {_names(set(changed))} in a test, which imports {them} from this repository: that "
            "code is what the test exercises")


def _from_repository(path: str, tree: ast.Module, view: RepositoryView) -> set[str]:
    """The names a module binds by importing this repository's own modules (or from them)."""
    own = {name.split(".")[0] for name in view.modules if name}
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            found |= _bound_from_own(path, node, own)
        elif isinstance(node, ast.Import):
            found |= {a.asname or a.name.split(".")[0] for a in node.names if a.name.split(".")[0] in own}
    return found


def _bound_from_own(path: str, node: ast.ImportFrom, own: set[str]) -> set[str]:
    """The names `from x import …` binds where `x` is one of the repository's own packages."""
    if _resolve(path, node).split(".")[0] not in own:
        return set()
    return {a.asname or a.name for a in node.names if a.name != "*"}


def _loads(tree: ast.Module, names: set[str]) -> Counter[str]:
    return Counter(n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id in names)


def _text_read_as_data(patch: Patch, view: RepositoryView) -> SurfaceProblem | None:
    """A file whose text is itself read (as data, or copied with `inspect.getsource`): any change to it is one."""
    if why := data_reason(patch.path, patch.original):
        return SurfaceProblem(f"changes `{patch.path}`, whose text is data: {why}")
    if (reader := read_as_data(patch.path, view.copiers)) is not None:
        return SurfaceProblem(f"changes `{patch.path}`, whose text {reader} reads as data (`inspect.getsource`, or "
                              "a file opened beside its `__file__`)")
    return None


def _removed_names_in_use(path: str, before: Source, removed: set[str], view: RepositoryView,
                          imports_chosen: bool) -> SurfaceProblem | None:
    """Module-level names the patch removes that the module itself, or the rest of the repository, still uses."""
    return _still_in_module(path, before, removed) or _still_in_repository(path, before.tree, removed, view,
                                                                            imports_chosen)


def _still_in_module(path: str, before: Source, removed: set[str]) -> SurfaceProblem | None:
    """Removed names the module's own surface keeps: `__all__`, an `__init__.py`'s re-exports, dynamic reads."""
    if listed := removed & _dunder_all(before.tree):
        return SurfaceProblem(f"removes {_names(listed)}, listed in `__all__`")
    if path.endswith("__init__.py") and (exported := removed & _imported_names(before.tree)):
        return SurfaceProblem(f"removes {_names(exported)}, which this `__init__.py` re-exports")
    if dynamic := _dynamic_use(before, removed):
        return SurfaceProblem(dynamic)
    return None


def _still_in_repository(path: str, tree: ast.Module, removed: set[str], view: RepositoryView,
                         imports_chosen: bool) -> SurfaceProblem | None:
    """Removed names another file uses, or may import from this public module, or that could not be checked."""
    if not view.complete:
        return SurfaceProblem(f"removes {_names(removed)} and the rest of the repository could not be checked "
                              f"({view.reason})")
    if user := _used_elsewhere(path, removed, view):
        return SurfaceProblem(f"removes {_names({user[1]})}, which {user[0]} still imports or references")
    if public := _public_imports(path, tree, removed, view):
        if imports_chosen and not path.endswith("__init__.py"):
            return None  # the team's own linter reports unused imports here: a re-export would carry its noqa
        if not _dunder_all(tree):
            return SurfaceProblem(f"removes {_names(public)}, imported at the top of a public module of the "
                                  "package without `__all__`: others may import it from here (a compat re-export)")
        if not imports_chosen:
            return SurfaceProblem(f"removes {_names(public)} from a public module of the package; its `__all__` "
                                  "leaves it out, but the repository's own ruff configuration does not select "
                                  "F401", frozenset({"F401"}))
    return None


def _namespace_read_dynamically(before: Source, after: Source) -> SurfaceProblem | None:
    """Locals a changed function no longer binds, when it reads its own namespace (locals(), exec text)."""
    for function, lost in _removed_locals(before, after):
        if _introspects(function, lost):
            return SurfaceProblem(f"removes {_names(lost)} from `{function.name}`, which reads its own namespace "
                                  "dynamically")
    return None


def _public_imports(path: str, tree: ast.Module, removed: set[str], view: RepositoryView) -> set[str]:
    """Module-level imports of a public package module that has no `__all__`: its surface, unless private."""
    if not _in_public_package(path, view):
        return set()
    if any(isinstance(n, ast.If) and "__main__" in ast.unparse(n.test) for n in tree.body):
        return set()  # a script, even inside a package
    return {n for n in removed & _imported_names(tree) if not n.startswith("_")}


_NOT_PUBLIC = ("tests", "test", "testing", "scripts", "examples", "docs", "benchmarks")


def _in_public_package(path: str, view: RepositoryView) -> bool:
    """A module of a package (its folder has an `__init__.py`) that no private or tooling folder holds."""
    parts = path.split("/")
    folder = "/".join(parts[:-1])
    if any(p.startswith("_") and p != "__init__.py" for p in parts) or any(p in _NOT_PUBLIC for p in parts):
        return False
    return not parts[-1].startswith(("test_", "conftest")) and f"{folder}/__init__.py".lstrip("/") in view.sources


def _names(names: set[str]) -> str:
    return ", ".join(f"`{n}`" for n in sorted(names))


# ---- what a module binds ----

def _module_names(tree: ast.Module) -> set[str]:
    """Names bound at module level, in blocks that run at import (if/try/with), not in defs' bodies."""
    names: set[str] = set()
    for node in _top_level(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            names |= bound([node])
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                names |= {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}
    return names


def _top_level(tree: ast.Module) -> Iterator[ast.stmt]:
    stack = list(tree.body)
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, (ast.If, ast.Try, ast.With, ast.For, ast.While)):
            for field in ("body", "orelse", "finalbody"):
                stack.extend(getattr(node, field, []) or [])
            for handler in getattr(node, "handlers", []) or []:
                stack.extend(handler.body)


def _imported_names(tree: ast.Module) -> set[str]:
    return bound(n for n in _top_level(tree) if isinstance(n, (ast.Import, ast.ImportFrom)))


def _dunder_all(tree: ast.Module) -> set[str]:
    found: set[str] = set()
    for node in _top_level(tree):
        if (value := assigned_to(node, ("__all__",))) is not None:
            found |= set(strings_in(value))
    return found


# ---- import probes ----

def _imports_in_probes(source: Source) -> set[str]:
    probes: set[str] = set()
    for node in source.of(ast.Try):
        if node.handlers:  # whatever it catches, the import is guarded: the module behaves by whether it imports
            for statement in node.body:
                for inner in ast.walk(statement):
                    if isinstance(inner, ast.Import):
                        probes |= {a.name for a in inner.names}
                    elif isinstance(inner, ast.ImportFrom):
                        probes |= {f"{inner.module}.{a.name}" for a in inner.names}
    return probes


def _removed_probe(before: Source, after: Source) -> str | None:
    gone = _imports_in_probes(before) - _imports_in_probes(after)
    return min(gone) if gone else None


# ---- dynamic use ----

def _dynamic_use(source: Source, removed: set[str]) -> str | None:
    """Module scope: globals()/vars()/locals() at top level, or exec/eval text that names a removed name."""
    if not _CALLS_INTROSPECTION.search(source.text):
        return None  # no call of them anywhere: no need to walk the expressions
    keyed = _keyed_reads(source)
    for node in source.of(ast.Call):
        called = getattr(node.func, "id", "")
        if called in ("exec", "eval"):
            if mentioned := _named_in_strings(node.args, removed):
                return f"removes {_names(mentioned)}, which an `{called}` string uses"
        elif id(node) in keyed and keyed[id(node)] not in removed:
            continue  # `globals().get('__loader__')` reads that one name, none of those removed
        elif called in _INTROSPECTION and (called == "globals" or _at_module_level(source.tree, node)):
            return f"removes {_names(removed)} from a module that reads its namespace with `{called}()`"
    return None


def _keyed_reads(source: Source) -> dict[int, str]:
    """The namespace calls read by one literal key (`globals()['x']`, `globals().get('x')`, `'x' in vars()`): the
    call's id → that key."""
    keyed: dict[int, str] = {}
    for node in source.of(ast.Subscript):
        if isinstance(node.value, ast.Call) and isinstance(key := node.slice, ast.Constant):
            keyed[id(node.value)] = str(key.value)
    for call in source.of(ast.Call):
        got = call.func
        if isinstance(got, ast.Attribute) and got.attr == "get" and isinstance(got.value, ast.Call) and call.args \
                and isinstance(call.args[0], ast.Constant):
            keyed[id(got.value)] = str(call.args[0].value)
    for test in source.of(ast.Compare):
        if isinstance(test.left, ast.Constant) and len(test.comparators) == 1 and \
                isinstance(test.comparators[0], ast.Call) and isinstance(test.ops[0], (ast.In, ast.NotIn)):
            keyed[id(test.comparators[0])] = str(test.left.value)
    return keyed


def _named_in_strings(args: list[ast.expr], names: set[str]) -> set[str]:
    """The names that the string literals of a call's arguments mention."""
    text = " ".join(s for a in args for s in strings_in(a))
    return {n for n in names if n in text}


def _at_module_level(tree: ast.Module, call: ast.Call) -> bool:
    """Outside every top-level def and class (by the lines they span)."""
    return not any(statement.lineno <= call.lineno <= (statement.end_lineno or statement.lineno)
                   for statement in tree.body
                   if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)))


def _locals(function: ast.AST) -> set[str]:
    """Names a function binds: assignments, and the names its imports bind (locals() shows both)."""
    return {n.id for n in ast.walk(function) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)} \
        | bindings(function)


def _removed_locals(before: Source, after: Source) -> Iterator[tuple[ast.FunctionDef | ast.AsyncFunctionDef, set[str]]]:
    """(function, names) a function no longer binds; only functions whose text the patch changed are read."""
    later = after.functions
    for name, function in before.functions.items():
        if name in later and before.segment(function) != after.segment(later[name]) \
                and (lost := _locals(function) - _locals(later[name])):
            yield function, lost


def _introspects(function: ast.AST, lost: set[str]) -> bool:
    for node in ast.walk(function):
        if isinstance(node, ast.Call) and (called := getattr(node.func, "id", "")) in _INTROSPECTION:
            if called in ("locals", "vars", "globals"):
                return True
            text = " ".join(c.value for c in ast.walk(node) if isinstance(c, ast.Constant) and isinstance(c.value, str))
            if any(n in text for n in lost):
                return True
    return False


# ---- the rest of the repository ----

def _resolve(importer: str, node: ast.ImportFrom) -> str:
    """The absolute module an ImportFrom names, relative imports resolved against the importing file."""
    if not node.level:
        return node.module or ""
    package = module_name(importer).split(".")
    if not importer.endswith("__init__.py"):
        package = package[:-1]
    base = package[:len(package) - node.level + 1] if node.level > 1 else package
    return ".".join([*base, *([node.module] if node.module else [])])


def _used_elsewhere(path: str, removed: set[str], view: RepositoryView) -> tuple[str, str] | None:
    """(another file, name) for the first removed name another file, or a text file's doctest examples that the
    project's doctest runs name, imports or reads as `module.name`."""
    module = module_name(path)
    tail = module.rsplit(".", 1)[-1]
    for other, text in [*view.sources.items(), *view.doctests.items()]:
        if other == path or not any(n in text for n in removed) or tail not in text:
            continue  # text first: a file that does not name both the module and a removed name cannot use it
        if (tree := view.source(other)) is None:
            continue
        if name := _use_in(other, tree, module, removed):
            return other, name
    return None


def _use_in(importer: str, tree: Source, module: str, removed: set[str]) -> str | None:
    """The first removed name a file imports from the module, or else reads off one of the names it binds to it."""
    return _imported_from(importer, tree, module, removed) or _read_through(tree, _aliases(importer, tree, module),
                                                                            removed)


def _imported_from(importer: str, tree: Source, module: str, removed: set[str]) -> str | None:
    """The first removed name the file imports with `from module import name`."""
    for node in tree.of(ast.ImportFrom):
        if _resolve(importer, node) == module:
            for alias in node.names:
                if alias.name in removed:
                    return alias.name
    return None


def _aliases(importer: str, tree: Source, module: str) -> set[str]:
    """The names the file binds to the module itself (`import a.b`, `import a.b as m`, `from a import b`)."""
    aliases = set()
    for node in tree.of(ast.ImportFrom, ast.Import):
        if isinstance(node, ast.ImportFrom):
            source = _resolve(importer, node)
            aliases |= {alias.asname or alias.name for alias in node.names if f"{source}.{alias.name}" == module}
        else:
            aliases |= _import_aliases(node, module)
    return aliases


def _import_aliases(node: ast.Import, module: str) -> set[str]:
    """The names `import a.b` (`a`, and `a.b` as written) or `import a.b as m` (`m`) binds to the module."""
    aliases = {a.asname or a.name for a in node.names if a.name == module}
    if any(a.name == module and a.asname is None for a in node.names):
        aliases.add(module)
    return aliases


def _read_through(tree: Source, aliases: set[str], removed: set[str]) -> str | None:
    """The first removed name read off the module by one of its aliases: `m.name`, or getattr/hasattr(m, "name")."""
    for use in tree.of(ast.Attribute, ast.Call):
        if isinstance(use, ast.Attribute) and use.attr in removed and ast.unparse(use.value) in aliases:
            return use.attr
        if isinstance(use, ast.Call) and (name := _attribute_asked(use, aliases)) in removed:
            return name
    return None


def _attribute_asked(call: ast.Call, aliases: set[str]) -> str | None:
    """The name `getattr(m, "name")` or `hasattr(m, "name")` asks of the module bound to one of `aliases`."""
    if getattr(call.func, "id", "") not in ("getattr", "hasattr") or len(call.args) < 2:
        return None
    if ast.unparse(call.args[0]) not in aliases or not isinstance(call.args[1], ast.Constant):
        return None
    return str(call.args[1].value)


def _side_effect_import(before: Source, after: Source, path: str, view: RepositoryView) -> str | None:
    """A removed plain `import x` of a repository module whose top level does something when imported."""
    def plain(source: Source) -> set[str]:
        return {a.name for n in _top_level(source.tree) if isinstance(n, ast.Import) for a in n.names}

    files = view.modules
    folder = path.rpartition("/")[0]
    for name in sorted(plain(before) - plain(after)):
        sibling = f"{folder}/{name}.py".lstrip("/")  # a script's own folder is first on sys.path
        target = files.get(name) or (sibling if sibling in view.sources else None)
        if target is None:
            continue
        if (source := view.source(target)) is None:
            continue
        if any(_acts(statement) for statement in source.tree.body):
            return name
    return None


def _acts(statement: ast.stmt) -> bool:
    """A top-level statement that does something beyond defining names."""
    if isinstance(statement, (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef,
                              ast.Pass)):
        return False
    if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant):
        return False  # a docstring
    if isinstance(statement, (ast.Assign, ast.AnnAssign)):
        return any(isinstance(n, ast.Call) for n in ast.walk(statement))
    if isinstance(statement, ast.If) and "__name__" in ast.unparse(statement.test):
        return False  # runs only as a script
    return True
