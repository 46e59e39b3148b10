"""The content model, frozen: what the commands layer hands the stages is read-only.

`freeze(content)` (commands.load, once the content is validated) turns every mapping and list
of the loaded data into a `FrozenDict` / `FrozenList` and the `Content` itself read-only, so a
stage that tries to change the model (a card's field, a glossary entry, the card list) gets a
`FrozenModelError` naming what it tried, instead of changing what the next stage reads (or, in
a forked worker, what nothing else sees: a bug that depends on the number of workers).

They are `dict` and `list` subclasses: JSON, Jinja, `==`, `isinstance` and the cache keys see
the same values as before. A copy is the way to change one: `dict(x)`, `x.copy()`, `{**x}`,
`list(x)`, `copy.copy` and `copy.deepcopy` give plain, mutable ones. Pickling keeps them frozen
(the build's preloaded process receives the model pickled). The walk costs a few CPU
milliseconds on the designer's content (docs/architecture.md).
"""

from __future__ import annotations

import copy

from ..errors import TetherError


class FrozenModelError(TetherError, TypeError):
    """A stage tried to change the content model."""


def _refuse(self, *_args, **_kwargs):
    raise FrozenModelError(f"the content model is read-only: a stage cannot change this "
                           f"{type(self).__name__.removeprefix('Frozen').lower()} (copy it "
                           "first: dict(x), list(x) or copy.deepcopy(x))")


class FrozenDict(dict):
    """A read-only dict of the content model."""

    __slots__ = ()
    __setitem__ = __delitem__ = __ior__ = _refuse
    clear = pop = popitem = setdefault = update = _refuse

    def __copy__(self):
        return dict(self)

    def __deepcopy__(self, memo):
        return {copy.deepcopy(k, memo): copy.deepcopy(v, memo) for k, v in self.items()}

    def __reduce__(self):
        return (FrozenDict, (dict(self),))


class FrozenList(list):
    """A read-only list of the content model."""

    __slots__ = ()
    __setitem__ = __delitem__ = __iadd__ = __imul__ = _refuse
    append = extend = insert = pop = remove = clear = sort = reverse = _refuse

    def __copy__(self):
        return list(self)

    def __deepcopy__(self, memo):
        return [copy.deepcopy(v, memo) for v in self]

    def __reduce__(self):
        return (FrozenList, (list(self),))


def frozen(value, memo: dict | None = None):
    """`value` with every dict and list in it frozen (shared ones stay shared: `memo`)."""
    memo = {} if memo is None else memo
    kind = type(value)
    if kind is not dict and kind is not list:
        return value   # str, int, float, bool, None, dates, and what is frozen already
    done = memo.get(id(value))
    if done is None:
        if kind is dict:
            done = FrozenDict({k: frozen(v, memo) for k, v in value.items()})
        else:
            done = FrozenList([frozen(v, memo) for v in value])
        memo[id(value)] = done
    return done


def freeze(content):
    """Freeze a loaded `Content` in place (its data, card list, documents) and return it."""
    memo: dict = {}
    for doc in list(content.docs.values()) + list(content.broken.values()):
        doc.data = frozen(doc.data, memo)
    content.cards = frozen(content.cards, memo)
    content.card_docs = frozen(content.card_docs, memo)
    content.docs = FrozenDict(content.docs)
    content.broken = FrozenDict(content.broken)
    content.bad_cards = FrozenDict(content.bad_cards)
    content.frozen = True
    return content
