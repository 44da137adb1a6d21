"""The peers benchmark's taste judge reads which of the team's tools rewrite a file on its own terms: black counts
where a hook, a tox command or a CI step runs it, as memfix's run now takes it (the CI's own tools judge)."""

from __future__ import annotations

from benchmarks.taste import team_tools

WORKFLOW = "jobs:\n  lint:\n    steps:\n      - run: |\n          pip install -U black\n          black --check .\n"


def test_black_run_by_the_ci_or_a_hook_is_a_fixer_of_the_team_and_a_mention_is_not(tmp_path):
    (tmp_path / ".github" / "workflows").mkdir(parents=True)
    (tmp_path / ".github" / "workflows" / "ci.yml").write_text(WORKFLOW)
    assert team_tools(tmp_path).fixers == {"black": []}
    (tmp_path / ".pre-commit-config.yaml").write_text(
        "repos:\n- repo: https://github.com/psf/black\n  rev: 24.1.0\n  hooks:\n  - id: black\n    args: [-l, '100']\n")
    assert team_tools(tmp_path).fixers == {"black": ["-l", "100"]}
    (tmp_path / ".pre-commit-config.yaml").unlink()
    (tmp_path / ".github" / "workflows" / "ci.yml").write_text(WORKFLOW.replace("black", "blackbox"))
    assert team_tools(tmp_path).fixers == {}
