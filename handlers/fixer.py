"""Fixer Lambda: one run of a team's tool on the copy the worker hands it, in a function of its own with no
permissions, no VPC configuration and no secrets (core/tools/remote.py `serve`)."""

from __future__ import annotations

from typing import Any

from core.tools.remote import serve


def handler(event: dict[str, Any], context: object) -> dict[str, Any]:
    return serve(event)
