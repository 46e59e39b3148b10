"""What changed in the rules chapters: each chapter's title and its changed lines as
word diffs (`[-old-] {+new+}`), in the current glossary's words on both sides so that a
renamed term is no change of the rules."""

from __future__ import annotations

import difflib
import re

from .. import text as textmod

FRONT = re.compile(r"\A---\n(.*?)\n---\n", re.DOTALL)
TITLE = re.compile(r"^title:\s*[\"']?(.*?)[\"']?\s*$", re.MULTILINE)
MAX_PARAGRAPHS = 12  # per chapter: more is summed up as a count


def _plain(text: str, content) -> str:
    """Tokens in the glossary's current names; a token it no longer knows kept as typed."""
    terms, icons = content.terms, content.icons

    def term(m: re.Match) -> str:
        return textmod.term_form(terms[m.group(1)], m.group(2)) if m.group(1) in terms \
            else m.group(0)

    def icon(m: re.Match) -> str:
        tid = icons.get(m.group(1), {}).get("term")
        return textmod.term_form(terms[tid], None) if tid in terms else m.group(0)

    return textmod.ICON_TOKEN.sub(icon, textmod.TERM_TOKEN.sub(term, text))


def title(text: str, name: str, content) -> str:
    """A chapter's title from its front matter (else its first heading, else its file)."""
    front = FRONT.match(text)
    found = TITLE.search(front.group(1)) if front else None
    if not found:
        found = re.search(r"^#+\s+(.+)$", text, re.MULTILINE)
    return _plain(found.group(1), content) if found else name


MARKUP = re.compile(r"\*\*|__|(?<!\w)[*_](?=\w)|(?<=\w)[*_](?!\w)|^#+\s*")


def _paragraphs(text: str, content) -> list[str]:
    """The chapter's lines (a list item, a heading or a paragraph each, as Markdown writes
    them), in plain words: emphasis marks left out."""
    body = FRONT.sub("", text, count=1)
    return [" ".join(MARKUP.sub("", _plain(line, content)).split())
            for line in body.splitlines() if line.strip()]


def word_diff(old: str, new: str) -> str:
    """Removed words as [-x-], added ones as {+y+}."""
    a, b = old.split(), new.split()
    out = []
    for op, a1, a2, b1, b2 in difflib.SequenceMatcher(a=a, b=b).get_opcodes():
        if op == "equal":
            out += a[a1:a2]
        if op in ("delete", "replace"):
            out.append("[-" + " ".join(a[a1:a2]) + "-]")
        if op in ("insert", "replace"):
            out.append("{+" + " ".join(b[b1:b2]) + "+}")
    return " ".join(out)


def paragraph_diffs(old: str, new: str, content) -> list[str]:
    """The changed paragraphs of a chapter, each as a word diff."""
    a, b = _paragraphs(old, content), _paragraphs(new, content)
    out = []
    for op, a1, a2, b1, b2 in difflib.SequenceMatcher(a=a, b=b).get_opcodes():
        if op != "equal":
            out.append(word_diff(" ".join(a[a1:a2]), " ".join(b[b1:b2])))
    if len(out) > MAX_PARAGRAPHS:
        out = out[:MAX_PARAGRAPHS] + [f"... and {len(out) - MAX_PARAGRAPHS} more changes"]
    return out


def chapter_changes(kinds: dict[str, list[str]], old_rules: dict[str, str],
                    new_rules: dict[str, str], new) -> tuple[dict, dict]:
    """(file -> title, file -> paragraph word diffs) of the added, removed and changed
    chapters; `new` is the newer content (its glossary words both sides)."""
    titles, diffs = {}, {}
    for files in kinds.values():
        for name in files:
            text = new_rules.get(name) or old_rules.get(name, "")
            titles[name] = title(text, name, new)
    for name in kinds.get("changed", []):
        diffs[name] = [d for d in paragraph_diffs(old_rules[name], new_rules[name], new)
                       if "[-" in d or "{+" in d]
    return titles, diffs
