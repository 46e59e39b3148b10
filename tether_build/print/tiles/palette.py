"""Colour-blind safety of the faction palette: simulated colour vision and CIEDE2000.

Every faction colour must stay distinct from every other faction colour, and from the
yellows of the Mine tiles and the Gold coins, under normal vision and under simulated
deuteranopia, protanopia and tritanopia. Simulation: Machado, Oliveira & Fernandes (2009)
matrices at severity 1.0, applied to linear sRGB. Distance: CIEDE2000 in CIELAB (D65).
The bar is `MIN_DELTA_E` (20): two colours closer than that under any vision type fail.
"""

from __future__ import annotations

import itertools
import math
import re

MIN_DELTA_E = 20.0
GOLD_COIN = "#E3B83F"  # the Gold coin tokens (tokens.py)
MACHADO = {  # severity 1.0, linear RGB
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602),
                   (0.004733, 0.691367, 0.303900)),
}
VISIONS = ("normal", *MACHADO)
_HEX = re.compile(r"#[0-9a-fA-F]{6}")
_XYZ = ((0.4124564, 0.3575761, 0.1804375), (0.2126729, 0.7151522, 0.0721750),
        (0.0193339, 0.1191920, 0.9503041))
_WHITE = (0.95047, 1.0, 1.08883)


def _linear(colour: str) -> tuple[float, float, float]:
    """#RRGGBB -> linear-light sRGB in 0..1."""
    out = []
    for i in (1, 3, 5):
        c = int(colour[i:i + 2], 16) / 255
        out.append(c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4)
    return out[0], out[1], out[2]


def _mul(m, v) -> tuple[float, ...]:
    return tuple(sum(a * b for a, b in zip(row, v, strict=True)) for row in m)


def simulate(colour: str, vision: str) -> tuple[float, float, float]:
    """Linear sRGB of `colour` as seen with `vision` (one of VISIONS), clipped to 0..1."""
    rgb = _linear(colour)
    if vision != "normal":
        rgb = tuple(min(1.0, max(0.0, c)) for c in _mul(MACHADO[vision], rgb))
    return rgb[0], rgb[1], rgb[2]


def lab(rgb) -> tuple[float, float, float]:
    """Linear sRGB -> CIELAB (D65)."""
    xyz = [v / w for v, w in zip(_mul(_XYZ, rgb), _WHITE, strict=True)]
    f = [t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116 for t in xyz]
    return 116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])


def _hue(b: float, a: float) -> float:
    return math.degrees(math.atan2(b, a)) % 360 if (a or b) else 0.0


def delta_e(lab1, lab2) -> float:
    """CIEDE2000 colour difference (Sharma, Wu & Dalal 2005)."""
    (l1, a1, b1), (l2, a2, b2) = lab1, lab2
    cbar = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(cbar ** 7 / (cbar ** 7 + 25 ** 7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p, h2p = _hue(b1, a1p), _hue(b2, a2p)
    dlp, dcp = l2 - l1, c2p - c1p
    dh = h2p - h1p
    if c1p * c2p == 0:
        dh = 0.0
    elif dh > 180:
        dh -= 360
    elif dh < -180:
        dh += 360
    dhp = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    lbar, cbarp = (l1 + l2) / 2, (c1p + c2p) / 2
    hbar = h1p + h2p
    if c1p * c2p != 0:
        hbar = (hbar + 360) / 2 if abs(h1p - h2p) > 180 and hbar < 360 else (
            (hbar - 360) / 2 if abs(h1p - h2p) > 180 else hbar / 2)
    t = (1 - 0.17 * math.cos(math.radians(hbar - 30)) + 0.24 * math.cos(math.radians(2 * hbar))
         + 0.32 * math.cos(math.radians(3 * hbar + 6))
         - 0.20 * math.cos(math.radians(4 * hbar - 63)))
    dtheta = 30 * math.exp(-(((hbar - 275) / 25) ** 2))
    rc = 2 * math.sqrt(cbarp ** 7 / (cbarp ** 7 + 25 ** 7))
    sl = 1 + 0.015 * (lbar - 50) ** 2 / math.sqrt(20 + (lbar - 50) ** 2)
    sc, sh = 1 + 0.045 * cbarp, 1 + 0.015 * cbarp * t
    rt = -math.sin(math.radians(2 * dtheta)) * rc
    return math.sqrt((dlp / sl) ** 2 + (dcp / sc) ** 2 + (dhp / sh) ** 2
                     + rt * (dcp / sc) * (dhp / sh))


def distance(c1: str, c2: str, vision: str = "normal") -> float:
    """CIEDE2000 between two #RRGGBB colours as seen with `vision`."""
    return delta_e(lab(simulate(c1, vision)), lab(simulate(c2, vision)))


def pairs(factions: dict[str, str], neutrals: dict[str, str]):
    """(vision, name a, colour a, name b, colour b, distance) for every pair to check:
    every two factions, and every faction against every neutral colour."""
    checked = list(itertools.combinations(factions.items(), 2))
    checked += [(f, n) for f in factions.items() for n in neutrals.items()]
    for vision in VISIONS:
        for (na, ca), (nb, cb) in checked:
            yield vision, na, ca, nb, cb, distance(ca, cb, vision)


def clashes(factions: dict[str, str], neutrals: dict[str, str],
            bar: float = MIN_DELTA_E) -> list[tuple]:
    """The pairs of `pairs()` closer than `bar`, closest first."""
    return sorted((p for p in pairs(factions, neutrals) if p[5] < bar), key=lambda p: p[5])


def _word(terms: dict, tid: str, default: str) -> str:
    entry = terms.get(tid)
    return entry.get("singular", default) if isinstance(entry, dict) else default


def palette_of(content) -> tuple[dict[str, str], dict[str, str]]:
    """({faction id: colour}, {neutral name: colour}) of loaded content: the Mine tile and
    the Gold coin are the neutrals."""
    factions = {fid: f.get("colour") for fid, f in content.factions.items()}
    mine = next((t for t in content.tiles.values() if t.get("term") == "mine"), {})
    terms = content.terms
    neutrals = {_word(terms, "mine", "Mine"): mine.get("colour", "#EBC96A"),
                _word(terms, "gold", "Gold"): GOLD_COIN}
    return ({k: v for k, v in factions.items() if _HEX.fullmatch(str(v))},
            {k: v for k, v in neutrals.items() if _HEX.fullmatch(str(v))})


def check_palette(content):
    """Problems (located at the faction's `colour`) for every pair of `clashes()`."""
    factions, neutrals = palette_of(content)
    names = {fid: content.factions[fid].get("name", fid) for fid in factions}
    seen = set()
    for vision, a, ca, b, cb, dist in clashes(factions, neutrals):
        if (a, b) in seen:  # the worst vision type of a pair is enough
            continue
        seen.add((a, b))
        other = f"{names.get(b, b)} {cb}"
        where = b if b in factions else a
        yield content.problem(
            "factions.yaml", ("factions", where, "colour"),
            f"{names[a]} {ca} and {other} are {dist:.1f} apart under {vision} vision "
            f"(CIEDE2000; every pair needs at least {MIN_DELTA_E:g})",
            "change the lightness as well as the hue: colour-blind players tell light from dark")


# Grayscale (a black-and-white printer, or --grayscale): colour is gone and only lightness
# is left, so two faction colours must differ in CIE L* (the emblems carry the rest).
GRAY_MIN_DELTA_L = 9.5


def gray_l(colour: str) -> float:
    """CIE L* of `colour`: what a grayscale print keeps of it."""
    return lab(simulate(colour, "normal"))[0]


def gray_clashes(factions: dict[str, str], bar: float = GRAY_MIN_DELTA_L) -> list[tuple]:
    """(name a, colour a, name b, colour b, L* difference) for every two factions closer
    than `bar` in lightness, closest first."""
    found = [(na, ca, nb, cb, abs(gray_l(ca) - gray_l(cb)))
             for (na, ca), (nb, cb) in itertools.combinations(factions.items(), 2)]
    return sorted((f for f in found if f[4] < bar), key=lambda f: f[4])


def check_gray(content):
    """Problems (located at the second faction's `colour`) for every pair of
    gray_clashes()."""
    factions, _ = palette_of(content)
    names = {fid: content.factions[fid].get("name", fid) for fid in factions}
    for a, ca, b, cb, diff in gray_clashes(factions):
        yield content.problem(
            "factions.yaml", ("factions", b, "colour"),
            f"{names[a]} {ca} (L* {gray_l(ca):.0f}) and {names[b]} {cb} (L* {gray_l(cb):.0f}) "
            f"differ by {diff:.1f} in lightness: a grayscale print shows them alike (every "
            f"pair needs {GRAY_MIN_DELTA_L:g})",
            "make one lighter or darker")


def tile_colours(content) -> dict[str, str]:
    """{tile kind: colour} of the tiles a faction's tokens stand on (tiles.yaml): every tile
    but the Capital (printed in its faction's colour) and the Mine (checked by
    check_palette, an error)."""
    return {kind: t["colour"] for kind, t in content.tiles.items()
            if t.get("term") not in ("capital", "mine") and _HEX.fullmatch(str(t.get("colour")))}


def warn_tile_colours(content):
    """Warnings (located at the tile's `colour`) for a faction colour closer than
    MIN_DELTA_E to a tile colour under some vision type: that faction's tokens on that tile
    stand out by their emblem and rim only. A warning, not an error: a tile hue (the Forge's
    ember) may be worth keeping, and six faction colours leave little room; the designer
    chooses."""
    factions, _ = palette_of(content)
    names = {fid: content.factions[fid].get("name", fid) for fid in factions}
    for kind, colour in tile_colours(content).items():
        tile = _word(content.terms, content.tiles[kind].get("term", kind), kind)
        worst: dict[str, tuple[float, str]] = {}
        for vision in VISIONS:
            for fid, fc in factions.items():
                dist = distance(fc, colour, vision)
                if dist < MIN_DELTA_E and dist < worst.get(fid, (MIN_DELTA_E, ""))[0]:
                    worst[fid] = (dist, vision)
        for fid, (dist, vision) in sorted(worst.items(), key=lambda kv: kv[1][0]):
            yield content.problem(
                "tiles.yaml", ("tiles", kind, "colour"),
                f"{names[fid]} {factions[fid]} tokens on the {tile} tile {colour} are "
                f"{dist:.1f} apart under {vision} vision (CIEDE2000; faction colours keep "
                f"{MIN_DELTA_E:g} from each other)",
                "change the tile's lightness, or accept that the emblem tells them apart")
