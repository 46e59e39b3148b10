"""The shipped content against the design document: every card entry of §22-24 is in the
content with its numbers exactly as written (`tether check --design-document`).

The design document is parsed independently of the content: each 'Cost:' line with the name
line above it gives mana, gold, both initiative numbers and, for Champions, the gold costs and
the HP/dice/hit/bounty line. This is a check of the designer's content, run on demand, not a
test of the tool: a designer who changes a number on purpose sees it listed here.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def default_document() -> Path | None:
    """shared/seeds/000_*.txt beside the repository (or a folder above it), if it is there."""
    for folder in ROOT.parents:
        found = sorted((folder / "shared" / "seeds").glob("000_*.txt"))
        if found:
            return found[0]
    return None


COST = re.compile(r"Cost:\s*(\d+) mana(?:\s*\+\s*(\d+) gold)?")
INIT = re.compile(r"Init:\s*(\d+)\s*/\s*(\d+)")
GOLD3 = re.compile(r"Gold(?: \(1st/2nd/3rd\))?:?\s*(\d+)\s*/\s*(\d+)\s*/\s*(\d+)")
STATS = re.compile(r"HP (\d+)\s*[—-]\s*(\d+)d hit 1[–-](\d+)\s*[—-]\s*Bounty (\d+)")
COPIES = re.compile(r"\((\d+)x\)|×(\d+)|\((\d+) copies\)")


def _clean(name: str) -> str:
    name = COPIES.sub("", name).strip()
    name = name.replace("\u2019", "'")
    return re.sub(r"^(Leadbound|Virteous|Vapourborn|Refiner|Cipher|Gatewright) — ", "", name)


def parse_document(doc: Path) -> list[dict]:
    """One dict per card entry of §22-24: name, mana, gold, init, copies, champion stats."""
    lines = doc.read_text(encoding="utf-8").splitlines()
    start = next(i for i, ln in enumerate(lines) if ln.startswith("22) Cards"))
    cards = []
    for i in range(start, len(lines)):
        m = COST.search(lines[i])
        if not m or not lines[i].startswith("Cost"):
            continue
        name_line = lines[i - 1]
        if name_line.startswith("Gain +15 gold. Burn."):  # two cards merged on one line
            name_line = name_line.split("Burn.", 1)[1]
        window = "\n".join(lines[i:i + 8])
        init = INIT.search("\n".join(lines[i:i + 3]).split("\nCost")[0])
        copies = COPIES.search(name_line)
        card = {"name": _clean(name_line), "mana": int(m.group(1)), "gold": int(m.group(2) or 0),
                "init": [int(init.group(1)), int(init.group(2))] if init else None,
                "copies": int(next(g for g in copies.groups() if g)) if copies else 1,
                "line": i}
        gold3 = GOLD3.search(window.split("\n")[0] + "\n" + "\n".join(lines[i + 1:i + 3]))
        if "Type: Champion" in window.split("Type: Champion")[0] + "Type: Champion" and gold3:
            card["champion_gold"] = [int(g) for g in gold3.groups()]
        stats = STATS.search(window)
        if stats and gold3:
            card["stats"] = [int(g) for g in stats.groups()]
        cards.append(card)
    return cards


def _faction_champion_stats(lines: list[str], i: int) -> list[int] | None:
    window = "\n".join(lines[i:i + 8])
    hp = re.search(r"^HP (\d+)", window, re.MULTILINE)
    attack = re.search(r"Attack: (\d+) dice?, hits on 1(?:[–-](\d+))?", window)
    bounty = re.search(r"^Bounty: (\d+)", window, re.MULTILINE)
    if hp and attack and bounty:
        return [int(hp.group(1)), int(attack.group(1)), int(attack.group(2) or 1),
                int(bounty.group(1))]
    return None


def compare(content, doc: Path) -> list[str]:
    """Every difference between the design document's card entries and the content."""
    from .cards import normalized_cards

    by_design_name: dict[str, list[dict]] = {}
    for card in normalized_cards(content):
        for key in {card["name"], card["design_name"]}:
            by_design_name.setdefault(key.lower(), []).append(card)
    lines = doc.read_text(encoding="utf-8").splitlines()
    mismatches = []
    for entry in parse_document(doc):
        found = by_design_name.get(entry["name"].lower())
        if not found:
            mismatches.append(f"missing: {entry['name']} (document line {entry['line'] + 1})")
            continue
        card = found[0] if len(found) == 1 else next(
            (c for c in found if c["initiative"] == entry["init"]), found[0])
        got = {"mana": card["mana"], "gold": card["gold"], "init": card["initiative"],
               "copies": card["copies"]}
        want = {k: entry[k] for k in got}
        if entry["init"] is None:  # initiative written in words ("very high like 300")
            words = lines[entry["line"]].split("Init:")[1].split("—")[0].strip()
            want["init"] = got["init"]
            if words.replace("\u2019", "'") not in (card["initiative_note"] or "").replace(
                    "\u2019", "'"):
                mismatches.append(f"{entry['name']}: initiative note lacks {words!r}")
        if card["type"] == "champion":
            got["mana"], got["gold"] = card["mana"], 0
            want["gold"] = 0
            stats = entry.get("stats") or _faction_champion_stats(lines, entry["line"])
            champ = card["champion"]
            got["stats"] = [champ["hp"], champ["dice"], champ["hit"], champ["bounty"]]
            want["stats"] = stats
            if "champion_gold" in entry:
                got["champion_gold"] = champ["gold"]
                want["champion_gold"] = entry["champion_gold"]
        if got != want:
            mismatches.append(f"{entry['name']}: content {got} != document {want}")
    return mismatches


