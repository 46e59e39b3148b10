"""Games kept as bytes (`Frozen`: each thaw an exact, independent copy) and the key of a
decision's option that is the same in every copy of a game (`option_key`). Used by the
search's forks (fork.py) and the state API's copies (state_api.py); it imports neither.
"""

from __future__ import annotations

import io
import pickle
from types import FunctionType

from .state import NO_OVERRIDES, Champion


def option_key(o):
    """A hashable key of a decision's option that is the same in every fork of a game (a
    Champion by its id, everything else by value)."""
    t = type(o)
    if t is int or t is str or o is None:
        return o
    if t is tuple:
        return tuple(map(option_key, o))
    if t is Champion:
        return ("champion", o.cid)
    return o


_SHARED: dict[type, bool] = {}   # type -> are its objects shared definitions


class _Pickler(pickle.Pickler):
    def __init__(self, fh, keep: list):
        super().__init__(fh, protocol=pickle.HIGHEST_PROTOCOL)
        self.keep = keep

    def persistent_id(self, obj):
        """Immutable definitions and compiled functions are shared, not copied (as by
        `Game.clone`)."""
        t = type(obj)
        shared = _SHARED.get(t)
        if shared is None:
            shared = _SHARED[t] = t is FunctionType or getattr(t, "shared_definition", False)
        if shared or obj is NO_OVERRIDES:
            self.keep.append(obj)
            return len(self.keep) - 1
        return None


class _Unpickler(pickle.Unpickler):
    def __init__(self, fh, keep: list):
        super().__init__(fh)
        self.keep = keep

    def persistent_load(self, pid):
        """The shared definition kept at pickling."""
        return self.keep[pid]


class Frozen:
    """A game kept as bytes; each `thaw` is an independent, exact copy of it."""

    def __init__(self, g):
        self.game, self.trace = g, list(g.trace)
        agents, g.agents = g.agents, []
        self.keep: list = []
        buf = io.BytesIO()
        try:
            _Pickler(buf, self.keep).dump(g)
            self.data: bytes | None = buf.getvalue()
        except (pickle.PicklingError, TypeError, AttributeError):
            self.data = None  # something in this state cannot be pickled: deepcopy it
        finally:
            g.agents = agents

    def thaw(self, agents: list):
        """A copy of the game with these agents."""
        if self.data is None:
            return self.game.clone(agents=agents)
        g = _Unpickler(io.BytesIO(self.data), self.keep).load()
        g.agents = agents
        return g
