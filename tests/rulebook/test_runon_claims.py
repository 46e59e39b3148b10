"""runon's claims: a part being laid out by one process is not laid out by another (which
waits for its entry, or leaves it when only helping); a claim left by a process that ended
is taken over."""

from __future__ import annotations

import os
import subprocess
import sys

from tether_build.print.cache import Cache
from tether_build.print.rulebook import runon


def test_a_live_claim_is_respected_and_a_dead_ones_taken_over(tmp_path):
    cache = Cache(tmp_path)
    mine = runon._claim(cache, "bookch", "k1")
    assert mine and mine.read_text() == str(os.getpid())
    assert runon._claim(cache, "bookch", "k1") is False   # held by a living process
    mine.unlink()
    # helping (ahead()): a part another process has claimed is left to it, not laid out
    html, base = "<p>a part</p>", (tmp_path / "x").as_uri()
    key = runon._key(html, base)
    held = runon._claim(cache, "bookch", key)
    assert runon._entry(html, "bookch", cache, base, 100.0, None, False,
                        helping=True) is None
    assert cache.get("bookch", key) is None
    held.unlink()
    ended = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                           capture_output=True, text=True, check=True).stdout.strip()
    (tmp_path / "claims" / "bookch-k2").write_text(ended)
    taken = runon._claim(cache, "bookch", "k2")
    assert taken and taken.read_text() == str(os.getpid())
    assert runon._claim(Cache(None), "bookch", "k3") is None   # a cache that keeps nothing


def test_a_waiting_chain_gets_the_holders_entry(tmp_path):
    from tether_build.print.cache import pack

    cache = Cache(tmp_path)
    holder = runon._claim(cache, "bookch", "k")
    cache.put("bookch", "k", pack({"pages": 1, "used": 5.0, "slots": []}, b"%PDF"))
    holder.unlink()   # the holder is done
    meta, data = runon._claimed(cache, "bookch", "k")
    assert meta["used"] == 5.0 and data == b"%PDF"
