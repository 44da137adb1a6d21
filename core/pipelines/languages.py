"""Languages as adapters: what a run needs to know of one language — which files are its own, the project's
decisions for it, the linter that finds and fixes, and the project-depth checks a patch must pass. The runner,
publishing, memory, policy and CI verdicts are the same for every language; rule codes keep their tool's names
(`F401`, `lint/suspicious/noDoubleEquals`) as policy keys and insight tags.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Protocol

from core.models import Patch, Verification, rule_code
from core.pipelines.biome import RECOMMENDED_FILES, is_js
from core.pipelines.comments import comment_problem
from core.pipelines.detect import Linter
from core.pipelines.jscheck import directive_problem, export_problem, strict_problem
from core.pipelines.jsproject import JsProfile, biome_migrate, introduced, read_js_profile
from core.pipelines.project import Profile, Selection, read_profile, within
from core.pipelines.surface import RepositoryView, surface_problem
from core.pipelines.verify import compatibility

if TYPE_CHECKING:
    from core.pipelines.biome import Biome
    from core.pipelines.config import RepoConfig
    from core.pipelines.detect import Ruff

Read = Callable[[str], str | None]
View = Callable[[], RepositoryView]


class Project(Protocol):
    """One language's reading of the repository for one run."""

    @property
    def selection(self) -> Selection: ...  # the rules this run proposes, and who chose them
    @property
    def target(self) -> str: ...  # what the fixes are valid for, in words
    @property
    def lines(self) -> tuple[str, ...]: ...  # what the run's output says of the project
    @property
    def problems(self) -> tuple[str, ...]: ...  # what in the project's configuration could not be used, and why
    @property
    def named(self) -> tuple[str, ...]: ...  # the rules the team's lint configuration names, one by one

    def linter(self, held: tuple[str, ...] = ()) -> Linter: ...
    def ignored(self, path: str) -> bool: ...
    def checks(self, verification: Verification, patch: Patch, view: View) -> Verification: ...


class Language(Protocol):
    @property
    def name(self) -> str: ...

    def owns(self, path: str) -> bool: ...
    def has_rule(self, code: str) -> bool: ...
    def project(self, read: Read, config: RepoConfig, pipeline: str) -> Project: ...


# ---- Python: ruff ----

@dataclass(frozen=True)
class PythonProject:
    profile: Profile
    selection: Selection
    ruff: Ruff

    @property
    def target(self) -> str:
        return self.profile.target.describe()

    @property
    def lines(self) -> tuple[str, ...]:
        return tuple(self.profile.describe())

    def linter(self, held: tuple[str, ...] = ()) -> Ruff:
        return self.ruff.with_args(self.profile.ruff_args(self.selection.rules, held))

    def ignored(self, path: str) -> bool:
        return False  # the team's excludes go to ruff itself (--extend-exclude)

    @property
    def problems(self) -> tuple[str, ...]:
        return self.profile.problems

    @property
    def named(self) -> tuple[str, ...]:
        return tuple(c for c in self.profile.team.select or () if rule_code(c) == c)

    def checks(self, verification: Verification, patch: Patch, view: View) -> Verification:
        """Valid for the project's oldest supported Python, and the public surface and dynamic uses of the
        repository survive (the whole repository is read once per run)."""
        if not verification.parses:
            return verification
        target = self.profile.target
        verification = failed(verification, "compatible", compatibility(patch, target.oldest, target.feature_version))
        team = self.profile.team.select
        if problem := surface_problem(patch, view(), imports_chosen=team is not None and bool(within(("F401",), team))):
            verification = replace(failed(verification, "surface", problem.text),
                                   failed_codes=verification.failed_codes | problem.rules)
        return failed(verification, "comments", comment_problem(patch))


@dataclass(frozen=True)
class Python:
    ruff: Ruff
    name: str = "python"

    def owns(self, path: str) -> bool:
        return self.ruff.owns(path)

    def has_rule(self, code: str) -> bool:
        return self.ruff.has_rule(code)

    def project(self, read: Read, config: RepoConfig, pipeline: str) -> PythonProject:
        """The project's own Python and ruff decisions, and the rules its configuration chooses."""
        profile = read_profile(read, config.python).known_to(self.ruff.knows)
        ours = config.rules(pipeline)
        return PythonProject(profile, profile.selection(pipeline, ours, within(ours, config.extend_rules)), self.ruff)


# ---- JavaScript and TypeScript: Biome ----

JS_RULES = {  # Biome's groups each pipeline proposes, within what the team's configuration enables
    "autofix": ("lint/correctness", "lint/suspicious", "lint/security"),
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
        return self.biome.with_config(self.profile.config_files(), skip=held)

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
        return failed(verification, "comments", directive_problem(patch))


@dataclass(frozen=True)
class JavaScript:
    biome: Biome
    name: str = "javascript"

    def owns(self, path: str) -> bool:
        return is_js(path)

    def has_rule(self, code: str) -> bool:
        return self.biome.has_rule(code)

    def project(self, read: Read, config: RepoConfig, pipeline: str) -> JsProject:
        profile = read_js_profile(read, biome_migrate(self.biome.binary))
        if problem := self.biome.with_config(profile.config_files()).config_problem():
            profile = replace(profile, files=dict(RECOMMENDED_FILES),
                              chosen_by="Biome's recommended correctness rules (the repository's configuration "
                                        "was refused)",
                              problems=(*profile.problems, f"{profile.chosen_by} was refused by Biome ({problem}); "
                                        "Biome's recommended correctness rules are used"))
        groups = JS_RULES.get(pipeline, ())
        return JsProject(profile, Selection(groups, f"{profile.chosen_by}, within memfix's {pipeline} groups "
                                            f"({', '.join(g.removeprefix('lint/') for g in groups)})"), self.biome)


def failed(verification: Verification, check: str, error: str | None) -> Verification:
    """The verdict with one project check failed for `error` (the first error found is the one said), or as it was."""
    if error is None:
        return verification
    return replace(verification, **{check: False}, error=verification.error or error)  # type: ignore[arg-type]


def languages_for(paths: Iterable[str], languages: Iterable[Language]) -> list[Language]:
    """The languages that own any of `paths`, in the order given."""
    listed = list(paths)
    return [language for language in languages if any(language.owns(p) for p in listed)]


def known_rule(code: str, languages: Iterable[Language]) -> bool:
    """Whether one of `languages` has this rule: a decision on any other would hold nothing, and say nothing of it."""
    return any(language.has_rule(code) for language in languages)
