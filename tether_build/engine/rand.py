"""Fast twins of the `random.Random` methods the game loop calls most (shuffle, randint).

They draw exactly the same numbers from the generator as the library methods (the
library's own algorithm, `_randbelow_with_getrandbits`, written out without its layers
of Python calls), so a seed gives the same game whichever is used. Any generator that is
not a plain `random.Random` gets the library method.
"""

from __future__ import annotations

import random

PLAIN = _PLAIN = random.Random  # the generator the fast twins serve


def below(rng, n: int) -> int:
    """A random int in [0, n), n > 0: `rng._randbelow(n)`."""
    if type(rng) is not _PLAIN:
        return rng._randbelow(n)
    getrandbits = rng.getrandbits
    k = n.bit_length()
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r


def randint(rng, a: int, b: int) -> int:
    """A random int in [a, b]: `rng.randint(a, b)` for int arguments."""
    if type(rng) is not _PLAIN:
        return rng.randint(a, b)
    n = b - a + 1
    if n <= 0:
        raise ValueError(f"empty range for randint({a}, {b})")
    return a + below(rng, n)


def shuffle(rng, x: list) -> None:
    """Shuffle x in place: `rng.shuffle(x)`."""
    if type(rng) is not _PLAIN:
        rng.shuffle(x)
        return
    getrandbits = rng.getrandbits
    for i in reversed(range(1, len(x))):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]
