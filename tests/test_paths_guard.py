"""Issue 43: nothing outside the project is read, nothing outside the output folder is written
or removed, whatever the content or the build folder holds (tether_build/content/paths_guard.py)."""

from __future__ import annotations

import json
import os
import subprocess
import time

import pytest

from tether_build.buildsys.commit import RECORD, STAGING, commit, recover
from tether_build.content import paths_guard
from tether_build.errors import ContentError, TetherError

SECRET = "s3cret-line-that-must-never-print"


@pytest.fixture
def outside(tmp_path):
    """A folder outside the project (beside it), holding a secret text and a red PNG."""
    from PIL import Image

    folder = tmp_path.parent / f"{tmp_path.name}-outside"
    folder.mkdir()
    (folder / "secret.yaml").write_text(f"x: {SECRET}\n")
    Image.new("RGB", (8, 8), (220, 20, 30)).save(folder / "red.png")
    return folder


# ---- the guard itself ------------------------------------------------------------------
def test_reads_stay_inside_and_are_regular_and_bounded(tmp_path, outside):
    (tmp_path / "ok.txt").write_text("fine")
    assert paths_guard.read_bytes(tmp_path / "ok.txt", tmp_path, 100) == b"fine"
    (tmp_path / "out.txt").symlink_to(outside / "secret.yaml")
    (tmp_path / "zero").symlink_to("/dev/zero")
    (tmp_path / "loop").symlink_to(tmp_path / "loop")
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "big.txt").write_bytes(b"x" * 101)
    cases = {"out.txt": "outside", "zero": "outside", "loop": "cannot be resolved",
             "fifo": "not a regular file", "big.txt": "larger than", "none": "no such file"}
    start = time.perf_counter()
    for name, why in cases.items():
        with pytest.raises(paths_guard.Refused) as err:
            paths_guard.read_bytes(tmp_path / name, tmp_path, 100)
        assert why in str(err.value) and SECRET not in str(err.value), name
        assert "\n" not in str(err.value)
    assert time.perf_counter() - start < 5   # the FIFO never blocked
    # without a root (a file the user named): /dev/zero is still no regular file
    with pytest.raises(paths_guard.Refused, match="not a regular file"):
        paths_guard.read_bytes("/dev/zero")


def test_writes_refuse_any_symlink_on_the_way(tmp_path, outside):
    out = tmp_path / "o"
    (out / "real").mkdir(parents=True)
    (out / "lnk").symlink_to(outside)
    (out / "file-link").symlink_to(outside / "secret.yaml")
    assert paths_guard.out_path(out, "real/a.pdf") == out / "real" / "a.pdf"
    assert paths_guard.out_path(out, "new/folder/a.pdf") == out / "new" / "folder" / "a.pdf"
    for rel in ("lnk/victim.txt", "file-link", "../x", "/etc/passwd", "a/../../x", "",
                "a//b", "a\0b"):
        assert not paths_guard.out_path_ok(out, rel), rel


# ---- content --------------------------------------------------------------------------
def _validate_fails(content_dir) -> str:
    from tether_build.content.validate import validate

    with pytest.raises(ContentError) as err:
        validate(content_dir)
    return "\n".join(map(str, err.value.problems))


@pytest.mark.parametrize("kind", ["link-out", "dev-zero", "fifo", "huge"])
def test_a_content_file_that_is_no_plain_project_file_is_one_located_line(content_copy,
                                                                          outside, kind):
    """A content file that is a link to /etc/passwd (here: a secret outside the project)
    never prints it; /dev/zero never fills memory; a FIFO never hangs (issue 43)."""
    target = content_copy / "tiles.yaml"
    target.unlink()
    if kind == "link-out":
        target.symlink_to(outside / "secret.yaml")
    elif kind == "dev-zero":
        target.symlink_to("/dev/zero")
    elif kind == "fifo":
        os.mkfifo(target)
    else:
        target.write_bytes(b"# x\n" * (3 * 2**20))
    start = time.perf_counter()
    text = _validate_fails(content_copy)
    assert time.perf_counter() - start < 30
    assert text.startswith("content/tiles.yaml:1:1: (file): cannot read file: it ")
    assert SECRET not in text and len(text.splitlines()) == 1, text


def test_a_link_between_project_files_is_read(content_copy):
    real = content_copy / "tiles-real.yaml"
    (content_copy / "tiles.yaml").rename(real)
    (content_copy / "tiles.yaml").symlink_to(real)
    from tether_build.content.validate import validate

    validate(content_copy)


def test_two_glossary_terms_with_one_name_are_refused(content_copy):
    path = content_copy / "terms.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('    singular: "Mana"', '    singular: "Gold"', 1),
                    encoding="utf-8")
    found = _validate_fails(content_copy)
    assert "terms.mana.singular: the name 'Gold' is also term 'gold'" in found, found
    assert found.startswith("content/terms.yaml:")


# ---- rules chapters: one parse, no image hidden from the check ---------------------------
HIDDEN = ["<div>\n![a map](../../{o}/red.png)\n</div>", "<!-- ![a map](../../{o}/red.png) -->",
          "<pre>![a map](../../{o}/red.png)</pre>",
          "<script>\n![a map](../../{o}/red.png)\n</script>",
          "<my-tag>![a map](../../{o}/red.png)</my-tag>",
          "[![a map](../../{o}/red.png)](https://example.org)",
          "| a |\n|---|\n| ![a map](../../{o}/red.png) |",
          "![a map][the map]\n\n[the map]: ../../{o}/red.png"]


def _rules_ctx(content):
    from tether_build.print.rulebook.directives import Ctx
    from tether_build.print.rulebook.words import Words

    return Ctx(content, Words(content), lambda: {"decks": [], "tiles": [], "tokens": [],
                                                  "totals": {"cards": 0, "tiles": 0,
                                                             "tokens": 0}})


@pytest.mark.parametrize("body", HIDDEN)
def test_an_image_wrapped_in_html_is_checked_and_never_rendered(content_copy, outside, body):
    """The check reads the tree that is rendered (issue 43): raw HTML around an image does
    not hide it, and the outside picture never reaches the chapter's HTML."""
    from tether_build.content.validate import validate
    from tether_build.print.rulebook.chapters import check_chapters, render_chapters

    chapter = content_copy / "rules" / "99-test.md"
    chapter.write_text("---\ntitle: Test\nid: test\n---\n\n" + body.format(o=outside.name)
                       + "\n")
    content = validate(content_copy)
    problems = check_chapters(content, content_copy / "rules", content_copy.parent)
    assert [p.path for p in problems] == ["content/rules/99-test.md"], problems
    assert "image" in problems[0].message and problems[0].line >= 6
    chapters, problems = render_chapters(_rules_ctx(content), content_copy / "rules",
                                         content_copy.parent)
    assert problems and all(c.id != "test" for c in chapters)
    assert not any(outside.name in str(c.html) for c in chapters)


def test_html_typed_in_a_chapter_prints_as_typed(content_copy):
    from tether_build.content.validate import validate
    from tether_build.print.rulebook.chapters import render_chapters

    (content_copy / "rules" / "99-test.md").write_text(
        "---\ntitle: Test\nid: test\n---\n\n<img src=\"/etc/passwd\"> and <b>x</b>\n")
    content = validate(content_copy)
    chapters, problems = render_chapters(_rules_ctx(content), content_copy / "rules",
                                         content_copy.parent)
    html = str(next(c for c in chapters if c.id == "test").html)
    assert problems == [] and "<img" not in html and "&lt;img" in html


def test_a_chapter_linked_out_of_the_project_is_not_read(content_copy, outside):
    from tether_build.content.validate import validate
    from tether_build.print.rulebook.chapters import check_chapters

    content = validate(content_copy)
    (content_copy / "rules" / "99-test.md").symlink_to(outside / "secret.yaml")
    problems = check_chapters(content, content_copy / "rules", content_copy.parent)
    assert [p.path for p in problems] == ["content/rules/99-test.md"]
    assert "outside" in problems[0].message and SECRET not in str(problems[0])


# ---- pictures ------------------------------------------------------------------------
SVG = '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" ' \
      'width="40" height="40">{}</svg>'
BAD_SVG = {
    "file-href": (SVG.format('<image href="file://{o}/red.png" width="40" height="40"/>'),
                  "refers to"),
    "xlink": (SVG.format('<image xlink:href="{o}/red.png" width="40" height="40"/>'),
              "refers to"),
    "relative-out": (SVG.format('<image href="../../{n}/red.png"/>'), "refers to"),
    "http": (SVG.format('<image href="http://example.org/x.png"/>'), "refers to"),
    "css": (SVG.format('<rect style="fill: url(file://{o}/red.png)"/>'), "refers to"),
    "style": (SVG.format('<style>@import url(x.css);</style>'), "@import"),
    "script": (SVG.format('<script>alert(1)</script>'), "<script>"),
    "foreign": (SVG.format('<foreignObject><img src="x"/></foreignObject>'), "foreignObject"),
    "entity": ('<?xml version="1.0"?>\n<!DOCTYPE svg [<!ENTITY x SYSTEM "file://{o}/secret'
               '.yaml">]>\n' + SVG.format("<text>&x;</text>"), "DOCTYPE"),
    "malformed": ('<svg xmlns="http://www.w3.org/2000/svg"><g></svg>', "not well-formed"),
    "huge": ('<svg xmlns="http://www.w3.org/2000/svg" width="10000" height="10000"/>',
             "more than 40,000,000"),
}


@pytest.mark.parametrize("kind", sorted(BAD_SVG))
def test_svg_art_with_outside_references_or_entities_is_refused(tmp_path, content_copy,
                                                                 outside, kind):
    text, why = BAD_SVG[kind]
    (tmp_path / "art").mkdir()
    (tmp_path / "art" / "zap.svg").write_text(text.format(o=outside, n=outside.name))
    _art(content_copy, "art/zap.svg")
    found = _validate_fails(content_copy)
    assert ".art: art/zap.svg: " in found and why in found and SECRET not in found, found
    assert len(found.splitlines()) == 1


def test_a_png_with_corrupt_data_is_refused(tmp_path, content_copy):
    """Also once WeasyPrint is imported (it makes Pillow load truncated data silently)."""
    import zlib

    import weasyprint  # noqa: F401
    from PIL import Image

    (tmp_path / "art").mkdir()
    Image.new("RGB", (64, 64), (1, 2, 3)).save(tmp_path / "art" / "zap.png")
    data = bytearray((tmp_path / "art" / "zap.png").read_bytes())
    at = data.index(b"IDAT") + 4
    data[at + 2:at + 12] = b"\xff" * 10   # the header and size stay; the stream breaks
    (tmp_path / "art" / "zap.png").write_bytes(bytes(data))
    assert zlib   # (the stream is zlib: broken past its header)
    _art(content_copy, "art/zap.png")
    assert "not a picture Pillow can read" in _validate_fails(content_copy)


def test_a_plain_svg_with_its_own_parts_is_accepted(tmp_path, content_copy):
    (tmp_path / "art").mkdir()
    (tmp_path / "art" / "zap.svg").write_text(SVG.format(
        '<defs><circle id="c" r="4"/></defs><use href="#c"/><rect style="fill:url(#c)"/>'))
    _art(content_copy, "art/zap.svg")
    from tether_build.content.validate import validate

    validate(content_copy)


def test_a_rules_svg_with_an_outside_reference_is_refused(content_copy, outside):
    from tether_build.content.validate import validate
    from tether_build.print.rulebook.chapters import check_chapters

    (content_copy / "rules" / "img").mkdir()
    (content_copy / "rules" / "img" / "map.svg").write_text(
        SVG.format(f'<image href="file://{outside}/red.png"/>'))
    (content_copy / "rules" / "99-test.md").write_text(
        "---\ntitle: Test\nid: test\n---\n\n![a map](rules/img/map.svg)\n")
    problems = check_chapters(validate(content_copy), content_copy / "rules",
                              content_copy.parent)
    assert len(problems) == 1 and "refers to" in problems[0].message


def test_pages_load_nothing_outside_the_tool_and_loaded_projects(tmp_path, outside):
    from tether_build.print.html import TEMPLATES
    from tether_build.print.layout.resources import local_file

    local_file((TEMPLATES / "icons" / "gold.svg").as_uri())
    with pytest.raises(TetherError, match="only load files of the project"):
        local_file((outside / "red.png").as_uri())


def _art(content_dir, value: str) -> None:
    path = content_dir / "cards" / "starter.yaml"
    text = path.read_text(encoding="utf-8")
    head = "  - id: zap\n"
    at = text.index(head) + len(head)
    path.write_text(text[:at] + f"    art: {value}\n" + text[at:], encoding="utf-8")


# ---- the build folder -----------------------------------------------------------------
def _tampered(tmp_path, outside):
    """The issue's case: o/lnk -> an outside folder, o/sp -> another "site-packages", and a
    commit record that moves a .pth file into sp/ and removes lnk/victim.txt."""
    out = tmp_path / "o"
    (outside / "victims").mkdir()
    (outside / "victims" / "victim.txt").write_text("keep me")
    (outside / "site-packages").mkdir()
    (out / STAGING / "files" / "sp").mkdir(parents=True)
    (out / "lnk").symlink_to(outside / "victims")
    (out / "sp").symlink_to(outside / "site-packages")
    (out / STAGING / "files" / "sp" / "zz-evil.pth").write_text("import os\n")
    (out / STAGING / RECORD).write_text(json.dumps({"moves": ["sp/zz-evil.pth"],
                                                    "removals": ["lnk/victim.txt"]}))
    return out


def test_a_tampered_commit_record_touches_nothing_outside(tmp_path, outside):
    out = _tampered(tmp_path, outside)
    done = recover(out)
    assert done and done.startswith("discarded")
    assert (outside / "victims" / "victim.txt").read_text() == "keep me"
    assert list((outside / "site-packages").iterdir()) == []
    assert not (out / STAGING).exists()


def test_a_staging_folder_that_is_a_link_is_removed_not_followed(tmp_path, outside):
    out = tmp_path / "o"
    out.mkdir()
    (outside / "stage" / "files").mkdir(parents=True)
    (outside / "stage" / "files" / "x.txt").write_text("outside")
    (outside / "stage" / RECORD).write_text(json.dumps({"moves": ["x.txt"], "removals": []}))
    (out / STAGING).symlink_to(outside / "stage")
    assert "symlink" in recover(out)
    assert not (out / "x.txt").exists() and (outside / "stage" / "files" / "x.txt").exists()


def test_a_build_never_writes_through_a_link_in_its_output_folder(tmp_path, outside):
    out = tmp_path / "o"
    out.mkdir()
    (out / "cards").symlink_to(outside)
    with pytest.raises(TetherError, match="symlink inside the output folder"):
        commit(out, {"cards/a.pdf": b"%PDF"}, [], None)
    assert not (outside / "a.pdf").exists()


def test_the_cli_build_completes_nothing_a_tampered_folder_asks(tmp_path, outside,
                                                               content_copy):
    """The issue's reproduction, end to end: exit 0 with a warning, nothing outside touched."""
    from click.testing import CliRunner

    from tether_build.cli import main

    out = _tampered(tmp_path, outside)
    r = CliRunner().invoke(main, ["build", "--only", "validate", "--content",
                                  str(content_copy), "--out", str(out)])
    assert r.exit_code == 0, r.output
    assert "discarded" in r.output and "completed" not in r.output
    assert (outside / "victims" / "victim.txt").exists()
    assert list((outside / "site-packages").iterdir()) == []


def test_a_manifest_entry_through_a_link_is_dropped(tmp_path, outside):
    from tether_build.buildsys.manifest import MANIFEST, load_manifest

    out = tmp_path / "o"
    out.mkdir()
    (out / "lnk").symlink_to(outside)
    (out / MANIFEST).write_text(json.dumps({"cards": {"key": "k", "outputs": {
        "lnk/secret.yaml": "0" * 64}}}))
    warned = []
    assert load_manifest(out, warned.append) == {} and "outside" in warned[0]


def test_inside_refuses_every_way_out_of_the_output_folder(tmp_path, outside):
    from tether_build.buildsys.manifest import inside

    out = tmp_path / "o"
    (out / "print").mkdir(parents=True)
    (out / "print" / "lnk").symlink_to(outside)
    (out / "file.txt").write_text("x")
    for rel in ("../x", "/etc/passwd", "print/../../x", "print/./a", "print/lnk",
                "print/lnk/secret.yaml", "a\\..\\x", "", "file.txt/under"):
        assert not inside(out, rel), rel
    for rel in ("print/cards-a4.pdf", "new/folder/file.pdf", "file.txt"):
        assert inside(out, rel), rel


def test_cache_entries_are_read_and_written_only_inside_the_cache(tmp_path, outside):
    from tether_build.print.cache import Cache

    root = tmp_path / "cache"
    (root / "kind").mkdir(parents=True)
    (root / "kind" / "k.bin").symlink_to(outside / "secret.yaml")
    os.mkfifo(root / "kind" / "f.bin")
    (root / "out").symlink_to(outside)
    cache = Cache(root)
    assert cache.get("kind", "k") is None and cache.get("kind", "f") is None
    cache.put("out", "x", b"data")
    assert not (outside / "x.bin").exists()


def test_an_unsigned_compiled_template_in_the_cache_is_never_run(tmp_path):
    """The compiled templates of the render cache are code: one that was not signed on
    this machine (a restored CI cache, an unpacked archive) is compiled afresh, not loaded."""
    import jinja2

    from tether_build.print.cache import Cache
    from tether_build.print.templatecode import TemplateCode

    cache = Cache(tmp_path)
    env = jinja2.Environment(loader=jinja2.DictLoader({"t": "{{ 1 + 1 }}"}),
                             bytecode_cache=TemplateCode(cache))
    assert env.get_template("t").render() == "2"
    [entry] = (tmp_path / "jinja").glob("*.bin")
    evil_env = jinja2.Environment(loader=jinja2.DictLoader({"t": "{{ 40 + 2 }}"}))
    bucket = jinja2.bccache.Bucket(evil_env, "x", "y")
    bucket.code = evil_env.compile("{{ 40 + 2 }}", "t")
    entry.write_bytes(bucket.bytecode_to_string())   # same key, unsigned, other code
    fresh = jinja2.Environment(loader=jinja2.DictLoader({"t": "{{ 1 + 1 }}"}),
                               bytecode_cache=TemplateCode(cache))
    assert fresh.get_template("t").render() == "2"


# ---- versions -------------------------------------------------------------------------
def test_a_link_committed_in_content_is_skipped_by_diff_and_changelog(tmp_path, outside,
                                                                      capsys):
    import shutil

    from tests.conftest import CONTENT
    from tether_build.content.versions.gitcontent import content_at

    repo = tmp_path / "repo"
    shutil.copytree(CONTENT, repo / "content")
    (repo / "content" / "rules" / "evil.md").symlink_to("/etc/passwd")
    (repo / "content" / "rules" / "out.md").symlink_to(outside / "secret.yaml")
    git = ["git", "-c", "user.email=t@t", "-c", "user.name=t"]
    subprocess.run(["git", "init", "-q"], cwd=repo, check=True)
    subprocess.run(["git", "add", "-A"], cwd=repo, check=True)
    subprocess.run([*git, "commit", "-qm", "links"], cwd=repo, check=True)
    with content_at(repo / "content", "HEAD") as old:
        assert (old / "game.yaml").is_file()
        assert not (old / "rules" / "evil.md").exists()
    assert "skipped 2 link(s)" in capsys.readouterr().err
    from tether_build.content.versions.gitcontent import rules_files

    texts = rules_files(repo / "content")
    assert "root:" not in texts["evil.md"] and SECRET not in texts["out.md"]


def test_write_atomic_in_an_output_folder_never_follows_a_link(tmp_path, outside):
    from tether_build.fsutil import write_atomic

    out = tmp_path / "o"
    out.mkdir()
    (out / "engine").symlink_to(outside)
    with pytest.raises(paths_guard.Refused):
        write_atomic(out / "engine" / "cards.json", b"{}", out)
    assert not (outside / "cards.json").exists()
    os.mkfifo(out / "fifo.json")   # compared with a FIFO: never opened, replaced
    assert write_atomic(out / "fifo.json", b"{}", out) and (out / "fifo.json").read_bytes() == b"{}"
