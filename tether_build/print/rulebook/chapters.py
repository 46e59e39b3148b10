"""Rules chapters: content/rules/*.md -> checked, rendered HTML.

Pipeline per chapter, in this order:
1. YAML front matter (title, id) is split off; line numbers stay those of the file.
2. `{{ constants }}` are looked up as plain paths of content/game.yaml (constants.fill: never
   evaluated; anything else between braces is an error naming file:line, with a hint).
3. `::: directive` lines become placeholders (unknown names are errors).
4. Tokens and literal glossary names are checked like card text is.
5. `text.render_html` escapes the designer's text and replaces tokens with glossary names,
   so HTML typed in a chapter prints as typed; Markdown (markdown-it-py) then builds the HTML.
6. The placeholders are replaced by the directive's HTML.
"""

from __future__ import annotations

import difflib
import functools
import re
from dataclasses import dataclass, field
from pathlib import Path

from markupsafe import Markup

from ...content import constants, yamlio
from ...content import text as textmod
from ...errors import Problem
from .directives import DIRECTIVES, Ctx
from .examples import NoMoment

DIRECTIVE = re.compile(r"^:::\s*([A-Za-z0-9_-]+)\s*$")
EXPRESSION = re.compile(r"\{\{.*?\}\}")
PLACEHOLDER = "RBDIRECTIVE{}X"
FRONT = "---"


@dataclass
class Chapter:
    """One rendered rules chapter."""

    id: str
    file: str
    title_source: str
    title: Markup = field(default_factory=Markup)
    title_plain: str = ""
    html: Markup = field(default_factory=Markup)
    directives: list[str] = field(default_factory=list)


def split_front_matter(text: str, shown: str) -> tuple[dict, str, int, list[Problem]]:
    """(front matter, body, line number of the body's first line, problems)."""
    lines = text.split("\n")
    if not lines or lines[0].strip() != FRONT:
        return {}, text, 1, [Problem(shown, 1, 1, "front matter", "missing front matter",
                                     "start the file with '---', 'title: ...', 'id: ...', "
                                     "'---'")]
    try:
        end = next(i for i in range(1, len(lines)) if lines[i].strip() == FRONT)
    except StopIteration:
        return {}, text, 1, [Problem(shown, 1, 1, "front matter", "front matter not closed",
                                     "end it with a line '---'")]
    source = "\n".join(lines[1:end])
    doc, found = yamlio.parse(source, shown, first_line=2) if source.strip() else (None, [])
    if found:
        return {}, text, 1, found
    meta = doc.data if doc is not None else {}
    if not isinstance(meta, dict):
        return {}, text, 1, [Problem(shown, 2, 1, "front matter", "front matter must be "
                                     "a mapping", "write 'title: ...' and 'id: ...'")]
    problems = [Problem(shown, 2, 1, f"front matter.{key}", f"'{key}' is required",
                        f"add '{key}: ...'") for key in ("title", "id") if not meta.get(key)]
    if "shrink" in meta and not isinstance(meta["shrink"], bool):
        problems.append(Problem(shown, 2, 1, "front matter.shrink", "'shrink' must be true "
                                "or false", "write 'shrink: true' to let the chapter's tables "
                                "shrink to fit"))
    return meta, "\n".join(lines[end + 1:]), end + 2, problems


class ChapterRenderer:
    """Renders rules chapters against one content build."""

    def __init__(self, ctx: Ctx, cache=None):
        self.ctx = ctx
        self.cache = cache   # the render cache: each chapter's Markdown as HTML (_markdown)
        self.words = ctx.words
        self.literal = textmod.literal_names(ctx.content.terms)
        self.prefer_icon = textmod.icon_preferred(
            (c.get("text") or "" for c in ctx.content.cards), ctx.content.icons)

    @functools.cached_property
    def md(self):
        """The Markdown parser (imported when a chapter is parsed: most builds find every
        chapter's HTML in the render cache)."""
        from markdown_it import MarkdownIt

        return MarkdownIt("commonmark", {"html": True}).enable("table")

    @functools.cached_property
    def _lint(self) -> str | None:
        """What a chapter's token check reads besides its text (the glossary's terms and
        icons, the icons the content prefers, this code), hashed: a chapter whose text and
        this are unchanged found nothing before (_linted), so it is not read line by line
        again. None without a render cache."""
        import json

        from ..cache import digest

        if self.cache is None:
            return None
        content = self.ctx.content
        return digest("chapter-lint/1", json.dumps([content.terms, content.icons,
                                                    sorted(self.prefer_icon)],
                                                   sort_keys=True, default=str),
                      _code(), Path(textmod.__file__).read_bytes())

    def _linted(self, text: str) -> str | None:
        """The cache key under which chapter text `text` is kept as checked and clean."""
        from ..cache import digest

        return None if self._lint is None else digest(self._lint, text)

    # ---- checks ------------------------------------------------------------------------
    def _constants(self, body: str, shown: str, first: int) -> tuple[str, list[Problem]]:
        filled, found = constants.fill(body, self.ctx.game)
        return filled, [Problem(shown, first + line - 1, col, "text", message, hint)
                        for line, col, message, hint in found]

    def _images(self, tokens, shown: str, first: int, text: str = "") -> list[Problem]:
        """Markdown images may only show files of the content or templates folders; each
        good one is pointed at its file, anything else is a located error (issue 17.2).
        Every image of the tree is checked, wherever it sits (tables, links, lists)."""
        problems = []
        roots = [Path(self.ctx.content.root).resolve(), TEMPLATES.resolve()]
        lines = text.split("\n")
        for token in tokens:
            for child in _walk(token.children or []):
                if child.type != "image":
                    continue
                src = child.attrGet("src") or ""
                line = first + _line_of(token, lines, src)
                path, why = _image_file(src, roots)
                if why:
                    problems.append(Problem(shown, line, 1, "text", f"image {src!r}: {why}",
                                            "put the image in the content folder and write "
                                            "its path from there, e.g. rules/img/map.png"))
                else:
                    child.attrSet("src", path.as_uri())
        return problems

    def _tokens(self, line: str, shown: str, lineno: int) -> list[Problem]:
        out = []
        for kind, tid, _, col in textmod.tokens(line):
            table = self.ctx.content.terms if kind == "term" else self.ctx.content.icons
            if tid not in table:
                close = difflib.get_close_matches(tid, list(table), n=1, cutoff=0.6)
                shown_tok = f"[{tid}]" if kind == "term" else f"{{{tid}}}"
                out.append(Problem(shown, lineno, col + 1, "text",
                                   f"unknown {kind} token {shown_tok}",
                                   f"did you mean '{close[0]}'?" if close else
                                   f"see content/terms.yaml {kind}s"))
        bare = textmod.strip_tokens(EXPRESSION.sub(lambda m: " " * len(m.group(0)), line))
        content = self.ctx.content
        for pos, typed, fix in textmod.literal_hits(bare, self.literal, content.terms,
                                                     content.icons, self.prefer_icon):
            out.append(Problem(shown, lineno, pos + 1, "text",
                               f"glossary name {typed!r} typed literally",
                               f"write {fix} so a rename reaches this text"))
        return out

    # ---- rendering ---------------------------------------------------------------------
    @staticmethod
    def _html_key(source: str) -> str:
        from ..cache import digest, versions

        return digest("chapter-html/2", source, versions("markdown-it-py"), _code())

    def _cached(self, source: str) -> str | None:
        """A chapter's HTML from the render cache, when an earlier build parsed the same
        text, found it clean and with no image (only such are kept): an edit of one chapter,
        or of a number that some print, parses those alone (parsing is about a third of
        reading the chapters)."""
        if self.cache is None:
            return None
        data = self.cache.get("chapterhtml", self._html_key(source))
        try:
            return data.decode("utf-8") if data is not None else None
        except UnicodeDecodeError:
            return None

    def _markdown(self, tokens, source: str) -> str:
        """The checked tree as HTML; kept in the render cache when it shows no image (an
        image's file is read at layout and may change under the same text)."""
        html = self.md.renderer.render(tokens, self.md.options, {})
        if self.cache is not None and not _has_image(tokens):
            self.cache.put("chapterhtml", self._html_key(source), html.encode("utf-8"))
        return html

    def render(self, path: Path, shown: str, check_only: bool = False
               ) -> tuple[Chapter | None, list[Problem]]:
        """One chapter file -> (Chapter, problems); Chapter is None if it cannot render
        (or if only checking)."""
        from ...content.paths_guard import Refused, project_of, read_text

        try:   # a regular file of the project, at most 8 MiB: never a link out, a FIFO
            text = read_text(path, project_of(Path(path).parent.parent))
        except Refused as exc:
            return None, [Problem(shown, 1, 1, "", f"cannot read file: it {exc.why}",
                                  "a rules chapter is a plain Markdown file inside the project")]
        meta, body, first, problems = split_front_matter(text, shown)
        if problems:
            return None, problems
        chapter = Chapter(str(meta["id"]), shown, str(meta["title"]))
        linted = self._linted(text)   # its tokens and names were checked, and found clean
        clean = linted is not None and self.cache.get("chapterlint", linted) is not None
        if not clean:
            problems += self._tokens(chapter.title_source, shown, 2)
        directives: list[str] = []
        at: list[int] = []   # each directive's line in the file
        lines = []
        for i, line in enumerate(body.split("\n")):
            m = DIRECTIVE.match(line.strip())
            if m:
                name = m.group(1)
                if name not in DIRECTIVES:
                    close = difflib.get_close_matches(name, list(DIRECTIVES), n=1)
                    problems.append(Problem(shown, first + i, 1, "text",
                                            f"unknown directive '::: {name}'",
                                            f"did you mean '{close[0]}'?" if close else
                                            "directives: " + ", ".join(DIRECTIVES)))
                    continue
                lines.append(PLACEHOLDER.format(len(directives)))
                directives.append(name)
                at.append(first + i)
                continue
            if not clean:
                problems += self._tokens(line, shown, first + i)
            lines.append(line)
        if linted is not None and not clean and not problems:
            self.cache.put("chapterlint", linted, b"clean")
        rendered, errors = self._constants("\n".join(lines), shown, first)
        problems += errors
        # One parse (issue 43): the Markdown the images are checked in is the Markdown that
        # is rendered, the designer's text escaped (HTML typed in a chapter prints as typed:
        # a <div> or <!-- --> cannot hide an image from the check). With an unknown token
        # the words cannot be rendered: the text is escaped as it stands, for the check.
        source = self.words.html(rendered) if not problems else Markup.escape(rendered)
        html = self._cached(source) if not problems and not check_only else None
        if html is None:
            tokens = self.md.parse(source)
            problems += self._images(tokens, shown, first, rendered)
            if problems or check_only:
                return None, problems
            html = self._markdown(tokens, source)
        for n, name in enumerate(directives):
            try:
                block = DIRECTIVES[name](self.ctx)
            except NoMoment as exc:   # a worked example no engine run shows (examples.py)
                problems.append(Problem(shown, at[n], 1, "text",
                                        f"worked example '::: {name}': "
                                        f"{self.words.plain(exc.what)}",
                                        self.words.plain(exc.hint)))
                continue
            html = html.replace(f"<p>{PLACEHOLDER.format(n)}</p>", str(block))
        if problems:
            return None, problems
        if meta.get("shrink") is True:   # its tables may shrink to fit (tablefit.fitted)
            html = html.replace('<table class="rb-table', '<table class="rb-table rb-shrink')
        chapter.title = self.words.html(chapter.title_source)
        chapter.title_plain = self.words.plain(chapter.title_source)
        chapter.html = Markup(html)
        chapter.directives = directives
        return chapter, []


def _walk(children):
    """Every inline token, nested ones (an image in a link's text, an image's alt) too."""
    for child in children:
        yield child
        yield from _walk(child.children or [])


def _has_image(tokens) -> bool:
    return any(c.type == "image" for t in tokens for c in _walk(t.children or []))


def _line_of(token, lines: list[str], src: str) -> int:
    """The line (from the body's first, 0-based) of `src` within the token's block."""
    start, end = token.map if token.map else (0, 1)
    return next((i for i in range(start, min(end, len(lines))) if src and src in lines[i]),
                start)


@functools.cache
def _code() -> bytes:
    """This module (how it sets up Markdown), for the key of a chapter's HTML."""
    return Path(__file__).read_bytes()


TEMPLATES = Path(__file__).resolve().parents[3] / "templates"
IMAGE_TYPES = {".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp"}


def _image_file(src: str, roots: list[Path]) -> tuple[Path | None, str | None]:
    """(file, None) for an image inside one of `roots`, else (None, why not)."""
    if not src or ":" in src or src.startswith(("/", "\\")) or "\0" in src:
        return None, "only a relative path inside the content folder is allowed"
    path = (roots[0] / src).resolve()
    if not any(path.is_relative_to(root) for root in roots):
        return None, "the path leaves the content and templates folders"
    if path.suffix.lower() not in IMAGE_TYPES:
        return None, "not an image type (" + ", ".join(sorted(IMAGE_TYPES)) + ")"
    if not path.is_file():
        return None, "no such file"
    from ...content.pictures import (
        problem,  # read through the guard, decoded, SVG references checked
    )

    why = problem(path, next(root for root in roots if path.is_relative_to(root)))
    return (None, why) if why else (path, None)


def check_chapters(content, rules_dir: Path, base: Path) -> list[Problem]:
    """The problems of every rules chapter (front matter, tokens, names, constants)."""
    from .words import Words

    renderer = ChapterRenderer(Ctx(content, Words(content), dict))
    problems = []
    for path in sorted(Path(rules_dir).glob("*.md")):
        problems += renderer.render(path, _shown(path, base), check_only=True)[1]
    return problems


def _shown(path: Path, base: Path) -> str:
    try:
        return str(path.relative_to(base))
    except ValueError:
        return str(path)


def render_chapters(ctx: Ctx, rules_dir: Path, base: Path, cache=None
                    ) -> tuple[list[Chapter], list[Problem]]:
    """Every content/rules/*.md, in file-name order, with every problem found (cache: the
    render cache, where each chapter's HTML is kept)."""
    renderer = ChapterRenderer(ctx, cache)
    chapters, problems, seen = [], [], {}
    for path in sorted(Path(rules_dir).glob("*.md")):
        shown = _shown(path, base)
        chapter, probs = renderer.render(path, shown)
        problems += probs
        if chapter is None:
            continue
        if chapter.id in seen:
            problems.append(Problem(shown, 3, 1, "front matter.id",
                                    f"duplicate chapter id {chapter.id!r} (also "
                                    f"{seen[chapter.id]})", "chapter ids must be unique"))
        seen.setdefault(chapter.id, shown)
        chapters.append(chapter)
    if not chapters and not problems:
        problems.append(Problem(str(rules_dir), 1, 1, "", "no rules chapters found",
                                "add content/rules/NN-name.md files"))
    return chapters, problems
