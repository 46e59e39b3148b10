"""`print-cards`: content -> print sheets (A4, Letter), per-card PNGs and TTS decks.

MkDocs' recipe: gather and validate everything, render in memory, write last: every file
swapped in together, the output folder locked: the commands layer hands `build_print` the
build system's writer (buildsys.lock.write_outputs), which this layer never imports.
"""

from __future__ import annotations

import difflib
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ...errors import TetherError

MIN_FACES_PER_WORKER = 24
PAPER_CHOICES = {"a4": ("a4",), "letter": ("letter",), "both": ("a4", "letter")}


@dataclass
class PrintOptions:
    """What to print and where."""

    papers: tuple[str, ...] = ("a4", "letter")
    deck: str | None = None
    faction: str | None = None
    cards: list[str] | None = None
    fronts_only: bool = False
    png: str | None = "tgc"        # preset name, or None for no PNGs
    tts: bool = True
    tts_url: str | None = None      # where TTS finds the images; default file:// of out/tts
    cache: Path | None = None       # folder of the render cache (print/cache.py); None: none
    players: int | None = None      # Starter sets to print; None: game.yaml players.max
    modes: tuple[str, ...] = ()     # print modes (print/modes.py): ink-saver, grayscale
    initiative: str | None = None   # the `initiative` rules option printed large (None: default)
    gutter_fold: bool = False       # also print/cards-<paper>-gutter-fold.pdf (print/cards/gutter.py)


@dataclass
class PrintResult:
    """What a build wrote, with counts and timings (seconds)."""

    faces: int = 0
    cards: int = 0
    decks: list[str] = field(default_factory=list)
    written: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    sizes: dict[str, int] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)
    fits: dict[str, dict] = field(default_factory=dict)
    face_pdfs: list = field(default_factory=list, repr=False)   # [(pdf, page keys)]
    removed: list[str] = field(default_factory=list)
    markers: list[str] = field(default_factory=list)          # pile markers printed


def _unknown(kind: str, value: str, known) -> TetherError:
    match = difflib.get_close_matches(value, list(known), n=1, cutoff=0.6)
    hint = f" (did you mean '{match[0]}'?)" if match else ""
    return TetherError(f"unknown {kind} {value!r}{hint}")


def select_cards(content, cards: list[dict], opts: PrintOptions) -> list[dict]:
    """The chosen cards in print order: decks in ages.yaml order, then file order."""
    decks = list(content.ages["decks"])
    if opts.deck and opts.deck not in decks:
        raise _unknown("deck", opts.deck, decks)
    if opts.faction and opts.faction not in content.factions:
        raise _unknown("faction", opts.faction, content.factions)
    ids = {c["id"] for c in cards}
    for cid in opts.cards or []:
        if cid not in ids:
            raise _unknown("card", cid, ids)
    chosen = [c for c in cards
              if (not opts.deck or c["deck"] == opts.deck)
              and (not opts.faction or c["faction"] == opts.faction)
              and (not opts.cards or c["id"] in opts.cards)]
    if not chosen:
        raise TetherError("no card matches the options (check --deck, --faction, --cards)")
    order = {d: i for i, d in enumerate(decks)}
    sets = starter_sets(content, opts)
    chosen = [dict(c, copies=c["copies"] * sets)
              if content.ages["decks"][c["deck"]]["kind"] == "starter" else c for c in chosen]
    return sorted(chosen, key=lambda c: order[c["deck"]])  # stable: keeps file order


def starter_sets(content, opts: PrintOptions) -> int:
    """How many Starter sets to print: one per player (§8), for --players or, by default,
    the most players the game takes (game.yaml players.max), so one print serves any table."""
    lo, hi = content.game["players"]["min"], content.game["players"]["max"]
    n = opts.players if opts.players is not None else hi
    if not lo <= n <= hi:
        raise TetherError(f"--players {n}: the game takes {lo}-{hi} players")
    return n


def pile_markers(content, decks: list[str], opts: PrintOptions) -> list[str]:
    """`marker:<deck>` for every Archive and Power deck printed whole (not for a --cards or
    --faction selection): one marker card per draw pile."""
    from .context import MARKER, MARKER_TERMS

    if opts.cards or opts.faction:
        return []
    return [MARKER + d for d in decks if content.ages["decks"][d]["kind"] in MARKER_TERMS]


def _workers(faces: int) -> int:
    """Processes for layout: one per core, but small jobs are not worth a fork."""
    return max(1, min(os.cpu_count() or 1, faces // MIN_FACES_PER_WORKER))


def render_all(content, chosen: list[dict], opts: PrintOptions, out: Path,
               progress: Callable[[str], None], result: PrintResult) -> dict[Path, bytes]:
    """Every output file of the build, in memory."""
    from ..cache import Cache
    from ..geometry import sheet_for
    from ..html import TEMPLATES, Pages
    from ..modes import suffix
    from ..raster import Raster
    from ..tts import decks as tts
    from .context import MARKER, Renderer
    from .copies import first_copies
    from .fit import render_faces
    from .sheets import build_sheets, read_faces

    files: dict[Path, bytes] = {}
    decks = list(dict.fromkeys(c["deck"] for c in chosen))
    cache = Cache(opts.cache)
    pages = Pages(Renderer(content, TEMPLATES, initiative=opts.initiative), modes=opts.modes,
                  cache=cache)
    mode = suffix(opts.modes)   # a print mode writes files of its own
    t = time.perf_counter()
    markers = result.markers = pile_markers(content, decks, opts)
    progress(f"laying out {sum(c['copies'] for c in chosen)} faces, {len(decks)} backs and "
             f"{len(markers)} pile markers")
    faces = render_faces(pages, chosen, decks + markers, workers=_workers(result.faces),
                         cache=cache)
    result.fits, result.face_pdfs = faces.fits, faces.parts
    result.seconds["faces"] = time.perf_counter() - t
    deck_of = {f"{c['id']}-{n}": c["deck"] for c in chosen for n in range(1, c["copies"] + 1)}
    title = str(content.game.get("title", ""))
    pages_read = read_faces(faces.parts, cache, faces.forms) if opts.papers else {}
    for marker in markers:   # printed after the cards, the same face on both sides
        pages_read[marker] = pages_read.get(f"back:{marker}")
        deck_of[marker] = marker
    for paper in opts.papers:
        t = time.perf_counter()
        progress(f"composing {paper} sheets")
        files[out / "print" / f"cards-{paper}{mode}.pdf"] = build_sheets(
            sheet_for(paper), pages_read, faces.keys + markers, deck_of,
            backs=not opts.fronts_only,
            title=f"{title} cards ({paper}{mode.replace('-', ' ')})")
        if opts.gutter_fold:
            from .gutter import build_gutter_sheets, gutter_sheet

            files[out / "print" / f"cards-{paper}{mode}-gutter-fold.pdf"] = \
                build_gutter_sheets(gutter_sheet(paper), pages_read, faces.keys + markers,
                                    deck_of, title=f"{title} cards ({paper}{mode.replace('-', ' ')}"
                                    ", gutter fold)")
        result.seconds[f"sheets_{paper}"] = time.perf_counter() - t
    raster = Raster(faces.parts, cache, copies=first_copies(chosen))
    try:
        if opts.png:
            t = time.perf_counter()
            progress(f"rasterizing PNGs ({opts.png})")
            for deck in decks:
                keys = [k for k in deck_of if deck_of[k] == deck] + [f"back:{deck}"]
                keys += [f"back:{m}" for m in markers if m == MARKER + deck]
                for key, data in raster.pngs(keys, opts.png).items():
                    name = "pile-marker" if key.startswith("back:" + MARKER) else \
                        "back" if key.startswith("back:") else key
                    files[out / f"png{mode}" / deck / f"{name}.png"] = data
            result.seconds["png"] = time.perf_counter() - t
        if opts.tts and not mode:   # Tabletop Simulator shows the normal faces only
            t = time.perf_counter()
            progress("building Tabletop Simulator decks")
            url = (opts.tts_url or (out / "tts").resolve().as_uri()).rstrip("/")
            for deck in decks:
                deck_cards = [c for c in chosen if c["deck"] == deck]
                keys = [k for k in deck_of if deck_of[k] == deck]
                sheets = tts.sheet_images(raster, keys)
                for i, (data, _, _) in enumerate(sheets):
                    files[out / "tts" / tts.sheet_name(deck, i)] = data
                files[out / "tts" / f"{deck}-back.png"] = tts.back_image(raster, deck)
                nickname = pages.renderer.plain(content.ages["decks"][deck]["name"])
                files[out / "tts" / f"{deck}.json"] = tts.deck_json(
                    deck, list(content.ages["decks"]).index(deck), nickname,
                    tts.faces_meta(pages.renderer.plain, deck_cards),
                    [(c, r) for _, c, r in sheets], url)
            result.seconds["tts"] = time.perf_counter() - t
    finally:
        raster.close()
    return files


Write = Callable[..., list[str]]   # (out, {relpath: bytes}, removals, command) -> changed


def build_print(content, out: Path, opts: PrintOptions,
                progress: Callable[[str], None] = lambda msg: None, *,
                write: Write) -> PrintResult:
    """Render the chosen cards of the validated content (loaded by the commands layer:
    commands.printing.build_print), and write every output with `write` (the build system's
    atomic, locked writer, handed in by the commands layer)."""
    from ...content.cards import normalized_cards

    start = time.perf_counter()
    chosen = select_cards(content, normalized_cards(content), opts)
    out = Path(out)
    result = PrintResult(faces=sum(c["copies"] for c in chosen), cards=len(chosen))
    result.decks = list(dict.fromkeys(c["deck"] for c in chosen))
    files = render_all(content, chosen, opts, out, progress, result)
    t = time.perf_counter()
    removals = []
    if not opts.cards and not opts.faction:
        from ..modes import suffix

        removals = _stale(out, result.decks, set(files), suffix(opts.modes))
    # all or nothing, the folder locked: a kill leaves the previous sheets or these
    written = set(write(out, {_rel(out, p): data for p, data in files.items()},
                        [_rel(out, p) for p in removals], "tether print-cards"))
    for path, data in sorted(files.items()):
        (result.written if _rel(out, path) in written else result.unchanged).append(str(path))
        result.sizes[str(path)] = len(data)
    result.removed = [str(p) for p in removals]
    result.seconds["write"] = time.perf_counter() - t
    result.seconds["total"] = time.perf_counter() - start
    return result


def _rel(out: Path, path: Path) -> str:
    return Path(path).relative_to(out).as_posix()


def _stale(out: Path, decks: list[str], written: set[Path], mode: str = "") -> list[Path]:
    """PNGs and TTS sheets of fully printed decks that this build did not produce (a renamed
    or removed card): removed with the swap, so an upload folder never holds a stale face."""
    removed = []
    for deck in decks:
        stale = list((out / f"png{mode}" / deck).glob("*.png")) + (list(
            (out / "tts").glob(f"{deck}-[0-9]*.png")) if not mode else [])
        removed += [path for path in stale if path not in written]
    return removed


def shrunk(fits: dict[str, dict]) -> dict[str, dict]:
    """Cards whose name or text had to shrink (or lose reminder text) to fit."""
    from .fit import STANDARD_LEVEL, TEXT_SIZES

    return {cid: fit for cid, fit in fits.items()
            if fit["name_level"] or fit["text_pt"] < TEXT_SIZES[STANDARD_LEVEL]
            or not fit["reminders"]}
