"""The one module that imports boto3; clients are created lazily and reused per process."""

from __future__ import annotations

from functools import cache
from typing import Any


@cache
def client(service: str) -> Any:
    import boto3  # noqa: PLC0415 — only paid when an AWS resource is configured

    return boto3.client(service)


@cache
def _invoker(seconds: int) -> Any:
    import boto3  # noqa: PLC0415
    from botocore.config import Config  # noqa: PLC0415

    # a synchronous invoke waits as long as the function may run, and is never retried by the SDK: a tool run is
    # not to be made twice behind the caller's back
    return boto3.client("lambda", config=Config(read_timeout=seconds, connect_timeout=10, retries={"max_attempts": 1}))


def invoke(function: str, payload: bytes, seconds: float) -> bytes:
    """The function's answer to `payload` (a synchronous Invoke); RuntimeError with its words where it failed."""
    answer = _invoker(int(seconds) + 30).invoke(FunctionName=function, Payload=payload)
    body = answer["Payload"].read()
    if answer.get("FunctionError"):
        raise RuntimeError(f"{function} failed ({answer['FunctionError']}): {body[:300]!r}")
    return bytes(body)
