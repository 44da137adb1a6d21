"""Secrets on AWS: Secrets Manager values resolved into Settings, once per container.

The stack gives each function only where its secrets live (`*_SECRET_ARN`, and for the database
`DATABASE_SECRET_ARN` with `DATABASE_HOST` = the RDS Proxy endpoint and `DATABASE_NAME`); `resolve`
fetches the values through Powertools Parameters (cached for `MAX_AGE_SECONDS`) and returns Settings
with the secret fields filled in. A field whose ARN is unset keeps its value, so local mode and tests
that set `GITHUB_WEBHOOK_SECRET` and friends directly never touch AWS.

Powertools' parameters module imports boto3, so it is imported here only when an ARN is set: the
webhook pays for it on its first request, not when it is imported.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Mapping
from typing import Any
from urllib.parse import quote

from core.errors import MemfixError
from core.settings import Settings

MAX_AGE_SECONDS = 300  # Powertools' cache; a container resolves Settings once, see infra/README.md on rotation
_PARAMETERS = "aws_lambda_powertools.utilities.parameters"

# (settings field that receives the value, settings field holding the secret's ARN, the ARN's variable)
PLAIN_SECRETS = (
    ("github_app_private_key", "github_app_private_key_secret_arn", "GITHUB_APP_PRIVATE_KEY_SECRET_ARN"),
    ("github_webhook_secret", "github_webhook_secret_arn", "GITHUB_WEBHOOK_SECRET_ARN"),
    ("openai_api_key", "openai_api_key_secret_arn", "OPENAI_API_KEY_SECRET_ARN"),
    ("anthropic_api_key", "anthropic_api_key_secret_arn", "ANTHROPIC_API_KEY_SECRET_ARN"),
    ("github_client_secret", "github_client_secret_arn", "GITHUB_CLIENT_SECRET_ARN"),
    ("session_secret", "session_secret_arn", "MEMFIX_SESSION_SECRET_ARN"),
)

Fetch = Callable[[str], str]


class SecretsError(MemfixError):
    """A secret could not be read or has no usable value; the message names it, never its value."""


def resolve(settings: Settings, fetch: Fetch | None = None) -> Settings:
    """Settings with every secret whose ARN is set fetched from Secrets Manager."""
    fetch = fetch or fetch_secret
    changes: dict[str, str] = {}
    for target, arn_field, variable in PLAIN_SECRETS:
        arn = getattr(settings, arn_field)
        if arn:
            changes[target] = _value(fetch, arn, variable)
    if settings.database_secret_arn:
        raw = _value(fetch, settings.database_secret_arn, "DATABASE_SECRET_ARN")
        try:
            credentials = json.loads(raw)
        except ValueError:
            raise SecretsError("DATABASE_SECRET_ARN must name a JSON secret with username and password") from None
        changes["database_url"] = database_url(credentials, settings.database_host, settings.database_name)
    return settings.with_(**changes) if changes else settings


def database_url(credentials: Mapping[str, Any], host: str | None = None, name: str | None = None) -> str:
    """A libpq URL from an RDS secret (username, password; host, port and dbname when attached).
    `host` (the proxy endpoint) and `name` win over the secret's own; TLS is required."""
    if not isinstance(credentials, Mapping):
        raise SecretsError("the database secret must be a JSON object with username and password")
    user, password = credentials.get("username"), credentials.get("password")
    if not user or not password:
        raise SecretsError("the database secret has no username or password")
    host = host or credentials.get("host")
    if not host:
        raise SecretsError("DATABASE_HOST is not set and the database secret names no host")
    port = int(credentials.get("port") or 5432)
    dbname = name or credentials.get("dbname") or "postgres"
    host = quote(host, safe="") if host.startswith("/") else host  # a Unix socket directory (libpq ignores TLS there)
    return (f"postgresql://{quote(str(user), safe='')}:{quote(str(password), safe='')}@{host}:{port}/"
            f"{quote(str(dbname), safe='')}?sslmode=require")


def fetch_secret(arn: str) -> str:
    """One secret's current value through Powertools Parameters (cached in the container)."""
    from aws_lambda_powertools.utilities import parameters  # noqa: PLC0415 — imports boto3

    try:
        value: object = parameters.get_secret(arn, max_age=MAX_AGE_SECONDS)
    except parameters.GetParameterError as exc:
        empty = "AWSCURRENT" in str(exc)  # the secret exists but no value was ever put
        hint = " (it has no value yet: put one with `aws secretsmanager put-secret-value`)" if empty else ""
        raise SecretsError(f"secret {arn} could not be read{hint}: {exc.__cause__ or exc}") from exc
    return value.decode() if isinstance(value, bytes) else str(value)


def clear_cache() -> None:
    """Forget cached values (tests; a rotation handled inside a running container)."""
    module = sys.modules.get(_PARAMETERS)
    if module is not None:
        module.clear_caches()


def _value(fetch: Fetch, arn: str, variable: str) -> str:
    value = fetch(arn).strip()
    if not value:
        raise SecretsError(f"the secret named by {variable} ({arn}) is empty")
    return value
