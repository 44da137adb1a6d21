"""What the Lambda runtime hands a handler besides the event."""

from dataclasses import dataclass


@dataclass
class LambdaContext:
    function_name: str = "memfix-test"
    memory_limit_in_mb: int = 1024
    invoked_function_arn: str = "arn:aws:lambda:us-east-1:123456789012:function:memfix-test"
    aws_request_id: str = "00000000-0000-0000-0000-000000000000"
