"""The one module that imports boto3; clients are created lazily and reused per process."""

from __future__ import annotations

from functools import cache
from typing import Any


@cache
def client(service: str) -> Any:
    import boto3  # noqa: PLC0415 — only paid when an AWS resource is configured

    return boto3.client(service)
