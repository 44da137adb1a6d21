"""The worker Lambda: SQS batches from moto, partial failures, idempotency, against fake GitHub and real Postgres."""

from __future__ import annotations

import json

import pytest
from moto import mock_aws

from core.settings import get_settings
from core.wire import CommandJob
from handlers import worker
from tests.conftest import forget_services
from tests.fakes.aws import LambdaContext


@pytest.fixture
def worker_env(monkeypatch, aws_env, pg_url, fake_github):
    env = {
        "DATABASE_URL": pg_url, "GITHUB_APP_ID": str(fake_github.app_id),
        "GITHUB_APP_PRIVATE_KEY": fake_github.private_key_pem, "GITHUB_API_URL": fake_github.url,
        "MEMFIX_GITHUB_MAX_RETRIES": "1", "MEMFIX_GITHUB_RETRY_BASE_SECONDS": "0.01",
    }
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    get_settings.cache_clear()
    forget_services(worker)
    with mock_aws():
        yield fake_github
    get_settings.cache_clear()
    forget_services(worker)


def sqs_batch(bodies: list[str], receive_count: int = 1) -> dict:
    """Messages sent to and received from (moto) SQS, shaped as Lambda's SQS event."""
    import boto3

    sqs = boto3.client("sqs")
    url = sqs.create_queue(QueueName="jobs")["QueueUrl"]
    for body in bodies:
        sqs.send_message(QueueUrl=url, MessageBody=body)
    messages = []
    while len(messages) < len(bodies):
        messages += sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10, AttributeNames=["All"])["Messages"]
    by_body = {m["Body"]: m for m in messages}
    records = []
    for body in bodies:  # keep the order we sent
        m = by_body[body]
        attributes = {**m["Attributes"], "ApproximateReceiveCount": str(receive_count)}
        records.append({"messageId": m["MessageId"], "receiptHandle": m["ReceiptHandle"], "body": body,
                        "attributes": attributes, "messageAttributes": {}, "md5OfBody": m["MD5OfBody"],
                        "eventSource": "aws:sqs", "eventSourceARN": "arn:aws:sqs:us-east-1:123456789012:jobs",
                        "awsRegion": "us-east-1"})
    return {"Records": records}


def command(tenant: int, repo: str, comment_id: int, text: str = "/recall retries") -> str:
    name, _, args = text[1:].partition(" ")
    return CommandJob(tenant_id=tenant, delivery_id=f"d{comment_id}", repo=repo, command=name, args=args,
                      issue_number=1, is_pull_request=True, comment_id=comment_id, author="alice").to_json()


def bot_comments(gh, repo: str, number: int = 1) -> list[dict]:
    return [c for c in gh.comments(repo, number) if c["user"]["login"] == "memfix[bot]"]


def arrange(gh, repo: str, comments: int = 1) -> list[int]:
    """A repository with issue #1 carrying `comments` human comments; returns their ids."""
    gh.add_repo(repo)
    gh.open_issue(repo, "Something is off")
    return [gh.add_comment(repo, 1, "/recall retries", user="alice")["id"] for _ in range(comments)]


def test_one_failing_record_in_ten_is_the_only_failure(worker_env, tenant_id):
    gh = worker_env
    good = arrange(gh, "acme/good", 9)
    [broken] = arrange(gh, "acme/broken")
    gh.fail_next("POST", r"/repos/acme/broken/.*", 502, times=100)
    bodies = [command(tenant_id, "acme/good", cid) for cid in good]
    bodies.insert(4, command(tenant_id, "acme/broken", broken))
    event = sqs_batch(bodies)

    result = worker.handler(event, LambdaContext())

    assert result["batchItemFailures"] == [{"itemIdentifier": event["Records"][4]["messageId"]}]
    replies = bot_comments(gh, "acme/good")
    assert len(replies) == 9 and all("Nothing in memory matches" in c["body"] for c in replies)
    assert all([r["content"] for r in gh.reactions("acme/good", cid)] == ["eyes"] for cid in good)


def test_a_redelivered_batch_does_not_act_twice(worker_env, tenant_id):
    gh = worker_env
    bodies = [command(tenant_id, "acme/once", cid) for cid in arrange(gh, "acme/once", 3)]
    assert worker.handler(sqs_batch(bodies), LambdaContext())["batchItemFailures"] == []
    assert worker.handler(sqs_batch(bodies, receive_count=2), LambdaContext())["batchItemFailures"] == []
    assert len(bot_comments(gh, "acme/once")) == 3


def test_a_malformed_message_is_skipped_and_the_rest_run(worker_env, tenant_id, caplog):
    gh = worker_env
    [cid] = arrange(gh, "acme/mixed")
    bodies = ["{not json", json.dumps({"kind": "teleport"}), command(tenant_id, "acme/mixed", cid)]
    assert worker.handler(sqs_batch(bodies), LambdaContext())["batchItemFailures"] == []
    assert len(bot_comments(gh, "acme/mixed")) == 1
    assert caplog.text.count("skipping SQS message") == 2


def test_last_attempt_is_reported_on_github_before_dead_lettering(worker_env, tenant_id):
    gh = worker_env
    [cid] = arrange(gh, "acme/flaky")
    body = command(tenant_id, "acme/flaky", cid)
    # Attempt 3 of 3: the acknowledgement fails twice (1 try + 1 retry), the failure report gets through.
    gh.fail_next("POST", r"/repos/acme/flaky/issues/1/comments", 502, times=2)
    event = sqs_batch([body], receive_count=3)
    result = worker.handler(event, LambdaContext())
    assert result["batchItemFailures"] == [{"itemIdentifier": event["Records"][0]["messageId"]}]
    [report] = bot_comments(gh, "acme/flaky")
    assert "failed after 3 attempts" in report["body"] and "dead-lettered" in report["body"]


def test_a_failed_record_backs_off_instead_of_waiting_out_the_visibility_timeout(worker_env, tenant_id,
                                                                                 monkeypatch):
    import boto3

    from core import aws

    gh = worker_env
    [cid] = arrange(gh, "acme/backoff")
    gh.fail_next("POST", r"/repos/acme/backoff/.*", 502, times=100)
    event = sqs_batch([command(tenant_id, "acme/backoff", cid)], receive_count=2)
    monkeypatch.setenv("MEMFIX_QUEUE_URL", boto3.client("sqs").get_queue_url(QueueName="jobs")["QueueUrl"])
    monkeypatch.setenv("MEMFIX_JOB_RETRY_BASE_SECONDS", "5")
    get_settings.cache_clear()
    forget_services(worker)
    calls = []
    aws.client("sqs").meta.events.register("provide-client-params.sqs.ChangeMessageVisibility",
                                           lambda params, **_: calls.append(params))
    assert len(worker.handler(event, LambdaContext())["batchItemFailures"]) == 1
    [params] = calls
    assert params["VisibilityTimeout"] == 20  # 5 s × 2² on the second attempt
