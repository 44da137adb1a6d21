"""The learned policy: per repository, pipeline and rule, what reviewers and CI did with memfix's fixes, and the
rules memfix holds back because of it.

Evidence comes from memfix's own PRs (the `proposals` table): merged, closed unmerged (and by whom), CI failed,
CI passed, `/refine` asked. A PR fixes one file and may fix several rules; a bad outcome is blamed on the rules
people's words pointed to, else on the rules in it that have never been merged in this repository (all of them when
each has been merged), so a rule reviewers keep taking is not held back for sharing a file with one they keep
closing. Each outcome also counts in the contexts of its file (core/learning/places.py): its kind of place
(`kind:init`, `kind:test`, ...) and each folder it lies in (`src/**`, `src/legacy/**`).

The estimate of acceptance is the mean of a Beta(1 + merged, 1 + closed + CI failed) posterior (`Record`). A rule
is held back — not proposed in that repository — only when its record is one chance would rarely give
(`hold_reason`): chance is the repository's own rates of closes and red CI among memfix's PRs of other rules, and
each place the same rule's record is looked at is one more chance of bad luck (places holding the same PRs: one), as
is each rule closes could hold for a run of closes, and each CI run and each rule the CI judged for a red streak.
A learned hold has the narrowest scope the evidence supports (`hold_scopes`): the kinds of place whose own record
says so (F401 held in `__init__` files, still proposed in library modules), else the narrowest folders whose record
does (a wider folder instead where it has bad outcomes of its own outside them and no merge); the whole repository
only when the rule's record there says so and bad outcomes in two kinds or more agree.
A person's decision may have a scope too (`/remember decision hold F401 in tests/**`); an enable lifts the holds
within its scope, and a hold wider than it, decided before it, does not apply there.
A decision on a rule is a row of `rule_decisions` (what the policy reads) with a `decision` insight as its record
(`/recall` shows it; `/forget` of it deletes the row too). A person's decision applies to every pipeline, a learned
hold to its own. A person re-enables a rule with `/forget insight:N`, `/remember decision enable F401` or
`always_propose: [F401]` in `.github/memfix.yml`, and holds one back with `/remember decision hold F401`; a re-enabled
rule's record starts afresh where the enable applies. A place's hold on every rule is lifted the same way (`/remember
decision enable * in vendor/**`, the dashboard's lift): the place's record starts afresh, and the closes there before
it count against no rule either. New evidence (another outcome of that rule) decides again: a
learned hold the evidence no longer supports is lifted, and a rule a person re-enabled is held again only by new
evidence.
Rules with a better record are proposed first within `max_prs`. A hold learned in one repository is offered to the
installation's other repositories as an action point, never applied there.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

from core.db import one
from core.languages.registry import EVERY_RULE, rule_code, rule_shown
from core.learning.explore import EXPLORE_DAYS, explore
from core.learning.places import KIND, Kind, contains, covers, directories, kind_scope, place, words
from core.learning.record import PROMOTE_THRESHOLD, Chance, Record, beyond_chance
from core.memory.proposals import Proposals, ProposalState
from core.memory.types import Insight, PointStatus, Stance

if TYPE_CHECKING:
    from core.db import Connection, Database
    from core.memory.insights import Insights, SaveResult
    from core.memory.proposals import Proposal, ProposalOutcome

MIN_CLOSED = 2  # one close is a person's moment, never a pattern
ALPHA = 0.05  # a hold needs a record chance would give less than once in twenty
TURNED = 3  # bad outcomes in a row after merges: the reviewers' taste changed
RETRY_CAP_DAYS = 112  # however strong the evidence, a learned hold is tried again within four months
LEARNED = "learned"  # who decided a hold the evidence made


@dataclass(frozen=True)
class Decision:
    """A decision on one rule, as `rule_decisions` keeps it: who took it (a login, or LEARNED), why, the pipeline
    it is for (None: every pipeline, as a person's word is) and where it applies (None: the whole repository)."""

    rule: str
    stance: Stance
    by: str
    reason: str = ""
    pipeline: str | None = None
    scope: str | None = None


@dataclass(frozen=True)
class Enable:
    """A person's word to propose a rule again where `scope` says: its record there counts from this decision on,
    and a hold decided before it does not apply there."""

    rule: str
    scope: str | None
    insight_id: int
    created_at: datetime


_ENABLED = """
SELECT rule, scope, insight_id, created_at FROM rule_decisions WHERE repository = %(r)s AND stance = %(enable)s
ORDER BY created_at, id
"""
_HOLDS = """
SELECT rule, scope, reason, insight_id, decided_by, created_at, pipeline FROM rule_decisions
WHERE repository = %(r)s AND stance = %(hold)s AND (%(p)s::text IS NULL OR pipeline IS NULL OR pipeline = %(p)s::text)
ORDER BY insight_id
"""
# A hold standing already (rule_decisions_one_hold: another job learned it at once) is not stored again.
_DECIDE = """
INSERT INTO rule_decisions (tenant_id, repository, rule, stance, pipeline, decided_by, reason, insight_id, scope)
VALUES (%(t)s, %(r)s, %(rule)s, %(stance)s, %(p)s, %(by)s, %(reason)s, %(i)s, %(scope)s)
ON CONFLICT DO NOTHING RETURNING id
"""
_STANDING = """
SELECT insight_id FROM rule_decisions WHERE repository = %(r)s AND stance = %(stance)s AND rule = %(rule)s
AND pipeline IS NOT DISTINCT FROM %(p)s::text AND scope IS NOT DISTINCT FROM %(scope)s::text
"""
_RULE_HOLDS = """
SELECT insight_id, scope FROM rule_decisions WHERE repository = %(r)s AND stance = %(hold)s AND rule = %(rule)s
"""
# The hold's record goes, and its row with it.
_LIFT = "DELETE FROM workflow_insights WHERE repository = %(r)s AND id = ANY(%(ids)s) RETURNING id"
_OFFER = """
INSERT INTO action_points (tenant_id, source_insight_id, source_repository, target_repository, similarity)
SELECT %(t)s, %(i)s, %(r)s, name, 1.0 FROM (
  SELECT full_name AS name FROM repositories UNION SELECT repository FROM proposals) AS others
WHERE name <> %(r)s ON CONFLICT (source_insight_id, target_repository) DO NOTHING
"""
_KEEP_HELD = """
INSERT INTO held_back (tenant_id, repository, pipeline, rule, path, place)
SELECT %(t)s, %(r)s, %(p)s, h.rule, h.path, h.place
FROM unnest(%(rules)s::text[], %(paths)s::text[], %(places)s::text[]) AS h (rule, path, place)
ON CONFLICT (tenant_id, repository, pipeline, rule, path) DO UPDATE SET place = EXCLUDED.place, held_at = now()
"""
_HELD_BACK = "SELECT rule, path, place, held_at FROM held_back WHERE repository = %(r)s AND pipeline = %(p)s"
# Only rows not held again since they were read: a run that holds the rule there again keeps its row.
_BROUGHT_BACK = """
DELETE FROM held_back AS h
USING unnest(%(rules)s::text[], %(paths)s::text[], %(at)s::timestamptz[]) AS b (rule, path, at)
WHERE h.repository = %(r)s AND h.pipeline = %(p)s AND h.rule = b.rule AND h.path = b.path AND h.held_at = b.at
"""
_SUGGESTED = """
SELECT a.id, d.rule, d.scope FROM action_points AS a
JOIN rule_decisions AS d ON d.tenant_id = a.tenant_id AND d.insight_id = a.source_insight_id
WHERE a.target_repository = %(r)s AND a.status = %(open)s AND d.stance = %(hold)s ORDER BY a.id, d.id
"""


def hold_reason(code: str, record: Record, chance: Chance | None = None, looks: int = 1) -> str | None:
    """Why the evidence says `code` should not be proposed here, or None: only a record chance would rarely give is a
    reason (the repository's own rates of closes and red CI are chance). `looks`: how many places the same rule's
    records were looked at for a hold (each look is another chance of a run of bad luck)."""
    chance = chance or Chance()
    decided = record.merged + record.closed
    outcomes = decided + record.ci_failed  # a streak could have ended at any of them (red runs included)
    if record.merged and record.lately >= TURNED and chance.streak(record) * outcomes < ALPHA / looks:
        return (f"reviewers turned down its last {record.lately} PRs after merging {record.merged}: their taste "
                "changed")
    if record.closed >= MIN_CLOSED and \
            (p := beyond_chance(record.closed, decided, chance.closes)) < ALPHA / looks / chance.closing:
        among = f", one of {chance.closing} rules closed as often" if chance.closing > 1 else ""
        return (f"reviewers closed {record.closed} of its {decided} PRs where they close {chance.closes:.0%} of "
                f"memfix's others (chance: {p:.3f}{among})")
    p, runs = _red_tail(record, chance)
    # a noisy CI is looked at after every run it makes, for every rule it judged: each is one more chance of a streak
    if record.ci_failed and p < ALPHA / looks / runs / chance.tested:
        among = f", one of {chance.tested} rules the CI judged here" if chance.tested > 1 else ""
        return (f"the repository's CI failed on {record.ci_failed} of its {runs} fixes where it fails "
                f"{chance.reds:.0%} of memfix's others (chance: {p:.4f}{among})")
    return None


def in_doubt(record: Record, chance: Chance) -> bool:
    """Whether the CI's reds since the rule's last merge are more than its noise would likely give were this the only
    rule the CI judged: not yet a hold (`hold_reason` counts every rule judged), but one PR of it a run until the
    evidence decides. A CI red at random leaves a rule in doubt rarely, so memory changes nothing there."""
    p, runs = _red_tail(record, chance)
    return bool(record.lately_red) and p < ALPHA / runs


def _red_tail(record: Record, chance: Chance) -> tuple[float, int]:
    """The chance of the rule's red runs from the CI's noise alone, and how many runs it was looked at after."""
    runs = record.ci_failed + record.ci_passed
    return chance.red_tail(record.ci_failed, runs), runs


@dataclass(frozen=True)
class Evidence:
    """Per rule, its record in the repository and in each context its PRs' files were in: a kind of place
    (`kind:init`) or a folder (`src/**`); per rule, what chance gives it (the other rules' PRs); and per context, the
    record of every PR there whatever its rules (a place's hold on every rule is judged by it), and `whole`, the
    record of every PR in the repository; `base`, what chance gives a rule memfix never proposed here (all its PRs)."""

    records: dict[str, Record] = field(default_factory=dict)
    contexts: dict[str, dict[str, Record]] = field(default_factory=dict)
    chances: dict[str, Chance] = field(default_factory=dict)
    places: dict[str, Record] = field(default_factory=dict)
    whole: Record = Record()
    base: Chance = Chance()

    def record(self, code: str, scope: str | None = None) -> Record:
        if code == EVERY_RULE:
            return self.places.get(scope, Record()) if scope else self.whole
        return self.records.get(code, Record()) if scope is None else self.contexts.get(code, {}).get(scope, Record())

    def chance(self, code: str, scope: str | None = None) -> Chance:
        """What chance gives the rule's record: the rates of memfix's PRs of other rules here; for a place's hold on
        every rule (`code` `*`), of memfix's PRs elsewhere (as `place_scopes` weighs it)."""
        if code != EVERY_RULE:
            return self.chances.get(code, self.base)
        here, total = self.record(code, scope), self.whole
        return Chance.of(total.closed - here.closed, total.merged + total.closed - here.merged - here.closed,
                         total.ci_failed - here.ci_failed,
                         total.ci_failed + total.ci_passed - here.ci_failed - here.ci_passed)

    def kinds(self, code: str) -> dict[str, Record]:
        """The rule's record in each kind of place it was proposed in."""
        return {s: r for s, r in self.contexts.get(code, {}).items() if s.startswith(KIND)}


def scopes_of(path: str, kind: str) -> tuple[str, ...]:
    """The contexts a PR's file counts in: its kind of place and each folder it lies in (a file at the root: the
    root's own files, never every library module)."""
    return (kind_scope(kind), *directories(path))


def evidence_from(rows: list[ProposalOutcome], enabled: Sequence[Enable] = (),
                  every: list[ProposalOutcome] | None = None) -> Evidence:
    """Per rule and context, from memfix's PRs in one repository and pipeline (see the module's note on blame). A rule
    a person re-enabled starts afresh where the enable applies, counting only PRs there that changed after it. The
    places' records count `every` PR (the closes a place's hold explains included), `rows` where not given."""
    placed = [(r, r.place or place(r.path)) for r in sorted(rows, key=lambda r: r.updated_at)]  # oldest first

    def counted(r: ProposalOutcome, kind: str) -> set[str]:
        return {c for c in r.finding_codes
                if all(r.updated_at > e.created_at for e in enabled if e.rule == c and covers(e.scope, r.path, kind))}

    counts = [(r, kind, counted(r, kind)) for r, kind in placed]
    records, contexts = _rule_records(counts)
    places, whole = _place_records(sorted(rows if every is None else every, key=lambda r: r.updated_at), enabled)
    closing = sum(1 for r in records.values() if r.closed >= MIN_CLOSED)  # the rules closes could hold
    return Evidence(dict(sorted(records.items())), dict(contexts), _chances(rows, set(records), closing), places,
                    whole, Chance.of(*_rates([r for r in rows if r.state != ProposalState.OPEN], rows), _tested(rows),
                                     closing))


def _rule_records(counts: list[tuple[ProposalOutcome, str, set[str]]]) -> tuple[dict[str, Record],
                                                                                dict[str, dict[str, Record]]]:
    """Per rule, and per rule and context, the outcomes of the PRs that carried it (oldest first), each bad one on
    the rules it blames (see the module's note on blame)."""
    merged = Counter(c for r, _, codes in counts if r.state == ProposalState.MERGED for c in codes)
    records: dict[str, Record] = {}
    contexts: dict[str, dict[str, Record]] = defaultdict(dict)
    for r, kind, codes in counts:
        took = r.state == ProposalState.MERGED
        pointed = set(r.blamed) & codes
        suspects = pointed or {c for c in codes if not merged[c]} or codes
        for c in codes:
            blamed = c in suspects
            bad = int(blamed and _closed(r)), r.ci_failures if blamed else 0
            seen = Record(int(took), *bad, r.ci_passes, r.refines, 0 if took else sum(bad), r.updated_at,
                          0 if took else bad[1])
            records[c] = records.get(c, Record()) + seen
            for scope in scopes_of(r.path, kind):
                contexts[c][scope] = contexts[c].get(scope, Record()) + seen
    return records, contexts


def _place_records(rows: list[ProposalOutcome], enabled: Sequence[Enable]) -> tuple[dict[str, Record], Record]:
    """Per place, and for the whole repository, the outcomes of the PRs there whatever their rules."""
    places: dict[str, Record] = {}
    whole = Record()
    for r in rows:
        if _waived(r, enabled):
            continue
        took, closed = r.state == ProposalState.MERGED, int(_closed(r))
        seen = Record(int(took), closed, r.ci_failures, r.ci_passes, r.refines,
                      0 if took else closed + r.ci_failures, r.updated_at, 0 if took else r.ci_failures)
        whole += seen
        for scope in scopes_of(r.path, r.place or place(r.path)):
            places[scope] = places.get(scope, Record()) + seen
    return places, whole


def _waived(r: ProposalOutcome, enabled: Sequence[Enable]) -> bool:
    """Whether a person proposed every rule again where this PR's file is, after it: no evidence on any place (the
    place's record starts afresh), nor, if closed, on any rule (the place's doing, as it was while held)."""
    kind = r.place or place(r.path)
    return any(e.rule == EVERY_RULE and covers(e.scope, r.path, kind) and r.updated_at <= e.created_at
               for e in enabled)


def _chances(rows: list[ProposalOutcome], codes: set[str], closing: int) -> dict[str, Chance]:
    """Per rule, the repository's rates of closes and red CI among memfix's PRs that do not carry it."""
    decided = [r for r in rows if r.state != ProposalState.OPEN]
    total = _rates(decided, rows)
    tested = _tested(rows)
    chances = {}
    for code in codes:
        mine = _rates([r for r in decided if code in r.finding_codes], [r for r in rows if code in r.finding_codes])
        closes, settled, reds, runs = (t - m for t, m in zip(total, mine, strict=True))
        chances[code] = Chance.of(closes, settled, reds, runs, tested, closing)
    return chances


def _tested(rows: list[ProposalOutcome]) -> int:
    """How many rules the CI judged here: the rules of memfix's PRs it ran on."""
    return len({c for r in rows if r.ci_failures or r.ci_passes for c in r.finding_codes})


def _rates(decided: list[ProposalOutcome], rows: list[ProposalOutcome]) -> tuple[int, int, int, int]:
    """(closed, decided, CI runs failed, CI runs) of some PRs."""
    return (sum(_closed(r) for r in decided), len(decided), sum(r.ci_failures for r in rows),
            sum(r.ci_failures + r.ci_passes for r in rows))


def records_from(rows: list[ProposalOutcome], enabled: Sequence[Enable] = ()) -> dict[str, Record]:
    """Per rule, from memfix's PRs in one repository and pipeline."""
    return evidence_from(rows, enabled).records


def hold_scopes(code: str, evidence: Evidence) -> dict[str | None, str]:
    """Where the evidence says to hold `code` back, and why: the narrowest contexts it supports (see the module). Each
    folder looked at is one more chance of bad luck, so a folder's record must say more the more folders there are."""
    chance = evidence.chance(code)
    whole = hold_reason(code, evidence.record(code), chance)
    kinds = evidence.kinds(code)
    bad_kinds = sum(1 for r in kinds.values() if r.bad) or 1
    held: dict[str | None, str] = {s: reason for s, r in kinds.items()
                                   if (reason := hold_reason(code, r, chance, bad_kinds))}
    if whole and sum(1 for r in kinds.values() if r.bad) >= 2 and \
            not any(r.merged for s, r in kinds.items() if s not in held):
        return {None: whole}  # bad outcomes in two kinds of place or more agree, and no kind that takes it differs
    library = held.pop(kind_scope(Kind.LIBRARY), None)  # every file of no other kind: the last resort, not a place
    if held:
        return held
    return _folder_holds(code, evidence, chance) or ({kind_scope(Kind.LIBRARY): library} if library else {})


def _folder_holds(code: str, evidence: Evidence, chance: Chance) -> dict[str | None, str]:
    """The narrowest folders whose records alone hold `code` back (each folder with a bad outcome one more chance of
    bad luck, unless it is the same record as a folder in it), or a wider one whose bad outcomes outside them are its
    own: a narrower hold explains only the bad outcomes inside it."""
    contexts = {s: r for s, r in evidence.contexts.get(code, {}).items() if not s.startswith(KIND) and r.bad}
    folders = {s: reason for s, r in contexts.items() if (reason := hold_reason(code, r, chance, _looks(contexts)))}
    narrowest = [s for s in folders if not any(o != s and contains(s, o) for o in folders)]
    kept = [s for s in folders if s in narrowest
            or _unexplained(contexts[s], [contexts[n] for n in narrowest if contains(s, n)])]
    return {s: folders[s] for s in kept if not any(o != s and contains(o, s) for o in kept)}


def _looks(records: dict[str, Record]) -> int:
    """How many chances of bad luck the folders' records are: a folder whose record is a subfolder's (the same PRs,
    nothing else) is that chance again, not another."""
    def same(r: Record, o: Record) -> bool:
        return r == o and r.last == o.last  # the same counts and the same latest outcome: the same PRs

    return sum(1 for s, r in records.items()
               if not any(o != s and contains(s, o) and same(r, records[o]) for o in records)) or 1


def _unexplained(wider: Record, narrower: list[Record]) -> bool:
    """Whether a wider folder's record says more than the narrower holds inside it: bad outcomes outside them, and no
    merge there (reviewers took the rule nowhere else in it)."""
    bad = wider.bad - sum(r.bad for r in narrower)
    merged = wider.merged - sum(r.merged for r in narrower)
    return bad > 0 and merged == 0


def place_scopes(rows: list[ProposalOutcome], enabled: Sequence[Enable] = ()) -> dict[str, str]:
    """Places where reviewers closed PRs whatever their rules: every rule is held there, as narrow as the evidence
    goes (the narrowest such folder; a kind of place where no folder shows it; never every library module). Only
    where they merged none there, no one rule explains the closes (one common to all, or the one their words
    named), and chance — the closes of memfix's PRs elsewhere — would rarely close so many. A place a person
    proposed every rule in again counts only its PRs since."""
    rows = [r for r in rows if not _waived(r, enabled)]
    by_scope = _by_place(rows)
    decided = [r for r in rows if r.state != ProposalState.OPEN]
    candidates = {scope: closed for scope, here in by_scope.items() if (closed := _unexplained_closes(here))}
    # each place that could be held is one more chance, unless its PRs are another's (a folder and its only subfolder)
    looks = len({frozenset(id(r) for r in by_scope[scope] if r.state != ProposalState.OPEN) for scope in candidates})
    found = {scope: why for scope, closed in candidates.items()
             if (why := _beyond_chance(closed, [r for r in decided if r not in by_scope[scope]], looks))}
    return _narrowest_places(found, by_scope)


def _by_place(rows: list[ProposalOutcome]) -> dict[str, list[ProposalOutcome]]:
    """The PRs in each place (a kind of place, a folder); never every library module, which is no place."""
    by_scope: dict[str, list[ProposalOutcome]] = defaultdict(list)
    for r in rows:
        for scope in scopes_of(r.path, r.place or place(r.path)):
            if scope != kind_scope(Kind.LIBRARY):
                by_scope[scope].append(r)
    return by_scope


def _narrowest_places(found: dict[str, str], by_scope: dict[str, list[ProposalOutcome]]) -> dict[str, str]:
    """The narrowest of the folders found, or of the kinds of place where no folder is; a wider folder found instead
    where it has closes of its own outside the narrower ones (none of the places found has a merge)."""
    chosen = {s: why for s, why in found.items() if not s.startswith(KIND)} or found
    narrowest = [s for s in chosen if not any(o != s and contains(s, o) for o in chosen)]

    def own(wider: str) -> bool:
        inside = {id(r) for n in narrowest if n != wider and contains(wider, n) for r in by_scope[n]}
        return any(_closed(r) and id(r) not in inside for r in by_scope[wider])

    kept = [s for s in chosen if s in narrowest or own(s)]
    return {s: chosen[s] for s in kept if not any(o != s and contains(o, s) for o in kept)}


def _unexplained_closes(here: list[ProposalOutcome]) -> list[ProposalOutcome]:
    """A place's closes that could be the place's doing: enough of them, none merged there, and no rule explains
    them; else none."""
    closed = [r for r in here if _closed(r)]
    if len(closed) < MIN_CLOSED or any(r.state == ProposalState.MERGED for r in here) or _explained(closed):
        return []
    return closed


def _beyond_chance(closed: list[ProposalOutcome], elsewhere: list[ProposalOutcome], places: int) -> str | None:
    """Why a place's closes are more than chance — the closes of memfix's PRs elsewhere, over `places` places that
    could be held — would make, or None."""
    chance = Chance.of(sum(_closed(r) for r in elsewhere), len(elsewhere), 0, 0)
    if beyond_chance(len(closed), len(closed), chance.closes) >= ALPHA / places:
        return None
    rules = sorted({c for r in closed for c in r.finding_codes})
    return (f"reviewers closed {len(closed)} PRs of {len(rules)} rules here ({', '.join(rules)}), "
            f"merged none, and close {chance.closes:.0%} elsewhere")


def _closed(r: ProposalOutcome) -> bool:
    """Closed by reviewers for what the change is: a PR closed while its CI was red counts once, as the CI's."""
    return r.state == ProposalState.CLOSED and not r.ci_failures


def _explained(closed: list[ProposalOutcome]) -> bool:
    """Whether rules explain every close: people's words named a rule of each, the PRs carried one rule or none
    between them, or one rule all of them carried (as people named them, where they did)."""
    if all(r.blamed for r in closed) or len({c for r in closed for c in r.finding_codes}) < 2:
        return True
    return bool(set.intersection(*(set(r.blamed or r.finding_codes) for r in closed)))


def rules_outside(rows: list[ProposalOutcome], enabled: Sequence[Enable] = ()) -> tuple[list[ProposalOutcome],
                                                                                       dict[str, str]]:
    """The outcomes that are evidence on rules, and the places held for every rule (`place_scopes`): a close inside
    such a place is the place's doing, not its rules', so it counts against no rule, there or elsewhere (a fix
    judged in a file of the same kind included); nor does a close in a place a person proposed every rule in again
    after it (lifting the place's hold does not turn its closes on the rules)."""
    places = place_scopes(rows, enabled)
    return [r for r in rows if r.state != ProposalState.CLOSED or not _waived(r, enabled) and not any(
        covers(scope, r.path, r.place or place(r.path)) for scope in places)], places


def _in(scope: str | None) -> str:
    return f" in {words(scope)}" if scope else ""


def _command(code: str, scope: str | None) -> str:
    """The rule and scope as `/remember decision hold|enable` takes them."""
    return f"{code} in {scope}" if scope else code


class _Standing(Exception):
    """The hold being decided stands already: its new insight is rolled back."""


@dataclass(frozen=True)
class Hold:
    code: str
    reason: str
    insight_id: int
    by: str  # LEARNED or the person's login
    scope: str | None = None  # None: the whole repository
    decided_at: datetime | None = field(default=None, compare=False)
    pipeline: str | None = field(default=None, compare=False)  # a learned hold's (its evidence); None: a person's

    @property
    def where(self) -> str:
        return f"in {words(self.scope)}"

    def retry_at(self, evidence: Evidence) -> datetime | None:
        """When a learned hold may be tried again by exploration: after its decision or its rule's latest outcome
        there, a week for its first bad outcome and twice as long for each one since — a failed try included, so the
        wait grows with the evidence, never stands still — within four months (None: a person's hold, which only a
        person lifts). A hold on two closes is tried two weeks on, a closed try four weeks after that."""
        if self.by != LEARNED:
            return None
        record = evidence.record(self.code, self.scope)
        since = max((t for t in (self.decided_at, record.last) if t is not None), default=datetime.now(UTC))
        return since + timedelta(days=min(EXPLORE_DAYS * 2 ** max(0, record.bad - 1), RETRY_CAP_DAYS))

    @property
    def key(self) -> str:
        """The hold as a decision command names it: `F401`, `F401 in tests/**`, `* in vendor/**`."""
        return _command(self.code, self.scope)

    def describe(self) -> str:
        who = "learned" if self.by == LEARNED else f"asked by @{self.by}"
        what = "every rule is" if self.code == EVERY_RULE else f"{self.code}"
        return (f"{what} held back{_in(self.scope)} ({who}): {self.reason} — decision `insight:{self.insight_id}`;"
                f" `/forget insight:{self.insight_id}` or `/remember decision enable {_command(self.code, self.scope)}`"
                " proposes it again")


@dataclass(frozen=True)
class HeldBack:
    """A held rule's findings a run left in one file, a file of this kind of place."""

    rule: str
    path: str
    place: str
    held_at: datetime | None = None


@dataclass
class RepoPolicy:
    """What the policy says for one run: records, holds in force, holds a configuration overrides, suggestions, and
    a person's enables that make exceptions to older holds."""

    records: dict[str, Record] = field(default_factory=dict)
    holds: list[Hold] = field(default_factory=list)
    overridden: list[Hold] = field(default_factory=list)  # held, but `always_propose` in memfix.yml
    suggestions: list[str] = field(default_factory=list)  # holds learned in the installation's other repositories
    enables: list[Enable] = field(default_factory=list)
    contexts: dict[str, dict[str, Record]] = field(default_factory=dict)  # Evidence.contexts
    exploring: Hold | None = None  # a learned hold this run tries again on purpose (not in `holds`)
    doubted: frozenset[str] = frozenset()  # rules whose CI reds put them in doubt (`in_doubt`): one PR of each a run

    def records_for(self, path: str, kind: str) -> dict[str, Record]:
        """Each rule's record in the kind of place `path` is (what a fix there is judged by). A rule tried again on
        purpose, or one a person enabled where `path` is, is judged without it: else the record that held it would
        keep the try, or the person's word, from being proposed."""
        scope, tried = kind_scope(kind), self.exploring.code if self.exploring else None
        return {code: here[scope] for code, here in self.contexts.items() if scope in here and code != tried
                and not any(e.rule == code and e.scope and covers(e.scope, path, kind) for e in self.enables)}

    def _excepted(self, hold: Hold, path: str | None = None, kind: str = "") -> bool:
        """A later enable of the rule applies to `path` (None: to some file)."""
        return any(e.rule == hold.code and e.insight_id > hold.insight_id
                   and (path is None or covers(e.scope, path, kind)) for e in self.enables)

    @property
    def held(self) -> tuple[str, ...]:
        """The rules held back in every file: the linter runs without them."""
        return tuple(sorted({h.code for h in self.holds if h.scope is None and not self._excepted(h)}))

    @property
    def scoped(self) -> bool:
        """Whether a file's place decides what is held back in it."""
        return any(h.code not in self.held for h in self.holds)

    def held_for(self, path: str, kind: str) -> tuple[str, ...]:
        """The rules held back in `path`, a file of this kind of place."""
        return tuple(sorted({h.code for h in self.holds if covers(h.scope, path, kind)
                             and not self._excepted(h, path, kind)}))

    def named(self) -> tuple[str, ...]:
        """The holds in force as a summary names them: `F401`, `F811 in tests`, `every rule in vendor/**`,
        `biome:lint/style/useConst` (a rule with its tool where its code does not say it)."""
        return tuple(dict.fromkeys(("every rule" if h.code == EVERY_RULE else rule_shown(h.code)) + _in(h.scope)
                                   for h in self.holds))

    def rank(self, codes: set[str]) -> float:
        """A patch's place in the queue: its weakest rule's acceptance estimate (higher goes first)."""
        return min((self.records.get(c, Record()).posterior for c in codes), default=0.5)

    def used(self) -> list[str]:
        """What memory changed in this run, in words (the "Learnings used" of an offline run)."""
        lines = [h.describe() for h in self.holds]
        if self.exploring is not None:
            what = "every rule" if self.exploring.code == EVERY_RULE else self.exploring.code
            lines.append(f"{what} is held back{_in(self.exploring.scope)} ({self.exploring.reason}) and "
                         f"tried again in this run on purpose: at most one such PR per repository every "
                         f"{EXPLORE_DAYS} days, each hold less often the more its evidence grows; merge it to have "
                         f"{what} proposed again there, close it to keep it held")
        lines += [f"{h.code} would be held back{_in(h.scope)} ({h.reason}) but `always_propose` in "
                  "`.github/memfix.yml` keeps it" for h in self.overridden]
        lines += [f"{e.rule} proposed in {words(e.scope)} all the same: a person's decision `insight:{e.insight_id}`"
                  for e in self.enables if e.scope and any(h.code == e.rule and h.insight_id < e.insight_id
                                                           for h in self.holds)]
        return lines


class Policy:
    def __init__(self, db: Database, insights: Insights, proposals: Proposals | None = None, *,
                 threshold: float = PROMOTE_THRESHOLD, rng: random.Random | None = None):
        self.db = db
        self.insights = insights
        self.threshold = threshold  # the confidence a fix needs to be published (MEMFIX_PROMOTE_THRESHOLD)
        self.rng = rng or random.Random()  # exploration's draws (a test gives a seeded one)
        self.proposals = proposals or Proposals(db)  # the evidence: what became of memfix's PRs

    def evidence(self, tenant_id: int, repo: str, pipeline: str | None = None,
                 enabled: list[Enable] | None = None) -> Evidence:
        """The rules' evidence (closes inside a place held for every rule left out: see `rules_outside`)."""
        every = self.proposals.outcomes(tenant_id, repo, pipeline)
        enabled = self._enabled(tenant_id, repo) if enabled is None else enabled
        rules, _ = rules_outside(every, enabled)
        return evidence_from(rules, enabled, every)

    def records(self, tenant_id: int, repo: str, pipeline: str | None = None) -> dict[str, Record]:
        return self.evidence(tenant_id, repo, pipeline).records

    def holds(self, tenant_id: int, repo: str, pipeline: str | None = None) -> list[Hold]:
        """The holds in force in this repository (for `pipeline`: a person's and that pipeline's learned ones), the
        first decision on each rule and scope."""
        with self.db.tenant(tenant_id) as conn:
            rows = conn.execute(_HOLDS, {"r": repo, "p": pipeline, "hold": Stance.HOLD}).fetchall()
        holds: dict[tuple[str, str | None], Hold] = {}
        for row in rows:
            holds.setdefault((row["rule"], row["scope"]), Hold(row["rule"], row["reason"], row["insight_id"],
                                                               row["decided_by"], row["scope"], row["created_at"],
                                                               row["pipeline"]))
        return list(holds.values())

    def for_run(self, tenant_id: int, repo: str, pipeline: str, always: tuple[str, ...] = (),
                named: tuple[str, ...] = ()) -> RepoPolicy:
        """The policy for one run; `named`: the rules the repository's lint configuration names today (a learned
        hold of one of them is tried again at once)."""
        holds, enabled = self.holds(tenant_id, repo, pipeline), self._enabled(tenant_id, repo)
        evidence = self.evidence(tenant_id, repo, pipeline, enabled)
        in_force = [h for h in holds if h.code not in always]
        now = datetime.now(UTC)
        learned = {h.key: h for h in in_force if (when := h.retry_at(evidence)) is not None
                   and (when <= now or h.code in named)}  # a place's hold on every rule is tried too, in one file
        tried = explore(learned, {k: evidence.record(h.code, h.scope) for k, h in learned.items()}, self.rng,
                        selected_now=[k for k, h in learned.items() if h.code in named],
                        budget_open=not self.proposals.explored_since(tenant_id, repo, EXPLORE_DAYS)) \
            if learned else None
        exploring = learned.get(tried) if tried else None
        return RepoPolicy(evidence.records, [h for h in in_force if h is not exploring],
                          [h for h in holds if h.code in always],
                          self._suggestions(tenant_id, repo, {h.code for h in holds}), enabled, evidence.contexts,
                          exploring, frozenset(c for c, r in evidence.records.items()
                                               if in_doubt(r, evidence.chance(c))))

    def keep_held(self, tenant_id: int, repo: str, pipeline: str, held: list[HeldBack]) -> None:
        """Remembers the files a run left held rules' findings in, to bring them back when the hold lifts."""
        held = list({(h.rule, h.path): h for h in held}.values())  # one row a rule and file, however many findings
        if held:
            with self.db.tenant(tenant_id) as conn:
                conn.execute(_KEEP_HELD, {"t": tenant_id, "r": repo, "p": pipeline, "rules": [h.rule for h in held],
                                          "paths": [h.path for h in held], "places": [h.place for h in held]})

    def lifted(self, tenant_id: int, repo: str, pipeline: str) -> list[HeldBack]:
        """What holds held back that they no longer hold: a person enabled the rule there, the team merged its
        exploratory PR, or the hold was forgotten."""
        with self.db.tenant(tenant_id) as conn:
            rows = conn.execute(_HELD_BACK, {"r": repo, "p": pipeline}).fetchall()
        if not rows:
            return []
        now = RepoPolicy(holds=self.holds(tenant_id, repo, pipeline), enables=self._enabled(tenant_id, repo))
        return [h for r in rows if (h := HeldBack(**r)).rule not in now.held_for(h.path, h.place)]

    def waiting(self, tenant_id: int, repo: str) -> dict[str, int]:
        """Per rule, how many files hold back its findings now, to be proposed when the hold lifts."""
        with self.db.tenant(tenant_id) as conn:
            return {r["rule"]: r["n"] for r in conn.execute(
                "SELECT rule, count(DISTINCT path) AS n FROM held_back WHERE repository = %s GROUP BY rule",
                (repo,)).fetchall()}

    def brought_back(self, tenant_id: int, repo: str, pipeline: str, back: list[HeldBack]) -> None:
        """The lifted files went into a run: forgotten here (a run that held them again has kept them anew)."""
        if back:
            with self.db.tenant(tenant_id) as conn:
                conn.execute(_BROUGHT_BACK, {"r": repo, "p": pipeline, "rules": [h.rule for h in back],
                                             "paths": [h.path for h in back], "at": [h.held_at for h in back]})

    def learn(self, tenant_id: int, repo: str, pipeline: str, source_ref: str | None = None) -> list[str]:
        """After an outcome: hold what the evidence says to hold, where it says so; lift learned holds it no longer
        supports there. Returns what changed, in words."""
        enabled = self._enabled(tenant_id, repo)
        rules, places = rules_outside(self.proposals.outcomes(tenant_id, repo, pipeline), enabled)
        evidence = evidence_from(rules, enabled)
        holds = self.holds(tenant_id, repo, pipeline)
        changed = []
        for code in evidence.records:
            if rule_code(code) != code:  # a decision names a linter's rule (a model's MODEL is none)
                continue
            wanted = hold_scopes(code, evidence)
            gone = [h for h in holds if h.code == code and h.by == LEARNED and h.scope not in wanted]
            kept = [h for h in holds if h.code == code and h not in gone]
            for hold in gone:
                self.insights.delete(tenant_id, hold.insight_id, repository=repo)
                wider = next((s for s in wanted if contains(s, hold.scope)), hold.scope)
                record = evidence.record(code, hold.scope)
                changed.append(f"widening the hold on {code}{_in(hold.scope)} to {words(wider)}" if wider != hold.scope
                               else f"proposing {code} again{_in(hold.scope)}: {record.describe(words(hold.scope))}")
            for scope, reason in wanted.items():
                if any(contains(h.scope, scope) for h in kept):
                    continue
                decision = Decision(code, Stance.HOLD, LEARNED, reason, pipeline, scope)
                saved, new = self._hold(tenant_id, repo, decision, evidence.record(code, scope), source_ref)
                if not new:  # another job learned it at once, and said so
                    continue
                changed.append(f"now holding back {code}{_in(scope)}: {reason} (decision `insight:{saved}`)")
                self._offer(tenant_id, repo, saved)
        return changed + self._learn_places(tenant_id, repo, pipeline, places, holds, source_ref)

    def _learn_places(self, tenant_id: int, repo: str, pipeline: str, wanted: dict[str, str], holds: list[Hold],
                      source_ref: str | None) -> list[str]:
        """Rejections that share a place across rules (`wanted`, from place_scopes): a hold on the place, for every
        rule; lifted where a merge there no longer supports it."""
        changed = []
        for hold in [h for h in holds if h.code == EVERY_RULE and h.by == LEARNED and h.scope not in wanted]:
            self.insights.delete(tenant_id, hold.insight_id, repository=repo)
            changed.append(f"proposing every rule again{_in(hold.scope)}")
        for scope, reason in wanted.items():
            if any(h.code == EVERY_RULE and contains(h.scope, scope) for h in holds):
                continue
            decision = Decision(EVERY_RULE, Stance.HOLD, LEARNED, reason, pipeline, scope)
            saved, new = self._hold(tenant_id, repo, decision, Record(), source_ref)
            if not new:
                continue
            changed.append(f"now holding back every rule{_in(scope)}: {reason} (decision `insight:{saved}`)")
        return changed

    def hold(self, tenant_id: int, repo: str, codes: list[str], by: str, source_ref: str | None,
             scope: str | None = None) -> list[int]:
        """A person holds rules back (`/remember decision hold F401`, `… hold F401 in tests/**`)."""
        evidence = self.evidence(tenant_id, repo)
        where = f"in {words(scope)}" if scope else "here"
        return [self._hold(tenant_id, repo, Decision(code, Stance.HOLD, by,
                                                     f"@{by} asked memfix not to propose {code} fixes {where}",
                                                     scope=scope),
                           evidence.record(code, scope), source_ref)[0] for code in codes]

    def taken_again(self, tenant_id: int, repo: str, proposal: Proposal, source_ref: str | None) -> list[str]:
        """Reviewers merged an exploratory PR: the team's taste changed, so the rules it tried again are enabled
        as a person's word would (their record starts afresh from here). What changed, in words."""
        if not proposal.exploratory:
            return []
        kind = proposal.place or place(proposal.path)  # only the holds that held it there: the PR tried those
        tried = [h for h in self.holds(tenant_id, repo, proposal.pipeline) if h.by == LEARNED
                 and h.code in (*proposal.finding_codes, EVERY_RULE) and covers(h.scope, proposal.path, kind)]
        for hold in tried:
            if hold.code == EVERY_RULE:  # the place's merge is its evidence: `learn` lifts the hold it no longer backs
                continue
            self.enable(tenant_id, repo, [hold.code], LEARNED, source_ref, hold.scope)
        if not tried:  # memfix's own suggestion of a kind nobody chose: merged, its rules are proposed here from now
            codes = sorted(set(proposal.finding_codes))
            self.enable(tenant_id, repo, codes, LEARNED, source_ref)
            return [f"proposing {', '.join(codes)} here from now: reviewers merged memfix's own suggestion"]
        return [f"proposing {'every rule' if h.code == EVERY_RULE else h.code} again{_in(h.scope)}: reviewers merged "
                "the PR that tried it again" for h in tried]

    def enable(self, tenant_id: int, repo: str, codes: list[str], by: str, source_ref: str | None,
               scope: str | None = None) -> list[int]:
        """A person re-enables rules (`/remember decision enable F401`, `… enable F401 in src/**`): their holds within
        that scope go (every one, without a scope); the decision is kept."""
        lifted = []
        for code in codes:
            what = "every rule's" if code == EVERY_RULE else code
            with self.db.tenant(tenant_id) as conn:
                holds = conn.execute(_RULE_HOLDS, {"r": repo, "hold": Stance.HOLD, "rule": code}).fetchall()
                ids = [h["insight_id"] for h in holds if contains(scope, h["scope"])]
                lifted += sorted(r["id"] for r in conn.execute(_LIFT, {"r": repo, "ids": ids})) if ids else []
            self._decide(tenant_id, repo, Decision(code, Stance.ENABLE, by, scope=scope), Insight(
                repository=repo, insight_type="decision", category="maintainability", workflow_type="review",
                title=f"Propose {what} fixes in {repo} again" + (f" ({words(scope)})" if scope else ""),
                detail=f"@{by} re-enabled {what} fixes{_in(scope)}" if by != LEARNED else
                f"reviewers merged memfix's exploratory {code} fix: proposed again", source_ref=source_ref,
                tags=("policy", Stance.ENABLE, code, f"by:{by}")))
        return lifted

    def _enabled(self, tenant_id: int, repo: str) -> list[Enable]:
        with self.db.tenant(tenant_id) as conn:
            rows = conn.execute(_ENABLED, {"r": repo, "enable": Stance.ENABLE}).fetchall()
        return [Enable(r["rule"], r["scope"], r["insight_id"], r["created_at"]) for r in rows]

    def _hold(self, tenant_id: int, repo: str, decision: Decision, record: Record,
              source_ref: str | None) -> tuple[int, bool]:
        code, scope = decision.rule, decision.scope
        return self._decide(tenant_id, repo, decision, Insight(
            repository=repo, insight_type="decision", category="maintainability", severity="medium",
            workflow_type=decision.pipeline or "review",
            title=f"Hold back {'every rule' if code == EVERY_RULE else code} fixes in {repo}"
            + (f" ({words(scope)} only)" if scope else ""),
            detail=f"{decision.reason}\nEvidence: {record.describe(words(scope))}. Re-enable with `/forget` of this "
                   f"insight, `/remember decision enable {_command(code, scope)}`, or `always_propose: [{code}]` in "
                   "`.github/memfix.yml`.",
            source_ref=source_ref, tags=("policy", Stance.HOLD, code, f"by:{decision.by}")))

    def _decide(self, tenant_id: int, repo: str, decision: Decision, record: Insight) -> tuple[int, bool]:
        """The decision's row and the insight that records it for people, in one transaction: the insight's id, and
        whether it is new (False: the same hold stood already, and its id is returned; nothing is written)."""
        key = {"r": repo, "rule": decision.rule, "stance": decision.stance, "p": decision.pipeline,
               "scope": decision.scope}

        def row(conn: Connection, saved: list[SaveResult]) -> None:
            if conn.execute(_DECIDE, {**key, "t": tenant_id, "by": decision.by, "reason": decision.reason,
                                      "i": saved[0].insight.id}).fetchone() is None:
                raise _Standing  # the insight saved for it goes with the transaction

        try:
            saved = self.insights.save_many(tenant_id, [record], dedupe=False, then=row)[0].insight.id
        except _Standing:
            with self.db.tenant(tenant_id) as conn:
                return one(conn.execute(_STANDING, key).fetchone())["insight_id"], False
        assert saved is not None  # a saved insight has its id
        return saved, True

    def _offer(self, tenant_id: int, repo: str, insight_id: int) -> None:
        """The installation's other repositories get the learned hold as an action point, never as a change."""
        with self.db.tenant(tenant_id) as conn:
            conn.execute(_OFFER, {"t": tenant_id, "i": insight_id, "r": repo})

    def _suggestions(self, tenant_id: int, repo: str, here: set[str]) -> list[str]:
        """Holds learned elsewhere in the installation, without naming where: a reply here is read by people who may
        not see that repository (the dashboard names it to those who may)."""
        with self.db.tenant(tenant_id) as conn:
            rows = conn.execute(_SUGGESTED, {"r": repo, "open": PointStatus.OPEN, "hold": Stance.HOLD}).fetchall()
        return [f"suggestion (action point {row['id']}): another repository of this installation holds back "
                f"{row['rule']}{_in(row['scope'])}; `/remember decision hold {_command(row['rule'], row['scope'])}` "
                "does the same here" for row in rows if row["rule"] not in here]
