"""The `proposals` table: what memfix proposed, where, and what became of it. Publishing writes it, outcomes close it,
the repository's CI settles it, the policy counts it and the dashboard charts it — all through `Proposals`."""

from __future__ import annotations

from dataclasses import dataclass, fields
from datetime import datetime
from enum import StrEnum
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from core.db import Database


class ProposalState(StrEnum):
    """A memfix PR's state (`proposals.state`)."""

    OPEN = "open"
    MERGED = "merged"
    CLOSED = "closed"  # closed unmerged


class CiState(StrEnum):
    """The repository's CI on a memfix PR (`proposals.ci_state`); a verdict on a commit is WAITING, PASSED or
    FAILED (core/pipelines/ci.py)."""

    UNKNOWN = "unknown"  # rows older than CI verdicts, and PRs closed while waiting
    WAITING = "waiting"  # a draft waits for the checks on its head commit
    PASSED = "passed"
    FAILED = "failed"
    ABSENT = "absent"  # the repository has no CI: ready for review at once
    SILENT = "silent"  # no check reported within MEMFIX_CI_WAIT_HOURS


_VERDICTS = (CiState.WAITING, CiState.PASSED, CiState.FAILED)  # the states a PR waiting on its checks goes through


@dataclass(frozen=True)
class Proposal:
    """One memfix PR: a single-file change on its deterministic branch, its CI verdict and the reviewers' outcome."""

    id: int
    tenant_id: int
    repository: str
    pipeline: str
    fingerprint: str
    path: str
    branch: str
    base_branch: str
    pr_number: int | None
    state: ProposalState
    run_id: int | None
    insight_ids: tuple[int, ...]
    finding_codes: tuple[str, ...]
    diff: str
    rationale: str
    provider: str | None
    model: str | None
    created_at: datetime
    updated_at: datetime
    head_sha: str | None
    ci_state: CiState
    ci_since: datetime | None
    ci_failures: int
    ci_passes: int
    ci_detail: str
    ci_reported: str | None  # the head_sha whose verdict was commented on
    ci_refined: bool
    refines: int
    closed_by: str | None
    place: str | None  # the kind of place its file was (core/learning/places.py); None: from before kinds were kept
    exploratory: bool = False  # it tried a held rule again on purpose
    ci_flakes: int = 0  # failures a re-run of the same commit overturned
    ci_rerun: str | None = None  # the head_sha whose failed checks memfix ran again
    ci_reruns: int = 0  # how many times it ran them again on that commit
    finding_lines: tuple[tuple[int, str], ...] = ()  # (line in the original, rule) of each finding it fixed


@dataclass(frozen=True)
class ProposalOutcome:
    """What became of one proposal, as the policy counts it: the evidence about the rules it fixed."""

    finding_codes: tuple[str, ...]
    state: ProposalState
    updated_at: datetime
    ci_failures: int = 0
    ci_passes: int = 0
    refines: int = 0
    path: str = ""  # the file it changed
    place: str | None = None  # the kind of place that file was when it was proposed
    blamed: tuple[str, ...] = ()  # closed: the rules people's words pointed to (none said: the evidence decides)


@dataclass(frozen=True)
class ProposalCounts:
    """PRs opened in a period, and what became of them."""

    opened: int = 0
    merged: int = 0
    closed: int = 0
    ci_failed: int = 0


_COLUMNS = ", ".join(f.name for f in fields(Proposal))
_OUTCOME = ", ".join(f.name for f in fields(ProposalOutcome))


def _proposal(row: dict[str, Any]) -> Proposal:
    return Proposal(**{**row, "insight_ids": tuple(row["insight_ids"]), "finding_codes": tuple(row["finding_codes"]),
                       "finding_lines": tuple((int(n), str(c)) for n, c in row.get("finding_lines") or ()),
                       "state": ProposalState(row["state"]), "ci_state": CiState(row["ci_state"])})


def _proposal_or_none(row: dict[str, Any] | None) -> Proposal | None:
    return _proposal(row) if row else None


CI_RECORD = 3  # failures a re-run confirmed before the dashboard calls a repository's CI one that fails only for real


@dataclass(frozen=True)
class CiRecord:
    """A repository's CI as memfix's re-runs found it: failures a re-run overturned, and failures it confirmed."""

    overturned: int
    confirmed: int

    @property
    def reruns(self) -> int:
        """How many times a failure is run again before it counts: twice where the CI has lied more than once."""
        return 2 if self.overturned >= 2 else 1

    @property
    def known(self) -> bool:
        """The CI never lied to memfix's re-runs, and its failures held CI_RECORD times."""
        return self.overturned == 0 and self.confirmed >= CI_RECORD

    def describe(self) -> str:
        if self.overturned:
            times = "twice" if self.reruns == 2 else "once"
            return (f"its checks failed memfix's commits and passed when run again {self.overturned} time(s): a "
                    f"failure memfix cannot tie to its change is run again {times} before it counts")
        if self.known:
            return f"memfix's re-runs confirmed {self.confirmed} failure(s) and overturned none"
        return (f"no record yet ({self.confirmed} failure(s) confirmed by a re-run, none overturned): a failure memfix "
                "cannot tie to its change is run again once before it counts")


class Proposals:
    """Every read and write of `proposals`, each under the tenant's row-level security."""

    def __init__(self, db: Database):
        self.db = db

    def by_fingerprint(self, tenant_id: int, repo: str, fingerprint: str) -> Proposal | None:
        with self.db.tenant(tenant_id) as conn:
            return _proposal_or_none(conn.execute(
                f"SELECT {_COLUMNS} FROM proposals WHERE repository = %s AND fingerprint = %s",
                (repo, fingerprint)).fetchone())

    def by_branch(self, tenant_id: int, repo: str, branch: str) -> Proposal | None:
        with self.db.tenant(tenant_id) as conn:
            return _proposal_or_none(conn.execute(
                f"SELECT {_COLUMNS} FROM proposals WHERE repository = %s AND branch = %s ORDER BY id DESC",
                (repo, branch)).fetchone())

    def waiting_at(self, tenant_id: int, repo: str, sha: str) -> Proposal | None:
        """The open memfix PR whose head is `sha` and which waits for, or has, the repository's CI verdict."""
        with self.db.tenant(tenant_id) as conn:
            return _proposal_or_none(conn.execute(
                f"SELECT {_COLUMNS} FROM proposals WHERE repository = %s AND head_sha = %s AND state = %s"
                " AND ci_state = ANY(%s) ORDER BY id DESC",
                (repo, sha, ProposalState.OPEN, list(_VERDICTS))).fetchone())

    def outcomes(self, tenant_id: int, repo: str, pipeline: str | None = None) -> list[ProposalOutcome]:
        """What became of every proposal in one repository (and pipeline, unless None)."""
        with self.db.tenant(tenant_id) as conn:
            rows = conn.execute(
                f"SELECT {_OUTCOME} FROM proposals"
                " WHERE repository = %(r)s AND (%(p)s::text IS NULL OR pipeline = %(p)s::text)",
                {"r": repo, "p": pipeline},
            ).fetchall()
        return [ProposalOutcome(**{**r, "finding_codes": tuple(r["finding_codes"]), "state": ProposalState(r["state"]),
                                   "blamed": tuple(r["blamed"])}) for r in rows]

    def weekly(self, tenant_id: int, repos: list[str]) -> dict[str, ProposalCounts]:
        """Per week the PRs were opened in (`YYYY-MM-DD` of its Monday): how many, and what became of them."""
        with self.db.tenant(tenant_id) as conn:
            rows = conn.execute(
                "SELECT to_char(date_trunc('week', created_at), 'YYYY-MM-DD') AS week, count(*) AS opened,"
                " count(*) FILTER (WHERE state = %s) AS merged,"
                " count(*) FILTER (WHERE state = %s) AS closed,"
                " count(*) FILTER (WHERE ci_failures > 0) AS ci_failed"
                " FROM proposals WHERE repository = ANY(%s) GROUP BY 1",
                (ProposalState.MERGED, ProposalState.CLOSED, repos)).fetchall()
        return {r["week"]: ProposalCounts(r["opened"], r["merged"], r["closed"], r["ci_failed"]) for r in rows}

    def repositories(self, tenant_id: int) -> set[str]:
        """Every repository memfix proposed something in."""
        with self.db.tenant(tenant_id) as conn:
            return {r["repository"] for r in conn.execute("SELECT DISTINCT repository FROM proposals").fetchall()}

    def settle(self, tenant_id: int, proposal_id: int, sha: str, verdict: CiState, detail: str = "") -> bool:
        """waiting → passed | failed, once per commit: a redelivered or repeated event finds nothing to change. A pass
        on the re-run memfix asked for counts as the CI having lied once."""
        counter = "ci_passes" if verdict == CiState.PASSED else "ci_failures"
        with self.db.tenant(tenant_id) as conn:
            return conn.execute(
                f"UPDATE proposals SET ci_state = %s, ci_detail = %s, {counter} = {counter} + 1, updated_at = now(),"
                " ci_flakes = ci_flakes + (%s AND ci_rerun IS NOT DISTINCT FROM head_sha)::int"
                " WHERE id = %s AND head_sha = %s AND ci_state = %s",
                (verdict, detail, verdict == CiState.PASSED, proposal_id, sha, CiState.WAITING),
            ).rowcount == 1

    def reported(self, tenant_id: int, proposal_id: int, sha: str) -> bool:
        """Claims the one comment a verdict gets; False when it was already posted."""
        with self.db.tenant(tenant_id) as conn:
            return conn.execute(
                "UPDATE proposals SET ci_reported = %s WHERE id = %s AND ci_reported IS DISTINCT FROM %s",
                (sha, proposal_id, sha)).rowcount == 1

    def across(self, tenant_id: int, pipeline: str) -> dict[str, tuple[int, int]]:
        """Each rule's (merged, closed unmerged or CI-failed) memfix PRs in every repository of the installation."""
        with self.db.tenant(tenant_id) as conn:
            rows = conn.execute(
                "SELECT code, count(*) FILTER (WHERE state = %(merged)s) AS merged,"
                " count(*) FILTER (WHERE state = %(closed)s OR ci_state = %(failed)s) AS bad"
                " FROM proposals, unnest(finding_codes) AS code WHERE pipeline = %(p)s GROUP BY code",
                {"p": pipeline, "merged": ProposalState.MERGED, "closed": ProposalState.CLOSED,
                 "failed": CiState.FAILED}).fetchall()
        return {r["code"]: (r["merged"], r["bad"]) for r in rows}

    def explored_since(self, tenant_id: int, repo: str, days: float) -> bool:
        """Whether memfix opened an exploratory PR in this repository within `days`: the exploration budget."""
        with self.db.tenant(tenant_id) as conn:
            return conn.execute(
                "SELECT 1 FROM proposals WHERE repository = %s AND exploratory"
                " AND created_at > now() - make_interval(secs => %s) LIMIT 1", (repo, days * 86400)).fetchone() \
                is not None

    def supersede(self, tenant_id: int, proposal_id: int, sha: str) -> bool:
        """failed → passed when the checks pass on a re-run of the same commit: the failure no longer counts (the
        record is corrected), once."""
        with self.db.tenant(tenant_id) as conn:
            return conn.execute(
                "UPDATE proposals SET ci_state = %s, ci_failures = greatest(ci_failures - 1, 0),"
                " ci_passes = ci_passes + 1, ci_flakes = ci_flakes + 1, updated_at = now()"
                " WHERE id = %s AND head_sha = %s AND ci_state = %s",
                (CiState.PASSED, proposal_id, sha, CiState.FAILED)).rowcount == 1

    def ci_record(self, tenant_id: int, repo: str, days: float = 90) -> CiRecord:
        """What memfix's own re-runs of failed checks showed lately in this repository: failures they overturned,
        and failures they confirmed."""
        with self.db.tenant(tenant_id) as conn:
            row = conn.execute(
                "SELECT coalesce(sum(ci_flakes), 0) AS overturned, count(*) FILTER (WHERE ci_rerun = head_sha"
                " AND ci_state = %s) AS confirmed FROM proposals WHERE repository = %s"
                " AND updated_at > now() - make_interval(secs => %s)", (CiState.FAILED, repo, days * 86400)).fetchone()
        return CiRecord(int(row["overturned"]), int(row["confirmed"])) if row else CiRecord(0, 0)

    def flakes(self, tenant_id: int, repo: str, days: float = 90) -> int:
        """How often, lately, this repository's checks failed on a memfix commit and passed when run again on it:
        its CI's record of failing for reasons of its own."""
        with self.db.tenant(tenant_id) as conn:
            row = conn.execute("SELECT coalesce(sum(ci_flakes), 0) AS n FROM proposals WHERE repository = %s"
                               " AND updated_at > now() - make_interval(secs => %s)", (repo, days * 86400)).fetchone()
            return int(row["n"]) if row else 0

    def claim_rerun(self, tenant_id: int, proposal_id: int, sha: str, most: int = 1) -> bool:
        """One of the `most` re-runs memfix asks for on a commit; False when it asked for them all."""
        with self.db.tenant(tenant_id) as conn:
            return conn.execute(
                "UPDATE proposals SET ci_reruns = CASE WHEN ci_rerun = %(sha)s THEN ci_reruns + 1 ELSE 1 END,"
                " ci_rerun = %(sha)s WHERE id = %(id)s AND head_sha = %(sha)s AND ci_state = %(waiting)s"
                " AND (ci_rerun IS DISTINCT FROM %(sha)s OR ci_reruns < %(most)s)",
                {"sha": sha, "id": proposal_id, "waiting": CiState.WAITING, "most": most}).rowcount == 1

    def release_rerun(self, tenant_id: int, proposal_id: int, sha: str) -> None:
        """The re-run claimed on this commit was not asked for after all (the weekly cap, GitHub's refusal, an error):
        the failure is not one a re-run confirmed."""
        with self.db.tenant(tenant_id) as conn:
            conn.execute(
                "UPDATE proposals SET ci_reruns = ci_reruns - 1, ci_rerun = CASE WHEN ci_reruns > 1 THEN ci_rerun END"
                " WHERE id = %s AND ci_rerun = %s AND ci_reruns > 0", (proposal_id, sha))

    def claim_refinement(self, tenant_id: int, proposal_id: int) -> bool:
        """The one refinement a CI failure gets."""
        with self.db.tenant(tenant_id) as conn:
            return conn.execute("UPDATE proposals SET ci_refined = true WHERE id = %s AND NOT ci_refined",
                                (proposal_id,)).rowcount == 1

    def silent(self, tenant_id: int, repo: str, hours: float) -> list[Proposal]:
        """waiting → silent for PRs whose checks did not report within `hours` (looked at on the repository's
        next event: waiting is event-driven, nothing polls)."""
        with self.db.tenant(tenant_id) as conn:
            return [_proposal(r) for r in conn.execute(
                "UPDATE proposals SET ci_state = %s, updated_at = now() WHERE repository = %s AND state = %s"
                f" AND ci_state = %s AND ci_since < now() - make_interval(secs => %s) RETURNING {_COLUMNS}",
                (CiState.SILENT, repo, ProposalState.OPEN, CiState.WAITING, hours * 3600)).fetchall()]

    def revised(self, tenant_id: int, proposal_id: int, head_sha: str, diff: str, rationale: str) -> None:
        """A revision pushed on the PR's branch: the CI verdict is awaited again."""
        with self.db.tenant(tenant_id) as conn:
            conn.execute(
                "UPDATE proposals SET head_sha = %s, diff = %s, rationale = %s,"
                " ci_state = CASE WHEN ci_state = ANY(%s) THEN %s ELSE ci_state END, ci_since = now(),"
                " updated_at = now() WHERE id = %s",
                (head_sha, diff, rationale, [*_VERDICTS, CiState.SILENT], CiState.WAITING, proposal_id))

    def refine_asked(self, tenant_id: int, proposal_id: int) -> None:
        """A person asked for a revision: evidence for the rule's record, whatever the revision becomes."""
        with self.db.tenant(tenant_id) as conn:
            conn.execute("UPDATE proposals SET refines = refines + 1 WHERE id = %s", (proposal_id,))

    def close(self, tenant_id: int, repo: str, branch: str, pr_number: int, *, merged: bool,
              closed_by: str | None, blamed: tuple[str, ...] = ()) -> Proposal | None:
        """The open proposal on this branch and PR, merged or closed unmerged (a verdict still awaited is now
        unknown), with the rules people's words blamed; None when memfix has no such open proposal."""
        with self.db.tenant(tenant_id) as conn:
            return _proposal_or_none(conn.execute(
                "UPDATE proposals SET state = %s, closed_by = %s, updated_at = now(), blamed = %s,"
                " ci_state = CASE WHEN ci_state = %s THEN %s ELSE ci_state END"
                f" WHERE repository = %s AND branch = %s AND pr_number = %s AND state = %s RETURNING {_COLUMNS}",
                (ProposalState.MERGED if merged else ProposalState.CLOSED, closed_by, list(blamed), CiState.WAITING,
                 CiState.UNKNOWN, repo, branch, pr_number, ProposalState.OPEN),
            ).fetchone())

    def save(self, tenant_id: int, **row: Any) -> None:
        columns = ", ".join(row)
        updates = ", ".join(f"{c} = EXCLUDED.{c}" for c in row if c not in ("repository", "fingerprint"))
        with self.db.tenant(tenant_id, register=True) as conn:
            conn.execute(
                f"INSERT INTO proposals (tenant_id, {columns}) VALUES (%(tenant_id)s, "
                + ", ".join(f"%({c})s" for c in row)
                + f") ON CONFLICT (tenant_id, repository, fingerprint) DO UPDATE SET {updates}, updated_at = now()",
                {"tenant_id": tenant_id, **row},
            )

