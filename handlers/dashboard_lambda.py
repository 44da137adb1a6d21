"""Dashboard Lambda: the same pages as `memfix serve` behind the stack's HTTP API (every route but POST /webhook,
which stays with the light webhook function). apig-wsgi turns API Gateway's events into WSGI requests."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from apig_wsgi import make_lambda_handler
from flask import Flask

from core.secrets import resolve
from core.settings import get_settings
from core.wiring import Services
from handlers.dashboard import install


@lru_cache(maxsize=1)
def app() -> Flask:
    flask = Flask("memfix-dashboard")
    install(flask, Services(resolve(get_settings())))  # secrets from Secrets Manager, once per container
    return flask


def handler(event: dict[str, Any], context: object) -> dict[str, Any]:
    return make_lambda_handler(app(), binary_support=True)(event, context)
