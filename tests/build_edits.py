"""Designer edits for the build's differential test (issue 40), on a copy of the tool.

A `Project` is a folder holding a copy of the tool's code, templates and schemas and a cut-down
copy of the fixture content, so a test may edit a template or a style sheet without touching
the checkout. Each edit is a function (project, rng) -> a line saying what it did; `sequence`
draws a seeded series of them. After each, the incremental build of `build/` must write what a
clean build into an empty folder writes, byte for byte (`tether build --verify`).

Used by tests/test_build_differential.py (a short run) and benchmarks/differential.py (long).
"""

from __future__ import annotations

import os
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "tests" / "fixtures" / "content"
KEEP_PER_DECK = 4   # cards kept in each age deck: quick builds, and every faction passive plays
NEW_NAMES = {"force": ("Legionary", "Legionaries"), "gold": ("Ducat", "Ducats"),
             "champion": ("Paragon", "Paragons"), "bridge": ("Causeway", "Causeways")}
SENTENCES = ("Players may agree on house rules before the game.",
             "Keep the discarded cards face up beside your deck.",
             "A game usually takes about an hour.")


class Project:
    """A throw-away project: tool, templates, schemas, content; builds run in a subprocess
    with this copy of the tool first on the path."""

    def __init__(self, root: Path):
        self.root = root
        self.content = root / "content"
        self.state: dict = {}

    @classmethod
    def make(cls, root: Path) -> Project:
        ignore = shutil.ignore_patterns(".pytest_cache", "*.egg-info")
        for name in ("tether_build", "templates", "schemas"):
            shutil.copytree(ROOT / name, root / name, ignore=ignore, symlinks=False)
        shutil.copytree(FIXTURE, root / "content")
        for path in sorted((root / "content" / "cards").glob("age*.yaml")):
            lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
            starts = [i for i, line in enumerate(lines) if line.startswith("  - id:")]
            if len(starts) > KEEP_PER_DECK:
                path.write_text("".join(lines[:starts[KEEP_PER_DECK]]), encoding="utf-8")
        return cls(root)

    @classmethod
    def copy(cls, built: Path, root: Path) -> Project:
        """A Project of one's own from a built one (the suite's built_project): tool, content,
        build folder and its caches copied, file times kept, as if it had been made and built
        here."""
        shutil.copytree(built, root, symlinks=True)
        return cls(root)

    def tether(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        """Run the tool of this project (not the installed one) in the project folder."""
        env = dict(os.environ, PYTHONPATH=str(self.root))
        proc = subprocess.run([sys.executable, "-c", "from tether_build.cli import run; run()",
                               *args], check=False, cwd=self.root, env=env, capture_output=True,
                              text=True, timeout=1800)   # a hang guard: at load 40 a clean
        # build of this project ran over 600 s (the suite's shared build then failed to set up)
        if check and proc.returncode != 0:
            raise AssertionError(f"tether {' '.join(args)} failed:\n{proc.stdout}\n"
                                 f"{proc.stderr}")
        return proc

    def build(self, *extra: str, check: bool = True) -> subprocess.CompletedProcess:
        return self.tether("build", "--content", "content", "--out", "build", "--paper", "a4",
                           "--quiet", *extra, check=check)


def _sub(path: Path, pattern: str, repl: str, count: int = 1) -> None:
    text = path.read_text(encoding="utf-8")
    new, n = re.subn(pattern, repl, text, count=count, flags=re.MULTILINE)
    if n == 0:
        raise AssertionError(f"edit not applicable: /{pattern}/ not in {path}")
    path.write_text(new, encoding="utf-8")


# ---- the edits ---------------------------------------------------------------------------

def rename(p: Project, rng: random.Random) -> str:
    free = sorted(set(NEW_NAMES) - set(p.state.setdefault("renamed", [])))
    term = rng.choice(free or sorted(NEW_NAMES))
    singular, plural = NEW_NAMES[term]
    if term in p.state["renamed"]:   # every term renamed once: now a second name
        singular, plural = singular + "e", plural + "e"
    p.state["renamed"].append(term)
    names = rng.random() < 0.5
    p.tether("rename", "--content", "content", term, singular, "--plural", plural,
             *(["--names"] if names else []))
    return f"rename {term} -> {singular}/{plural}{' --names' if names else ''}"


def constant(p: Project, rng: random.Random) -> str:
    key, low, high = rng.choice([("start_gold", 3, 6), ("size", 5, 7), ("vp_to_win", 7, 9),
                                 ("round_cap", 9, 10)])
    value = rng.randint(low, high)
    _sub(p.content / "game.yaml", rf"^(\s+{key}: )\d+", rf"\g<1>{value}")
    return f"constant {key} = {value}"


def card_text(p: Project, rng: random.Random) -> str:
    path = p.content / "cards" / "starter.yaml"
    word = rng.choice(["Now", "At once", "Swiftly"])
    _sub(path, r'^(    text: "[^"\n]*?)\."$', rf'\1. {word}."', count=1)
    return f"card text: first starter card + '{word}.'"


def card_effect(p: Project, rng: random.Random) -> str:
    """Supply Cache's Gold in its text, its effect and its example, together."""
    old = p.state.get("cache_gold", 2)
    new = rng.choice([n for n in (1, 2, 3, 4) if n != old])
    path = p.content / "cards" / "starter.yaml"
    _sub(path, rf'"Gain \+{old} {{gold}}\.', f'"Gain +{new} {{gold}}.')
    _sub(path, rf"(step: gain_gold, amount: ){old}\}}", rf"\g<1>{new}}}")
    _sub(path, rf"gold: {1 + old}, mana: 0, discard: 1", f"gold: {1 + new}, mana: 0, discard: 1")
    p.state["cache_gold"] = new
    return f"card effect: supply_cache gains {new}"


def add_or_remove_card(p: Project, rng: random.Random) -> str:
    path = p.content / "cards" / "age1_market.yaml"
    text = path.read_text(encoding="utf-8")
    added = p.state.setdefault("added", [])
    if added and rng.random() < 0.5:
        cid = added.pop()
        start = text.index(f"  - id: {cid}\n")
        nxt = text.find("\n  - id:", start + 1)
        path.write_text(text[:start] + (text[nxt + 1:] if nxt >= 0 else ""), encoding="utf-8")
        return f"remove card {cid}"
    starts = [m.start() for m in re.finditer(r"^  - id: ", text, flags=re.MULTILINE)]
    first = text[starts[0]:starts[1]] if len(starts) > 1 else text[starts[0]:]
    n = len(added) + 1 + p.state.setdefault("cards_made", 0)
    p.state["cards_made"] += 1
    cid = f"differential_copy_{'abcdefgh'[n % 8]}{n}"
    old_id = re.match(r"  - id: (\w+)", first).group(1)
    entry = first.replace(f"id: {old_id}", f"id: {cid}", 1)
    entry = re.sub(r'^(    name: "?)([^"\n]+)', rf"\g<1>\2 Copy {'ABCDEFGH'[n % 8]}", entry,
                   count=1, flags=re.MULTILINE)
    path.write_text(text.rstrip("\n") + "\n\n" + entry.rstrip("\n") + "\n", encoding="utf-8")
    added.append(cid)
    return f"add card {cid}"


def chapter_sentence(p: Project, rng: random.Random) -> str:
    chapters = sorted((p.content / "rules").glob("*.md"))
    path = rng.choice(chapters)
    sentence = rng.choice(SENTENCES)
    path.write_text(path.read_text(encoding="utf-8").rstrip("\n") + f"\n\n{sentence}\n",
                    encoding="utf-8")
    return f"rules {path.name}: + '{sentence}'"


def setting(p: Project, rng: random.Random) -> str:
    """A game setting outside the cards that card faces print: the pile markers' sentence,
    an Age's name, the player counts (the Starter copies)."""
    which = rng.choice(["marker", "age", "players"])
    if which == "marker":
        word = rng.choice(["this marker", "the marker", "this card"])
        _sub(p.content / "ages.yaml", r"Never shuffle [a-z ]+ in\.", f"Never shuffle {word} in.")
        return f"setting: pile marker text 'Never shuffle {word} in.'"
    if which == "age":
        name = rng.choice(["Dawn", "Kindling", "First Light"])
        _sub(p.content / "ages.yaml", r'^(    name: )"?[^"\n]+"?$', rf'\g<1>"{name}"')
        return f"setting: first Age named {name}"
    top = rng.choice([5, 6])
    _sub(p.content / "game.yaml", r"^players: \{min: 2, max: \d\}", f"players: {{min: 2, max: {top}}}")
    return f"setting: players 2-{top}"


def template(p: Project, rng: random.Random) -> str:
    which = rng.choice(["card style", "book template", "icon"])
    if which == "card style":
        colour = rng.choice(["#2a241c", "#101010", "#3a2f22"])
        _sub(p.root / "templates" / "cards" / "cards.css", r"(body \{[^}]*color: )#[0-9a-f]{6}",
             rf"\g<1>{colour}")
        return f"template: card text colour {colour}"
    if which == "book template":
        word = rng.choice(["Reminders", "Remember this", "Keep in mind"])
        _sub(p.root / "templates" / "rulebook" / "aid.html", r"<h2>[A-Z][a-z ]+</h2>",
             f"<h2>{word}</h2>")
        return f"template: player aid heading '{word}'"
    stroke = rng.choice(["1.5", "2", "2.5"])
    icon = p.root / "templates" / "icons" / "gold.svg"
    icon.write_text(re.sub(r'stroke-width="[0-9.]+"', f'stroke-width="{stroke}"',
                           icon.read_text(encoding="utf-8")) + "\n", encoding="utf-8")
    return f"template: gold icon stroke {stroke} (and a trailing line)"


def image(p: Project, rng: random.Random) -> str:
    """A card's art: added to the first starter card, or its picture redrawn."""
    from PIL import Image

    colour = tuple(rng.randrange(256) for _ in range(3))
    art = p.root / "art" / "picture.png"
    art.parent.mkdir(exist_ok=True)
    Image.new("RGB", (60, 40), colour).save(art)
    path = p.content / "cards" / "starter.yaml"
    if "art: art/picture.png" not in path.read_text(encoding="utf-8"):
        _sub(path, r"^(    name: [^\n]+\n)", r"\1    art: art/picture.png\n")
        return f"image: art/picture.png {colour} on the first starter card"
    return f"image: art/picture.png redrawn {colour}"


EDITS = {"rename": rename, "constant": constant, "card_text": card_text,
         "card_effect": card_effect, "card": add_or_remove_card, "chapter": chapter_sentence,
         "template": template, "image": image, "setting": setting}


def sequence(rng: random.Random, steps: int, first: tuple[str, ...] = ()) -> list[str]:
    """Edit kinds: `first` in that order, then random ones (no kind twice in a row)."""
    kinds = list(first)
    while len(kinds) < steps:
        kind = rng.choice(sorted(EDITS))
        if not kinds or kinds[-1] != kind:
            kinds.append(kind)
    return kinds


def apply(p: Project, kinds: list[str], rng: random.Random, per_build: int = 1):
    """Apply the edits, `per_build` at a time; after each group yields (what was done,
    tether build --verify)."""
    for at in range(0, len(kinds), per_build):
        done = "; ".join(EDITS[kind](p, rng) for kind in kinds[at:at + per_build])
        yield done, p.build("--verify", check=False)
