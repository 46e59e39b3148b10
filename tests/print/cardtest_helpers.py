"""Helpers shared by the print tests: content copies and a designer's glossary edit."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# A subset that covers every card type, 2-copy cards, Entropy, factions and four decks,
# 11 faces: one full page and one partly filled page (to check mirrored backs).
SMALL = ["recruit", "march_orders", "zap", "ironclad_warden", "hold_the_line",
         "command_surge", "bridge_deed", "monument_plan", "set_to_skirmish", "shadeblade"]
RENAMED = {"singular": "Phalanx", "plural": "Phalanxes"}


def copy_content(dst: Path) -> Path:
    """A writable copy of content/ with schemas/ beside it."""
    shutil.copytree(ROOT / "tests" / "fixtures" / "content", dst / "content")
    shutil.copytree(ROOT / "schemas", dst / "schemas")
    return dst / "content"


def rename_term(content_dir: Path, term: str, singular: str, plural: str) -> None:
    """Change one glossary entry's singular and plural in terms.yaml (a designer's edit)."""
    path = content_dir / "terms.yaml"
    text = path.read_text(encoding="utf-8")
    block = re.compile(rf"(\n  {term}:\n    singular: )\"[^\"]*\"(\n    plural: )\"[^\"]*\"")
    text, n = block.subn(rf'\g<1>"{singular}"\g<2>"{plural}"', text)
    assert n == 1, f"term {term} not found in terms.yaml"
    path.write_text(text, encoding="utf-8")
