"""`tether play` at the terminal: the Play page's table and words, as text.

The same table (engine/table.py: the state API's game loop, agents in the other seats), the
same JSON a seat of the Play page gets (playstate.seat_state, from its observation), the
glossary's words. Between decisions it prints the new lines of the event log; at each
decision the board (as text), the hand and the numbered options. `?` lists the hand's cards
with their printed text and the engine's reading, `?N` shows option N's card, `b` the board,
`q` ends the game.
"""

from __future__ import annotations


class Quit(Exception):
    """The person ended the game."""


def board_text(st: dict, hexname) -> str:
    """The public board and the seats, as lines of text (from a seat's JSON)."""
    t = st["terms"]
    lines = [(f"{t['round']} {st['round']} ({t['age']} {st['age']}), {t['lead']}: "
             f"Seat {st['lead'] + 1}")]
    for pl in st["players"]:
        me = " (you)" if pl["seat"] == st["viewer"] else ""
        pvp = f", {t['permanent_vp']} {pl['permanent_vp']}" if pl["permanent_vp"] is not None \
            else ""
        lines.append(f"  Seat {pl['seat'] + 1}{me} {pl['faction']}: {t['gold']} {pl['gold']}, "
                     f"{t['mana']} {pl['mana']}, {t['control_vp']} {pl['control_vp']}{pvp}, "
                     f"{t['hand']} {pl['hand_size']}, {t['draw_pile']} {pl['draw_size']}")
    units: dict[int, list[str]] = {}
    for h, forces in st["forces"].items():
        for seat, n in forces:
            units.setdefault(int(h), []).append(f"Seat {seat + 1}: {n} {t['force'] if n == 1 else t['forces']}")
    for c in st["champions"]:
        units.setdefault(c["hex"], []).append(
            f"Seat {c['seat'] + 1}: {c['name']} {c['hp']}/{c['max_hp']} HP")
    lines.append("Units:")
    for h in sorted(units):
        lines.append(f"  {hexname(h)}: " + "; ".join(units[h]))
    if st["mines"]:
        lines.append(f"{t['mines']}: " + ", ".join(f"{hexname(int(h))}"
                                                   for h in sorted(st["mines"], key=int)))
    lines.append(f"{t['bridges']}: {len(st['bridges'])}")
    if st["market"]:
        lines.append(f"{t['market']}: " + ", ".join(c["name"] for c in st["market"]))
    hand = st.get("hand") or []
    lines.append(f"Your {t['hand']}: " + (", ".join(c["name"] for c in hand) or "(empty)"))
    return "\n".join(lines)


def card_text(rules, card_id: str) -> str:
    """A card's printed text and the engine's reading of it."""
    from ..content.cards import normalized_cards
    from ..effects.describe import reading

    card = next((c for c in normalized_cards(rules.content) if c["id"] == card_id), None)
    if card is None:
        return f"(no card {card_id})"
    cost = f"{card['mana']} {rules.words.t('mana')}" + (
        f", {card['gold']} {rules.words.t('gold')}" if card.get("gold") else "")
    return (f"{card['name']} ({card['type_name']}; {cost}): {card['text']}\n"
            f"    Engine: {reading(card, rules.content.terms)}")


def play_terminal(rules, table, seat: int, ask, say) -> dict:
    """Play seat `seat` of a started table through `ask(prompt) -> str` and `say(text)`;
    returns the last state (raises Quit if the person ends the game)."""
    from .playstate import seat_state

    words, g_round, shown = rules.words, None, 0
    while True:
        table.settle(3600)
        with table.lock:
            st = seat_state(table, words, seat)
        if st.get("error"):
            raise RuntimeError(st["error"])
        log = st.get("log", [])
        for line in log[shown:]:
            say("  | " + line)
        shown = len(log)
        if st["over"]:
            return st
        dec = st.get("decision")
        if dec is None:
            continue

        def hexname(h):
            return words.hex(table.game, h)
        if st["round"] != g_round or dec["kind"] == "action":
            say(board_text(st, hexname))
            g_round = st["round"]
        if dec.get("up"):
            say("Up for bidding: " + card_text(rules, dec["up"]))
        say(dec["prompt"])
        for k, o in enumerate(dec["options"]):
            say(f"  {k + 1:>3}. {o['text']}")
        n = len(dec["options"])
        while True:
            answer = ask(f"Choose 1-{n} (? cards, ?N option N's card, b board, q quit): ")
            answer = answer.strip().lower()
            if answer in ("q", "quit"):
                raise Quit
            if answer == "b":
                say(board_text(st, hexname))
                continue
            if answer == "?":
                for c in st.get("hand") or []:
                    say("  " + card_text(rules, c["id"]))
                continue
            if answer.startswith("?") and answer[1:].isdigit():
                k = int(answer[1:]) - 1
                card = dec["options"][k].get("card") if 0 <= k < n else None
                say("  " + (card_text(rules, card) if card else "That option is not a card."))
                continue
            if answer.isdigit() and 1 <= int(answer) <= n:
                table.act(seat, dec["serial"], dec["options"][int(answer) - 1]["id"])
                break
            say(f"Please type a number from 1 to {n}.")
