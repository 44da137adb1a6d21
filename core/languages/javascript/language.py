"""JavaScript and TypeScript as memfix works on them: Biome finds and fixes with the configuration memfix writes
from the team's, the project's files say its oldest runtime, and a patch must keep its exports and directive
comments."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from core.change import Patch, Verification
from core.languages.adapter import Asked, Read, Selection, View, failed
from core.languages.javascript import rules
from core.languages.javascript.biome import RECOMMENDED_FILES, biome_migrate
from core.languages.javascript.checks import directive_problem, export_problem, strict_problem, suppressed_change
from core.languages.javascript.eslint import ESLINT_CORE_RULES
from core.languages.javascript.layout import LAYOUT
from core.languages.javascript.project import JsProfile, introduced, read_js_profile
from core.languages.registry import rules_for

if TYPE_CHECKING:
    from core.languages.javascript.biome import Biome


JS_RULES = {  # what each pipeline proposes, within what the team's configuration enables: AutoFix all of it
    "autofix": ("lint", LAYOUT),  # the team's ESLint layout rules Biome's formatter carries too
    "refactor": ("lint/style", "lint/complexity", "lint/performance"),
}


@dataclass(frozen=True)
class JsProject:
    profile: JsProfile
    selection: Selection
    biome: Biome

    @property
    def target(self) -> str:
        return self.profile.runtime.describe()

    @property
    def lines(self) -> tuple[str, ...]:
        return f"target: {self.target}", f"lint configuration: {self.profile.chosen_by}"

    @property
    def problems(self) -> tuple[str, ...]:
        return self.profile.problems

    @property
    def named(self) -> tuple[str, ...]:
        return ()  # Biome's configuration turns groups and rules on; memfix reads no history of it

    def linter(self, held: tuple[str, ...] = ()) -> Biome:
        held = rules_for(rules.NAME, held)  # a hold on another language's rule is no `--skip` of Biome's
        return self.biome.with_config(self.profile.config_files(), skip=held, layout=self.profile.layout)

    def ignored(self, path: str) -> bool:
        return self.profile.ignored_path(path)  # generated, vendored and ignored files are never touched

    def checks(self, verification: Verification, patch: Patch, view: View) -> Verification:
        """Valid for the project's oldest runtime, its exports unchanged, its directive comments kept."""
        if not verification.parses:
            return verification
        runtime = self.profile.runtime
        features = sorted(f for f in introduced(patch.original, patch.updated) if not runtime.allows(f))
        newer = f"introduces {', '.join(features)}, which {runtime.describe()} does not have" if features else None
        verification = failed(verification, "compatible", newer)
        verification = failed(verification, "surface", export_problem(patch) or strict_problem(patch))
        return failed(verification, "comments",
                      directive_problem(patch) or suppressed_change(patch, self.biome.carried))


@dataclass(frozen=True)
class JavaScript:
    biome: Biome
    name: str = "javascript"

    def owns(self, path: str) -> bool:
        return rules.owns(path)

    def has_rule(self, code: str) -> bool:
        """Biome's rules by their shape; the team's ESLint's too, which memfix runs: a core rule ESLint has, or a
        plugin's rule by its shape (the plugin is the team's package, its rules unknown until it runs)."""
        if code.startswith(rules.ESLINT + ":"):
            name = code.removeprefix(rules.ESLINT + ":")
            return "/" in name or name in ESLINT_CORE_RULES
        return self.biome.has_rule(code)

    def rule_words(self, code: str) -> frozenset[str]:
        return self.biome.rule_words(code)

    def project(self, read: Read, config: Asked, pipeline: str, sources: tuple[str, ...] = ()) -> JsProject:
        profile = read_js_profile(read, biome_migrate(self.biome.binary), tuple(p for p in sources if self.owns(p)))
        if problem := self.biome.with_config(profile.config_files()).config_problem():
            profile = replace(profile, files=dict(RECOMMENDED_FILES),
                              chosen_by="Biome's recommended correctness rules (the repository's configuration "
                                        "was refused)",
                              problems=(*profile.problems, f"{profile.chosen_by} was refused by Biome ({problem}); "
                                        "Biome's recommended correctness rules are used"))
        return JsProject(profile, _selection(profile, config, pipeline), self.biome)


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
    within = "" if profile.chosen_by.endswith("none selected") else ", every rule it enables" \
        if "lint" in groups else \
        f", within memfix's {pipeline} groups ({', '.join(g.removeprefix('lint/') for g in groups)})"
    if LAYOUT in groups and profile.layout:
        within += (", and its layout rules " + ", ".join(f"`{r}`" for r in profile.layout.rules) +
                   " by Biome's formatter, only where they ask")
    return Selection(tuple(dict.fromkeys([*groups, *extend])), f"{profile.chosen_by}{within}", extend, extra)
