"""The version printed on each card face: content version, git name, and the card's hash.

`v0.1.0 v2 #3f2a1c` on a card of a clean work tree at tag v2; a card edited since the last
commit says `v0.1.0 v2+dirty #9b01e4`. The hash is the card's own (its normalized fields),
so two printed copies of a card can be told apart. Only the cards whose stamp changes are
drawn again: an edit marks its own card dirty (git's changed lines are matched to the card
they fall in), an edit of the glossary, keywords, factions or decks marks every card.
"""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
from pathlib import Path

from .gitcontent import describe, repo_of

# files whose edits change the faces of every card
FACE_WIDE = ("terms.yaml", "keywords.yaml", "factions.yaml", "ages.yaml")
HUNK = re.compile(r"^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@", re.MULTILINE)


def card_hash(card: dict) -> str:
    """Six hex digits of the card's normalized fields (its file position left out)."""
    data = {k: v for k, v in card.items() if k not in ("source", "notes", "reading")}
    return hashlib.sha256(json.dumps(data, sort_keys=True, default=str).encode()).hexdigest()[:6]


def _changed_lines(root: Path, rel: str) -> dict[str, set[int]]:
    """File name (relative to the content folder) -> changed line numbers in the work tree."""
    try:
        out = subprocess.run(["git", "diff", "-U0", "HEAD", "--", rel], cwd=root,
                             capture_output=True, check=True, timeout=60).stdout.decode(
                                 "utf-8", errors="replace")
        new = subprocess.run(["git", "ls-files", "--others", "--exclude-standard", "--", rel],
                             cwd=root, capture_output=True, check=True, timeout=60).stdout
    except (OSError, subprocess.SubprocessError):
        return {}
    changed: dict[str, set[int]] = {}
    for block in out.split("diff --git ")[1:]:
        name = block.split("\n", 1)[0].split(" b/", 1)[-1]
        lines = changed.setdefault(name.removeprefix(rel + "/"), set())
        for m in HUNK.finditer(block):
            start, count = int(m.group(1)), int(m.group(2) or 1)
            lines.update(range(start, start + max(count, 1)))
    for name in new.decode().splitlines():
        changed.setdefault(name.removeprefix(rel + "/"), set()).add(0)  # untracked: all
    return changed


_ASK = object()


def stamps(content_dir: Path, version: str, cards: list[dict], name=_ASK) -> dict[str, str]:
    """Card id -> the stamp its face prints. name: the content's git name with +dirty, when
    the caller has it already (a build: Context.git_name("work"), kept between builds while
    git's state holds), else asked of git here."""
    if name is _ASK:
        name = describe(content_dir)
    base = f"v{version}" if version else ""
    if name is None:
        return {c["id"]: f"{base} #{card_hash(c)}".strip() for c in cards}
    clean = name.removesuffix("+dirty")
    dirty_lines = _changed_lines(*repo_of(content_dir)) if name != clean else {}
    everything = any(f in dirty_lines for f in FACE_WIDE)
    starts: dict[str, list[int]] = {}
    for c in cards:
        starts.setdefault(c["source"]["file"], []).append(c["source"]["line"])
    out = {}
    for c in cards:
        file = c["source"]["file"].split("/", 1)[-1]  # 'content/cards/x.yaml' -> 'cards/x.yaml'
        lines = dirty_lines.get(file, set())
        begin = c["source"]["line"]
        after = [s for s in starts[c["source"]["file"]] if s > begin]
        end = min(after) if after else 10**9
        dirty = everything or 0 in lines or any(begin <= n < end for n in lines)
        out[c["id"]] = f"{base} {clean}{'+dirty' if dirty else ''} #{card_hash(c)}".strip()
    return out
