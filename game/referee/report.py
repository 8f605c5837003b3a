"""The referee's verdicts: a Violation per broken rule, and a report counting every check made (issue 14 item 5)."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field


@dataclass(frozen=True, slots=True)
class Violation:
    """One broken rule: its RULES.md id, the hostile unit (or force) concerned, the turn, the event seq of the
    decision's first event, what happened and what the rule allowed instead."""

    rule: str
    unit: str
    turn: int
    seq: int
    happened: str
    allowed: str

    def text(self) -> str:
        return f"[{self.rule}] turn {self.turn} seq {self.seq} {self.unit}: {self.happened}; allowed: {self.allowed}"

    def to_json(self) -> dict[str, object]:
        return asdict(self)


@dataclass(slots=True)
class ZoneReport:
    """Every violation found so far, and how many times each rule was checked (a pass counts too)."""

    violations: list[Violation] = field(default_factory=list)
    checks: dict[str, int] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.violations

    def rules_broken(self) -> dict[str, int]:
        """Violations per rule id."""
        out: dict[str, int] = {}
        for v in self.violations:
            out[v.rule] = out.get(v.rule, 0) + 1
        return dict(sorted(out.items()))

    def summary(self) -> str:
        """One line per rule checked: checks and violations."""
        broken = self.rules_broken()
        return "\n".join(f"{rule}: {n} checks, {broken.get(rule, 0)} violations"
                         for rule, n in sorted(self.checks.items()))

    def to_json(self) -> dict[str, object]:
        return {"violations": [v.to_json() for v in self.violations], "checks": dict(sorted(self.checks.items()))}


class Judge:
    """The report's pen for one decision: every `check` is counted under its rule; a failed one is a Violation
    stamped with the decision's turn and event seq."""

    __slots__ = ("report", "turn", "seq", "found")

    def __init__(self, report: ZoneReport, *, turn: int, seq: int) -> None:
        self.report = report
        self.turn = turn
        self.seq = seq
        self.found: list[Violation] = []

    def check(self, rule: str, unit: str, ok: bool, happened: str = "", allowed: str = "") -> bool:
        self.report.checks[rule] = self.report.checks.get(rule, 0) + 1
        if not ok:
            v = Violation(rule, unit, self.turn, self.seq, happened, allowed)
            self.report.violations.append(v)
            self.found.append(v)
        return ok
