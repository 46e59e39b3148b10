"""A static bound on the steps one effect can run (issue 43): nested repeats multiply.

Every step counts 1; `repeat` counts 1 + times x its steps; `if`, `roll` and `choose_one`
count their largest branch; a trigger's steps (`add_trigger`) count once per firing. An
amount read from the game ({of: ...}) counts its `max` when it has one, else DYNAMIC x
times + plus (no count of cards, played cards or Champions the game can hold comes near).
`times: all` has no bound at all. An effect whose bound passes MAX_STEPS is refused by
`tether validate` with its place; the engines also stop a game whose effects run past their
budget (engine/core.py, STEP_BUDGET), whatever the content.
"""

from __future__ import annotations

from collections.abc import Iterator

MAX_STEPS = 10_000   # steps one effect (a card, an ability, a trigger's firing) may run
DYNAMIC = 100        # what an amount read from the game ({of: ...}) counts without a max


def amount_bound(amount) -> int | None:
    """The largest value an amount can take; None: no bound ("all")."""
    if isinstance(amount, bool):
        return 1
    if isinstance(amount, int):
        return max(0, amount)
    if isinstance(amount, dict):
        times, plus = amount.get("times", 1), amount.get("plus", 0)
        times = times if isinstance(times, int) else 1
        plus = plus if isinstance(plus, int) else 0
        top = max(0, DYNAMIC * times + plus)
        cap = amount.get("max")
        return min(top, max(0, cap)) if isinstance(cap, int) and not isinstance(cap, bool) \
            else top
    return None


def _branches(step: dict) -> Iterator[tuple[tuple, list]]:
    """(path from the step, steps) of every nested list of steps a step holds."""
    for key in ("then", "else", "steps"):
        if isinstance(step.get(key), list):
            yield (key,), step[key]
    for key in ("options", "outcomes"):
        for i, item in enumerate(step.get(key) or []):
            if isinstance(item, dict) and isinstance(item.get("steps"), list):
                yield (key, i, "steps"), item["steps"]


def steps_bound(steps, path: tuple = ()) -> tuple[int | None, tuple, str]:
    """(bound, path, why) of a list of steps: the bound on the steps they run (None: none),
    and where the first over-large or unbounded part is (path below `path`) with why."""
    total, worst = 0, None
    for i, step in enumerate(steps if isinstance(steps, list) else []):
        n, where, why = step_bound(step, path + (i,))
        if n is None:
            return None, where, why
        if worst is None and n > MAX_STEPS:
            worst = (where, why)
        total += n
    if worst is not None:
        return total, *worst
    return total, path, f"runs up to {total} steps"


def step_bound(step, path: tuple) -> tuple[int | None, tuple, str]:
    """(bound, path, why) of one step (see steps_bound)."""
    if not isinstance(step, dict):
        return 1, path, "runs 1 step"
    inner = [steps_bound(sub, path + rel) for rel, sub in _branches(step)]
    for n, where, why in inner:
        if n is None:
            return None, where, why
    kind = step.get("step")
    if kind == "repeat":
        times = amount_bound(step.get("times"))
        if times is None:
            return None, path + ("times",), "repeats 'all' times: no bound on its steps"
        body = sum(n for n, _w, _y in inner)
        total = 1 + times * body
        nested = next(((w, y) for n, w, y in inner if n > MAX_STEPS), None)
        if nested:
            return total, *nested
        return total, path, f"repeats {times} times {body} step(s): {total} steps"
    if kind == "add_trigger":   # its steps run once per firing, later
        body = sum(n for n, _w, _y in inner)
        return 1 + body, path, f"adds a trigger of {body} step(s)"
    biggest = max(inner, key=lambda t: t[0], default=(0, path, ""))
    if biggest[0] > MAX_STEPS:
        return 1 + biggest[0], biggest[1], biggest[2]
    return 1 + biggest[0], path, f"runs up to {1 + biggest[0]} steps"


def effect_lists(card: dict) -> Iterator[tuple[tuple, list]]:
    """(path in the card, steps) of every effect a card holds: its effect, its triggers'
    steps and its Champion's abilities' steps."""
    if isinstance(card.get("effect"), list):
        yield ("effect",), card["effect"]
    for i, trig in enumerate(card.get("triggers") or []):
        if isinstance(trig, dict) and isinstance(trig.get("steps"), list):
            yield ("triggers", i, "steps"), trig["steps"]
    champ = card.get("champion")
    for i, ability in enumerate((champ or {}).get("abilities") or [] if isinstance(
            champ, dict) else []):
        if isinstance(ability, dict) and isinstance(ability.get("steps"), list):
            yield ("champion", "abilities", i, "steps"), ability["steps"]


def too_much(steps, path: tuple = ()) -> tuple[tuple, str] | None:
    """(path, message) when a list of steps has no bound or one above MAX_STEPS; else None."""
    n, where, why = steps_bound(steps, path)
    if n is not None and n <= MAX_STEPS:
        return None
    if n is None:
        return where, f"{why} (an effect runs at most {MAX_STEPS} steps)"
    return where, f"{why}; an effect runs at most {MAX_STEPS} steps"
