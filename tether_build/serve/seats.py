"""Who may see and answer for which seat of a Play page game: tokens and the hot-seat cover.

A game with one person gives that seat a secret token; a request for the seat must carry it.
A hot-seat game (several people at one screen) gives the screen ONE table token and no seat
tokens: the server itself keeps the cover. Between turns the screen gets the covered view
(public things only, and which seat is to act); the observation of the seat whose decision is
pending is served only after that seat's "I am seat N, show my hand" step (`reveal`), and
only while that seat is to act (or agents play after its answer). When another seat is to
act, the cover is up again. A request for a seat that is not shown is refused (403).
"""

from __future__ import annotations

import secrets

from ..engine.table import HUMAN, Refused


class Answer(Exception):
    """An HTTP answer other than 200: status and a message for the page."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


def new_tokens(seats: list[str], hotseat: bool) -> tuple[dict[int, str], str | None]:
    """(seat tokens, table token): a hot-seat screen (two or more people) gets the table
    token only."""
    people = [p for p, s in enumerate(seats) if s == HUMAN]
    if hotseat and len(people) > 1:
        return {}, secrets.token_urlsafe(12)
    return {p: secrets.token_urlsafe(12) for p in people}, None


def _seat_of(data: dict):
    seat = data.get("seat")
    if isinstance(seat, str) and seat.isdigit():
        seat = int(seat)
    if seat is None or (isinstance(seat, int) and not isinstance(seat, bool)):
        return seat
    raise Answer(403, f"not a seat: {seat!r}")


def _right(token, want: str | None) -> bool:
    return isinstance(token, str) and want is not None and secrets.compare_digest(want, token)


def _screen(game, data: dict) -> None:
    if not _right(data.get("token"), game.screen):
        raise Answer(403, "that is not this table's token: only its screen may play it")


def shown(game) -> int | None:
    """The seat whose hand the hot-seat screen may see now (None: the cover is up). The cover
    goes up as soon as another seat is to act."""
    pend = game.table.pending
    if game.shown is not None and (game.table.over or pend is not None
                                   and pend.p != game.shown):
        game.shown = None
    return game.shown


def viewer(game, data: dict) -> int | None:
    """The seat a state request may see (None: a spectator, or the covered screen)."""
    seat = _seat_of(data)
    if seat is None and data.get("token") is None:
        return None  # a spectator: public things only
    if game.screen is None:
        return speaker(game, data)
    _screen(game, data)
    now = shown(game)
    if seat is not None and seat != now:
        raise Answer(403, f"the cover is up: seat {seat + 1}'s hand is shown only to seat "
                          f"{seat + 1}, when it is to act, after 'show my hand'")
    return now


def speaker(game, data: dict) -> int:
    """The seat a request acts for, proved by its token (403 if not); on a hot-seat screen,
    the seat shown."""
    seat = _seat_of(data)
    if game.screen is not None:
        _screen(game, data)
        now = shown(game)
        if now is None or seat not in (None, now):
            raise Answer(403, "the cover is up: the seat to act shows its hand first")
        return now
    if seat is None or not _right(data.get("token"), game.tokens.get(seat)):
        raise Answer(403, "that seat's token is not right: only its player may act for it")
    return seat


def reveal(game, data: dict) -> int:
    """'I am seat N, show my hand': lift the cover for the seat whose decision is pending."""
    if game.screen is None:
        raise Refused("this game has no hot-seat cover: each seat has its own token")
    _screen(game, data)
    seat = _seat_of(data)
    pend = game.table.pending
    if pend is None or game.table.seats[pend.p] != HUMAN:
        raise Answer(403, "no person is to act now: the cover stays up")
    if seat != pend.p:
        raise Answer(403, f"seat {pend.p + 1} is to act, not seat "
                          f"{'?' if seat is None else seat + 1}: the cover stays up")
    game.shown = seat
    return seat


def undoer(game, data: dict) -> int:
    """The seat whose last decision an undo takes back: the requester's own, or on a
    hot-seat screen the last person's (then the cover goes up: that seat shows its hand again)."""
    if game.screen is None:
        return speaker(game, data)
    _screen(game, data)
    last = game.table.last_person()
    if last is None:
        raise Refused("cannot undo: no person has decided yet")
    return last


def may_save(game, data: dict) -> None:
    """A game with people is saved by one of them (its table token or a seat's token)."""
    token = data.get("token")
    if game.screen is not None:
        _screen(game, data)
    elif game.tokens and not any(_right(token, t) for t in game.tokens.values()):
        raise Answer(403, "a seat's token is needed to save this game")
