"""Which tools, at which versions, a repository pins: each source from a written example as teams write them, the
order of authority between them, and every file or entry memfix will not read said, never raised."""

from __future__ import annotations

import json
import textwrap

import pytest

from core.tools.pins import Pin, Pins, Skipped, find_pins


def pins_of(files: dict[str, str]) -> Pins:
    texts = {name: textwrap.dedent(text).lstrip("\n") for name, text in files.items()}
    return find_pins(texts.get)


PRE_COMMIT = """
    default_language_version:
      python: python3.11
    repos:
      - repo: https://github.com/pre-commit/pre-commit-hooks
        rev: v4.6.0
        hooks:
          - id: trailing-whitespace
          - id: end-of-file-fixer
      - repo: https://github.com/astral-sh/ruff-pre-commit
        rev: v0.6.9
        hooks:
          - id: ruff
            args: [--fix]
          - id: ruff-format
      - repo: https://github.com/PyCQA/flake8
        rev: 7.1.1
        hooks:
          - id: flake8
            additional_dependencies:
              - flake8-bugbear==24.2.6
              - flake8-docstrings
      - repo: local
        hooks:
          - id: pylint
            name: pylint
            entry: pylint
            language: python
            types: [python]
            additional_dependencies: ["pylint==3.2.7", "pylint-pytest==1.1.8"]
          - id: mypy
            name: mypy
            entry: mypy src
            language: system
            pass_filenames: false
      - repo: meta
        hooks:
          - id: check-useless-excludes
"""


def test_pre_commit_hooks_name_their_packages_versions_and_plugins():
    pins = pins_of({".pre-commit-config.yaml": PRE_COMMIT})
    assert pins.get("ruff") == Pin("ruff", "pypi", "ruff", "0.6.9", (),
                                   "the ruff hook's rev in .pre-commit-config.yaml")
    assert pins.get("flake8") == Pin("flake8", "pypi", "flake8", "7.1.1",
                                     ("flake8-bugbear==24.2.6", "flake8-docstrings"),
                                     "the flake8 hook's rev in .pre-commit-config.yaml")
    assert pins.get("pylint") == Pin("pylint", "pypi", "pylint", "3.2.7", ("pylint-pytest==1.1.8",),
                                     "the local pylint hook in .pre-commit-config.yaml's additional_dependencies")
    assert [pin.tool for pin in pins.tools] == ["ruff", "flake8", "pylint"]
    assert pins.skipped == (
        Skipped("the trailing-whitespace, end-of-file-fixer hook of 'https://github.com/pre-commit/pre-commit-hooks'"
                " in .pre-commit-config.yaml", "not a hook repository memfix knows the package of"),
        Skipped("the local mypy hook in .pre-commit-config.yaml",
                "it runs a program of the machine's or the repository's (`language: system`), not one memfix "
                "installs"))
    assert pins.problems == ()
    assert pins.get("flake8").requirement == "flake8==7.1.1"
    assert pins.get("flake8").described() == "flake8 7.1.1 with flake8-bugbear 24.2.6, flake8-docstrings"


def test_hook_repositories_by_any_spelling_of_their_address():
    pins = pins_of({".pre-commit-config.yaml": """
        repos:
          - repo: https://github.com/charliermarsh/ruff-pre-commit.git
            rev: v0.1.15
            hooks: [{id: ruff}]
          - repo: https://gitlab.com/pycqa/flake8/
            rev: 3.9.2
            hooks: [{id: flake8}]
          - repo: git@github.com:psf/black-pre-commit-mirror
            rev: 24.8.0
            hooks: [{id: black}]
          - repo: https://github.com/PyCQA/isort
            rev: 5.13.2
            hooks: [{id: isort, name: isort (python)}]
          - repo: https://github.com/asottile/pyupgrade
            rev: v3.17.0
            hooks: [{id: pyupgrade, args: [--py311-plus]}]
          - repo: https://github.com/PyCQA/autoflake
            rev: v2.3.1
            hooks: [{id: autoflake}]
    """})
    assert [(p.tool, p.package, p.version) for p in pins.tools] == [
        ("ruff", "ruff", "0.1.15"), ("flake8", "flake8", "3.9.2"), ("black", "black", "24.8.0"),
        ("isort", "isort", "5.13.2"), ("pyupgrade", "pyupgrade", "3.17.0"), ("autoflake", "autoflake", "2.3.1")]


def test_javascript_hook_mirrors_are_npm_packages_and_biome_names_its_version_as_a_dependency():
    pins = pins_of({".pre-commit-config.yaml": """
        repos:
          - repo: https://github.com/pre-commit/mirrors-eslint
            rev: v8.56.0
            hooks:
              - id: eslint
                additional_dependencies:
                  - eslint@8.56.0
                  - eslint-config-standard@17.1.0
                  - "@typescript-eslint/parser@6.21.0"
          - repo: https://github.com/pre-commit/mirrors-prettier
            rev: v3.1.0
            hooks: [{id: prettier}]
          - repo: https://github.com/biomejs/pre-commit
            rev: v0.6.1
            hooks:
              - id: biome-check
                additional_dependencies: ["@biomejs/biome@1.8.3"]
    """})
    eslint = pins.get("eslint")
    assert (eslint.registry, eslint.version, eslint.plugins) == (
        "npm", "8.56.0", ("eslint-config-standard@17.1.0", "@typescript-eslint/parser@6.21.0"))
    assert eslint.requirement == "eslint@8.56.0"
    assert eslint.described() == "eslint 8.56.0 with eslint-config-standard 17.1.0, @typescript-eslint/parser 6.21.0"
    assert (pins.get("prettier").package, pins.get("prettier").version) == ("prettier", "3.1.0")
    biome = pins.get("biome")
    assert (biome.package, biome.version, biome.plugins) == ("@biomejs/biome", "1.8.3", ())
    assert biome.source == "the biome hook's additional_dependencies in .pre-commit-config.yaml"


def test_a_rev_that_is_no_release_and_a_dependency_that_is_no_package_are_said():
    pins = pins_of({".pre-commit-config.yaml": """
        repos:
          - repo: https://github.com/PyCQA/flake8
            rev: 0123456789abcdef0123456789abcdef01234567
            hooks:
              - id: flake8
                additional_dependencies:
                  - "git+https://github.com/evil/plugin"
                  - "--index-url=http://evil.example/simple"
                  - flake8-bugbear
          - repo: local
            hooks:
              - {id: golint, entry: golangci-lint run, language: golang}
              - {id: shellcheck, entry: ./lint.sh, language: script}
              - {id: nodeps, entry: nodeps, language: python}
    """})
    flake8 = pins.get("flake8")
    assert (flake8.version, flake8.plugins) == (None, ("flake8-bugbear",))
    assert "a commit: the newest release stands in" in flake8.source
    assert [p.split(":")[0] for p in pins.problems] == [
        "the flake8 hook's additional_dependencies in .pre-commit-config.yaml"] * 2
    assert all("is not a package from the registry memfix can install" in p for p in pins.problems)
    assert [s.why for s in pins.skipped] == [
        "`language: 'golang'` is not one memfix installs",
        "it runs a program of the machine's or the repository's (`language: script`), not one memfix installs",
        "`language: python` with no additional_dependencies installs nothing memfix could run"]


def test_a_local_node_hook_installs_its_dependencies_from_npm():
    pins = pins_of({".pre-commit-config.yaml": """
        repos:
          - repo: local
            hooks:
              - id: eslint
                name: eslint
                entry: eslint --fix
                language: node
                additional_dependencies: [eslint-plugin-react@7.35.0, eslint@9.9.1, globals@15.9.0]
    """})
    assert pins.get("eslint") == Pin("eslint", "npm", "eslint", "9.9.1",
                                     ("eslint-plugin-react@7.35.0", "globals@15.9.0"),
                                     "the local eslint hook in .pre-commit-config.yaml's additional_dependencies")


def test_requirements_pin_exactly_or_give_a_range_and_plugins_come_from_every_file():
    pins = pins_of({
        "requirements.txt": "flask>=3.0\n-e .\n",
        "requirements-dev.txt": """
            # linting
            -r requirements.txt
            ruff==0.6.9 \\
                --hash=sha256:0123abcd
            flake8>=7,<8  # the 7 series
            pep8-naming==0.14.1
            pytest
        """,
        "requirements/lint.txt": "flake8-bugbear==24.2.6 ; python_version >= '3.8'\nflake8-bugbear==23.1.1\n"
                                 "git+https://github.com/PyCQA/pylint@main#egg=pylint\n",
    })
    assert pins.get("ruff") == Pin("ruff", "pypi", "ruff", "0.6.9", (), "ruff==0.6.9 in requirements-dev.txt")
    flake8 = pins.get("flake8")
    assert (flake8.version, flake8.specifier, flake8.plugins) == (None, ">=7,<8", ("pep8-naming==0.14.1",
                                                                                 "flake8-bugbear==24.2.6"))
    assert flake8.source == ("flake8>=7,<8 in requirements-dev.txt (a range, not a version: the newest release in it "
                             "at the run's time stands in)")
    assert flake8.requirement == "flake8>=7,<8"
    assert pins.get("pylint") is None
    assert pins.problems == ("requirements/lint.txt: 'git+https://github.com/PyCQA/pylint@main#egg=pylint' is not a "
                             "package from the registry memfix can install: left out",)


def test_pre_commit_outranks_requirements_for_the_same_tool():
    pins = pins_of({".pre-commit-config.yaml": PRE_COMMIT, "requirements-dev.txt": "ruff==0.5.0\nblack==24.8.0\n"})
    assert pins.get("ruff").version == "0.6.9"
    assert pins.get("black").source == "black==24.8.0 in requirements-dev.txt"


def test_pyproject_extras_dependency_groups_and_tox_deps():
    pins = pins_of({
        "pyproject.toml": """
            [project]
            name = "shop"
            dependencies = ["flake8==1.0"]  # the project's own runtime needs: not its tools

            [project.optional-dependencies]
            lint = ["ruff==0.6.9", "flake8-comprehensions>=3.14"]

            [dependency-groups]
            dev = ["black==24.8.0", {include-group = "lint"}]
        """,
        "tox.ini": """
            [tox]
            envlist = py311, lint

            [testenv]
            deps = pytest

            [testenv:lint]
            deps =
                {[testenv]deps}
                lint: flake8==7.1.1
                isort>=5.13
            commands = flake8 src
        """,
    })
    assert [(p.tool, p.version, p.specifier, p.source) for p in pins.tools] == [
        ("ruff", "0.6.9", "", "ruff==0.6.9 in the lint extra in pyproject.toml"),
        ("flake8", "7.1.1", "", "flake8==7.1.1 in [testenv:lint] deps in tox.ini"),
        ("black", "24.8.0", "", "black==24.8.0 in the dev dependency group in pyproject.toml"),
        ("isort", None, ">=5.13", "isort>=5.13 in [testenv:lint] deps in tox.ini (a range, not a version: the newest "
                                  "release in it at the run's time stands in)")]
    assert pins.get("flake8").plugins == ("flake8-comprehensions>=3.14",)


def test_poetry_groups_at_poetry_locks_versions_and_its_ranges_as_pip_reads_them():
    pyproject = """
        [tool.poetry.dependencies]
        python = "^3.11"

        [tool.poetry.group.dev.dependencies]
        ruff = "^0.6.9"
        flake8 = "~7.1"
        flake8-bugbear = "*"
        black = {version = "24.8.0", extras = ["jupyter"]}
        pylint = {path = "../pylint", develop = true}

        [tool.poetry.dev-dependencies]
        isort = "^5"
    """
    pins = pins_of({"pyproject.toml": pyproject})
    assert [(p.tool, p.version, p.specifier) for p in pins.tools] == [
        ("ruff", None, ">=0.6.9,<0.7.0"), ("flake8", None, ">=7.1,<7.2"), ("black", "24.8.0", ""),
        ("isort", None, ">=5,<6")]
    assert pins.get("flake8").plugins == ("flake8-bugbear",)
    assert pins.problems == ("Poetry's dev group in pyproject.toml: 'pylint @ ../pylint' is not a package from the "
                             "registry memfix can install: left out",)
    lock = """
        [[package]]
        name = "ruff"
        version = "0.6.9"
        description = "An extremely fast Python linter and code formatter, written in Rust."
        optional = false
        python-versions = ">=3.7"
        files = [
            {file = "ruff-0.6.9-py3-none-linux_armv6l.whl", hash = "sha256:064df58d84ccc0ac0fcd63bc3090b251d9"},
        ]

        [[package]]
        name = "Flake8-Bugbear"
        version = "24.8.19"
        description = "A plugin for flake8 finding likely bugs and design problems in your program."
        optional = false
        python-versions = ">=3.8.1"

        [metadata]
        lock-version = "2.0"
        python-versions = "^3.11"
        content-hash = "0123"
    """
    locked = pins_of({"pyproject.toml": pyproject, "poetry.lock": lock})
    ruff = locked.get("ruff")
    assert (ruff.version, ruff.specifier) == ("0.6.9", "")
    assert ruff.source == "ruff>=0.6.9,<0.7.0 in Poetry's dev group in pyproject.toml, at poetry.lock's version"
    assert locked.get("flake8").plugins == ("flake8-bugbear==24.8.19",)


def test_a_plugin_without_its_tool_still_names_the_tool():
    pins = pins_of({"requirements-dev.txt": "flake8-bugbear==24.2.6\n"})
    assert pins.get("flake8") == Pin("flake8", "pypi", "flake8", None, ("flake8-bugbear==24.2.6",),
                                     "its plugins in requirements-dev.txt (flake8 itself is not pinned: the version "
                                     "they need stands in)")


PACKAGE_JSON = json.dumps({
    "name": "shop-web", "private": True, "type": "module",
    "scripts": {"lint": "eslint . --max-warnings 0", "format": "prettier --check ."},
    "dependencies": {"react": "^18.3.1"},
    "devDependencies": {
        "@eslint/js": "^9.9.0", "eslint": "^9.9.0", "eslint-plugin-react": "^7.35.0",
        "eslint-plugin-react-hooks": "^5.1.0-rc.0", "globals": "^15.9.0", "typescript": "~5.5.3",
        "typescript-eslint": "^8.0.1", "@vitejs/plugin-react": "^4.3.1", "vite": "^5.4.1",
        "prettier": "3.3.3", "prettier-plugin-tailwindcss": "^0.6.6", "eslint-plugin-local": "file:./eslint-rules",
    },
}, indent=2)


def _lock_v3(versions: dict[str, str]) -> str:
    packages = {"": {"name": "shop-web", "dependencies": {"react": "^18.3.1"}, "devDependencies": {}}}
    for name, version in versions.items():
        packages[f"node_modules/{name}"] = {
            "version": version, "resolved": f"https://registry.npmjs.org/{name}/-/{name.split('/')[-1]}-{version}.tgz",
            "integrity": "sha512-AAAA", "dev": True, "license": "MIT"}
        packages[f"node_modules/other/node_modules/{name}"] = {"version": "0.0.1"}  # a nested copy: not the project's
    return json.dumps({"name": "shop-web", "lockfileVersion": 3, "requires": True, "packages": packages}, indent=2)


LOCKED = {"@eslint/js": "9.9.1", "eslint": "9.9.1", "eslint-plugin-react": "7.35.2",
          "eslint-plugin-react-hooks": "5.1.0-rc-fb9a90fa48-20240614", "globals": "15.9.0", "typescript": "5.5.4",
          "typescript-eslint": "8.4.0", "prettier": "3.3.3", "prettier-plugin-tailwindcss": "0.6.6"}


def test_package_json_at_package_lock_v3_versions():
    pins = pins_of({"package.json": PACKAGE_JSON, "package-lock.json": _lock_v3(LOCKED)})
    eslint = pins.get("eslint")
    assert eslint == Pin("eslint", "npm", "eslint", "9.9.1", (
        "@eslint/js@9.9.1", "eslint-plugin-react@7.35.2", "eslint-plugin-react-hooks@5.1.0-rc-fb9a90fa48-20240614",
        "globals@15.9.0", "typescript-eslint@8.4.0", "typescript@5.5.4"),
        "package.json's eslint, at package-lock.json's version")
    prettier = pins.get("prettier")
    assert (prettier.version, prettier.plugins) == ("3.3.3", ("prettier-plugin-tailwindcss@0.6.6",))
    assert pins.problems == ("package.json: eslint-plugin-local ('file:./eslint-rules') is not a package from the "
                             "registry memfix can install: left out",)


def test_package_lock_v1_and_no_lockfile():
    v1 = json.dumps({"name": "old", "lockfileVersion": 1, "dependencies": {
        "eslint": {"version": "7.32.0", "resolved": "https://registry.npmjs.org/eslint/-/eslint-7.32.0.tgz",
                   "dev": True, "requires": {"ajv": "^6.10.0"},
                   "dependencies": {"ajv": {"version": "6.12.6"}}},
        "eslint-config-airbnb-base": {"version": "15.0.0", "dev": True}}})
    package = json.dumps({"devDependencies": {"eslint": "^7.32.0", "eslint-config-airbnb-base": "^15.0.0"}})
    pins = pins_of({"package.json": package, "package-lock.json": v1})
    assert (pins.get("eslint").version, pins.get("eslint").plugins) == ("7.32.0", ("eslint-config-airbnb-base@15.0.0",))
    bare = pins_of({"package.json": package}).get("eslint")
    assert (bare.version, bare.specifier, bare.plugins) == (None, "^7.32.0", ("eslint-config-airbnb-base@^15.0.0",))
    assert bare.source == ("package.json's eslint ('^7.32.0', a range: there is no lockfile, so the newest release "
                           "in it stands in)")
    assert bare.requirement == "eslint@^7.32.0"


YARN_V1 = """
    # THIS IS AN AUTOGENERATED FILE. DO NOT EDIT THIS FILE DIRECTLY.
    # yarn lockfile v1


    "@eslint/js@9.9.1", "@eslint/js@^9.9.0":
      version "9.9.1"
      resolved "https://registry.yarnpkg.com/@eslint/js/-/js-9.9.1.tgz#4a97e85e982099d6c7ee8410aacb55adaa576f06"
      integrity sha512-xIDQRsfg5hNBqHz04H1R3scSVwmI+KUbqjsQKHKQ1DAUSaUjYPReZZmS/5PNiKu1fUvzDd6H7DEDKACSEhu+TQ==

    eslint@^8.0.0:
      version "8.57.0"
      resolved "https://registry.yarnpkg.com/eslint/-/eslint-8.57.0.tgz"

    eslint@^9.9.0:
      version "9.9.1"
      resolved "https://registry.yarnpkg.com/eslint/-/eslint-9.9.1.tgz#147ac2b4d1d7b9bd4ba8a4b77c9b8ffb92e44e3c"
      dependencies:
        "@eslint/js" "9.9.1"
        ajv "^6.12.4"
"""

YARN_BERRY = """
    # This file is generated by running "yarn install" inside your project.
    # Manual changes might be lost - proceed with caution!

    __metadata:
      version: 8
      cacheKey: 10c0

    "eslint@npm:^8.0.0, eslint@npm:^9.9.0":
      version: 9.9.1
      resolution: "eslint@npm:9.9.1"
      dependencies:
        "@eslint/js": "npm:9.9.1"
      checksum: 10c0/5e71efda
      languageName: node
      linkType: hard
"""


def test_yarn_lock_v1_and_berry():
    package = json.dumps({"devDependencies": {"eslint": "^9.9.0", "@eslint/js": "^9.9.0"}})
    pins = pins_of({"package.json": package, "yarn.lock": YARN_V1})
    assert (pins.get("eslint").version, pins.get("eslint").plugins) == ("9.9.1", ("@eslint/js@9.9.1",))
    assert pins.get("eslint").source == "package.json's eslint, at yarn.lock's version"
    berry = pins_of({"package.json": package, "yarn.lock": YARN_BERRY}).get("eslint")
    assert (berry.version, berry.plugins) == ("9.9.1", ("@eslint/js@^9.9.0",))  # Berry's file locks eslint only
    assert "yarn.lock does not resolve it" not in berry.source


PNPM_V9 = """
    lockfileVersion: '9.0'

    settings:
      autoInstallPeers: true
      excludeLinksFromLockfile: false

    importers:

      .:
        devDependencies:
          eslint:
            specifier: ^8.57.0
            version: 8.57.0
          '@typescript-eslint/parser':
            specifier: ^7.18.0
            version: 7.18.0(eslint@8.57.0)(typescript@5.5.4)
          typescript:
            specifier: ^5.5.4
            version: 5.5.4

    packages:

      eslint@8.57.0:
        resolution: {integrity: sha512-dZ6+mexnaTIbSBZWgou51U6OmzIhYM2VcNdtiTtI7qPNZm35A==}
        engines: {node: ^12.22.0 || ^14.17.0 || >=16.0.0}
        hasBin: true
      '@ref': &anchor {}
"""

PNPM_V5 = """
    lockfileVersion: 5.4

    specifiers:
      eslint: ^8.20.0
      eslint-config-prettier: ^8.5.0

    devDependencies:
      eslint: 8.20.0
      eslint-config-prettier: 8.5.0_eslint@8.20.0

    packages:

      /eslint/8.20.0:
        resolution: {integrity: sha512-d4ixhz5SKCa1D6SCPrivP7yYVi7nyD6A4vs6HIAul9ujBzcEmZA==}
"""


def test_pnpm_lock_v9_importers_and_v5_top_level():
    package = json.dumps({"devDependencies": {"eslint": "^8.57.0", "@typescript-eslint/parser": "^7.18.0",
                                              "typescript": "^5.5.4"}})
    pins = pins_of({"package.json": package, "pnpm-lock.yaml": PNPM_V9})
    assert (pins.get("eslint").version, pins.get("eslint").plugins) == (
        "8.57.0", ("@typescript-eslint/parser@7.18.0", "typescript@5.5.4"))
    assert pins.problems == ()  # the packages' list (and the anchor in it) is never parsed
    old = json.dumps({"devDependencies": {"eslint": "^8.20.0", "eslint-config-prettier": "^8.5.0"}})
    v5 = pins_of({"package.json": old, "pnpm-lock.yaml": PNPM_V5}).get("eslint")
    assert (v5.version, v5.plugins) == ("8.20.0", ("eslint-config-prettier@8.5.0",))


def test_a_biome_project():
    pins = pins_of({"package.json": json.dumps({"devDependencies": {"@biomejs/biome": "1.9.4"}})})
    assert pins.get("biome") == Pin("biome", "npm", "@biomejs/biome", "1.9.4", (), "package.json's @biomejs/biome")


def test_refused_and_malformed_files_are_problems_and_the_others_are_still_read():
    pins = pins_of({
        ".pre-commit-config.yaml": "repos:\n  - repo: &a https://github.com/PyCQA/flake8\n    rev: *a\n",
        "pyproject.toml": "[project\nname = 'x'\n",
        "package.json": '{"devDependencies": {"eslint": "^9.0.0"}}',
        "package-lock.json": '{"lockfileVersion": 3, "packages": {',
        "tox.ini": "[testenv\ndeps = flake8\n",
        "requirements-dev.txt": "ruff==0.6.9\n",
    })
    assert pins.get("ruff").version == "0.6.9"
    assert (pins.get("eslint").version, pins.get("eslint").specifier) == (None, "^9.0.0")
    problems = {p.split(":")[0]: p for p in pins.problems}
    assert sorted(problems) == [".pre-commit-config.yaml", "package-lock.json", "pyproject.toml", "tox.ini"]
    assert problems[".pre-commit-config.yaml"] == (".pre-commit-config.yaml: anchors and aliases (`&name`, `*name`) "
                                                   "are not accepted: not read for the tools it pins")
    assert problems["package-lock.json"].startswith("package-lock.json: not valid JSON")
    assert problems["pyproject.toml"] == "pyproject.toml: not valid TOML at line 1: not read for the tools it pins"


def test_odd_shapes_are_no_crash():
    for text in ("repos: 3\n", "repos: [3, {hooks: 4}, {repo: local, hooks: [{id: [1]}, 7]}]\n", "- a\n", "",
                 "repos:\n  - repo: https://github.com/PyCQA/flake8\n    rev: 7\n    hooks: [{id: flake8}]\n"):
        pins = pins_of({".pre-commit-config.yaml": text, "package.json": "[1, 2]", "pyproject.toml": "project = 3\n"})
        assert all(p.tool == "flake8" for p in pins.tools)
    said = pins_of({".pre-commit-config.yaml": "repos:\n  - repo: https://github.com/PyCQA/flake8\n    rev: 7\n"
                                               "    hooks: [{id: flake8}]\n"})
    assert said.get("flake8").version is None and "is not text" in said.problems[0]


def test_a_large_lockfile_is_read_whole():
    """A real project's lockfile holds tens of thousands of values: more than a configuration may, read all the same."""
    many = {f"pkg-{n}": "1.0.0" for n in range(3_000)}
    pins = pins_of({"package.json": json.dumps({"devDependencies": {"eslint": "^9.0.0"}}),
                    "package-lock.json": _lock_v3({**many, "eslint": "9.9.1"})})
    assert pins.problems == () and pins.get("eslint").version == "9.9.1"


def test_hostile_texts_are_read_in_linear_time(alarm):
    """What a repository may write to make a scanner quadratic: long runs of spaces, many headers, a lockfile's
    packages list of a megabyte. Each is read (or refused) at once; the alarm fails a hang."""
    spaces = " " * 1_000_000
    package = json.dumps({"devDependencies": {"eslint": "^9.0.0"}})
    pins = pins_of({
        "requirements-dev.txt": "ruff==0.6.9" + spaces[:900_000] + "x\n",
        "yarn.lock": ("eslint@^9.0.0, " * 30_000) + "eslint@^9.0.0:\n  version" + spaces[:500_000] + '"9.9.1"\n',
        "package.json": package,
    })
    assert pins.get("eslint").version == "9.9.1"
    pnpm = ("lockfileVersion: '9.0'\nimporters:\n  .:\n    devDependencies:\n      eslint:\n"
            "        specifier: ^9.0.0\n        version: 9.9.1\npackages:\n"
            + "  x@1.0.0: {resolution: {integrity: sha512-x}}\n" * 20_000)
    assert pins_of({"package.json": package, "pnpm-lock.yaml": pnpm}).get("eslint").version == "9.9.1"


@pytest.mark.parametrize(("name", "text"), [
    (".eslintrc.json", '{"extends": "./node_modules/gts/"}'),
    ("eslint.config.mjs", 'import neo from "gts";\nexport default neo()\n'),
    ("package.json", None),  # package.json's own eslintConfig
])
def test_a_package_the_eslint_configuration_names_is_installed_beside_it_whatever_its_name(name, text):
    package = {"devDependencies": {"eslint": "8.57.1", "gts": "5.3.1", "gtsx": "1.0.0", "mocha": "10.0.0"}}
    files = {"package.json": json.dumps({**package, "eslintConfig": {"extends": "./node_modules/gts"}})} \
        if text is None else {"package.json": json.dumps(package), name: text}
    assert pins_of(files).get("eslint").plugins == ("gts@5.3.1",)


# ---- the CI's own lint steps: the version they install judges the team's merges ----

LINT_WORKFLOW = """\
jobs:
  lint:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: |
          python -m pip install --upgrade pip
          pip install {install}
      - run: black --check --line-length 120 rq tests
"""
BLACK_HOOK = "repos:\n  - repo: https://github.com/psf/black\n    rev: 23.3.0\n    hooks:\n      - id: black\n"


def test_a_tool_the_ci_runs_itself_is_the_version_the_ci_installs_not_the_pre_commit_rev():
    pins = pins_of({".github/workflows/lint.yml": LINT_WORKFLOW.format(install="black==24.2.0 ruff"),
                    ".pre-commit-config.yaml": BLACK_HOOK})
    black = pins.get("black")
    assert (black.version, black.specifier) == ("24.2.0", "")
    assert black.source == "black==24.2.0 in the CI's `pip install` in .github/workflows/lint.yml"


def test_an_unpinned_ci_install_is_the_newest_release_not_the_pre_commit_rev():
    black = pins_of({".github/workflows/lint.yml": LINT_WORKFLOW.format(install="black ruff"),
                     ".pre-commit-config.yaml": BLACK_HOOK}).get("black")
    assert (black.version, black.specifier) == (None, "")
    assert "CI's `pip install`" in black.source and "newest release" in black.source


def test_a_ci_requirements_file_pins_the_tool_the_ci_runs():
    pins = pins_of({".github/workflows/lint.yml": LINT_WORKFLOW.format(install="-r ci/lint.txt"),
                    "ci/lint.txt": "black==24.1.1  # the CI's own\nflake8-bugbear\n",
                    ".pre-commit-config.yaml": BLACK_HOOK})
    assert (pins.get("black").version, pins.get("black").source) == ("24.1.1", "black==24.1.1 in ci/lint.txt")


def test_a_tool_the_ci_runs_is_pinned_by_the_project_environment_before_pre_commit():
    pins = pins_of({".github/workflows/lint.yml": LINT_WORKFLOW.format(install="-e .[dev]"),
                    "requirements-dev.txt": "black==24.3.0\n", ".pre-commit-config.yaml": BLACK_HOOK})
    assert pins.get("black").version == "24.3.0"


def test_a_ci_that_runs_pre_commit_leaves_the_hook_rev_in_force():
    workflow = LINT_WORKFLOW.format(install="pre-commit black").replace(
        "black --check --line-length 120 rq tests", "pre-commit run --all-files")
    pins = pins_of({".github/workflows/lint.yml": workflow, "requirements-dev.txt": "black==24.3.0\n",
                    ".pre-commit-config.yaml": BLACK_HOOK})
    assert (pins.get("black").version, pins.get("black").source) == ("23.3.0", "the black hook's rev in "
                                                                                ".pre-commit-config.yaml")


def test_ci_install_commands_of_every_installer_are_read_and_other_commands_are_not():
    def black(install_line: str) -> str | None:
        workflow = LINT_WORKFLOW.replace("pip install {install}", install_line)
        pin = pins_of({".github/workflows/lint.yml": workflow}).get("black")
        return pin.version if pin else None

    assert black("uv pip install --system black==24.4.0") == "24.4.0"
    assert black("python3 -m pip install -U 'black==24.4.1'") == "24.4.1"
    assert black("pipx install black==24.4.2") == "24.4.2"
    assert black("pip install -c constraints.txt black==24.4.2") == "24.4.2"  # a constraint file is no requirement
    assert black("echo pip install black==1.0") is None  # not an install
    assert black("pip install git+https://github.com/psf/black") is None  # not from the registry
