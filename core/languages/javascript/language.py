"""JavaScript and TypeScript as memfix works on them: Biome finds and fixes with the configuration memfix writes
from the team's, the project's files say its oldest runtime, and a patch must keep its exports and directive
comments."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from core.change import Patch, Verification
from core.languages.adapter import Asked, Read, Selection, View, failed
from core.languages.formatter import Formatted
from core.languages.javascript import rules
from core.languages.javascript.biome import RECOMMENDED_FILES, biome_migrate
from core.languages.javascript.checks import directive_problem, export_problem, strict_problem, suppressed_change
from core.languages.javascript.eslint import PRETTIER_FILES
from core.languages.javascript.eslintrc import ESLINT_CORE_RULES
from core.languages.javascript.layout import LAYOUT
from core.languages.javascript.project import UNCONFIGURED, JsProfile, Runtime, introduced, read_js_profile
from core.languages.registry import rules_for

if TYPE_CHECKING:
    from core.languages.adapter import Linter
    from core.languages.formatter import Formatter
    from core.languages.javascript.biome import Biome
    from core.languages.javascript.eslint import ESLint
    from core.tools.pins import Pin
    from core.tools.toolbox import Toolbox


JS_RULES = {  # what each pipeline proposes, within what the team's configuration enables: AutoFix all of it
    "autofix": ("lint", LAYOUT),  # the team's ESLint layout rules Biome's formatter carries too
    "refactor": ("lint/style", "lint/complexity", "lint/performance"),
}


@dataclass(frozen=True)
class JsProject:
    profile: JsProfile
    selection: Selection
    biome: Biome
    eslint: ESLint | None = None  # the team's own, in the sandbox: it finds, fixes and judges
    said: tuple[str, ...] = ()  # which of the team's tools run as the team runs them
    unrun: tuple[str, ...] = ()  # the team's tools that could not run here, and why (the reply says so)
    prettier: Formatter | None = None  # the team's own, in the sandbox: its layout, on the lines a fix targets

    @property
    def runtime(self) -> Runtime:
        """The oldest runtime fixes must run on: the team's ESLint parses and judges each fix with its own parser's
        settings, so where it runs the code's era is no limit of its own."""
        return self.profile.runtime.declared() if self.eslint is not None else self.profile.runtime

    @property
    def target(self) -> str:
        return self.runtime.describe()

    @property
    def lines(self) -> tuple[str, ...]:
        if self.eslint is not None:  # the rules' line names its configuration
            return f"target: {self.target}", *self.said
        return f"target: {self.target}", f"lint configuration: {self.profile.chosen_by}", *self.said

    @property
    def problems(self) -> tuple[str, ...]:
        translated = self.profile.reading if self.eslint is not None else ()
        return (*(p for p in self.profile.problems if p not in translated), *self.unrun)

    @property
    def named(self) -> tuple[str, ...]:
        return ()  # Biome's configuration turns groups and rules on; memfix reads no history of it

    def linter(self, held: tuple[str, ...] = ()) -> Linter:
        held = rules_for(rules.NAME, held)  # a hold on another language's rule is no `--skip` of Biome's
        linter: Linter = self.eslint.with_held(held) if self.eslint is not None else \
            self.biome.with_config(self.profile.config_files(), skip=held, layout=self.profile.layout)
        return Formatted(linter, (self.prettier,), held) if self.prettier is not None else linter

    def ignored(self, path: str) -> bool:
        return self.profile.ignored_path(path)  # generated, vendored and ignored files are never touched

    def checks(self, verification: Verification, patch: Patch, view: View) -> Verification:
        """Valid for the project's oldest runtime, its exports unchanged, its directive comments kept."""
        if not verification.parses:
            return verification
        runtime = self.runtime
        features = sorted(f for f in introduced(patch.original, patch.updated) if not runtime.allows(f))
        newer = f"introduces {', '.join(features)}, which {runtime.describe()} does not have" if features else None
        verification = failed(verification, "compatible", newer)
        verification = failed(verification, "surface", export_problem(patch) or strict_problem(patch))
        return failed(verification, "comments",
                      directive_problem(patch) or suppressed_change(patch, self.biome.carried))


@dataclass(frozen=True)
class JavaScript:
    biome: Biome
    toolbox: Toolbox | None = None  # the sandbox and tool cache the team's own tools run from; None: Biome alone
    name: str = "javascript"

    def owns(self, path: str) -> bool:
        return rules.owns(path)

    def has_rule(self, code: str) -> bool:
        """Biome's rules by their shape; the team's ESLint's too, which memfix runs: a core rule ESLint has, or a
        plugin's rule by its shape (the plugin is the team's package, its rules unknown until it runs)."""
        if code == rules.FORMATTER:
            return True  # the team's Prettier's layout, held or named as one rule
        if code.startswith(rules.ESLINT + ":"):
            name = code.removeprefix(rules.ESLINT + ":")
            return "/" in name or name in ESLINT_CORE_RULES
        return self.biome.has_rule(code)

    def rule_words(self, code: str) -> frozenset[str]:
        return self.biome.rule_words(code)

    def project(self, read: Read, config: Asked, pipeline: str, sources: tuple[str, ...] = ()) -> JsProject:
        profile = read_js_profile(read, biome_migrate(self.biome.binary), tuple(p for p in sources if self.owns(p)))
        biome, said, unrun = self._team_biome(read, profile)
        profile = _taken_by(biome, profile)
        project = JsProject(profile, _selection(profile, config, pipeline), biome, said=said, unrun=unrun)
        if pipeline != "autofix":
            return project
        eslint, said = self._eslint(read, sources)
        if eslint is not None:
            project = _judged_by_eslint(project, eslint, said, config.named(pipeline))
        elif said:
            project = replace(project, unrun=(*project.unrun, *said))
        return self._formatted(project, read, config.named(pipeline))

    def _team_biome(self, read: Read, profile: JsProfile) -> tuple[Biome, tuple[str, ...], tuple[str, ...]]:
        """The team's own Biome, at the version package.json pins, where the team configures Biome (its biome.json)
        and a sandbox can start and that Biome takes the configuration: it, and what the run says of it; else
        memfix's Biome, and why it stands in."""
        from core.languages.javascript.biome import TeamBiome, team_binary
        from core.languages.javascript.project import BIOME_FILES
        from core.tools.pins import find_pins
        from core.tools.toolbox import Unavailable

        if self.toolbox is None or not any(read(name) is not None for name in BIOME_FILES):
            return self.biome, (), ()
        pin = find_pins(read).get("biome")
        if pin is None:
            return self.biome, (), ()
        version = pin.version or pin.specifier or "(its newest release)"
        stands_in = "memfix's Biome stands in for it, with the team's configuration"
        try:
            sandbox, installed = self.toolbox.ready(pin)
        except Unavailable as exc:
            return self.biome, (), (f"the team's Biome does not run here ({exc}): {stands_in}",)
        binary = team_binary(installed.folder) or \
            installed.folder / "node_modules" / "@biomejs" / "cli-linux-x64" / "biome"  # installed elsewhere
        team = self.biome.with_team(TeamBiome(binary, sandbox, installed.folder, version))
        if problem := team.with_config(profile.config_files()).config_problem():
            return self.biome, (), (f"the team's Biome {version} does not run with memfix's flags and the "
                                    f"configuration here ({problem}): {stands_in}",)
        return team, (f"finds, fixes and formats: the team's Biome {version} ({pin.source}), in the sandbox",), ()

    def _formatted(self, project: JsProject, read: Read, named: tuple[str, ...] | None) -> JsProject:
        """The project with the team's Prettier beside its linter, where the team formats with a Prettier it pins
        (its configuration, package.json's `prettier`, or a script that runs it) and a person named no rules that
        leave it out."""
        from core.languages.formatter import Kind, team_formatter

        if self.toolbox is None or not _formats(read) or named is not None and rules.FORMATTER not in named:
            return project
        kind = Kind("prettier", "Prettier", _prettier_command,
                    ("package.json", ".editorconfig", ".gitignore", *PRETTIER_FILES))
        prettier, said, unrun = team_formatter(read, self.toolbox, kind, self.owns)
        if prettier is None:
            return replace(project, unrun=(*project.unrun, *unrun))
        selection = replace(project.selection, rules=(*project.selection.rules, rules.FORMATTER),
                            chosen_by=f"{project.selection.chosen_by}; and the layout the team's {prettier.name} makes")
        return replace(project, selection=selection, prettier=prettier, said=(*project.said, *said))

    def _eslint(self, read: Read, sources: tuple[str, ...]) -> tuple[ESLint | None, tuple[str, ...]]:
        """The team's ESLint, installed at the version its lockfile pins with the presets and plugins package.json
        lists, where the team configures ESLint, a sandbox starts and its configuration runs there: it, and what
        chose it; else None, and why memfix's reading (Biome with the translated configuration) stands in."""
        from core.languages.javascript.eslint import FLAT_FILES, ESLint, configured, context, lint_script
        from core.tools.pins import find_pins
        from core.tools.toolbox import Unavailable

        where = configured(read) if self.toolbox is not None else None
        if where is None or self.toolbox is None:
            return None, ()
        stands_in = "memfix's reading of its configuration (Biome) stands in for it"
        pin = find_pins(read).get("eslint")
        if pin is None:
            return None, (f"the team's ESLint is configured ({where}) but package.json does not list it: "
                          f"{stands_in}",)
        try:
            sandbox, installed = self.toolbox.ready(pin)
        except Unavailable as exc:
            return None, (f"the team's ESLint does not run here ({exc}): {stands_in}",)
        version = installed.version or pin.specifier or "(its newest release)"
        script = lint_script(_package(read))
        eslint = ESLint(installed.folder, sandbox, Path(self.toolbox.cache.node), version,
                        context(read, sources), where in FLAT_FILES, script, self.toolbox.cache.runtime_folders(pin))
        if problem := eslint.problem():
            why = problem.removeprefix(f"the team's ESLint {version} ")
            return None, (f"the team's ESLint {version} does not run with its configuration here ({why}): "
                          f"{stands_in}",)
        reach = f", on what {script.said} lints" if script.targets else ""
        described = pin.described().removeprefix(f"{pin.package} ")
        return eslint, (f"the team's ESLint {described} ({pin.source}) with {where}{reach}",
                        f"finds, fixes and judges: the team's ESLint {version}, in the sandbox")


def _taken_by(biome: Biome, profile: JsProfile) -> JsProfile:
    """The profile as Biome takes it: where Biome refuses the repository's configuration, its recommended
    correctness rules instead, and why."""
    if not (problem := biome.with_config(profile.config_files()).config_problem()):
        return profile
    return replace(profile, files=dict(RECOMMENDED_FILES),
                   chosen_by="Biome's recommended correctness rules (the repository's configuration was refused)",
                   problems=(*profile.problems, f"{profile.chosen_by} was refused by Biome ({problem}); "
                             "Biome's recommended correctness rules are used"))


def _judged_by_eslint(project: JsProject, eslint: ESLint, said: tuple[str, ...],
                      named: tuple[str, ...] | None) -> JsProject:
    """The project with the team's ESLint finding and fixing: every rule it reports and can fix, or those a person
    named that it knows."""
    if named is None:
        selection = Selection(("eslint",), f"{said[0]}, every rule it reports and can fix")
    else:
        selection = Selection(tuple(r for r in rules_for(rules.NAME, named) if eslint.knows(r)),
                              f"the rules a person named ({', '.join(named)}), within {said[0]}")
    return JsProject(project.profile, selection, project.biome, eslint, (*project.said, *said[1:]), project.unrun)


def _package(read: Read) -> dict[str, object]:
    """package.json's object, or an empty one where it is missing or not a JSON object."""
    try:
        package = json.loads(read("package.json") or "{}")
    except ValueError:
        return {}
    return package if isinstance(package, dict) else {}


def _selection(profile: JsProfile, config: Asked, pipeline: str) -> Selection:
    """The rules a JavaScript run proposes, within what the team's configuration enables: of the rules a person named
    (in any language), JavaScript's; else memfix's groups for the pipeline; with what `rules: extend` adds that is
    JavaScript's."""
    extend = rules_for(rules.NAME, config.extend_rules)
    extra = dict.fromkeys(extend, "`rules: extend` in .github/memfix.yml")
    if (named := config.named(pipeline)) is not None:
        own = rules_for(rules.NAME, named)
        why = f"the rules a person named ({', '.join(named)})" + ("" if own else ", none of them JavaScript's")
        return Selection(tuple(dict.fromkeys([*own, *extend])), f"{why}, within {profile.chosen_by}", extend,
                         {**dict.fromkeys(own, "a person"), **extra})
    groups = JS_RULES.get(pipeline, ())
    if profile.chosen_by == UNCONFIGURED and pipeline == "autofix":  # memfix's preference: surveyed, suggested
        return Selection(extend, f"nobody: {UNCONFIGURED}", extend, extra, () if extend else ("lint/correctness",))
    within = _within(profile, groups, pipeline)
    return Selection(tuple(dict.fromkeys([*groups, *extend])), f"{profile.chosen_by}{within}", extend, extra)


def _within(profile: JsProfile, groups: tuple[str, ...], pipeline: str) -> str:
    """What of the team's configuration memfix's groups for the pipeline take, in words."""
    within = "" if profile.chosen_by.endswith("none selected") else ", every rule it enables" \
        if "lint" in groups else \
        f", within memfix's {pipeline} groups ({', '.join(g.removeprefix('lint/') for g in groups)})"
    if LAYOUT in groups and profile.layout:
        within += (", and its layout rules " + ", ".join(f"`{r}`" for r in profile.layout.rules) +
                   " by Biome's formatter, only where they ask")
    return within


def _formats(read: Read) -> bool:
    """Whether the team formats with Prettier: its configuration file, package.json's `prettier`, or a script that
    runs `prettier --check` or `--write`."""
    if any(read(name) is not None for name in PRETTIER_FILES if name != ".prettierignore"):
        return True
    package = _package(read)
    found = package.get("scripts")
    scripts: dict[str, object] = found if isinstance(found, dict) else {}
    runs = re.compile(r"\bprettier\b.*(--check|--write|-c\b|-l\b)")
    return "prettier" in package or any(isinstance(c, str) and runs.search(c) for c in scripts.values())


def _prettier_command(folder: Path, _pin: Pin) -> tuple[str, ...]:
    """Prettier's own program (its package.json's `bin`: `bin/prettier.cjs` from 3, `bin-prettier.js` before), run by
    Node, rewriting the files it is given."""
    package = folder / "node_modules" / "prettier"
    try:
        meta = json.loads((package / "package.json").read_text())
        program = meta["bin"] if isinstance(meta["bin"], str) else meta["bin"]["prettier"]
    except (OSError, ValueError, KeyError, TypeError):
        program = "bin/prettier.cjs"  # installed elsewhere (the fixer function): Prettier 3's
    return ("node", str(package / program), "--write")
