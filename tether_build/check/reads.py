"""Which game constants a computation read, so its result can be kept while they hold.

The check's scenarios read some forty of the game constants (a hand's size, a March's
distance, the board's slots...) and not others (the round cap, the Permanence to win). Their
results are kept with the constants they read (`Log.reads`), and reused after an edit of the
game constants while each of those still has the value it had (`still_hold`): the same
definitions and the same constants read give the same results, step by step.

`Tracked` is the constants' dict as the engine sees it, noting each read: a value by its
path, a missing key as absent, and the whole of a dict that is iterated, counted, copied,
compared or printed (its keys, and so everything in it). A nested dict is a Tracked of its
own (one per key, so it keeps its identity); a list is noted whole when it is read.
"""

from __future__ import annotations

import json

Path = tuple   # keys from the constants' root (str, or int for a key looked up as a number)


class Log:
    """The constants read so far: path -> (present, value)."""

    def __init__(self):
        self.seen: dict[Path, tuple[bool, object]] = {}

    def note(self, path: Path, present: bool, value=None) -> None:
        """Note one read (the first of each path: the constants do not change meanwhile)."""
        if path not in self.seen:
            self.seen[path] = (present, value)

    def reads(self) -> list:
        """The reads as JSON data: [[path...], present, value] in a stable order."""
        return sorted(([list(path), present, _plain(value)]
                       for path, (present, value) in self.seen.items()),
                      key=lambda r: json.dumps(r[0]))


class Tracked(dict):
    """A dict of game constants that notes, in `log`, what is read of it (module docstring).
    It holds its own items, so it is what the dict was for every reader. A write (the engine
    makes none) notes the whole dict as read and is done."""

    __slots__ = ("_kids", "_log", "_path")

    def __init__(self, data: dict, log: Log, path: Path = ()):
        super().__init__(data)
        self._log, self._path, self._kids = log, path, {}

    def _whole(self) -> None:
        self._log.note(self._path, True, self)

    def __getitem__(self, key):
        value = dict.__getitem__(self, key)   # (a missing key raises KeyError, as a dict's)
        if isinstance(value, dict):
            kid = self._kids.get(key)
            if kid is None:
                kid = self._kids[key] = Tracked(value, self._log, (*self._path, key))
            return kid
        self._log.note((*self._path, key), True, value)
        return value

    def get(self, key, default=None):
        if dict.__contains__(self, key):
            return self[key]
        self._log.note((*self._path, key), False)
        return default

    def __contains__(self, key) -> bool:
        if dict.__contains__(self, key):
            self[key]   # (noted: present, with this value)
            return True
        self._log.note((*self._path, key), False)
        return False

    def __iter__(self):
        self._whole()
        return dict.__iter__(self)

    def __len__(self) -> int:
        self._whole()
        return dict.__len__(self)

    def __eq__(self, other) -> bool:
        self._whole()
        return dict.__eq__(self, other)

    def __ne__(self, other) -> bool:
        self._whole()
        return dict.__ne__(self, other)

    __hash__ = None

    def __repr__(self) -> str:
        self._whole()
        return dict.__repr__(self)

    def __reduce__(self):
        self._whole()
        return dict, (_plain(self),)

    def keys(self):
        self._whole()
        return dict.keys(self)

    def values(self):
        self._whole()
        return [self[key] for key in dict.keys(self)]

    def items(self):
        self._whole()
        return [(key, self[key]) for key in dict.keys(self)]

    def copy(self) -> dict:
        self._whole()
        return _plain(self)

    def __or__(self, other):
        self._whole()
        return _plain(self) | other

    def __ror__(self, other):
        self._whole()
        return other | _plain(self)

    def __reversed__(self):
        self._whole()
        return dict.__reversed__(self)


def _written(name: str):
    """A dict method that writes: the whole dict is noted (what is read after a write
    depends on all of it), then the write is done."""
    def write(self, *args, **kwargs):
        self._whole()
        self._kids.clear()
        return getattr(dict, name)(self, *args, **kwargs)
    write.__name__ = name
    return write


for _name in ("__setitem__", "__delitem__", "__ior__", "setdefault", "pop", "popitem",
              "update", "clear"):
    setattr(Tracked, _name, _written(_name))


def _plain(value):
    """A Tracked (and what it holds) as plain dicts, without noting anything."""
    if isinstance(value, dict):
        return {key: _plain(v) for key, v in dict.items(value)}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def still_hold(reads: list, constants: dict) -> bool:
    """Whether every read (Log.reads) finds the same in `constants` (plain dicts) now."""
    for path, present, value in reads:
        here, found = constants, True
        for key in path:
            if isinstance(here, dict) and key in here:
                here = here[key]
            else:
                found = False
                break
        if found != present or (found and _differ(here, value)):
            return False
    return True


def _differ(value, kept) -> bool:
    """Whether two constants differ, as JSON tells them apart (1, 1.0 and true differ)."""
    return json.dumps(_plain(value), sort_keys=True) != json.dumps(kept, sort_keys=True)
