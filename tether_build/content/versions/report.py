"""Changes as a designer reads them: the changes page, the errata sheet, the changelog."""

from __future__ import annotations

import html
from pathlib import Path

from .diff import Changes, summary

CSS = """<style>
body { font: 14px/1.4 sans-serif; margin: 1.5rem; color: #222; }
h1 { font-size: 20px; } h2 { font-size: 16px; margin-top: 1.4rem; }
table { border-collapse: collapse; width: 100%; }
td, th { border: 1px solid #bbb; padding: 4px 6px; vertical-align: top; text-align: left; }
del { background: #fdd; } ins { background: #dfd; text-decoration: none; }
.faces { display: flex; gap: 12px; align-items: flex-start; }
.faces figure { margin: 0; } .faces figcaption { font-size: 12px; color: #555; }
</style>"""


def _diff_html(text: str) -> str:
    out = html.escape(text)
    out = out.replace("[-", "<del>").replace("-]", "</del>")
    return out.replace("{+", "<ins>").replace("+}", "</ins>")


def _figure(face: str, caption: str) -> str:
    return f"<figure>{face}<figcaption>{html.escape(caption)}</figcaption></figure>"


def _faces(ch: Changes, faces: dict, cid: str) -> str:
    """The card's faces side by side: old and new, or the one side it has."""
    old, new = faces.get(cid, (None, None))
    figures = ([_figure(old, ch.old_rev)] if old else []) + \
        ([_figure(new, ch.new_rev)] if new else [])
    return f"<div class='faces'>{''.join(figures)}</div>" if figures else ""


def _fields(fields: dict) -> str:
    return "".join(f"<li><b>{html.escape(k)}</b>: {html.escape(str(o))} → "
                   f"{html.escape(str(n))}</li>" for k, (o, n) in fields.items() if k != "text")


def constant_label(path: str) -> str:
    """'victory.round_cap' -> 'Round cap (victory.round_cap)': a rules number by name."""
    return f"{path.rsplit('.', 1)[-1].replace('_', ' ').capitalize()} ({path})"


def _rules_sections(ch: Changes) -> list[str]:
    rows = []
    if ch.constants:
        rows.append("<h2 id='constants'>Rules numbers</h2><ul>" + "".join(
            f"<li><b>{html.escape(constant_label(p))}</b>: {html.escape(str(o))} → "
            f"{html.escape(str(n))}</li>" for p, o, n in ch.constants) + "</ul>")
    for kind, files in ch.rules.items():
        for name in files:
            paragraphs = "".join(f"<p>{_diff_html(d)}</p>" for d in ch.rule_diffs.get(name, []))
            rows.append(f"<h2>Rules chapter “{html.escape(ch.rule_titles.get(name, name))}” "
                        f"<code>{html.escape(name)}</code>: {kind}</h2>{paragraphs}")
    return rows


def _echo_section(ch: Changes) -> str:
    if not ch.echoes:
        return ""
    names = html.escape(", ".join(ch.renamed_to(t, o, n, "→") for t, o, n in ch.terms))
    cards = ", ".join(f"{html.escape(c.name)}" for c in ch.echoes)
    return (f"<h2 id='glossary'>Glossary: {names}</h2><p>{len(ch.echoes)} "
            f"card{'s' * (len(ch.echoes) != 1)} print the new name and change in nothing "
            f"else (no faces shown): <small>{cards}</small></p>")


def page(ch: Changes, faces: dict[str, tuple[str | None, str | None]] | None = None) -> str:
    """build/changes.html: the real edits first, each with its old and new faces (a new
    card its new face, a removed one its old); rules numbers and chapters; then a glossary
    rename's echoes on the cards, in one line."""
    faces = faces or {}
    rows = []
    for c in ch.edits:
        rows.append(f"<h2 id='{html.escape(c.id)}'>{html.escape(c.name)} "
                    f"<code>{html.escape(c.id)}</code></h2><ul>{_fields(c.fields)}</ul>"
                    + (f"<p>{_diff_html(c.word_diff())}</p>" if "text" in c.fields else "")
                    + _faces(ch, faces, c.id))
    for kind, cards in (("new card", ch.added), ("removed", ch.removed)):
        for c in cards:
            rows.append(f"<h2 id='{html.escape(c['id'])}'>{html.escape(c['name'])} "
                        f"<code>{html.escape(c['id'])}</code>: {kind}</h2>"
                        f"<p>{html.escape(c.get('text', ''))}</p>" + _faces(ch, faces, c["id"]))
    rows += _rules_sections(ch)
    rows.append(_echo_section(ch))
    listing = "".join(f"<li>{html.escape(line.strip())}</li>" for line in summary(ch)[1:]
                      if not line.startswith("      ") and "glossary echo:" not in line)
    return ("<!doctype html><html><head><meta charset='utf-8'><title>Changes</title>" + CSS +
            f"</head><body><h1>Changes from {html.escape(ch.old_rev)} to "
            f"{html.escape(ch.new_rev)}</h1><ul>{listing}</ul>" + "".join(rows) +
            "</body></html>")


def _row(name: str, what: str, old: str, new: str) -> str:
    return (f"<tr><td><b>{html.escape(name)}</b><br><small>{html.escape(what)}</small></td>"
            f"<td>{old}</td><td>{new}</td></tr>")


def errata_html(ch: Changes, title: str) -> str:
    """The errata sheet for a group that keeps playing with the old printout: each edited,
    new and removed card; each rules number and rules chapter that changed; a glossary
    rename in one line (the cards that only print the new name are not listed one by one)."""
    rows = []
    for c in ch.edits:
        what = ", ".join(f"{k} {o} → {n}" if k not in ("effect", "champion", "triggers")
                         else f"{k} changed" for k, (o, n) in c.fields.items()
                         if k != "text") or "text"
        rows.append(_row(c.name, what, html.escape(c.old_text), html.escape(c.new_text)))
    for c in ch.added:
        rows.append(_row(c["name"], "new card", "—", html.escape(c.get("text", ""))))
    for c in ch.removed:
        rows.append(_row(c["name"], "removed", html.escape(c.get("text", "")), "—"))
    for path, old, new in ch.constants:
        rows.append(_row(constant_label(path), "rules number", html.escape(str(old)),
                         html.escape(str(new))))
    for kind, files in ch.rules.items():
        for name in files:
            diffs = ch.rule_diffs.get(name, [])
            shown = "<br>".join(_diff_html(d) for d in diffs[:3]) + \
                (f"<br><small>and {len(diffs) - 3} more</small>" if len(diffs) > 3 else "")
            rows.append(_row(f"Rules: {ch.rule_titles.get(name, name)}",
                             f"chapter {kind} ({name})", "", shown or kind))
    for tid, old, new in ch.terms:
        rows.append(_row(ch.renamed_to(tid, old, new, "→"), "glossary",
                         html.escape(old), html.escape(new)))
    if ch.echoes:
        rows.append(_row(f"{len(ch.echoes)} cards", "print the new name only",
                         "", "<small>" + html.escape(", ".join(c.name for c in ch.echoes))
                         + "</small>"))
    return ("<!doctype html><html><head><meta charset='utf-8'><title>Errata</title>" + CSS +
            "<style>@page { size: A4; margin: 15mm; }</style></head><body>"
            f"<h1>{html.escape(title)}: errata {html.escape(ch.old_rev)} → "
            f"{html.escape(ch.new_rev)}</h1>"
            "<table><tr><th>what</th><th>before</th><th>now</th></tr>"
            + "".join(rows) + "</table></body></html>")


def markdown(sections: list[tuple[str, Changes]]) -> str:
    """A release-notes changelog: one section per version, newest first."""
    out = ["# Changelog", "", "Generated by `tether changelog` from the content's git tags.",
           ""]
    for title, ch in sections:
        out += [f"## {title}", ""]
        if ch.empty:
            out += ["No change to the content.", ""]
            continue
        if ch.added:
            out += ["### New cards", ""] + [f"- **{c['name']}** (`{c['id']}`): {c['text']}"
                                            for c in ch.added] + [""]
        if ch.removed:
            out += ["### Removed cards", ""] + [f"- **{c['name']}** (`{c['id']}`)"
                                                for c in ch.removed] + [""]
        if ch.changed or ch.renamed:
            out += ["### Changed cards", ""]
            out += [f"- `{a}` is now `{b}`" for a, b in ch.renamed]
            for c in ch.edits:
                fields = ", ".join(f"{k} {o} → {n}" for k, (o, n) in c.fields.items()
                                   if k not in ("text", "effect", "champion", "triggers"))
                line = f"- **{c.name}**" + (f": {fields}" if fields else "")
                if "text" in c.fields:
                    line += f". Now reads: \"{c.new_text}\""
                elif "effect" in c.fields:
                    line += ": its effect changed"
                out.append(line)
            out.append("")
        if ch.terms:
            out += ["### Glossary", ""] + [f"- {o} is now called {n}" + (
                f" (plural {ch.plurals[t][1]})" if ch.plurals.get(t, (o, n))[1] != n else "")
                for t, o, n in ch.terms]
            if ch.echoes:
                out.append(f"- {len(ch.echoes)} cards print the new name and change in "
                           "nothing else")
            out.append("")
        if ch.constants:
            out += ["### Rules numbers", ""] + [f"- `{p}`: {o} → {n}"
                                                for p, o, n in ch.constants] + [""]
        if any(ch.rules.values()):
            out += ["### Rules text", ""] + [
                f"- {kind}: " + ", ".join(f"{ch.rule_titles.get(f, f)} (`{f}`)" for f in files)
                for kind, files in ch.rules.items() if files]
            out.append("")
    return "\n".join(out).rstrip() + "\n"


def write_pdf(html_text: str, base: Path) -> bytes:
    """Lay out an HTML page with WeasyPrint (local files only)."""
    from ...print.layout.pdf import Layout

    layout = Layout(base.as_uri())
    document = layout.render(html_text)
    return Layout.write(document.pages, document)
