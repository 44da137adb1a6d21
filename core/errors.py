"""Errors by what the worker should do about them: retry (transient) or report (permanent)."""


class MemfixError(Exception):
    """Base of memfix's own errors; the message is safe to show on GitHub."""


class TransientError(MemfixError):
    """Worth retrying: GitHub 5xx or rate limit, database or model timeout."""


class PermanentError(MemfixError):
    """Retrying will not help: bad input, missing permission, a file that does not exist."""


class GitHubError(MemfixError):
    def __init__(self, message: str, status: int | None = None):
        super().__init__(message)
        self.status = status


class GitHubTransientError(GitHubError, TransientError):
    pass


class GitHubPermanentError(GitHubError, PermanentError):
    pass
