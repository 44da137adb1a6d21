"""The Lambda handlers as AWS invokes them, with the sample events in infra/events/ and the secrets in
(moto's) Secrets Manager: nothing secret is in the environment, only ARNs, as in template.yaml."""

from __future__ import annotations

import base64
import json
import secrets
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from moto import mock_aws

from core import secrets as memfix_secrets
from core.db import migration_files
from core.settings import get_settings
from handlers import migrate, webhook, worker
from tests.conftest import forget_services
from tests.fakes import payloads as P
from tests.fakes.aws import LambdaContext

EVENTS = Path(__file__).resolve().parent.parent / "infra" / "events"
PLAIN_SECRETS = ("GITHUB_WEBHOOK_SECRET", "GITHUB_APP_PRIVATE_KEY", "OPENAI_API_KEY", "ANTHROPIC_API_KEY",
                 "DATABASE_URL")


def event(name: str) -> dict:
    return json.loads((EVENTS / name).read_text(encoding="utf-8"))


def _fresh() -> None:
    get_settings.cache_clear()
    for handler in (webhook, worker):
        forget_services(handler)
    memfix_secrets.clear_cache()


class Account:
    """One moto account: Secrets Manager, SQS and DynamoDB as the stack creates them."""

    def __init__(self, monkeypatch):
        import boto3

        self.env = monkeypatch
        self.sm, self.sqs, self.ddb = boto3.client("secretsmanager"), boto3.client("sqs"), boto3.client("dynamodb")
        for name in PLAIN_SECRETS:  # only ARNs reach the handlers
            monkeypatch.delenv(name, raising=False)

    def secret(self, name: str, value: str) -> str:
        return self.sm.create_secret(Name=f"memfix/{name}", SecretString=value)["ARN"]

    def setenv(self, **variables: str) -> None:
        for name, value in variables.items():
            self.env.setenv(name, value)
        _fresh()

    def queue(self, name: str) -> str:
        return self.sqs.create_queue(QueueName=name)["QueueUrl"]

    def messages(self, url: str) -> list[dict]:
        out = []
        while batch := self.sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10,
                                                MessageAttributeNames=["All"]).get("Messages", []):
            out += batch
            for m in batch:
                self.sqs.delete_message(QueueUrl=url, ReceiptHandle=m["ReceiptHandle"])
        return out


@pytest.fixture
def account(aws_env, monkeypatch):
    _fresh()
    with mock_aws():
        yield Account(monkeypatch)
    _fresh()


def database_secret(pg_url: str, dbname: str | None = None) -> str:
    """An RDS-style credentials secret for the test database (its Unix socket stands in for the proxy)."""
    from psycopg.conninfo import conninfo_to_dict

    info = conninfo_to_dict(pg_url)
    return json.dumps({"username": info.get("user") or "postgres", "password": info.get("password") or "trust-auth",
                       "engine": "postgres", "host": info["host"], "port": int(info.get("port") or 5432),
                       "dbname": dbname or info.get("dbname") or "postgres"})


# ---- webhook ----


@pytest.fixture
def webhook_stack(account):
    secret_value = secrets.token_hex(20)
    queue = account.queue("memfix-jobs")
    account.ddb.create_table(TableName="memfix-deliveries", BillingMode="PAY_PER_REQUEST",
                             KeySchema=[{"AttributeName": "delivery_id", "KeyType": "HASH"}],
                             AttributeDefinitions=[{"AttributeName": "delivery_id", "AttributeType": "S"}])
    arn = account.secret("github-webhook-secret", secret_value)
    account.setenv(GITHUB_WEBHOOK_SECRET_ARN=arn, MEMFIX_QUEUE_URL=queue, MEMFIX_DELIVERIES_TABLE="memfix-deliveries")
    account.webhook_secret, account.webhook_secret_arn, account.queue_url = secret_value, arn, queue
    return account


def signed(evt: dict, secret: str, *, delivery: str | None = None, base64_body: bool = False) -> dict:
    """The sample event with a valid X-Hub-Signature-256 (and optionally a fresh delivery id, a base64 body)."""
    body = evt["body"].encode()
    headers = dict(evt["headers"])
    lower = evt.get("version") == "2.0"
    name = "x-hub-signature-256" if lower else "X-Hub-Signature-256"
    headers[name] = P.sign(body, secret)
    if delivery:
        headers["x-github-delivery" if lower else "X-GitHub-Delivery"] = delivery
    out = {**evt, "headers": headers}
    if base64_body:
        out.update(body=base64.b64encode(body).decode(), isBase64Encoded=True)
    return out


def invoke_webhook(evt: dict) -> tuple[int, dict]:
    response = webhook.handler(evt, LambdaContext())
    return response["statusCode"], json.loads(response["body"])


def test_webhook_rest_event_is_verified_with_the_secret_from_secrets_manager(webhook_stack):
    stack = webhook_stack
    evt = event("webhook-rest.json")
    status, answer = invoke_webhook(signed(evt, stack.webhook_secret))
    assert status == 202 and (answer["status"], answer["kind"]) == ("queued", "command"), answer
    [message] = stack.messages(stack.queue_url)
    job = json.loads(message["Body"])
    assert (job["kind"], job["repo"], job["command"], job["tenant_id"]) == ("command", "acme/api", "recall", 42)
    assert invoke_webhook(signed(evt, "not-the-secret", delivery="other"))[0] == 401
    assert invoke_webhook(evt)[0] == 401  # the placeholder signature in the file


def test_webhook_reads_the_secret_once_per_container(webhook_stack):
    stack = webhook_stack
    evt = event("webhook-rest.json")
    assert invoke_webhook(signed(evt, stack.webhook_secret, delivery="first"))[0] == 202
    stack.sm.put_secret_value(SecretId=stack.webhook_secret_arn, SecretString="rotated-value")
    # the container keeps the value it resolved; a new container (SecretsRevision bump) reads the new one
    assert invoke_webhook(signed(evt, stack.webhook_secret, delivery="second"))[0] == 202
    _fresh()
    assert invoke_webhook(signed(evt, stack.webhook_secret, delivery="third"))[0] == 401
    assert invoke_webhook(signed(evt, "rotated-value", delivery="fourth"))[0] == 202


def test_webhook_http_api_v2_event_plain_and_base64(webhook_stack):
    stack = webhook_stack
    evt = event("webhook-http.json")
    status, answer = invoke_webhook(signed(evt, stack.webhook_secret))
    assert status == 202 and answer["status"] == "queued", answer
    # The same signed body base64-encoded under a new delivery id: decoded, routed to the same job key, and
    # so a replay, not a second job.
    status, answer = invoke_webhook(signed(evt, stack.webhook_secret, delivery="b64", base64_body=True))
    assert status == 202 and answer["status"] == "duplicate" and answer["job"].startswith("issue:"), answer
    assert invoke_webhook(signed(evt, stack.webhook_secret))[1]["status"] == "duplicate"
    jobs = [json.loads(m["Body"]) for m in stack.messages(stack.queue_url)]
    assert [(j["kind"], j["issue_number"]) for j in jobs] == [("issue", 7)]


def test_a_secret_that_cannot_be_read_is_an_error_naming_it_not_a_silent_401(account):
    missing = "arn:aws:secretsmanager:us-east-1:123456789012:secret:memfix/nope-AbCdEf"
    account.setenv(GITHUB_WEBHOOK_SECRET_ARN=missing)
    with pytest.raises(memfix_secrets.SecretsError, match="nope"):
        webhook.services()
    empty = account.sm.create_secret(Name="memfix/github-app-private-key")["ARN"]  # as the stack creates it
    account.setenv(GITHUB_WEBHOOK_SECRET_ARN=account.secret("w", "x"), GITHUB_APP_PRIVATE_KEY_SECRET_ARN=empty)
    with pytest.raises(memfix_secrets.SecretsError, match="put-secret-value"):
        worker.services()


def test_importing_the_webhook_loads_neither_boto3_nor_the_heavy_sdks():
    code = ("import sys, handlers.webhook\n"
            "heavy = ('boto3', 'openai', 'anthropic', 'githubkit', 'psycopg', 'pgvector')\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in heavy or m.startswith('botocore.')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                         cwd=Path(__file__).resolve().parent.parent)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"  # Powertools probes the bare `botocore` package; nothing more loads


# ---- worker ----


def test_worker_sqs_batch_with_secrets_from_secrets_manager(account, fake_github, pg_url, tenant_id):
    gh = fake_github
    gh.add_repo("acme/api")
    gh.open_issue("acme/api", "Retry the flaky upload")
    comment = gh.add_comment("acme/api", 1, "/recall retries", user="alice")["id"]
    account.setenv(
        GITHUB_APP_ID=str(gh.app_id), GITHUB_API_URL=gh.url, MEMFIX_GITHUB_MAX_RETRIES="1",
        MEMFIX_GITHUB_RETRY_BASE_SECONDS="0.01",
        GITHUB_APP_PRIVATE_KEY_SECRET_ARN=account.secret("github-app-private-key", gh.private_key_pem + "\n"),
        DATABASE_SECRET_ARN=account.secret("database", database_secret(pg_url)),
        DATABASE_HOST=json.loads(database_secret(pg_url))["host"],
    )
    evt = event("worker-sqs.json")
    job = json.loads(evt["Records"][0]["body"])
    job.update(tenant_id=tenant_id, delivery_id=f"d-{tenant_id}", comment_id=comment)
    evt["Records"][0]["body"] = json.dumps(job)

    result = worker.handler(evt, LambdaContext())

    assert result == {"batchItemFailures": []}  # the malformed second record is logged and skipped
    replies = [c for c in gh.comments("acme/api", 1) if c["user"]["login"] == "memfix[bot]"]
    assert len(replies) == 1 and "Nothing in memory matches" in replies[0]["body"]
    assert worker.services().settings.database_url.endswith("sslmode=require")


# ---- migrations (CloudFormation custom resource) ----


class CloudFormation:
    """Stands in for the pre-signed ResponseURL: records every PUT."""

    def __init__(self):
        self.responses: list[dict] = []
        self.answered = threading.Event()  # set as the first answer is recorded
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_PUT(self):  # noqa: N802 — http.server's naming
                body = self.rfile.read(int(self.headers["Content-Length"]))
                outer.responses.append({"path": self.path, "content_type": self.headers.get("Content-Type"),
                                        **json.loads(body)})
                outer.answered.set()
                self.send_response(200)
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_port}/cloudformation-response?X-Amz-Signature=abc"

    def request(self, request_type: str = "Create", **changes) -> dict:
        evt = event("migrate-create.json")
        evt.update(RequestType=request_type, ResponseURL=self.url, **changes)
        if request_type != "Create":
            evt["PhysicalResourceId"] = migrate.PHYSICAL_ID
        return evt


@pytest.fixture
def cloudformation():
    cfn = CloudFormation()
    yield cfn
    cfn.server.shutdown()


@pytest.fixture
def fresh_database(pg_url):
    """A database of its own, so the custom resource applies every migration for real."""
    import psycopg

    name = f"memfix_deploy_{int(time.time() * 1000) % 10**9}"
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    yield name
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


class TimedContext(LambdaContext):
    log_stream_name = "2025/05/06/[$LATEST]abcdef"

    def __init__(self, remaining_ms: int = 600_000):
        super().__init__()
        self._deadline = time.monotonic() + remaining_ms / 1000

    def get_remaining_time_in_millis(self) -> int:
        return int((self._deadline - time.monotonic()) * 1000)


def test_migrate_custom_resource_applies_migrations_and_answers_cloudformation(account, pg_url, fresh_database,
                                                                                cloudformation):
    account.setenv(DATABASE_SECRET_ARN=account.secret("database", database_secret(pg_url, "postgres")),
                   DATABASE_HOST=json.loads(database_secret(pg_url))["host"], DATABASE_NAME=fresh_database)
    create = cloudformation.request("Create")

    assert migrate.handler(create, TimedContext())["status"] == "SUCCESS"

    [answer] = cloudformation.responses
    assert answer["Status"] == "SUCCESS" and answer["content_type"] == ""
    assert (answer["RequestId"], answer["StackId"], answer["LogicalResourceId"]) == (
        create["RequestId"], create["StackId"], "Migrations")
    assert answer["PhysicalResourceId"] == migrate.PHYSICAL_ID
    every = [p.stem for p in migration_files()]
    assert every[:3] == ["001_core", "002_memory", "003_pipelines"]
    assert answer["Reason"].startswith(f"applied {len(every)} migration(s): {', '.join(every)}")
    assert answer["Data"]["Applied"].split(",")[0] == "001_core"

    # an Update (every deploy that changes the function) is idempotent
    migrate.handler(cloudformation.request("Update"), TimedContext())
    assert cloudformation.responses[-1]["Status"] == "SUCCESS"
    assert cloudformation.responses[-1]["Reason"].startswith("applied 0 migration(s)")
    # and so is running it by hand
    assert migrate.handler({}, TimedContext()) == {"applied": []}


def test_migrate_delete_is_a_no_op_that_still_answers(account, cloudformation):
    account.setenv(DATABASE_HOST="127.0.0.1")  # never contacted
    migrate.handler(cloudformation.request("Delete"), TimedContext())
    [answer] = cloudformation.responses
    assert answer["Status"] == "SUCCESS" and answer["PhysicalResourceId"] == migrate.PHYSICAL_ID


def test_migrate_failure_is_answered_with_the_reason(account, cloudformation):
    unreachable = json.dumps({"username": "memfix_admin", "password": "s3cr3t-Pa55word", "port": 9})
    account.setenv(DATABASE_SECRET_ARN=account.secret("database", unreachable), DATABASE_HOST="127.0.0.1",
                   DATABASE_NAME="memfix")
    result = migrate.handler(cloudformation.request("Create"), TimedContext(remaining_ms=30_000))
    assert result["status"] == "FAILED"
    [answer] = cloudformation.responses
    assert answer["Status"] == "FAILED"
    assert answer["Reason"].startswith("migration failed: OperationalError") and "log stream" in answer["Reason"]
    assert "s3cr3t-Pa55word" not in answer["Reason"]  # never the password


def test_migrate_answers_before_the_function_would_time_out(account, cloudformation, monkeypatch):
    def slow_migrations(deadline=None) -> list[str]:
        cloudformation.answered.wait(10)  # still running when the watchdog has answered
        return []

    monkeypatch.setattr(migrate, "apply_migrations", slow_migrations)
    monkeypatch.setattr(migrate, "_SAFETY_MS", 10_000)
    migrate.handler(cloudformation.request("Create"), TimedContext(remaining_ms=11_000))  # watchdog at ~1 s
    [answer] = cloudformation.responses  # the late SUCCESS is not sent
    assert answer["Status"] == "FAILED" and "ran out of time" in answer["Reason"]


# ---- dead-letter replay ----


def test_replay_dlq_moves_messages_back_and_deletes_only_after_sending(account, capsys):
    from handlers.cli import main

    queue, dlq = account.queue("memfix-jobs"), account.queue("memfix-dlq")
    for i in range(3):
        account.sqs.send_message(QueueUrl=dlq, MessageBody=json.dumps({"kind": "command", "n": i}),
                                 MessageAttributes={"kind": {"DataType": "String", "StringValue": "command"}})

    assert main(["replay-dlq", "--queue-url", queue, "--dlq-url", dlq, "--max", "2"]) == 0
    assert "moved 2 message(s)" in capsys.readouterr().out
    moved = account.messages(queue)
    assert len(moved) == 2 and all(m["MessageAttributes"]["kind"]["StringValue"] == "command" for m in moved)

    missing = queue + "-gone"
    assert main(["replay-dlq", "--queue-url", missing, "--dlq-url", dlq]) == 1  # the send fails: nothing is lost
    assert "moved 0 message(s)" in capsys.readouterr().out
    counts = account.sqs.get_queue_attributes(QueueUrl=dlq, AttributeNames=["All"])["Attributes"]
    assert int(counts["ApproximateNumberOfMessages"]) + int(counts["ApproximateNumberOfMessagesNotVisible"]) == 1


def test_migrate_creates_the_functions_own_login_and_they_use_it_without_set_role(account, pg_url, fresh_database,
                                                                                  cloudformation):
    """The worker and dashboard log in as a member of memfix_app (no master password, no SET ROLE to pin RDS
    Proxy connections); a redeploy after a rotation gives the login its new password."""
    import psycopg
    from psycopg.conninfo import make_conninfo

    from core.db import Database

    host = json.loads(database_secret(pg_url))["host"]
    login = f"memfix_worker_{fresh_database[-6:]}"
    app_secret = account.secret("database-app", json.dumps({"username": login, "password": "first-pass"}))
    account.setenv(DATABASE_SECRET_ARN=account.secret("database", database_secret(pg_url, "postgres")),
                   DATABASE_APP_SECRET_ARN=app_secret, DATABASE_HOST=host, DATABASE_NAME=fresh_database)
    assert migrate.handler(cloudformation.request("Create"), TimedContext())["status"] == "SUCCESS"
    admin = make_conninfo(pg_url, dbname=fresh_database)
    with psycopg.connect(admin) as conn:
        role = conn.execute("SELECT rolcanlogin, rolsuper, rolinherit, rolpassword FROM pg_authid WHERE rolname = %s",
                            (login,)).fetchone()
        member = conn.execute("SELECT pg_has_role(%s, 'memfix_app', 'MEMBER')", (login,)).fetchone()[0]
    assert role[:3] == (True, False, True) and member and role[3]
    account.sm.put_secret_value(SecretId=app_secret, SecretString=json.dumps({"username": login,
                                                                               "password": "rotated"}))
    memfix_secrets.clear_cache()
    migrate.handler(cloudformation.request("Update"), TimedContext())
    with psycopg.connect(admin) as conn:
        assert conn.execute("SELECT rolpassword FROM pg_authid WHERE rolname = %s", (login,)).fetchone()[0] != role[3]

    as_app = Database(make_conninfo(admin, user=login, password="rotated"), app_role=None)  # itself: no SET ROLE
    try:
        with as_app.tenant(4242, register=True) as conn:
            assert conn.execute("SELECT current_user AS u").fetchone()["u"] == login
            conn.execute("INSERT INTO runs (tenant_id, repository, pipeline) VALUES (4242, 'o/r', 'autofix')")
        with as_app.tenant(4343, register=True) as conn:  # row-level security binds it
            assert conn.execute("SELECT count(*) AS n FROM runs").fetchone()["n"] == 0
    finally:
        as_app.close()
