"""Benchmark the card sheet build: every face and back, A4 and Letter (target < 20 s).

    python benchmarks/bench_cards.py              # sheets only, best of 3
    python benchmarks/bench_cards.py --all        # plus per-card PNGs and TTS decks
    python benchmarks/bench_cards.py --repeat 1 --content path/to/content

Each run is a fresh process-level build into a temporary folder (nothing cached on disk);
the figure is wall time of `build_print`, with the stage split and the CPU time.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run_once(content: Path, everything: bool) -> dict:
    """One full build into a fresh temp dir; returns seconds per stage and output sizes."""
    from tether_build.commands.printing import build_print
    from tether_build.print.cards.build import PrintOptions

    opts = PrintOptions(png="tgc" if everything else None, tts=everything)
    with tempfile.TemporaryDirectory() as tmp:
        cpu = os.times()
        start = time.perf_counter()
        result = build_print(content, Path(tmp), opts)
        wall = time.perf_counter() - start
        after = os.times()
        cpu_s = (after.user - cpu.user) + (after.system - cpu.system) + (
            after.children_user - cpu.children_user) + (
            after.children_system - cpu.children_system)
        sizes = {Path(p).name: n for p, n in result.sizes.items() if p.endswith(".pdf")}
        files = len(result.sizes)
        total = sum(result.sizes.values())
    return {"wall": wall, "cpu": cpu_s, "stages": result.seconds, "faces": result.faces,
            "cards": result.cards, "pdf_bytes": sizes, "files": files, "bytes": total}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--content", type=Path, default=ROOT / "content")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--all", action="store_true", help="include PNGs and TTS")
    args = parser.parse_args()
    runs = [run_once(args.content, args.all) for _ in range(args.repeat)]
    walls = [r["wall"] for r in runs]
    best = min(runs, key=lambda r: r["wall"])
    what = "sheets + PNG + TTS" if args.all else "sheets (faces + backs, A4 + Letter)"
    print(f"{what}: {best['faces']} faces of {best['cards']} cards, {os.cpu_count()} cores")
    print(f"  wall  best {min(walls):.2f} s  median {statistics.median(walls):.2f} s  "
          f"(runs: {', '.join(f'{w:.2f}' for w in walls)})")
    print(f"  cpu   {best['cpu']:.2f} s (all processes, best run)")
    print("  stages " + ", ".join(f"{k} {v:.2f}" for k, v in best["stages"].items()))
    for name, size in sorted(best["pdf_bytes"].items()):
        print(f"  {name}: {size / 1e6:.2f} MB")
    print(f"  {best['files']} files, {best['bytes'] / 1e6:.1f} MB in all")
    target = 20.0
    print(f"  target < {target:.0f} s: {'met' if min(walls) < target else 'MISSED'}")


if __name__ == "__main__":
    main()
