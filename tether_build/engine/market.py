"""The Market Bid-Draft (§11): age preview, buy and pass bids, pass pot, die-roll ties."""

from __future__ import annotations

from functools import lru_cache

from . import rand


def preview_count(rules, round_no: int, players: int) -> int:
    """§11.0: next-Age cards in this round's Market row (table in ages.yaml, capped at P)."""
    age = rules.age_of_round.get(round_no)
    if age is None:
        return 0
    table = rules.age_info[age].get("preview") or {}
    n = table.get(str(round_no), table.get(round_no, 0))
    return max(0, min(players, int(n)))


def next_age(rules, age: str) -> str | None:
    """The Age after `age`, or None for the last."""
    order = [a["numeral"] for a in rules.ages]
    i = order.index(age)
    return order[i + 1] if i + 1 < len(order) else None


def bid_options(gold: int, market: dict) -> tuple[tuple[str, int], ...]:
    """Every legal bid: ('pass', min..gold) then ('buy', min..gold) (§11.2)."""
    return _bids(gold, market["min_pass_bid"], market["min_buy_bid"])


@lru_cache(maxsize=256)
def _bids(gold: int, min_pass: int, min_buy: int) -> tuple[tuple[str, int], ...]:
    """The bid list for one gold amount, built once (a shared, immutable tuple)."""
    return tuple([("pass", x) for x in range(min_pass, gold + 1)]
                 + [("buy", x) for x in range(min_buy, gold + 1)])


class MarketMixin:
    """The Market Bid-Draft of the Game (§11)."""

    def roll_off(self, seats: list[int], why: str) -> int:
        """§11.4: tied players roll a die, lowest wins; repeat among those tied lowest."""
        seats = sorted(seats)
        while len(seats) > 1:
            rolls = {p: rand.randint(self.rng, 1, 6) for p in seats}
            low = min(rolls.values())
            if self.events is not None:
                self.log("rolloff", why=why, rolls={str(k): v for k, v in rolls.items()})
            seats = [p for p in seats if rolls[p] == low]
        return seats[0]

    def market_row(self) -> list[int]:
        """§11.0: reveal N next-Age cards and P - N current-Age cards, shuffled together."""
        s, rules = self.s, self.rules
        P = len(s.players)
        n = preview_count(rules, s.round, P)
        nxt = next_age(rules, s.age)
        row = []
        if n and nxt is not None:
            row += self.reveal(self.deck_for("market", nxt), n)
        row += self.reveal(self.deck_for("market", s.age), P - len(row))
        rand.shuffle(self.rng, row)
        if self.events is not None:
            self.log("market", round=s.round, cards=[s.cards[i].defn.id for i in row], preview=n)
        return row

    def resolve_bids(self, iid: int, eligible: list[int]) -> int:
        """§11.2-11.3: bids for one Market card; returns the seat that gains it."""
        s = self.s
        market, ctx = self.rules.game["market"], {"card": iid}
        if self.on_auction is not None:  # bids are sealed: a world is dealt before any
            self.on_auction(self)        # seat bids (state_api.resample_from_infostate)
        bids = {p: self.decide(p, "bid", bid_options(s.players[p].gold, market), ctx)
                for p in eligible}
        if self.events is not None:
            self.log("bids", card=s.cards[iid].defn.id,
                     bids={str(p): list(b) for p, b in bids.items()},
                     gold={str(p): s.players[p].gold for p in bids},
                     need={str(p): max((s.cards[i].get("gold") for i in s.players[p].hand),
                                       default=0) for p in bids})
        buys = {p: x for p, (kind, x) in bids.items() if kind == "buy"}
        if buys:
            top = max(buys.values())
            winner = self.roll_off([p for p, x in buys.items() if x == top], "buy")
            s.players[winner].gold -= top
            self.log("buy", p=winner, gold=top)
        else:
            passes = {p: x for p, (_, x) in bids.items()}
            low = min(passes.values())
            winner = self.roll_off([p for p, x in passes.items() if x == low], "pass")
            pot = 0
            for p, x in passes.items():
                s.players[p].gold -= x
                pot += x
            s.players[winner].gold += pot
            self.log("pass_pot", p=winner, pot=pot)
        self.take_revealed(iid)
        self.gain_card(winner, iid)
        s.players[winner].market_won = True
        return winner

    def market_phase(self) -> None:
        """Resolve Card 1..P in order; a player who gains a card is out (§11.1)."""
        s = self.s
        row = self.market_row()
        for iid in row:
            eligible = [p for p in range(len(s.players)) if not s.players[p].market_won]
            if not eligible:
                break
            self.resolve_bids(iid, eligible)
            if self.check is not None:
                self.checkpoint("market")
        for iid in [i for i in row if i in s.revealed]:  # only if players ran out (never with P)
            deck = s.cards[iid].defn.deck
            self.to_bottom(deck, [iid])
