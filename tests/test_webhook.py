"""The webhook Lambda with real payloads, moto SQS and DynamoDB, configured only through the environment."""

from __future__ import annotations

import base64
import json
from concurrent.futures import ThreadPoolExecutor

import pytest
from moto import mock_aws

from core.settings import get_settings
from handlers import webhook
from tests.conftest import forget_services
from tests.fakes import payloads as P
from tests.fakes.aws import LambdaContext


class Stack:
    def __init__(self, sqs, queue_url: str):
        self.sqs, self.queue_url = sqs, queue_url

    def queued(self) -> list[dict]:
        out = []
        while True:
            batch = self.sqs.receive_message(QueueUrl=self.queue_url, MaxNumberOfMessages=10).get("Messages", [])
            if not batch:
                return out
            out += [json.loads(m["Body"]) for m in batch]
            for m in batch:
                self.sqs.delete_message(QueueUrl=self.queue_url, ReceiptHandle=m["ReceiptHandle"])


def _reload(monkeypatch, **env):
    for name, value in env.items():
        if value is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, value)
    get_settings.cache_clear()
    forget_services(webhook)


@pytest.fixture(scope="module")
def aws_stack():
    """One moto account for the module; each test drains the queue it uses."""
    with pytest.MonkeyPatch.context() as mp, mock_aws():
        for name in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN"):
            mp.setenv(name, "testing")
        mp.setenv("AWS_DEFAULT_REGION", "us-east-1")
        import boto3

        from core import aws

        aws.client.cache_clear()
        sqs = boto3.client("sqs")
        url = sqs.create_queue(QueueName="memfix-jobs")["QueueUrl"]
        boto3.client("dynamodb").create_table(
            TableName="memfix-deliveries",
            KeySchema=[{"AttributeName": "delivery_id", "KeyType": "HASH"}],
            AttributeDefinitions=[{"AttributeName": "delivery_id", "AttributeType": "S"}],
            BillingMode="PAY_PER_REQUEST",
        )
        yield Stack(sqs, url)
        aws.client.cache_clear()


@pytest.fixture
def stack(aws_stack, monkeypatch):
    aws_stack.queued()
    _reload(monkeypatch, GITHUB_WEBHOOK_SECRET=P.SECRET, MEMFIX_QUEUE_URL=aws_stack.queue_url,
            MEMFIX_DELIVERIES_TABLE="memfix-deliveries", MEMFIX_MAX_BODY_BYTES=None)
    yield aws_stack
    get_settings.cache_clear()
    forget_services(webhook)


def rest_event(headers: dict, body: bytes) -> dict:
    """API Gateway REST API (payload format 1.0) proxy event."""
    return {"resource": "/webhook", "path": "/webhook", "httpMethod": "POST", "headers": headers,
            "body": body.decode(), "isBase64Encoded": False, "requestContext": {"stage": "prod"}}


def http_event(headers: dict, body: bytes) -> dict:
    """API Gateway HTTP API (payload format 2.0) event, base64 body, lower-case headers."""
    return {"version": "2.0", "routeKey": "POST /webhook", "rawPath": "/webhook",
            "headers": {k.lower(): v for k, v in headers.items()},
            "body": base64.b64encode(body).decode(), "isBase64Encoded": True,
            "requestContext": {"http": {"method": "POST", "path": "/webhook"}}}


def call(event: dict) -> tuple[int, dict]:
    response = webhook.handler(event, LambdaContext())
    return response["statusCode"], json.loads(response["body"])


EXAMPLES = P.all_examples()


@pytest.mark.parametrize("name, index, payload", EXAMPLES, ids=[f"{n}-{i}" for n, i, _ in EXAMPLES])
def test_every_octokit_example(stack, name, index, payload):
    body = P.encode(payload)
    status, answer = call(rest_event(P.headers(name, body), body))
    assert 200 <= status < 300, answer
    assert call(rest_event(P.headers(name, body, secret="wrong-secret"), body))[0] == 401
    assert call(rest_event(P.headers(name, body, secret=None), body))[0] == 401
    assert call(http_event(P.headers(name, body), body))[0] // 100 == 2


def test_the_examples_cover_all_58_event_types():
    assert len({name for name, _, _ in EXAMPLES}) == 58


def test_redelivery_is_acknowledged_but_enqueued_once(stack):
    body = P.encode(P.issue_comment("/autofix", installation=7, repo="o/r", comment_id=701))
    answers = [call(rest_event(P.headers("issue_comment", body, delivery="same-guid"), body)) for _ in range(3)]
    assert [a[1]["status"] for a in answers] == ["queued", "duplicate", "duplicate"]
    assert [m["kind"] for m in stack.queued()] == ["command"]


def test_a_flood_of_200_deliveries_loses_none(stack):
    """Concurrent deliveries through the intake (Lambda runs one event per container at a time, so the
    Powertools metrics wrapper, which is not thread-safe, stays out of the threads)."""
    webhook.services()  # built once, before the threads

    def deliver(i: int) -> int:
        body = P.encode(P.issue_comment(f"/recall item {i}", installation=7, repo="o/r", comment_id=5000 + i))
        headers, raw = webhook._request(rest_event(P.headers("issue_comment", body), body))
        return webhook.services().intake.receive(headers, raw).status

    with ThreadPoolExecutor(max_workers=8) as pool:
        statuses = list(pool.map(deliver, range(200)))
    assert statuses == [202] * 200
    queued = stack.queued()
    assert sorted(m["comment_id"] for m in queued) == list(range(5000, 5200))


def test_no_secret_fails_closed(stack, monkeypatch):
    _reload(monkeypatch, GITHUB_WEBHOOK_SECRET=None)
    body = P.encode(P.issue_comment("/autofix", installation=7, repo="o/r", comment_id=702))
    status, answer = call(rest_event(P.headers("issue_comment", body), body))
    assert status == 503 and "secret" in answer["error"]
    assert stack.queued() == []


def test_bad_bodies_get_clear_json_errors(stack, monkeypatch):
    junk = b"this is not json"
    assert call(rest_event(P.headers("push", junk), junk)) == (400, {"error": "body is not JSON"})
    body = P.encode(P.example("ping"))
    no_event = {k: v for k, v in P.headers("ping", body).items() if k != "X-GitHub-Event"}
    assert call(rest_event(no_event, body))[0] == 400
    _reload(monkeypatch, MEMFIX_MAX_BODY_BYTES="1000")
    big = P.encode(P.issue_comment("/autofix " + "x" * 2000, installation=7, repo="o/r", comment_id=703))
    status, answer = call(rest_event(P.headers("issue_comment", big), big))
    assert status == 413 and "1000" in answer["error"]
    assert stack.queued() == []


def test_signature_over_other_bytes_is_rejected(stack):
    body = P.encode(P.issue_comment("/autofix", installation=7, repo="o/r", comment_id=704))
    headers = P.headers("issue_comment", body)
    tampered = body.replace(b"/autofix", b"/forget 1")
    assert call(rest_event(headers, tampered))[0] == 401


def test_queue_outage_answers_503_and_a_redelivery_succeeds(stack, monkeypatch):
    good_url = stack.queue_url
    _reload(monkeypatch, MEMFIX_QUEUE_URL=good_url + "-missing")
    body = P.encode(P.issue_comment("/autofix", installation=7, repo="o/r", comment_id=705))
    assert call(rest_event(P.headers("issue_comment", body, delivery="g1"), body))[0] == 503
    _reload(monkeypatch, MEMFIX_QUEUE_URL=good_url)
    assert call(rest_event(P.headers("issue_comment", body, delivery="g1"), body))[1]["status"] == "queued"
    assert len(stack.queued()) == 1


def test_webhook_path_never_imports_heavy_sdks():
    """Import the handler and serve a routed delivery in a fresh process; then look at sys.modules."""
    import subprocess
    import sys

    script = """
import json, os, sys
os.environ.update(AWS_ACCESS_KEY_ID="t", AWS_SECRET_ACCESS_KEY="t", AWS_DEFAULT_REGION="us-east-1",
                  GITHUB_WEBHOOK_SECRET="test-webhook-secret")
from moto import mock_aws
with mock_aws():
    import boto3
    os.environ["MEMFIX_QUEUE_URL"] = boto3.client("sqs").create_queue(QueueName="q")["QueueUrl"]
    from handlers import webhook
    from tests.fakes import payloads as P
    from tests.fakes.aws import LambdaContext
    body = P.encode(P.issue_comment("/autofix", installation=7, repo="o/r", comment_id=706))
    r = webhook.handler({"headers": P.headers("issue_comment", body), "body": body.decode()}, LambdaContext())
    assert r["statusCode"] == 202, r
heavy = ("anthropic", "openai", "githubkit", "psycopg", "pgvector", "flask")
print("loaded:" + ",".join(m for m in heavy if m in sys.modules))
"""
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert '"DeliveriesQueued":[1.0]' in out.stdout  # the EMF metric line
    assert out.stdout.strip().splitlines()[-1] == "loaded:"
