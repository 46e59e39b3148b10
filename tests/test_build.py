"""`tether build`: atomic, incremental; a failed build leaves previous outputs intact."""

from __future__ import annotations

import json

import pytest
from tether_cli import run_cli

FAST = ("--only", "validate", "--only", "notes")


def _snapshot(out):
    """Every output's bytes and time. The render cache (.cache/) is left out: its entries are
    content-addressed, so one may outlive a failed build (tests/test_build_cache.py)."""
    return {p.relative_to(out).as_posix(): (p.read_bytes(), p.stat().st_mtime_ns)
            for p in sorted(out.rglob("*")) if p.is_file() and ".cache" not in p.parts}


def _build(content_copy, out, *extra):
    return run_cli("build", "--content", str(content_copy), "--out", str(out), "--json",
                   *FAST, *extra)


def test_no_change_rebuild_writes_nothing(content_copy, tmp_path):
    out = tmp_path / "build"
    first = _build(content_copy, out)
    assert first.exit_code == 0, first.output
    assert set(json.loads(first.output)["written"]) == {"cards.jsonl", "designer-notes.html"}
    before = _snapshot(out)
    again = _build(content_copy, out)
    summary = json.loads(again.output)
    assert summary["written"] == []
    assert all(s["status"] == "up to date" for s in summary["stages"].values())
    assert _snapshot(out) == before


def test_one_card_edit_rewrites_the_outputs_that_contain_it(content_copy, tmp_path):
    out = tmp_path / "build"
    assert _build(content_copy, out).exit_code == 0
    path = content_copy / "cards" / "starter.yaml"
    path.write_text(path.read_text().replace("Gain +2 {gold}.", "Gain +2 {gold} now."))
    summary = json.loads(_build(content_copy, out).output)
    assert "cards.jsonl" in summary["written"]
    cards = [json.loads(line) for line in (out / "cards.jsonl").read_text().splitlines()]
    assert next(c for c in cards if c["id"] == "supply_cache")["text"].endswith("now.")


def test_failed_build_keeps_previous_outputs_byte_identical(content_copy, tmp_path):
    out = tmp_path / "build"
    assert _build(content_copy, out).exit_code == 0
    before = _snapshot(out)
    path = content_copy / "cards" / "starter.yaml"
    path.write_text(path.read_text().replace("Gain +2 {gold}.", "Gain +2 Gold."))
    result = run_cli("build", "--content", str(content_copy), "--out", str(out), *FAST)
    assert result.exit_code == 1
    assert "typed literally" in result.output
    assert _snapshot(out) == before


def test_interrupted_build_writes_nothing(content_copy, tmp_path, monkeypatch):
    from tether_build.commands import build

    out = tmp_path / "build"
    assert _build(content_copy, out).exit_code == 0
    before = _snapshot(out)
    path = content_copy / "cards" / "starter.yaml"
    path.write_text(path.read_text().replace("Gain +2 {gold}.", "Gain +3 {gold}."))

    def crash(ctx):
        raise KeyboardInterrupt  # the user pressed Ctrl-C during the second stage

    monkeypatch.setattr(build, "designer_notes", crash)
    result = run_cli("build", "--content", str(content_copy), "--out", str(out), *FAST)
    assert result.exit_code == 1  # click reports "Aborted!"
    assert _snapshot(out) == before


def test_unknown_stage_is_a_clear_error():
    result = run_cli("build", "--only", "nonsense")
    assert result.exit_code == 1
    assert "unknown stage nonsense" in result.output


UNRESOLVABLE = ("{step: deploy, count: 4, where: {own_capital: true}}",
                "{step: deploy, count: 4, where: {own_capital: true, kind: [mine]}}")


def test_build_refuses_content_with_a_card_that_does_not_resolve(content_copy, tmp_path):
    out = tmp_path / "build"
    assert _build(content_copy, out).exit_code == 0
    before = _snapshot(out)
    path = content_copy / "cards" / "age1_market.yaml"
    path.write_text(path.read_text().replace(*UNRESOLVABLE))
    result = run_cli("build", "--content", str(content_copy), "--out", str(out),
                     "--only", "check", *FAST)
    assert result.exit_code == 1
    assert "paid_volunteers" in result.output and "writes nothing" in result.output
    assert _snapshot(out) == before


def test_allow_unresolved_builds_with_a_loud_warning(content_copy, tmp_path):
    out = tmp_path / "build"
    path = content_copy / "cards" / "age1_market.yaml"
    path.write_text(path.read_text().replace(*UNRESOLVABLE))
    result = run_cli("build", "--content", str(content_copy), "--out", str(out),
                     "--only", "check", *FAST, "--allow-unresolved")
    assert result.exit_code == 0
    assert "WARNING: BUILT ALTHOUGH A CARD DOES NOT RESOLVE" in result.output
    assert "paid_volunteers" in result.output
    assert (out / "designer-notes.html").exists()


def test_manifest_never_deletes_outside_the_build_folder(content_copy, tmp_path):
    """A tampered manifest naming ../victim.txt or an absolute path touches nothing (17.3)."""
    out = tmp_path / "build"
    assert _build(content_copy, out).exit_code == 0
    victim, absolute = tmp_path / "victim.txt", tmp_path / "abs.txt"
    victim.write_text("keep")
    absolute.write_text("keep")
    manifest = json.loads((out / ".tether-build.json").read_text())
    manifest["notes"]["outputs"]["../victim.txt"] = "0"
    manifest["validate"]["outputs"][str(absolute)] = "0"
    (out / ".tether-build.json").write_text(json.dumps(manifest))
    result = _build(content_copy, out)
    assert result.exit_code == 0, result.output
    assert victim.read_text() == "keep" and absolute.read_text() == "keep"
    assert any("outside the build folder" in w for w in json.loads(result.stdout)["warnings"])


def test_manifest_of_the_wrong_shape_is_ignored_with_a_warning(content_copy, tmp_path):
    out = tmp_path / "build"
    for bad in ("[1, 2]", '{"validate": "x"}', '{"notes": {"key": "k", "outputs": [1]}}'):
        out.mkdir(exist_ok=True)
        (out / ".tether-build.json").write_text(bad)
        result = _build(content_copy, out)
        assert result.exit_code == 0, result.output
        assert "Traceback" not in result.output
        summary = json.loads(result.stdout)
        assert summary["warnings"], bad
        assert (out / "designer-notes.html").exists()


def _edit_supply_cache(content_copy):
    path = content_copy / "cards" / "starter.yaml"
    path.write_text(path.read_text().replace("Gain +2 {gold}.", "Gain +2 {gold} at once."))


def test_disk_full_mid_write_leaves_every_previous_output(content_copy, tmp_path, monkeypatch):
    """Issue 17.10: a build is all-old or all-new, never a mix."""
    import errno

    from tether_build.buildsys import commit as mod

    out = tmp_path / "build"
    assert _build(content_copy, out).exit_code == 0
    before = _snapshot(out)
    _edit_supply_cache(content_copy)
    real, calls = mod._write, []

    def full(path, data):
        calls.append(path)
        if len(calls) > 1:
            raise OSError(errno.ENOSPC, "No space left on device", str(path))
        real(path, data)

    monkeypatch.setattr(mod, "_write", full)
    result = run_cli("build", "--content", str(content_copy), "--out", str(out), *FAST)
    assert result.exit_code == 1 and "full" in result.output, result.output
    assert "Traceback" not in result.output
    assert _snapshot(out) == before and not (out / mod.STAGING).exists()


def test_a_build_killed_during_the_swap_is_completed_by_the_next(content_copy, tmp_path,
                                                                 monkeypatch):
    from tether_build.buildsys import commit as mod

    out = tmp_path / "build"
    assert _build(content_copy, out).exit_code == 0
    _edit_supply_cache(content_copy)
    real = mod.os.replace
    moved = []

    def killed(src, dst):
        if mod.STAGING not in str(src):
            return real(src, dst)    # not the swap (a render cache entry, say)
        if moved:
            raise KeyboardInterrupt  # the process dies after the swap's first move
        moved.append(dst)
        real(src, dst)

    monkeypatch.setattr(mod.os, "replace", killed)
    assert _build(content_copy, out).exit_code != 0  # click reports the interrupt as Aborted
    monkeypatch.setattr(mod.os, "replace", real)
    assert (out / mod.STAGING / mod.RECORD).exists()
    again = _build(content_copy, out)
    assert again.exit_code == 0, again.output
    assert any("interrupted build" in w for w in json.loads(again.stdout)["warnings"])
    assert not (out / mod.STAGING).exists()
    assert "at once." in (out / "cards.jsonl").read_text()
    third = json.loads(_build(content_copy, out).stdout)
    assert third["written"] == []  # outputs and manifest agree: all-new


def test_an_unfinished_staging_folder_without_a_commit_record_is_discarded(content_copy,
                                                                         tmp_path):
    from tether_build.buildsys import commit as mod

    out = tmp_path / "build"
    assert _build(content_copy, out).exit_code == 0
    before = _snapshot(out)
    junk = out / mod.STAGING / "files" / "cards.jsonl"
    junk.parent.mkdir(parents=True)
    junk.write_text("half")
    result = _build(content_copy, out)
    assert result.exit_code == 0
    assert _snapshot(out) == before


@pytest.mark.parametrize("fault", ["out_is_a_file", "output_is_a_folder", "read_only"])
def test_build_folder_faults_are_one_line_errors(content_copy, tmp_path, monkeypatch, fault):
    """Issue 17.8: --out a file, an output path that is a folder, a read-only disk."""
    import errno

    from tether_build.buildsys import commit as mod

    out = tmp_path / "build"
    if fault == "out_is_a_file":
        out.write_text("x")
    elif fault == "output_is_a_folder":
        (out / "cards.jsonl").mkdir(parents=True)
    else:
        def read_only(path, data):
            raise OSError(errno.EROFS, "Read-only file system", str(path))
        monkeypatch.setattr(mod, "_write", read_only)
    result = run_cli("build", "--content", str(content_copy), "--out", str(out), *FAST)
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    assert result.output.splitlines()[-1].startswith("Error:")


def test_content_folder_of_any_name_is_rebuilt_when_edited(content_copy, tmp_path):
    """Issue 17.11: stage keys hash the folder given with --content, not a sibling content/."""
    mygame = tmp_path / "my-game"
    content_copy.rename(mygame)
    out = tmp_path / "build"
    first = _build(mygame, out)
    assert first.exit_code == 0, first.output
    path = mygame / "cards" / "starter.yaml"
    path.write_text(path.read_text().replace("Gain +2 {gold}.", "Gain +2 {gold} now."))
    summary = json.loads(_build(mygame, out).stdout)
    assert "cards.jsonl" in summary["written"]
    assert "now." in (out / "cards.jsonl").read_text()


def test_a_drift_is_named_as_drift_at_the_text_line(content_copy, tmp_path):
    """Issue 18.4: a number edited in the text only is drift, located at the text's line."""
    out = tmp_path / "build"
    path = content_copy / "cards" / "starter.yaml"
    text = path.read_text()
    assert 'text: "Gain +2 {gold}."' in text
    path.write_text(text.replace('text: "Gain +2 {gold}."', 'text: "Gain +3 {gold}."'))
    line = next(n for n, ln in enumerate(path.read_text().splitlines(), 1)
                if 'text: "Gain +3 {gold}."' in ln)
    result = run_cli("build", "--content", str(content_copy), "--out", str(out),
                     "--only", "check", *FAST)
    assert result.exit_code == 1
    assert f"starter.yaml:{line}" in result.output
    assert "text drifts from its effect" in result.output
    assert "does not resolve" not in result.output.splitlines()[-1]
    error = next(ln for ln in result.output.splitlines() if ln.startswith("Error:"))
    assert error.startswith("Error: check failed on text/effect drift"), error  # issue 41.7


def test_every_literal_glossary_name_is_reported_in_one_run(content_copy):
    path = content_copy / "cards" / "starter.yaml"
    path.write_text(path.read_text().replace('text: "Gain +2 {gold}."',
                                             'text: "Gain +2 Gold; move Forces to the Center."'))
    result = run_cli("validate", "--content", str(content_copy))
    assert result.exit_code == 1
    found = [ln for ln in result.output.splitlines() if "typed literally" in ln]
    assert len(found) == 3
    assert any("'Gold'" in ln and "write {gold}" in ln for ln in found)
    assert any("'Forces'" in ln and "write [force:pl]" in ln for ln in found)
    assert any("'Center'" in ln and "write [center]" in ln for ln in found)


def test_an_output_overwritten_by_another_command_is_rebuilt(content_copy, tmp_path):
    """Issue 18.6: the manifest cannot be fooled by a file another command wrote over."""
    out = tmp_path / "build"
    assert _build(content_copy, out).exit_code == 0
    good = (out / "designer-notes.html").read_bytes()
    (out / "designer-notes.html").write_text("a subset someone printed over it")
    summary = json.loads(_build(content_copy, out).stdout)
    assert summary["stages"]["notes"]["status"] == "built"
    assert (out / "designer-notes.html").read_bytes() == good
    assert json.loads(_build(content_copy, out).stdout)["written"] == []


def test_a_stage_sends_back_only_the_outputs_that_changed(content_copy, tmp_path):
    """A card edit makes the engine stage stale: its four files are all in the manifest with
    their hashes, but only the one that changed is sent back and written."""
    import hashlib

    from tether_build.buildsys.manifest import MANIFEST

    out = tmp_path / "build"
    engine = ("--only", "engine")
    assert run_cli("build", "--content", str(content_copy), "--out", str(out),
                   *engine).exit_code == 0
    path = content_copy / "cards" / "starter.yaml"
    path.write_text(path.read_text().replace("Gain +2 {gold}.", "Gain +2 {gold} now."))
    summary = json.loads(run_cli("build", "--content", str(content_copy), "--out", str(out),
                                 "--json", *engine).output)
    assert summary["stages"]["engine"]["status"] == "built"
    assert summary["written"] == ["engine/cards.json"]
    assert summary["unchanged"] == 3
    listed = json.loads((out / MANIFEST).read_text())["engine"]["outputs"]
    assert len(listed) == 4
    assert listed == {rel: hashlib.sha256((out / rel).read_bytes()).hexdigest()
                      for rel in listed}


def test_outputs_are_compared_with_the_output_folder(tmp_path):
    from tether_build.buildsys.commit import Outputs

    (tmp_path / "same.txt").write_bytes(b"abc")
    (tmp_path / "other.txt").write_bytes(b"abd")
    (tmp_path / "folder.txt").mkdir()
    found = Outputs.against(tmp_path, {"same.txt": b"abc", "other.txt": b"abc",
                                       "new.txt": b"abc", "folder.txt": b"abc"})
    assert sorted(found.changed) == ["folder.txt", "new.txt", "other.txt"]
    assert set(found.digests) == {"same.txt", "other.txt", "new.txt", "folder.txt"}
