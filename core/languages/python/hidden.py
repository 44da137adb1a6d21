"""Uses no linter sees, each a kind of code seen breaking on real projects: names read from text (doctest examples,
string annotations and `TypeAlias` values, type comments, pytest's `skipif`/`xfail` strings), a name re-declared by
a bare annotation, imports that act (one a comment explains, a test's only statement, a test module a runner loads),
and files whose text is data (fixtures that must hold bad code, modules a generator copies out). Read with `ast`
and `tokenize`; nothing is imported or run."""

from __future__ import annotations

import ast
import posixpath
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from fnmatch import fnmatch

from core.languages.python.syntax import Source, bound
from core.paths import MAX_PATTERN_CHARS

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_TYPE_COMMENT = re.compile(r"#\s*type:\s*(?!ignore\b)(.+)")
_DATA_FOLDERS = {"fixtures", "fixture", "testdata", "test_data", "snapshots", "golden", "cassettes"}
_TEST_MARKS = {"skipif", "xfail"}
_DOCTEST_RUN = re.compile(r"-m\s+doctest((?:\s+[^\s;&|]+)+)")
_DOCTEST_GLOB = re.compile(r"--doctest-glob[=\s]+[\"']?([^\s\"',\]]+)")
MAX_DOCTEST_GLOBS = 32  # pytest's `--doctest-glob`s read (each no longer than a path pattern): every page tries each
_TESTFILE = re.compile(r"\b(?:testfile|DocFileSuite)\(\s*[\"']([^\"']+)[\"']")
# What a comment says when an import is there for what importing does, not for a name (a section header is not)
_OPENS = re.compile(r"\bopen\(|\.read_text\(|\.read_bytes\(|\bget_data\(|\bread_file\(")
_TOOL_COMMENT = re.compile(r"(?:noqa|type:|pragma|pylint:|isort:|fmt:)", re.IGNORECASE)  # said to a tool
_EXPLAINS = re.compile(r"side.?effect|regist|ensure|needed|required|keep|must|sys\.path|hook|patch|load|"
                       r"so that|for its|do not remove|don't remove|unused", re.IGNORECASE)


def bindings(tree: ast.AST) -> set[str]:
    """Every name an import binds anywhere in the tree (a function's, for its locals)."""
    return bound(n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom)))


def hidden_use(before: Source, after: Source, removed: set[str]) -> str | None:
    """Why taking `removed` (and the imports the patch drops) away breaks a use no linter sees, or None."""
    dropped = before.bindings - after.bindings
    gone = removed | dropped
    if not gone:
        return None
    for where, text in _texts_read_as_code(before):
        if used := gone & set(_WORD.findall(text)):
            return f"removes {_names(used)}, which {where} uses"
    if declared := gone & _bare_annotations(before.tree):
        return f"removes {_names(declared)}, which a bare annotation in this module declares again"
    for name, why in _acting_imports(before, dropped):
        return f"removes `{name}`, an import {why}"
    return None


def data_reason(path: str, text: str) -> str | None:
    """Why a file's text is data, not code to fix, or None: fixtures that must hold what they hold, and modules
    whose own text is read (by a generator copying a region out, or a test comparing it)."""
    parts = path.split("/")
    if any(p in _DATA_FOLDERS for p in parts[:-1]):
        return "it lives in a fixtures/test-data folder, whose files hold exactly what the tests expect"
    name = path.rsplit("/", 1)[-1]
    if "getsource(" in text or _opens_itself_as_text(text) or re.search(
            r"Path\(\s*__file__\s*\)\s*\.read_text|__file__\)\s*\.read", text) or (
            reads_beside(text) and _path_to(name, text)):
        return "its own text is read as data (`inspect.getsource` or `__file__`): a generator or test copies it"
    return None


_OPENS_ITSELF = re.compile(r"""open\(\s*__file__\s*(?:,\s*(?:mode\s*=\s*)?(['"])([a-z+]*)\1)?""")


def _opens_itself_as_text(text: str) -> bool:
    """Whether the module opens its own file as text (`open(__file__)`): read in binary (`open(__file__, "rb")`),
    its bytes are a payload whose content nothing can compare with itself, as a test uploading some file does."""
    return any("b" not in (found[2] or "") for found in _OPENS_ITSELF.finditer(text))


def read_as_data(path: str, sources: dict[str, str]) -> str | None:
    """The file of the repository that reads this module's text as data, or None: one that copies it with
    `inspect.getsource(module)`, or one that opens it by name beside its own `__file__` (a generator slicing a
    marked region out of a sibling module, a test comparing a file)."""
    name = path.rsplit("/", 1)[-1]
    tail = name.removesuffix(".py")
    for other, text in sources.items():
        if other != path and "getsource(" in text and re.search(rf"getsource\(\s*[\w.]*\b{re.escape(tail)}\b", text):
            return other
        if posixpath.dirname(other) == posixpath.dirname(path) and reads_beside(text) \
                and _path_to(name, text):  # a sibling, opened beside its __file__
            return other
    return None


def _path_to(name: str, text: str) -> bool:
    """Whether `text` builds a path to the file `name` (`join(HERE, 'x.py')`, `HERE / 'x.py'`, `'data/x.py'`), not
    only writes the name (an upload's file name)."""
    quoted = rf"""["']{re.escape(name)}["']"""
    return bool(re.search(rf"""(?:join\([^)]*|/\s*){quoted}|["'][^"'\s]*[/\\]{re.escape(name)}["']""", text))


def reads_beside(text: str) -> bool:
    """Whether a module opens files found from its own `__file__` (its folder, or itself)."""
    return "__file__" in text and bool(_OPENS.search(text))


def doctest_code(sources: Mapping[str, str], texts: Mapping[str, str]) -> dict[str, str]:
    """The `>>>` examples, as Python, of the text files the project's doctest runs name: pytest's `--doctest-glob`
    (and its default `test*.txt`), `python -m doctest FILE` in its CI and task files, `doctest.testfile` and
    `DocFileSuite` in its code, and every page under a Sphinx `conf.py` that loads `sphinx.ext.doctest`."""
    pages = {path: text for path, text in texts.items() if ">>>" in text}
    if not pages:
        return {}
    files = [*texts.items(), *sources.items()]
    named, globs, sphinx = _doctest_files(files), _doctest_globs(files), _sphinx_doctest_roots(files)
    return {path: _examples(text) for path, text in pages.items()
            if path in named or any(fnmatch(path.rsplit("/", 1)[-1], g) for g in globs) or _under(path, sphinx)}


def _doctest_globs(files: list[tuple[str, str]]) -> list[str]:
    """pytest's `--doctest-glob` patterns (its default `test*.txt` first), as many as are read and no longer."""
    globs = {"test*.txt": None}
    for _, text in files:
        globs |= dict.fromkeys(_DOCTEST_GLOB.findall(text))
    return [g for g in globs if len(g) <= MAX_PATTERN_CHARS][:MAX_DOCTEST_GLOBS]


def _doctest_files(files: list[tuple[str, str]]) -> set[str]:
    """The files `python -m doctest FILE` runs, and those `doctest.testfile`/`DocFileSuite` name (from their
    caller's folder)."""
    named: set[str] = set()
    for path, text in files:
        for run in _DOCTEST_RUN.findall(text):
            named |= {w.strip("\"'").removeprefix("./") for w in run.split() if not w.startswith("-")}
        folder = path.rpartition("/")[0]
        named |= {posixpath.normpath(posixpath.join(folder, name)) for name in _TESTFILE.findall(text)}
    return named


def _sphinx_doctest_roots(files: list[tuple[str, str]]) -> set[str]:
    """The folders (each ending with `/`; "" is the root) of a Sphinx `conf.py` that loads `sphinx.ext.doctest`."""
    roots = set()
    for path, text in files:
        folder = path.rpartition("/")[0]
        if path.rsplit("/", 1)[-1] == "conf.py" and "sphinx.ext.doctest" in text:
            roots.add(f"{folder}/" if folder else "")
    return roots


def _under(path: str, folders: set[str]) -> bool:
    """Whether the path lies in one of `folders` (each ends with `/`; "" is the root): its own folders looked up,
    never every folder tried."""
    parts = path.split("/")[:-1]
    return any("/".join(parts[:n]) + "/" * bool(n) in folders for n in range(len(parts) + 1))


def _examples(text: str) -> str:
    """Each `>>>` example with its `...` lines, kept where it parses, as one Python text."""
    examples: list[list[str]] = []
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith(">>>"):
            examples.append([stripped[4:]])
        elif stripped.startswith("...") and examples:
            examples[-1].append(stripped[4:])
    kept = []
    for lines in examples:
        try:
            ast.parse("\n".join(lines))
        except (SyntaxError, ValueError):
            continue
        kept.append("\n".join(lines))
    return "\n".join(kept)


# ---- names read from text ----

def _texts_read_as_code(source: Source) -> Iterable[tuple[str, str]]:
    """(what reads it, text) for each piece of the module's text that a tool reads as code."""
    # Each kind is looked for only where its mark is in the text: walking every expression costs most.
    yield from _doctest_examples(source)
    yield from _string_annotations(source)
    yield from _test_conditions(source)
    yield from _type_comments(source)
    yield from _doctest_namespace(source)


def _doctest_examples(source: Source) -> Iterable[tuple[str, str]]:
    """The `>>>` examples of each string (a docstring's doctests)."""
    for node in source.of(ast.Constant) if ">>>" in source.text else ():
        if isinstance(node.value, str) and ">>>" in node.value:
            code = "\n".join(line.strip()[4:] for line in node.value.splitlines()
                             if line.strip().startswith((">>> ", "... ")))
            if code:
                yield "a doctest example (`>>>`)", code


def _string_annotations(source: Source) -> Iterable[tuple[str, str]]:
    """The strings inside annotations (forward references), which type checkers read as code."""
    for annotation in _annotations(source):
        for text in (c.value for c in ast.walk(annotation) if isinstance(c, ast.Constant) and isinstance(c.value, str)):
            yield "a string annotation", text


def _test_conditions(source: Source) -> Iterable[tuple[str, str]]:
    """The string conditions of pytest's skipif/xfail marks, which pytest evaluates."""
    for call in source.of(ast.Call) if any(mark in source.text for mark in _TEST_MARKS) else ():
        if _called(call) in _TEST_MARKS:
            for text in (a.value for a in call.args if isinstance(a, ast.Constant) and isinstance(a.value, str)):
                yield f"a pytest `{_called(call)}` condition", text


def _type_comments(source: Source) -> Iterable[tuple[str, str]]:
    """The types of `# type:` comments."""
    for line in source.lines:
        if "type:" in line and (match := _TYPE_COMMENT.search(line)):
            yield "a type comment", match[1]


def _doctest_namespace(source: Source) -> Iterable[tuple[str, str]]:
    """The identifier strings of a module that fills pytest's `doctest_namespace`."""
    if "doctest_namespace" in source.text:  # pytest hands these names to every doctest, looked up by name
        for node in source.of(ast.Constant):
            if isinstance(node.value, str) and node.value.isidentifier():
                yield "the doctest namespace this module fills (`doctest_namespace`)", node.value


def _annotations(source: Source) -> Iterable[ast.AST]:
    for node in source.of(ast.FunctionDef, ast.AsyncFunctionDef, ast.AnnAssign):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            args = node.args
            yield from (a.annotation for a in [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg,
                                               args.kwarg] if a is not None and a.annotation is not None)
            if node.returns is not None:
                yield node.returns
        elif isinstance(node, ast.AnnAssign):
            yield node.annotation
            if node.value is not None and "TypeAlias" in ast.unparse(node.annotation):
                yield node.value  # `Json: TypeAlias = "dict[str, Json]"`


def _called(call: ast.Call) -> str:
    return call.func.attr if isinstance(call.func, ast.Attribute) else getattr(call.func, "id", "")


def _bare_annotations(tree: ast.Module) -> set[str]:
    return {n.target.id for n in tree.body if isinstance(n, ast.AnnAssign) and n.value is None
            and isinstance(n.target, ast.Name)}


# ---- imports that act ----

def _acting_imports(source: Source, dropped: set[str]) -> Iterable[tuple[str, str]]:
    yield from _import_tests(source, dropped)
    for imp in source.of(ast.Import, ast.ImportFrom):
        names = bound([imp]) & dropped
        if names:
            yield from _explained_import(source.lines, imp, names)
            if _of_a_test_module(imp):
                yield min(names), "of a test module (importing it collects or registers its tests)"


def _import_tests(source: Source, dropped: set[str]) -> Iterable[tuple[str, str]]:
    """Imports in a test whose point is that they work (`test_import…`, or a body of imports alone)."""
    for node in source.of(ast.FunctionDef, ast.AsyncFunctionDef):
        body = [s for s in node.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
        imports = bound(s for s in body if isinstance(s, (ast.Import, ast.ImportFrom)))
        if imports & dropped and _tests_an_import(node.name, body):
            yield min(imports & dropped), f"in `{node.name}`, a test whose point is that the import works"


def _tests_an_import(name: str, body: list[ast.stmt]) -> bool:
    """A `test_import…` function, or one whose body (its docstring aside) is imports alone."""
    return name.startswith("test_import") or all(isinstance(s, (ast.Import, ast.ImportFrom, ast.Pass)) for s in body)


def _explained_import(lines: list[str], imp: ast.Import | ast.ImportFrom,
                      names: set[str]) -> Iterable[tuple[str, str]]:
    """An import a comment above or beside it explains (names it, or says why it is there)."""
    above = lines[imp.lineno - 2].strip() if imp.lineno >= 2 else ""
    if above.startswith("#") and _explains(above, names):
        yield min(names), f"that the comment above it explains (`{above[:60]}`)"
    beside = _trailing_comment(lines[imp.lineno - 1:imp.end_lineno or imp.lineno])
    if beside and not _TOOL_COMMENT.match(beside) and _explains(beside, names):
        yield min(names), f"that the comment beside it explains (`{beside[:60]}`)"


def _explains(comment: str, names: set[str]) -> bool:
    """A comment that names one of the imported names, or says why an import is there."""
    return any(n in comment for n in names) or bool(_EXPLAINS.search(comment))


def _of_a_test_module(imp: ast.Import | ast.ImportFrom) -> bool:
    modules = [a.name for a in imp.names] if isinstance(imp, ast.Import) else \
        [imp.module or "", *(a.name for a in imp.names)]
    return any(m.split(".")[-1].startswith("test") for m in modules if m)


def _trailing_comment(lines: list[str]) -> str:
    """The comment after the code on an import's lines (imports hold no `#` in strings), or ''."""
    return next((line.split("#", 1)[1].strip() for line in lines if "#" in line), "")


def binding_still_read(before: Source, after: Source) -> str | None:
    """A name a function no longer binds as often (`except E as exc:` made `except E:`, an assignment taken away)
    while the function still reads it: the linter resolved that read to another binding in source order, but
    another path may reach it with this one gone (an UnboundLocalError). Functions are paired by name and order."""
    olds, news = _functions(before), _functions(after)
    if [n for n, _ in olds] != [n for n, _ in news]:
        return None  # the patch added or removed a function: another check's matter
    return next((problem for (name, old), (_, new) in zip(olds, news, strict=True)
                 if (problem := _binding_lost_but_read(name, old, new))), None)


def _binding_lost_but_read(name: str, old: ast.AST, new: ast.AST) -> str | None:
    """The first name (alphabetically) one function binds less often after the patch yet still reads."""
    had, has = _binds(old), _binds(new)
    reads = _reads(new)
    gone = min((n for n in had if has[n] < had[n] and n in reads), default=None)
    if gone is None:
        return None
    return (f"removes a binding of `{gone}` in `{name}`, which still reads it (line {reads[gone]}): "
            "another path may reach that read without it")


def _functions(source: Source) -> list[tuple[str, ast.AST]]:
    return [(f.name, f) for f in source.of(ast.FunctionDef, ast.AsyncFunctionDef)]


def _binds(function: ast.AST) -> Counter[str]:
    """How many times the function binds each name in its own scope: assignments, loop and `with` targets,
    `except … as` (a nested function's are its own locals)."""
    found: Counter[str] = Counter()
    for node in _scope(function):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            found[node.id] += 1
        elif isinstance(node, ast.ExceptHandler) and node.name:
            found[node.name] += 1
    return found


def _reads(function: ast.AST) -> dict[str, int]:
    """The names the function reads (their first line): in its own scope, and in a nested one as a closure where
    that scope neither binds the name nor takes it as an argument."""
    reads: dict[str, int] = {}
    for node in _scope(function):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            reads.setdefault(node.id, node.lineno)
        elif isinstance(node, _SCOPES):
            own = set(_binds(node))
            if not isinstance(node, ast.ClassDef):
                own |= {a.arg for a in ast.walk(node.args) if isinstance(a, ast.arg)}
            for name, line in _reads(node).items():
                if name not in own:
                    reads.setdefault(name, line)
    return reads


_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def _scope(function: ast.AST) -> Iterator[ast.AST]:
    """The nodes of the function's own scope; a nested def, lambda or class is yielded but not entered (its
    decorators, defaults and bases are evaluated here, and are)."""
    stack = list(ast.iter_child_nodes(function))
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, _SCOPES):
            stack += ast.iter_child_nodes(node)
        elif isinstance(node, ast.ClassDef):
            stack += [*node.decorator_list, *node.bases, *node.keywords]
        else:
            stack += [*getattr(node, "decorator_list", []), *node.args.defaults,
                      *(d for d in node.args.kw_defaults if d is not None)]


def _names(names: set[str]) -> str:
    return ", ".join(f"`{n}`" for n in sorted(names))
