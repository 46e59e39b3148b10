"""Exact combat odds (§14) with fractions: per-die hit chances and battles to the death.

Hit assignment follows §14.2 as the engine reads it: every hit goes to one enemy unit chosen
uniformly at random among the enemy units alive at the start of the combat round, so two
hits can fall on the same Cohort (the second is then wasted). Engine-free: plain arithmetic.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from math import comb


def p_hit(hit: int, sides: int) -> Fraction:
    """Chance that one die hits on a roll of `hit` or less."""
    return Fraction(max(0, min(hit, sides)), sides)


def p_any_hit(dice: int, hit: int, sides: int) -> Fraction:
    """Chance that at least one of `dice` dice hits."""
    return 1 - (1 - p_hit(hit, sides)) ** dice


def binomial(n: int, p: Fraction) -> list[Fraction]:
    """P(k successes) for k = 0..n."""
    return [comb(n, k) * p ** k * (1 - p) ** (n - k) for k in range(n + 1)]


@cache
def distinct_hit(hits: int, units: int) -> tuple[Fraction, ...]:
    """P(j different units hit) for j = 0..units when `hits` hits land uniformly at random."""
    dist = [Fraction(0)] * (units + 1)
    dist[0] = Fraction(1)
    for _ in range(hits):
        nxt = [Fraction(0)] * (units + 1)
        for j, pj in enumerate(dist):
            if pj:
                nxt[j] += pj * Fraction(j, units)
                if j < units:
                    nxt[j + 1] += pj * Fraction(units - j, units)
        dist = nxt
    return tuple(dist)


def casualties(attackers: int, targets: int, dice: int, hit: int, sides: int
               ) -> list[Fraction]:
    """P(j enemy single-hit units destroyed in one combat round), j = 0..targets."""
    out = [Fraction(0)] * (targets + 1)
    for k, pk in enumerate(binomial(attackers * dice, p_hit(hit, sides))):
        for j, pj in enumerate(distinct_hit(k, targets)):
            out[j] += pk * pj
    return out


class Battle:
    """A battle of single-hit units (Cohorts) on both sides, fought to the death."""

    def __init__(self, dice: int, hit: int, sides: int):
        self.dice, self.hit, self.sides = dice, hit, sides
        self._memo: dict[tuple[int, int], tuple[Fraction, Fraction, Fraction, Fraction]] = {}

    def outcome(self, a: int, d: int) -> tuple[Fraction, Fraction, Fraction, Fraction]:
        """(P attacker wins, P defender wins, P both destroyed, expected combat rounds)."""
        if a == 0 or d == 0:
            return (Fraction(int(a > 0)), Fraction(int(d > 0)), Fraction(int(a == d == 0)),
                    Fraction(0))
        if (a, d) in self._memo:
            return self._memo[(a, d)]
        to_d = casualties(a, d, self.dice, self.hit, self.sides)
        to_a = casualties(d, a, self.dice, self.hit, self.sides)
        stay = to_d[0] * to_a[0]  # nobody is hit: the round is fought again
        win = lose = both = rounds = Fraction(0)
        for kd, pd in enumerate(to_d):
            for ka, pa in enumerate(to_a):
                if kd == ka == 0 or not pd * pa:
                    continue
                w, lo, b, r = self.outcome(a - ka, d - kd)
                p = pd * pa
                win, lose, both, rounds = win + p * w, lose + p * lo, both + p * b, rounds + p * r
        scale = 1 / (1 - stay)
        result = (win * scale, lose * scale, both * scale, (1 + rounds) * scale)
        self._memo[(a, d)] = result
        return result


@cache
def battle(dice: int, hit: int, sides: int) -> Battle:
    """The Battle of these dice, one a process: the player aid's table and the combat
    example ask for the same battles (their sub-battles), worked out once."""
    return Battle(dice, hit, sides)


def percent(p: Fraction, digits: int = 0) -> str:
    """A probability as a percentage string, rounded half up ('33%')."""
    value = p * 100
    scaled = int(value * 10 ** digits + Fraction(1, 2))
    if 0 < p and scaled == 0:
        return f"<{1 / 10 ** digits:g}%"      # possible, however unlikely: never "0%"
    if p < 1 and scaled == 100 * 10 ** digits:
        return f">{100 - 1 / 10 ** digits:g}%"  # not certain: never "100%"
    if digits == 0:
        return f"{scaled}%"
    return f"{scaled / 10 ** digits:.{digits}f}%"
