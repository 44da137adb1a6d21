"""What memory holds: insights (layer 2), knowledge-base entries (layer 1), decisions, and the healing ring's
envelopes, each attempt's status and its breaker."""

from __future__ import annotations

import hashlib
import uuid
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime
from enum import StrEnum

INSIGHT_TYPES = ("pain_point", "strength", "solution", "pattern", "decision")


SEVERITIES = ("blocker", "high", "medium", "low")


WORKFLOW_TYPES = ("autofix", "refactor", "review")


CATEGORIES = (
    "security", "correctness", "performance", "reliability", "maintainability", "style",
    "testing", "documentation", "dependencies", "architecture", "process",
)


class Stance(StrEnum):
    """A decision's word on a rule in a repository (`rule_decisions.stance`, core/learning/policy.py)."""

    HOLD = "hold"  # not proposed here
    ENABLE = "enable"  # proposed again; its record counts from this decision on


class PointStatus(StrEnum):
    """An action point's status (`action_points.status`)."""

    OPEN = "open"
    DONE = "done"
    DISMISSED = "dismissed"


class InsightError(ValueError):
    """An insight a person or a pipeline tried to save does not validate; the message says why."""


@dataclass(frozen=True)
class Insight:
    """Layer 2: a structured, vectorised lesson about one repository."""

    repository: str
    insight_type: str
    category: str
    title: str
    detail: str = ""
    suggestion: str = ""
    severity: str | None = None
    workflow_type: str = "review"
    workflow_id: str | None = None
    tags: tuple[str, ...] = ()
    source_ref: str | None = None
    id: int | None = None
    paired_insight_id: int | None = None
    seen_count: int = 1
    accepted_count: int = 0
    rejected_count: int = 0

    def validated(self) -> Insight:
        """The same insight with normalised values, or InsightError naming every bad field."""
        itype = self.insight_type.strip().lower().replace("-", "_").replace(" ", "_")
        category = self.category.strip().lower()
        severity = (self.severity or "").strip().lower() or None
        if problems := self._problems(itype, category, severity):
            raise InsightError("; ".join(problems))
        return replace(self, insight_type=itype, category=category, severity=severity, title=self.title.strip(),
                       tags=tuple(dict.fromkeys(t.strip().lower() for t in self.tags if t.strip())))

    def _problems(self, itype: str, category: str, severity: str | None) -> list[str]:
        """Every field that is not what an insight may hold, normalised values judged, in words."""
        checks = [
            (itype not in INSIGHT_TYPES,
             f"insight_type {self.insight_type!r} is not one of {', '.join(INSIGHT_TYPES)}"),
            (category not in CATEGORIES, f"category {self.category!r} is not one of {', '.join(CATEGORIES)}"),
            (severity is not None and severity not in SEVERITIES,
             f"severity {self.severity!r} is not one of {', '.join(SEVERITIES)}"),
            (self.workflow_type not in WORKFLOW_TYPES,
             f"workflow_type {self.workflow_type!r} is not one of {', '.join(WORKFLOW_TYPES)}"),
            (not self.title.strip(), "title is empty"),
            (len(self.title) > 300, "title is longer than 300 characters"),
            (not self.repository or "/" not in self.repository, f"repository {self.repository!r} is not owner/name"),
        ]
        return [problem for failed, problem in checks if failed]

    @property
    def label(self) -> str:
        """`[pain_point] [Security] [high]`"""
        return f"[{self.insight_type}] [{self.category.title()}]" + (f" [{self.severity}]" if self.severity else "")

    def embedding_text(self) -> str:
        """`[pain_point] [Security] [high] SQL Injection in User Input:\\n<detail>\\nSuggestion: <suggestion>`"""
        text = f"{self.label} {self.title}:\n{self.detail}"
        return text + (f"\nSuggestion: {self.suggestion}" if self.suggestion else "")


@dataclass(frozen=True)
class MemoryEntry:
    """Layer 1: the knowledge base. Searchable, never injected into prompts automatically."""

    title: str
    content: str
    source: str = "manual"  # manual | github | import
    tags: tuple[str, ...] = ()
    repository: str | None = None
    source_ref: str | None = None
    letter_date: date | None = None
    id: int | None = None


class AttemptStatus(StrEnum):
    """What became of an attempt at a file (core/pipelines/verify.py `status_for`): an envelope's status, and a
    file's outcome in a run."""

    PROMOTED = "PROMOTED"  # verified, confident enough to publish
    RETRY = "RETRY"  # another attempt may do better
    REJECTED = "REJECTED"  # not worth another try (or the repository's CI failed on it)
    HUMAN_REVIEW = "HUMAN_REVIEW"  # attempts ran out on a plausible patch: a person decides
    UNFIXED = "UNFIXED"  # no attempt was made: a file's outcome only, never an envelope's


class Circuit(StrEnum):
    """A circuit breaker's state (core/pipelines/breaker.py), also recorded on each envelope."""

    CLOSED = "closed"
    OPEN = "open"
    HALF_OPEN = "half_open"


@dataclass(frozen=True)
class Envelope:
    """One attempt of a pipeline on a repository: what the healing ring remembers."""

    repository: str
    status: AttemptStatus  # never UNFIXED
    attempt: int = 1
    confidence: float = 0.0
    breaker_state: Circuit = Circuit.CLOSED
    run_id: str | None = None
    patch_id: str | None = None
    pipeline: str | None = None
    error_message: str | None = None
    error_hash: str | None = None
    id: str = field(default_factory=lambda: uuid.uuid4().hex)
    created_at: datetime = field(default_factory=lambda: datetime.now(UTC))
    path: str | None = None  # the file the attempt was on
    checks: dict[str, bool] | None = field(default=None, compare=False)  # the verification's named checks
    sections: dict[str, str] | None = field(default=None, compare=False, repr=False)  # what the model was given
    diff: str | None = field(default=None, compare=False, repr=False)  # the change tried, as a unified diff

    @staticmethod
    def hash_error(file: str, line: int | None, message: str) -> str:
        return hashlib.sha256(f"{file}:{line}:{message}".encode()).hexdigest()
