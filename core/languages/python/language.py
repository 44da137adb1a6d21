"""Python as memfix works on it: ruff finds and fixes, the project's files say its oldest Python and its own ruff
decisions, and a patch must keep the repository's public surface and dynamic uses and its meaningful comments."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from core.change import Patch, Verification
from core.languages.adapter import Asked, Linter, Read, Selection, View, failed, first_run
from core.languages.formatter import Formatted, Kind
from core.languages.python.comments import comment_problem
from core.languages.python.compat import compatibility
from core.languages.python.project import Profile, read_profile
from core.languages.python.rules import FORMATTER, FORMATTERS, NAME, REWRITES
from core.languages.python.surface import surface_problem
from core.languages.python.team import beyond_its_tool
from core.languages.registry import rule_code, rules_for, within
from core.paths import path_matches

if TYPE_CHECKING:
    from core.languages.formatter import Formatter
    from core.languages.python.flake8 import Flake8
    from core.languages.python.pylint import Pylint
    from core.languages.python.ruff import Ruff
    from core.languages.python.team_ruff import TeamRuff
    from core.tools.install import Installed
    from core.tools.pins import Pin
    from core.tools.sandbox import Sandbox
    from core.tools.toolbox import Toolbox

L = TypeVar("L", bound=Linter)

MAX_OUTSIDE_SHOWN = 5  # of the files left outside the team's lint scope, those the run names


@dataclass(frozen=True)
class PythonProject:
    profile: Profile
    selection: Selection
    ruff: Ruff
    flake8: Flake8 | None = None  # the team's own, in the sandbox: it finds and judges, ruff fixes
    team_ruff: TeamRuff | None = None  # the team's own ruff, pinned, in the sandbox: it finds, fixes and judges
    said: tuple[str, ...] = ()  # which of the team's tools run as the team runs them
    unrun: tuple[str, ...] = ()  # the team's tools that could not run here, and why (the reply says so)
    formatters: tuple[Formatter, ...] = ()  # the team's hooks that rewrite and its black, in the sandbox, in order
    pylint: Pylint | None = None  # the team's own, in the sandbox: it finds and judges its rules, a ruff fixes
    outside: tuple[str, ...] = ()  # the run's files the team's lint commands never lint (left alone)
    excluded: tuple[tuple[str, str], ...] = ()  # (file, the team's exclude pattern that covers it): never checked

    @property
    def target(self) -> str:
        return self.profile.target.describe()

    @property
    def lines(self) -> tuple[str, ...]:
        return (*self.profile.describe(), *self.said, *self._outside_line(), *self._excluded_line())

    def _excluded_line(self) -> tuple[str, ...]:
        if not self.excluded:
            return ()
        shown = ", ".join(f"{path} (`{pattern}`)" for path, pattern in self.excluded[:MAX_OUTSIDE_SHOWN])
        more = ", …" if len(self.excluded) > MAX_OUTSIDE_SHOWN else ""
        return (f"not checked, as the team's configuration excludes them ({self.profile.team.source}): "
                f"{len(self.excluded)} file(s): {shown}{more}",)

    def _outside_line(self) -> tuple[str, ...]:
        if not self.outside:
            return ()
        shown = ", ".join(self.outside[:MAX_OUTSIDE_SHOWN]) + (", …" if len(self.outside) > MAX_OUTSIDE_SHOWN else "")
        return (f"left alone, as the team's linters never lint them: {len(self.outside)} file(s) ({shown})",)

    def linter(self, held: tuple[str, ...] = ()) -> Linter:
        """The team's own tools where they run here — flake8 and ruff together each judging the rules it chose,
        the team's ruff fixing — else memfix's ruff with the project's flags, standing in for the one that does not."""
        held = rules_for(NAME, held)  # a hold on another language's rule is no flag of ruff's (it would refuse it)
        team = self.team_ruff.with_held(held) if self.team_ruff is not None else None
        rules = tuple(r for r in self.selection.rules if r not in FORMATTERS)  # a formatter's is no rule of ruff's
        fixer = team or self.ruff.with_args(self.profile.ruff_args(rules, held))
        flake8 = self.flake8.with_held(held, fixer) if self.flake8 is not None else None
        linter = self._together(flake8, team) or flake8 or fixer
        if self.pylint is not None:
            linter = self.pylint.with_held(held, linter)
        return Formatted(linter, self.formatters, held) if self.formatters else linter

    def _together(self, flake8: Flake8 | None, team: TeamRuff | None) -> Linter | None:
        """The team's flake8 and ruff together, each judging the rules it chose, where both run."""
        if flake8 is None or team is None:
            return None
        from core.languages.python.team_linters import TeamLinters

        return TeamLinters(flake8, team, self.profile.team.tools)

    def ignored(self, path: str) -> bool:
        """Outside what the team's lint commands lint (the team's excludes go to ruff itself: --extend-exclude)."""
        return not self.profile.scope.lints(path)

    @property
    def problems(self) -> tuple[str, ...]:
        return (*self.profile.problems, *self.unrun)

    @property
    def named(self) -> tuple[str, ...]:
        return tuple(c for c in self.profile.team.select if rule_code(c) == c) if self.profile.team.configured else ()

    def checks(self, verification: Verification, patch: Patch, view: View) -> Verification:
        """Valid for the project's oldest supported Python, and the public surface and dynamic uses of the
        repository survive (the whole repository is read once per run)."""
        if not verification.parses:
            return verification
        target = self.profile.target
        verification = failed(verification, "compatible", compatibility(patch, target.oldest, target.feature_version))
        team = self.profile.team
        chosen = team.configured and bool(within(("F401",), team.select))  # the team's own tools look for them
        if problem := surface_problem(patch, view(), imports_chosen=chosen):
            verification = replace(failed(verification, "surface", problem.text),
                                   failed_codes=verification.failed_codes | problem.rules)
        verification = failed(verification, "comments", comment_problem(patch))
        if beyond := beyond_its_tool(patch, self.profile.team):
            verification = replace(failed(verification, "as_tool", beyond.text),
                                   failed_codes=verification.failed_codes | beyond.rules)
        return verification


@dataclass(frozen=True)
class Python:
    ruff: Ruff
    toolbox: Toolbox | None = None  # the sandbox and tool cache the team's own tools run from; None: ruff alone
    name: str = "python"

    def owns(self, path: str) -> bool:
        return self.ruff.owns(path)

    def has_rule(self, code: str) -> bool:
        return code in FORMATTERS or self.ruff.has_rule(code)  # a formatter's or hook's rewrite: one rule each

    def rule_words(self, code: str) -> frozenset[str]:
        return self.ruff.rule_words(code)

    def project(self, read: Read, config: Asked, pipeline: str, sources: tuple[str, ...] = ()) -> PythonProject:
        """The project's own Python and ruff decisions, and the rules its configuration chooses."""
        profile = self._accepted(read_profile(read, config.python).known_to(self.ruff.knows))
        team_ruff, ruff_said = self._team_ruff(read, profile)
        flake8, flake8_said = self._flake8(read, profile, f"the team's ruff {team_ruff.version}" if team_ruff
                                           else "memfix's ruff")
        pylint, pylint_said = self._pylint(read, profile)
        said = (*_if(flake8, flake8_said), *_if(team_ruff, ruff_said), *_if(flake8 and team_ruff, _EACH_BY_ITS_TOOL),
                *_if(pylint, pylint_said))
        unrun = (*_if(not flake8, flake8_said), *_if(not team_ruff, ruff_said), *_if(not pylint, pylint_said))
        outside, excluded = self._left_alone(profile, sources)
        project = PythonProject(profile, _selection(profile, config, pipeline), self.ruff, flake8, team_ruff, said,
                                unrun, pylint=pylint, outside=outside, excluded=excluded)
        return self._formatted(project, read, config.named(pipeline)) if pipeline == "autofix" else project

    def _accepted(self, profile: Profile) -> Profile:
        """The profile without the team's ruff settings where this ruff refuses them (another version's)."""
        if not profile.team.options or self.ruff.accepts(profile.team.options):
            return profile
        return replace(profile, team=replace(profile.team, options=()), problems=(
            *profile.problems, "this ruff refuses some of the team's ruff settings (another version's?): "
            "its rules run with their defaults"))

    def _left_alone(self, profile: Profile, sources: tuple[str, ...]) -> tuple[tuple[str, ...],
                                                                               tuple[tuple[str, str], ...]]:
        """The run's files the team's lint commands never lint, and those its configuration excludes (with the
        pattern that does): both left alone, and said."""
        outside = tuple(p for p in sources if self.owns(p) and not profile.scope.lints(p))
        excluded = tuple((p, pattern) for p in sources if self.owns(p) and p not in outside
                         and (pattern := next((x for x in profile.team.exclude if path_matches(x, p)), None)))
        return outside, excluded

    def _formatted(self, project: PythonProject, read: Read, named: tuple[str, ...] | None) -> PythonProject:
        """The project with the team's pre-commit hooks that rewrite files (autoflake, pyupgrade, isort, as their
        hooks run them) and its black beside its linters, in that order, where the repository pins them; the rules
        memfix's ruff would otherwise make each hook's fixes with (its reading of pyupgrade as UP, of isort as I)
        are left to the hook itself. None where a person named rules that leave them out."""

        if self.toolbox is None:
            return project
        formatters, says, why = self._team_formatters(read, named)
        said, unrun = [*project.said, *says], [*project.unrun, *why]
        if not formatters:
            return replace(project, unrun=tuple(unrun))
        running = {f.tool for f in formatters}
        chooser = project.profile.team.tools  # which of the team's tools chose each selector
        kept = tuple(r for r in project.selection.rules if chooser.get(r) not in running)
        selection = replace(project.selection, rules=(*kept, *(f.code for f in formatters)),
                            chosen_by=f"{project.selection.chosen_by}; and what the team's "
                                      f"{', '.join(f.name for f in formatters)} rewrite")
        return replace(project, selection=selection, formatters=tuple(formatters), said=tuple(said),
                       unrun=tuple(unrun))

    def _team_formatters(self, read: Read, named: tuple[str, ...] | None) -> tuple[list[Formatter], list[str],
                                                                                   list[str]]:
        """The team's rewriting hooks and black that run here, in order, with what they say; and why the others
        do not."""
        from core.languages.formatter import team_formatter

        assert self.toolbox is not None  # asked only where the team's tools run
        formatters: list[Formatter] = []
        said: list[str] = []
        unrun: list[str] = []
        ruff_formats = formats_with_ruff(read)
        for tool, code in (*REWRITES.items(), ("black", FORMATTER)):
            if named is not None and code not in named:
                continue
            if tool == "black" and ruff_formats:  # a black hook the team's own formatting replaced: not the team's
                unrun.append(f"the team's black is not run: the team formats with `ruff format` ({ruff_formats}), "
                             "which memfix does not run, so the layout is left alone")
                continue
            found, says, why = team_formatter(read, self.toolbox, _formatter_kind(tool, code), self.owns)
            unrun += why
            if found is not None:
                formatters.append(found)
                said += says
        return formatters, said, unrun

    def _ready(self, read: Read, tool: str) -> tuple[Pin, Sandbox, Installed] | str:
        """The Python tool `tool` as the repository pins it (its newest release where it pins none), installed and
        with its sandbox; or why it cannot run here."""
        from core.tools.pins import Pin, find_pins
        from core.tools.toolbox import Unavailable

        assert self.toolbox is not None  # asked only where the team's tools run
        pin = find_pins(read).get(tool) or Pin(tool, "pypi", tool, None,
                                               source="pinned nowhere in the repository: its newest release")
        try:
            sandbox, installed = self.toolbox.ready(pin)
        except Unavailable as exc:
            return str(exc)
        return pin, sandbox, installed

    def _team_linter(self, read: Read, tool: str, config_files: tuple[str, ...],
                     make: Callable[[Pin, Sandbox, Installed, dict[str, str]], L]) -> tuple[L, Pin] | str:
        """The team's `tool` made by `make` (given the pin at the version installed and the team's configuration
        files) and run once; or why it cannot run here: not installable, no sandbox, or it fails on a file of
        nothing (a plugin it cannot load, a setting it refuses)."""
        ready = self._ready(read, tool)
        if isinstance(ready, str):
            return ready
        pin, sandbox, installed = ready
        config = {name: text for name in config_files if (text := read(name)) is not None}
        linter = make(replace(pin, version=installed.version or pin.version), sandbox, installed, config)
        return first_run(linter, installed.folder, config) or (linter, pin)

    def _pylint(self, read: Read, profile: Profile) -> tuple[Pylint | None, tuple[str, ...]]:
        """The team's pylint, installed at the version it pins with its plugins, where the team configures or runs
        pylint and a sandbox can start; else None, and why memfix's ruff stands in for its rules (ruff's `PL`)."""
        if "pylint" not in profile.team.tools.values() or self.toolbox is None:
            return None, ()
        from core.languages.python.pylint import CONFIG_FILES, Pylint

        ready = self._team_linter(read, "pylint", CONFIG_FILES, lambda pin, sandbox, installed, config: Pylint(
            installed.folder, sandbox, config, pin.version or pin.specifier or "(its newest release)", self.ruff))
        if isinstance(ready, str):
            return None, (f"the team's pylint does not run here ({ready}): memfix's ruff stands in for it, with its "
                          "PL rules as memfix reads pylint's configuration",)
        pylint, pin = ready
        return pylint, (
            f"finds and judges its rules: the team's pylint {pylint.version} ({pin.source}), in the sandbox",)

    def _team_ruff(self, read: Read, profile: Profile) -> tuple[TeamRuff | None, tuple[str, ...]]:
        """The team's ruff, installed at the version it pins, wherever it pins one (at memfix's own version too:
        the tool reads the team's configuration files, memfix's ruff only memfix's reading of them) and a sandbox
        can start; else None, and why memfix's ruff stands in for it."""
        if self.toolbox is None:
            return None, ()
        from core.languages.python.team_ruff import TeamConfigs, TeamRuff, installed_version, too_old
        from core.tools.pins import find_pins
        from core.tools.toolbox import Unavailable

        pin = find_pins(read).get("ruff")
        if pin is None:
            return None, ()
        stands_in = "memfix's ruff stands in for it, with the team's ruff settings as memfix reads them"
        if why := too_old(pin.version):
            return None, (f"the team's ruff does not run here ({why}): {stands_in}",)
        try:
            sandbox, installed = self.toolbox.ready(pin)
        except Unavailable as exc:
            return None, (f"the team's ruff does not run here ({exc}): {stands_in}",)
        version = installed_version(installed.folder) or pin.version or "(its newest release)"
        if why := too_old(version):  # a range, or no version, installed an old one
            return None, (f"the team's ruff does not run here ({why}): {stands_in}",)
        team = profile.team
        return TeamRuff(installed.folder, sandbox, TeamConfigs(read), version, team.tools, self.ruff, team.exclude,
                        team.unfixable), (
            f"finds, fixes and judges: the team's ruff {version} ({pin.source}), in the sandbox, with its "
            "configuration files",)

    def _flake8(self, read: Read, profile: Profile, fixer: str) -> tuple[Flake8 | None, tuple[str, ...]]:
        """The team's flake8, installed at the version it pins with its plugins, where the team runs flake8 and a
        sandbox can start; else None, and why memfix's ruff stands in for it. `fixer`: who fixes what it finds."""
        if "flake8" not in profile.team.linters or self.toolbox is None:
            return None, ()
        from core.languages.python.flake8 import CONFIG_FILES, Flake8

        ready = self._team_linter(read, "flake8", CONFIG_FILES, lambda pin, sandbox, installed, config: Flake8(
            installed.folder, sandbox, config, self.ruff, pin.described().removeprefix("flake8 ")))
        if isinstance(ready, str):
            return None, (f"the team's flake8 does not run here ({ready}): memfix's ruff stands in for it, with "
                          "flake8's selection as read from its configuration",)
        flake8, pin = ready
        return flake8, (
            f"finds and judges: the team's flake8 {flake8.version} ({pin.source}), in the sandbox; fixes: {fixer}",)


_EACH_BY_ITS_TOOL = ("each rule is found and judged by the tool whose configuration chose it: flake8's by the team's "
                     "flake8, the rest by the team's ruff",)


def _if(condition: object, lines: tuple[str, ...]) -> tuple[str, ...]:
    return lines if condition else ()


def _formatter_kind(tool: str, code: str) -> Kind:
    """A rewriting hook (autoflake, pyupgrade, isort) or black, as the team's formatter runs it."""
    return Kind(tool, tool, _command(tool), ("pyproject.toml", "setup.cfg", "tox.ini", ".isort.cfg", ".editorconfig"),
                code, hook=tool != "black")


def _selection(profile: Profile, config: Asked, pipeline: str) -> Selection:
    """The rules a Python run proposes: of the rules a person named (in any language), Python's; else what the
    team's tools select (Refactor: of its kinds of change); with what `rules: extend` adds that is Python's."""
    named = config.named(pipeline)
    own = None if named is None else rules_for(NAME, named)
    families = None if pipeline == "autofix" else rules_for(NAME, config.rules(pipeline))  # Refactor: its kinds
    selection = profile.selection(own, families, rules_for(NAME, config.extend_rules))
    if named and not own:
        return replace(selection, chosen_by=f"the rules a person named ({', '.join(named)}), none of them Python's")
    return selection


def _command(tool: str) -> Callable[[Path, Pin], tuple[str, ...]]:
    """How each tool rewrites the files it is given, as the team's hook runs it: its own args (a check-only flag
    dropped: memfix wants the rewrite), black quietly."""
    checking = {"--check", "--check-only", "-c", "--diff", "--check-diff"}

    def command(folder: Path, pin: Pin) -> tuple[str, ...]:
        args = tuple(a for a in pin.args if a not in checking)
        if tool == "black":
            return (str(folder / "bin" / "black"), "--quiet")
        if tool == "autoflake" and not {"-i", "--in-place"} & set(args):
            args = ("--in-place", *args)
        return (str(folder / "bin" / tool), *args)
    return command


_RUFF_FORMAT = re.compile(r"\bruff\b[^\n]*?\sformat\b|id:\s*ruff-format\b|^\[tool\.ruff\.format\]", re.M)


def formats_with_ruff(read: Read) -> str | None:
    """Where the team formats with `ruff format` (a CI or tox step, a Makefile recipe, its pre-commit hook, or
    ruff's `[tool.ruff.format]` table), or None: then a black hook left beside it is not the team's formatter."""
    from core.paths import WORKFLOW_FILES

    for name in ("pyproject.toml", ".pre-commit-config.yaml", "tox.ini", "Makefile", *WORKFLOW_FILES):
        text = read(name)
        if text is not None and _RUFF_FORMAT.search(text[:200_000]):
            return name
    return None
