"""Logger and Metrics, created once per process (Powertools: structured logs, EMF metrics)."""

from aws_lambda_powertools import Logger, Metrics
from aws_lambda_powertools.metrics import MetricUnit

logger = Logger(service="memfix")
metrics = Metrics(namespace="memfix", service="memfix")


def count(name: str, value: int = 1) -> None:
    metrics.add_metric(name=name, unit=MetricUnit.Count, value=value)
