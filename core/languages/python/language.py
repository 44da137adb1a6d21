"""Python as memfix works on it: ruff finds and fixes, the project's files say its oldest Python and its own ruff
decisions, and a patch must keep the repository's public surface and dynamic uses and its meaningful comments."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from core.change import Patch, Verification
from core.languages.adapter import Asked, Read, Selection, View, failed
from core.languages.python.comments import comment_problem
from core.languages.python.compat import compatibility
from core.languages.python.project import Profile, read_profile
from core.languages.python.surface import surface_problem
from core.languages.python.team import beyond_its_tool
from core.languages.registry import rule_code, within

if TYPE_CHECKING:
    from core.languages.python.ruff import Ruff


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
    name: str = "python"

    def owns(self, path: str) -> bool:
        return self.ruff.owns(path)

    def has_rule(self, code: str) -> bool:
        return self.ruff.has_rule(code)

    def rule_words(self, code: str) -> frozenset[str]:
        return self.ruff.rule_words(code)

    def project(self, read: Read, config: Asked, pipeline: str, sources: tuple[str, ...] = ()) -> PythonProject:
        """The project's own Python and ruff decisions, and the rules its configuration chooses."""
        profile = read_profile(read, config.python).known_to(self.ruff.knows)
        if profile.team.options and not self.ruff.accepts(profile.team.options):  # another ruff's settings
            profile = replace(profile, team=replace(profile.team, options=()), problems=(
                *profile.problems, "this ruff refuses some of the team's ruff settings (another version's?): "
                "its rules run with their defaults"))
        families = None if pipeline == "autofix" else config.rules(pipeline)  # Refactor: only its kinds of change
        return PythonProject(profile, profile.selection(config.named(pipeline), families, config.extend_rules),
                             self.ruff)
