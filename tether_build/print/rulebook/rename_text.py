"""What a rename does to the words players and the designer read: quotations left alone,
singular and plural placed by the words around them, every changed sentence listed (the dry
run), and the grammar a new name breaks flagged.

Quotations. A note may quote the design document; a quotation keeps the document's words
whatever the glossary says now. Content marks a quotation with quote marks inside the text:
'...' (the notes' convention: "the cost '2 mana + 1 gold mana' is read as ..."), ‘...’ or
“...”; and the document's own redefinition list ("Aurum -> Gold": a design name, an arrow,
a name) is a quotation too. `tether rename --names` never rewrites inside either.

Countable or mass. A term's `countable:` in terms.yaml says whether it is counted ("2
Crowns") or a mass noun ("2 Gold"); without it, a term whose plural differs from its singular
is countable. A rename warns where a counted term follows a number in its singular token
("less than 2 [gold]" would print "less than 2 Crown") and where a mass noun gets "a"/"an".
"""

from __future__ import annotations

import re
from pathlib import Path

from ...content.text import counted, render_plain
from ...content.yamlio import parse

QUOTE = re.compile(r"(?<!\w)'(?=\S)(?:[^']|'(?=\w))*?(?<=\S)'(?!\w)|‘[^’]*’|“[^”]*”"
                   r"|\\\"[^\"\\\\]*\\\"")


def quoted_spans(text: str, design_names=()) -> list[tuple[int, int]]:
    """Where `text` quotes: quote-marked spans and 'Design Name -> name' redefinitions."""
    spans = [m.span() for m in QUOTE.finditer(text)]
    if design_names:
        names = "|".join(re.escape(n) for n in sorted(design_names, key=len, reverse=True))
        arrow = re.compile(rf"(?<![\w-])(?:{names})\s*(?:->|→)\s*[\w' -]+?(?=[,.;)]|$)",
                           re.IGNORECASE)
        spans += [m.span() for m in arrow.finditer(text)]
    return sorted(spans)


def countable(term: dict) -> bool:
    """Whether a term is counted ('2 Crowns'): its `countable:` flag, else plural != singular."""
    if "countable" in term:
        return bool(term["countable"])
    return term.get("plural") != term.get("singular")


def form(typed: str, before: str, after: str, old: dict) -> str:
    """Which form ('singular', 'plural' or 'adjective') a typed old name stands in: by the
    name itself where singular and plural differ, else by the words around it (a number
    other than one before it: plural; a capitalised word after it, as in a card name 'Gold
    Plated Armor': the adjective, or the singular)."""
    low = typed.lower()
    sing, plur = (old.get("singular") or "").lower(), (old.get("plural") or "").lower()
    adj = (old.get("adjective") or "").lower()
    if low == adj and adj not in (sing, plur):
        return "adjective"
    if low == plur and plur != sing:
        return "plural"
    if low == sing and plur != sing:
        return "singular"
    if counted(before):
        return "plural"
    if re.match(r"\s+[A-Z]", after) and old.get("adjective"):
        return "adjective"
    return "singular"


# ---- the dry run: every sentence the rename changes ----------------------------------------
SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z\[{])")


def _strings(node, path=()):
    if isinstance(node, str):
        yield path, node
    elif isinstance(node, dict):
        for key, value in node.items():
            yield from _strings(value, path + (key,))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _strings(value, path + (i,))


def _lookup(node, path):
    for key in path:
        try:
            node = node[key]
        except (KeyError, IndexError, TypeError):
            return None
    return node


def _render(text: str, terms: dict, icons: dict) -> str:
    try:
        return render_plain(text, terms, icons)
    except KeyError:      # a token the glossary does not know: validation reports it
        return text


def _pairs(old: str, new: str) -> list[tuple[str, str]]:
    """The sentences that differ between two renderings of one text."""
    if old == new:
        return []
    a, b = SENTENCE.split(old), SENTENCE.split(new)
    if len(a) != len(b):
        return [(old, new)]
    return [(x, y) for x, y in zip(a, b) if x != y]


def sentence_changes(content_dir: Path, edits: dict[Path, str], old_glossary: dict,
                     new_glossary: dict) -> list[tuple[str, int, str, str]]:
    """(file, line, sentence before, sentence after) for every sentence of the content whose
    printed words change: glossary tokens rendered with the old and the new names, and the
    card names and notes the rename edits."""
    out = []
    old_terms, new_terms = old_glossary["terms"], new_glossary["terms"]
    old_icons, new_icons = old_glossary.get("icons") or {}, new_glossary.get("icons") or {}
    for path in sorted(Path(content_dir).rglob("*")):
        rel = path.relative_to(content_dir)
        if any(part.startswith(".") for part in rel.parts) or not path.is_file():
            continue
        before = path.read_text(encoding="utf-8") if path.suffix in (".yaml", ".md") else None
        if before is None:
            continue
        after = edits.get(path, before)
        if path.suffix == ".md":
            for i, (x, y) in enumerate(zip(before.splitlines(), after.splitlines()), 1):
                for s, t in _pairs(_render(x, old_terms, old_icons),
                                   _render(y, new_terms, new_icons)):
                    out.append((str(rel), i, s, t))
            continue
        old_doc, _ = parse(before, str(rel))
        new_doc, _ = parse(after, str(rel))
        if old_doc is None or new_doc is None:
            continue
        for where, text in _strings(old_doc.data):
            new_text = _lookup(new_doc.data, where)
            if not isinstance(new_text, str):
                continue
            for s, t in _pairs(_render(text, old_terms, old_icons),
                               _render(new_text, new_terms, new_icons)):
                out.append((str(rel), new_doc.locate(where)[0], s, t))
    return out


# ---- grammar the new name breaks -----------------------------------------------------------
ARTICLE_BEFORE = re.compile(r"(?<![\w-])(?:a|an)\s+$", re.IGNORECASE)


def grammar_warnings(content_dir: Path, edits: dict[Path, str], tid: str,
                     glossary: dict) -> list[str]:
    """Where the term, under its new name, follows a number in the singular (a counted
    term) or gets an article (a mass noun): 'file:line: ... (hint)'."""
    term = glossary["terms"][tid]
    icons = [i for i, icon in (glossary.get("icons") or {}).items() if icon.get("term") == tid]
    is_counted = countable(term)
    token = re.compile(rf"\[{tid}(?::(pl|adj))?\]"
                       + (rf"|\{{(?:{'|'.join(map(re.escape, icons))})\}}" if icons else ""))
    out, unsure = [], []
    for path in sorted(Path(content_dir).rglob("*")):
        rel = path.relative_to(content_dir)
        if any(p.startswith(".") for p in rel.parts) or path.suffix not in (".yaml", ".md") \
                or not path.is_file() or path.name == "terms.yaml":
            continue
        text = edits.get(path) or path.read_text(encoding="utf-8")
        for lineno, line in enumerate(text.splitlines(), 1):
            for m in token.finditer(line):
                before = line[:m.start()]
                icon = m.group(0).startswith("{")
                if is_counted and not icon and m.group(1) is None and counted(before):
                    out.append(f"{rel}:{lineno}: '{_snippet(before)}{m.group(0)}' prints "
                               f"'{_snippet(before)}{term['singular']}' ({term['singular']!r}"
                               f" is counted: write [{tid}:pl] after a number)")
                elif not is_counted and ARTICLE_BEFORE.search(before):
                    out.append(f"{rel}:{lineno}: '{_snippet(before)}{m.group(0)}' puts an "
                               f"article before {term['singular']!r}, a mass noun (reword, or "
                               f"give the term a plural / 'countable: true' in terms.yaml)")
                elif not is_counted and term.get("countable") is None and counted(before):
                    unsure.append(f"{rel}:{lineno}")
    unsure = list(dict.fromkeys(unsure))
    if unsure:
        out.append(f"{len(unsure)} place(s) put a number before {term['singular']!r}, which "
                   f"has no plural of its own (e.g. {', '.join(unsure[:3])}): if "
                   f"{term['singular']!r} is counted, rename with --plural; if it is a mass "
                   "noun, set 'countable: false' under the term in terms.yaml")
    return out


def _snippet(before: str) -> str:
    words = before.split(" ")
    return " ".join(words[-4:])
