"""A stage's recorded reads (tether_build/buildsys/reads.py): what it opened beyond its key counts."""

from __future__ import annotations

import json
import os

from tether_cli import run_cli

from tether_build.buildsys import reads


def test_recording_notes_files_opened_and_folders_listed(tmp_path):
    (tmp_path / "a.txt").write_text("one", encoding="utf-8")
    (tmp_path / "sub").mkdir()
    with reads.recording() as outer:
        with reads.recording() as inner:
            (tmp_path / "a.txt").read_text(encoding="utf-8")
        os.listdir(tmp_path / "sub")
        with reads.paused():
            (tmp_path / "a.txt").read_bytes()
    assert inner == {f"file:{tmp_path / 'a.txt'}"}
    assert outer == {f"file:{tmp_path / 'a.txt'}", f"dir:{tmp_path / 'sub'}"}
    found = reads.digests(outer, (tmp_path,), ())
    assert set(found) == outer
    assert reads.changed(found, (tmp_path,), ()) is None
    (tmp_path / "sub" / "new.txt").write_text("", encoding="utf-8")
    assert reads.changed(found, (tmp_path,), ()) == f"dir:{tmp_path / 'sub'}"
    (tmp_path / "a.txt").unlink()
    assert reads.changed(reads.digests(outer, (tmp_path,), ()), (tmp_path,), ()) is None
    assert reads.changed(found, (tmp_path,), ()) == f"dir:{tmp_path / 'sub'}"   # first


def test_files_the_key_hashes_are_left_out_of_the_record(tmp_path):
    for name in ("keyed.css", "other.png"):
        (tmp_path / name).write_text(name, encoding="utf-8")
    record = {f"file:{tmp_path / 'keyed.css'}", f"file:{tmp_path / 'other.png'}",
              f"dir:{tmp_path}"}
    found = reads.digests(record, (tmp_path,), (), keyed=frozenset({str(tmp_path / "keyed.css")}))
    assert set(found) == {f"file:{tmp_path / 'other.png'}", f"dir:{tmp_path}"}
    (tmp_path / "other.png").write_text("redrawn", encoding="utf-8")
    assert reads.changed(found, (tmp_path,), ()) == f"file:{tmp_path / 'other.png'}"


def test_reads_outside_the_roots_or_in_skipped_folders_are_left_out(tmp_path):
    inside, out = tmp_path / "project", tmp_path / "project" / "build"
    out.mkdir(parents=True)
    for path in (inside / "x.png", out / "cache.bin", tmp_path / "elsewhere.txt"):
        path.write_bytes(b"1")
    record = {f"file:{inside / 'x.png'}", f"file:{out / 'cache.bin'}",
              f"file:{tmp_path / 'elsewhere.txt'}", f"file:{inside / 'code.py'}"}
    assert list(reads.digests(record, (inside,), (out,))) == [f"file:{inside / 'x.png'}"]


def test_a_tampered_record_names_no_file_outside_the_project(tmp_path, monkeypatch):
    """The record comes from the output folder: an entry outside the project is never read,
    only counted as changed (the stage runs again and writes its record anew)."""
    outside = tmp_path / "secret.txt"
    outside.write_text("not the project's", encoding="utf-8")
    project = tmp_path / "project"
    project.mkdir()
    opened = []
    monkeypatch.setattr(reads, "digest_of", lambda item: opened.append(item) or "x")
    forged = {f"file:{outside}": "x"}
    assert reads.changed(forged, (project,), ()) == f"file:{outside}"
    assert opened == []


def test_redrawn_card_art_rebuilds_the_card_sheets(small_content, tmp_path):
    """Card art lies beside the content folder, outside every declared key: its stage's
    recorded reads name it, so a picture redrawn (nothing else edited) rebuilds the sheets
    (an incremental build kept the old picture before)."""
    from PIL import Image

    art = small_content.parent / "art" / "picture.png"
    art.parent.mkdir()
    Image.new("RGB", (60, 40), (200, 20, 20)).save(art)
    path = small_content / "cards" / "starter.yaml"
    text = path.read_text(encoding="utf-8")
    start = text.index("    name: ")
    end = text.index("\n", start) + 1
    path.write_text(text[:end] + "    art: art/picture.png\n" + text[end:], encoding="utf-8")
    out = tmp_path / "build"
    args = ["build", "--content", str(small_content), "--out", str(out), "--paper", "a4",
            "--only", "cards", "--quiet"]
    assert run_cli(*args).exit_code == 0
    record = json.loads((out / ".tether-build.json").read_text(encoding="utf-8"))
    assert f"file:{art.resolve()}" in record["cards"]["reads"]
    # the fonts, icons and templates it read are in its key already: not recorded again
    from tether_build.commands.build import STAGES, Context, keyed_files

    cards = next(s for s in STAGES if s.name == "cards")
    keyed = keyed_files(cards, Context(small_content, out), {})
    assert any(name.endswith(".ttf") for name in keyed)
    assert not {item[5:] for item in record["cards"]["reads"]} & keyed
    Image.new("RGB", (60, 40), (20, 20, 200)).save(art)
    result = run_cli(*args, "--verify")
    assert result.exit_code == 0, result.output
    assert "byte-identical to a clean build" in result.output


def test_real_path_resolves_as_realpath_does(tmp_path):
    """reads.real_path (a folder's real path looked up once, one lstat a path) gives what
    os.path.realpath gives: through a linked folder, a linked file, a dangling link, a
    missing file, `..` after a link, a link loop, a relative path."""
    real = tmp_path / "real"
    (real / "sub").mkdir(parents=True)
    (real / "sub" / "a.txt").write_text("a", encoding="utf-8")
    (tmp_path / "linked").symlink_to(real)
    (real / "file-link").symlink_to(real / "sub" / "a.txt")
    (real / "dangling").symlink_to(tmp_path / "nowhere")
    (tmp_path / "loop1").symlink_to(tmp_path / "loop2")
    (tmp_path / "loop2").symlink_to(tmp_path / "loop1")
    paths = [real / "sub" / "a.txt", tmp_path / "linked" / "sub" / "a.txt",
             tmp_path / "linked" / "file-link", tmp_path / "linked" / "dangling",
             tmp_path / "linked" / "sub" / "missing.txt", tmp_path / "gone" / "x.txt",
             f"{tmp_path}/linked/sub/../sub/a.txt", f"{tmp_path}/linked/..",
             f"{tmp_path}/linked/sub/", tmp_path / "loop1" / "x", "relative/x.txt", "/"]
    folders: dict[str, str] = {}
    for path in map(str, paths):
        assert reads.real_path(path, folders) == os.path.realpath(path), path
    for path in map(str, paths):   # the memo filled: the same answers
        assert reads.real_path(path, folders) == os.path.realpath(path), path
