"""The check report: failures with their place, per-subject results, sweep counts, drift."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field


@dataclass(frozen=True, order=True)
class Failure:
    """One thing that does not resolve: which subject, where it is written, which step
    failed and why."""

    subject: str
    kind: str        # card | ability | passive | sweep
    file: str
    line: int
    step: str
    why: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.subject}: {self.step}: {self.why}"


@dataclass
class Report:
    """Everything `tether check` found."""

    total: int = 0                  # cards
    resolved: int = 0               # cards whose effect, triggers and abilities all resolve
    abilities: tuple[int, int] = (0, 0)   # (resolved, total) Champion abilities
    passives: tuple[int, int] = (0, 0)    # (resolved, total) faction passives in play
    failures: list[Failure] = field(default_factory=list)
    drift: list = field(default_factory=list)          # textcheck.Drift
    dead: list[str] = field(default_factory=list)      # never playable in the sweep
    subjects: dict = field(default_factory=dict)       # id -> per-subject summary
    sweep: dict = field(default_factory=dict)
    scenarios: int = 0
    replays: int = 0                # scenario replays made to probe modifiers and triggers
    seconds: dict = field(default_factory=dict)
    ideas: list[str] = field(default_factory=list)     # passives marked idea (not in play)
    examples: int = 0              # card examples run
    cached: bool = False            # scenario and sweep results reused (definitions unchanged)
    scenarios_reused: bool = False  # scenario results reused (the constants they read held)

    @property
    def ok(self) -> bool:
        """No failure and no text/effect drift."""
        return not self.failures and not self.drift

    def verdict(self) -> str:
        """One line naming what failed: failures, drift or both ('' when ok)."""
        n, d = len(self.failures), len(self.drift)
        drifts = f"{d} text/effect drift{'s' * (d != 1)}"
        cards = len({x.card for x in self.drift})
        if n and d:
            return f"check failed: {n} failure{'s' * (n != 1)} and {drifts}"
        if n:
            return f"check failed: {n} failure{'s' * (n != 1)} (see the FAIL lines)"
        if d:
            return (f"check failed on text/effect drift: {drifts} in {cards} "
                    f"card{'s' * (cards != 1)} (see the DRIFT lines); every card resolves")
        return ""

    def summary(self) -> list[str]:
        """The lines `tether check` prints."""
        lines = [f"{self.resolved}/{self.total} cards resolve",
                 f"{self.abilities[0]}/{self.abilities[1]} Champion abilities resolve",
                 f"{self.passives[0]}/{self.passives[1]} faction passives resolve",
                 f"{self.examples} card examples run"]
        sw = self.sweep
        if sw:
            lines.append(f"sweep: {sw['games']} games ({sw['players']} players, "
                         f"{sw['agents']} agents), {sw['played']} cards played, "
                         f"{sw['errors']} errors")
        lines.append(f"{self.scenarios} scenarios (+{self.replays} probe replays), "
                     + ("results reused: the definitions they play are unchanged"
                        if self.cached else
                        "results reused: no game constant they read changed; the sweep "
                        f"played again, {self.seconds.get('total', 0):.1f} s"
                        if self.scenarios_reused else
                        f"{self.seconds.get('total', 0):.1f} s"))
        for f in sorted(self.failures):
            lines.append(f"FAIL {f}")
        for d in self.drift:
            lines.append(f"DRIFT {d}")
        if self.dead:
            lines.append(f"warning: {len(self.dead)} card(s) never playable in the sweep "
                         f"(dead): {', '.join(self.dead)}")
        if self.ideas:
            lines.append(f"note: not in play (idea): {', '.join(self.ideas)}")
        return lines

    def to_json(self, timings: bool = True) -> dict:
        """The full report as plain JSON data (timings=False: the same bytes for the same
        content, as a build output must be)."""
        return {
            "ok": self.ok,
            "cards": {"resolved": self.resolved, "total": self.total},
            "abilities": {"resolved": self.abilities[0], "total": self.abilities[1]},
            "passives": {"resolved": self.passives[0], "total": self.passives[1]},
            "failures": [asdict(f) for f in sorted(self.failures)],
            "drift": [{"card": d.card, "file": d.file, "line": d.line,
                       "message": d.message} for d in self.drift],
            "dead": list(self.dead),
            "ideas": list(self.ideas),
            "scenarios": self.scenarios,
            "replays": self.replays,
            "subjects": self.subjects,
            "sweep": self.sweep,
            **({"seconds": self.seconds, "cached": self.cached,
                "scenarios_reused": self.scenarios_reused} if timings else {}),
        }
