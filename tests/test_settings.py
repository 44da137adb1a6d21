"""Settings are declared once, on their fields; the docs' configuration table (docs/operators/configuration.md) is held
to those declarations."""

import re
import shutil
import tempfile
from dataclasses import fields
from pathlib import Path

import pytest

from core.settings import Settings, SettingsError, user_data

CONFIGURATION = Path(__file__).resolve().parents[1] / "docs" / "operators" / "configuration.md"
NOT_SETTINGS = {"MEMFIX_ENV_FILE"}  # get_settings reads it to find the .env file, before there are settings
VALUE = re.compile(r"-?\d[\d.]*|`[^`]*`")  # a default as the table writes one; anything else is prose (none)


def declared() -> dict[str, object]:
    return {f.metadata["env"]: f.default for f in fields(Settings)}


def shown(default: object) -> str | None:
    """A declared default as the table writes it; None when there is no value to write (unset, empty)."""
    if default is None or default == () or default == user_data():  # the machine's own folder: said in words
        return None
    if isinstance(default, bool):
        return "1" if default else "0"
    return str(default)


def same(written: str, default: str) -> bool:
    written = written.strip("`")
    try:
        return float(written) == float(default)
    except ValueError:
        return written == default


def table_problems(section: str, settings: dict[str, object]) -> list[str]:
    """A row lists variables in backticks; its default cell gives, comma-separated and in the row's order, the
    defaults of those that have one (a number or a `literal`); prose such as `unset → …`, `—` or `empty` stands for
    no value."""
    problems, seen = [], []
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 3 or not cells[0].startswith("`"):
            continue
        names = re.findall(r"`([A-Z0-9_]+)`", cells[0])
        seen += names
        if set(names) <= NOT_SETTINGS:
            continue
        written = [item for item in cells[1].split(", ") if VALUE.fullmatch(item)]
        defaults = [(n, shown(settings[n])) for n in names if n in settings and shown(settings[n]) is not None]
        if len(written) != len(defaults):
            problems.append(f"{', '.join(names)}: documented defaults {written}, declared {defaults}")
            continue
        problems += [f"{name}: documented default {w}, declared {d}"
                     for w, (name, d) in zip(written, defaults, strict=True) if not same(w, d)]
    problems += [f"{name}: not in the table" for name in settings if name not in seen]
    problems += [f"{name}: in the table, but no setting reads it"
                 for name in seen if name not in settings and name not in NOT_SETTINGS]
    problems += [f"{name}: in the table twice" for name in sorted({n for n in seen if seen.count(n) > 1})]
    return problems


def test_the_docs_table_lists_every_setting_with_its_declared_default():
    section = CONFIGURATION.read_text(encoding="utf-8")  # the page is the section

    assert table_problems(section, declared()) == []


@pytest.mark.parametrize(("row", "problem"), [
    ("| `MEMFIX_A` | 3 | a |", "MEMFIX_B: not in the table"),
    ("| `MEMFIX_A`, `MEMFIX_B` | 4, `x` | a |", "MEMFIX_A: documented default 4, declared 3"),
    ("| `MEMFIX_A`, `MEMFIX_B` | 3 | a |", "MEMFIX_A, MEMFIX_B: documented defaults ['3'], declared"),
    ("| `MEMFIX_A`, `MEMFIX_B`, `MEMFIX_GONE` | 3, `x` | a |", "MEMFIX_GONE: in the table, but no setting reads it"),
    ("| `MEMFIX_A`, `MEMFIX_B`, `MEMFIX_C` | 3, `x`, `y` | a |", "MEMFIX_A, MEMFIX_B, MEMFIX_C: documented defaults"),
])
def test_the_table_check_sees_a_missing_variable_a_wrong_default_and_a_variable_that_does_not_exist(row, problem):
    settings = {"MEMFIX_A": 3, "MEMFIX_B": "x", "MEMFIX_C": None}

    assert table_problems("| `MEMFIX_A`, `MEMFIX_B` | 3, `x` | a |\n| `MEMFIX_C` | — | c |", settings) == []
    assert any(p.startswith(problem) for p in table_problems(row + "\n| `MEMFIX_C` | — | c |", settings))


@pytest.mark.parametrize(("env", "field", "value"), [
    ({"MEMFIX_DB_APP_ROLE": ""}, "db_app_role", ""),  # set but empty: the login's own role
    ({"MEMFIX_DATA_DIR": ""}, "data_dir", user_data()),
    ({"GITHUB_API_URL": "https://ghe.example/api/v3/"}, "github_api_url", "https://ghe.example/api/v3"),
    ({"MEMFIX_PUBLIC_URL": " https://memfix.example/ "}, "public_url", "https://memfix.example"),
    ({"GITHUB_WEB_URL": "/"}, "github_web_url_setting", None),
    ({"MEMFIX_REMOTE_SETUP": "TRUE"}, "remote_setup", True),
    ({"MEMFIX_ALLOWED_PROVIDERS": "OpenAI, local,OpenAI"}, "allowed_providers", ("openai", "local")),
    ({"MEMFIX_ALLOWED_MODELS": "a, b,a"}, "allowed_models", ("a", "b")),
    ({"MEMFIX_EMBEDDINGS": " Local "}, "embeddings", "local"),
    ({"MEMFIX_SEARCH_CANDIDATES": " "}, "search_candidates", 50),
    ({"OPENAI_API_KEY": "  "}, "openai_api_key", None),
])
def test_each_variable_is_read_by_its_fields_rule(env, field, value):
    assert getattr(Settings.from_env(env), field) == value


@pytest.mark.parametrize(("env", "message"), [
    ({"MEMFIX_REMOTE_SETUP": "yes"}, "MEMFIX_REMOTE_SETUP must be one of 0, 1, false, true, got 'yes'"),
    ({"MEMFIX_ALLOWED_PROVIDERS": "openai,gemini"}, "MEMFIX_ALLOWED_PROVIDERS may list only offline, openai, "
                                                    "anthropic, local, got gemini"),
    ({"MEMFIX_SEARCH_TEXT_WEIGHT": "much"}, "MEMFIX_SEARCH_TEXT_WEIGHT must be a number, got 'much'"),
])
def test_a_bad_value_is_named_with_its_variable(env, message):
    with pytest.raises(SettingsError, match=re.escape(message)):
        Settings.from_env(env)


def test_secrets_stay_out_of_repr_and_describe():
    settings = Settings.from_env({"GITHUB_WEBHOOK_SECRET": "hush", "DATABASE_URL": "postgresql://u:pw@h/d"})

    assert "hush" not in repr(settings) and "pw@" not in repr(settings)
    assert settings.describe()["github_webhook_secret"] == "set" and settings.describe()["openai_api_key"] == "unset"


def test_one_memory_per_user_whatever_folder_a_command_runs_in(tmp_path, monkeypatch):
    """The data folder is the user's, not the working directory's: a CLI run from a project's folder and the
    `memfix serve` started from the checkout read and write the same memory."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    seen = set()
    for folder in ("project", "checkout"):
        (tmp_path / folder).mkdir()
        monkeypatch.chdir(tmp_path / folder)
        seen.add(Settings.from_env({"HOME": str(tmp_path / "home")}).data_dir)
    assert seen == {tmp_path / "home" / ".local" / "share" / "memfix"}
    assert Settings.from_env({"MEMFIX_DATA_DIR": str(tmp_path / "mine")}).data_dir == tmp_path / "mine"  # still wins


@pytest.fixture
def open_folder():
    """A folder every user can enter (pytest's own folders are closed to others)."""
    top = Path(tempfile.mkdtemp(prefix="memfix-settings-"))
    top.chmod(0o755)
    yield top
    shutil.rmtree(top, ignore_errors=True)


def test_the_tool_cache_is_one_the_sandboxs_user_can_enter(open_folder, monkeypatch):
    """As root, whose data folder (`/root/…`) no other user can enter, the tools go to the machine's cache folder:
    the sandbox runs them as another user. A folder others can enter, or MEMFIX_TOOL_CACHE, is kept as given."""
    closed, open_ = open_folder / "closed" / "memfix", open_folder / "open" / "memfix"
    for folder, mode in ((closed, 0o700), (open_, 0o755)):
        folder.mkdir(parents=True)
        folder.parent.chmod(mode)
    monkeypatch.setattr("os.geteuid", lambda: 0)
    assert Settings.from_env({"MEMFIX_DATA_DIR": str(closed)}).tool_cache == Path("/var/cache/memfix/tools")
    assert Settings.from_env({"MEMFIX_DATA_DIR": str(open_)}).tool_cache == open_ / "tools"
    assert Settings.from_env({"MEMFIX_DATA_DIR": str(closed), "MEMFIX_TOOL_CACHE": str(closed / "t")}).tool_cache \
        == closed / "t"
    monkeypatch.setattr("os.geteuid", lambda: 1000)  # a user's own tools run as that user
    assert Settings.from_env({"MEMFIX_DATA_DIR": str(closed)}).tool_cache == closed / "tools"
