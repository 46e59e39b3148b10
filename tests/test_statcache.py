"""The stat record of a build's keyed files (buildsys/statcache.py): a digest or a folder
listing is reused only while the file's or the folder's stat is the recorded one."""

from __future__ import annotations

import hashlib
import json
import os
import time

import pytest
from tether_cli import run_cli

from tether_build.buildsys import statcache
from tether_build.buildsys.statcache import StatCache


@pytest.fixture
def short_margin(monkeypatch):
    """Files older than 50 ms are trusted (the real margin, 2 s, would make the test slow)."""
    monkeypatch.setattr(statcache, "MARGIN_NS", 50_000_000)


def _digest(path, calls):
    def compute():
        calls.append(str(path))
        return hashlib.sha256(path.read_bytes()).digest()
    return compute


def _record(folder, path) -> StatCache:
    """A build that hashes `path` and saves its record."""
    cache = StatCache(folder)
    cache.digest(str(path), _digest(path, []))
    cache.save()
    return cache


def test_an_unchanged_file_is_not_read_again(tmp_path, short_margin):
    path = tmp_path / "card.yaml"
    path.write_text("text: Gain +2 {gold}.\n")
    time.sleep(0.1)
    first = _record(tmp_path, path)
    calls: list[str] = []
    again = StatCache(tmp_path)
    assert again.digest(str(path), _digest(path, calls)) == bytes.fromhex(
        first.files[str(path)][5])
    assert calls == []


def test_an_edit_that_keeps_size_and_mtime_is_seen(tmp_path, short_margin):
    """The edit a stat check could miss: the same size, the old modification time set back
    (`touch -r`, `cp -p`). The change time moves all the same."""
    path = tmp_path / "card.yaml"
    path.write_text("text: Gain +2 {gold}.\n")
    time.sleep(0.1)
    _record(tmp_path, path)
    before = os.stat(path)
    path.write_text("text: Gain +3 {gold}.\n")
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    after = os.stat(path)
    assert (after.st_size, after.st_mtime_ns) == (before.st_size, before.st_mtime_ns)
    calls: list[str] = []
    got = StatCache(tmp_path).digest(str(path), _digest(path, calls))
    assert calls == [str(path)]
    assert got == hashlib.sha256(b"text: Gain +3 {gold}.\n").digest()


def test_a_file_saved_by_renaming_is_read_again(tmp_path, short_margin):
    path = tmp_path / "card.yaml"
    path.write_text("text: one\n")
    time.sleep(0.1)
    _record(tmp_path, path)
    new = tmp_path / "card.yaml.tmp"
    new.write_text("text: two\n")
    os.utime(new, ns=(os.stat(path).st_atime_ns, os.stat(path).st_mtime_ns))
    os.replace(new, path)
    calls: list[str] = []
    StatCache(tmp_path).digest(str(path), _digest(path, calls))
    assert calls == [str(path)]


def test_a_file_younger_than_the_margin_is_not_kept(tmp_path):
    """Written just before the build: an edit within the clock's step could keep its stat,
    so it is hashed again next time (git's "racy" entries)."""
    path = tmp_path / "card.yaml"
    path.write_text("text: one\n")
    cache = _record(tmp_path, path)
    assert str(path) not in cache.files
    calls: list[str] = []
    StatCache(tmp_path).digest(str(path), _digest(path, calls))
    assert calls == [str(path)]


def test_a_link_is_always_read(tmp_path, short_margin):
    target = tmp_path / "art.txt"
    target.write_text("one")
    link = tmp_path / "link.txt"
    link.symlink_to(target)
    time.sleep(0.1)
    assert str(link) not in _record(tmp_path, link).files


@pytest.mark.parametrize("bad", [b"", b"{not json", b"[]", json.dumps({"format": 99}).encode(),
                                 json.dumps({"format": 1, "files": {"x": [1, 2]},
                                             "globs": []}).encode()])
def test_a_record_that_cannot_be_trusted_is_ignored(tmp_path, bad):
    path = tmp_path / "card.yaml"
    path.write_text("text: one\n")
    (tmp_path / statcache.NAME).write_bytes(bad)
    calls: list[str] = []
    StatCache(tmp_path).digest(str(path), _digest(path, calls))
    assert calls == [str(path)]


def test_force_trusts_no_record(tmp_path, short_margin):
    path = tmp_path / "card.yaml"
    path.write_text("text: one\n")
    time.sleep(0.1)
    _record(tmp_path, path)
    calls: list[str] = []
    StatCache(tmp_path, trust=False).digest(str(path), _digest(path, calls))
    assert calls == [str(path)]


def _list(base, patterns, calls):
    def compute():
        calls.append(patterns)
        return sorted(str(p) for pattern in patterns for p in base.glob(pattern) if p.is_file())
    return compute


@pytest.mark.parametrize("change", ["new file", "new nested file", "removed", "new folder"])
def test_a_folder_listing_is_reused_only_while_no_folder_changed(tmp_path, short_margin,
                                                                  change):
    base = tmp_path / "content"
    (base / "cards" / "deep").mkdir(parents=True)
    (base / "game.yaml").write_text("a")
    (base / "cards" / "deep" / "one.yaml").write_text("b")
    (base / "empty").mkdir()
    time.sleep(0.1)
    record = tmp_path / "build"
    record.mkdir()
    first = StatCache(record)
    listed = first.listing(base, ("**/*",), _list(base, ("**/*",), []))
    first.save()
    calls: list = []
    assert StatCache(record).listing(base, ("**/*",), _list(base, ("**/*",), calls)) == listed
    assert calls == []
    if change == "new file":
        (base / "rules.md").write_text("c")
    elif change == "new nested file":
        (base / "cards" / "deep" / "two.yaml").write_text("c")
    elif change == "removed":
        (base / "cards" / "deep" / "one.yaml").unlink()
    else:
        (base / "empty" / "inner").mkdir()
        (base / "empty" / "inner" / "three.yaml").write_text("c")
    now = StatCache(record).listing(base, ("**/*",), _list(base, ("**/*",), calls))
    assert calls == [("**/*",)]
    assert now == _list(base, ("**/*",), [])() != listed


def test_an_edit_keeping_size_and_mtime_rebuilds_the_stage(content_copy, tmp_path,
                                                           monkeypatch):
    """The whole path: a no-change build reuses the record, and a same-size edit with the
    old modification time set back still makes the stage that reads the file run."""
    monkeypatch.setattr(statcache, "MARGIN_NS", 50_000_000)
    out = tmp_path / "build"
    fast = ("--only", "validate")

    def build():
        result = run_cli("build", "--content", str(content_copy), "--out", str(out), "--json",
                         *fast)
        assert result.exit_code == 0, result.output
        return json.loads(result.output)

    time.sleep(0.1)
    build()
    assert (out / ".cache" / statcache.NAME).is_file()
    record = json.loads((out / ".cache" / statcache.NAME).read_text())
    path = content_copy / "cards" / "starter.yaml"
    assert str(path) in record["files"]
    assert build()["stages"]["validate"]["status"] == "up to date"
    before = os.stat(path)
    text = path.read_text()
    assert "Gain +2 {gold}." in text
    path.write_text(text.replace("Gain +2 {gold}.", "Gain +3 {gold}."))
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert os.stat(path).st_size == before.st_size
    summary = build()
    assert summary["stages"]["validate"]["status"] == "built"
    assert "cards.jsonl" in summary["written"]


def _git(repo, *args):
    import subprocess
    subprocess.run(["git", "-c", "user.email=t@t", "-c", "user.name=t", *args], cwd=repo,
                   check=True, capture_output=True)


def test_git_names_are_reused_only_while_git_and_the_content_are_unchanged(
        content_copy, tmp_path, monkeypatch):
    """No git process on a build with nothing changed; an edit (+dirty), a commit and a
    tag each run git again and give its names."""
    from tether_build.content.versions import gitcontent

    monkeypatch.setattr(statcache, "MARGIN_NS", 50_000_000)
    for name in [n for n in os.environ if n.startswith("GIT_")]:
        monkeypatch.delenv(name)

    def back_in_time() -> None:
        """Every file of the work tree 5 s older: git's index, written after, never sees
        them racily clean."""
        past = time.time() - 5
        for path in tmp_path.rglob("*"):
            if not {".git", "build"} & set(path.relative_to(tmp_path).parts) and path.is_file():
                os.utime(path, (past, past))

    (tmp_path / ".gitignore").write_text("build/\n")
    back_in_time()
    _git(tmp_path, "init", "-q", ".")
    _git(tmp_path, "add", "-A")
    _git(tmp_path, "commit", "-qm", "one")
    calls: list = []
    real = gitcontent._git
    monkeypatch.setattr(gitcontent, "_git", lambda *a: calls.append(a) or real(*a))
    out = tmp_path / "build"

    def version() -> str:
        calls.clear()
        time.sleep(0.1)
        result = run_cli("build", "--content", str(content_copy), "--out", str(out),
                         "--only", "validate")
        assert result.exit_code == 0, result.output
        return json.loads((out / "cards.jsonl").read_text().splitlines()[0])["content_version"]

    def settled(name: str) -> None:
        """The next builds give the same name, and soon git no longer runs. git rewrites
        its index on every `status` while a file's mtime falls in the index's own second
        ("racily clean"; its stat times are whole seconds), and a name got while git's
        files changed is not recorded: how many builds that takes depends on the clock,
        not on a count, hence the deadline (and the files set back in time above)."""
        deadline = time.monotonic() + 15
        while True:
            assert version() == name
            if not calls or time.monotonic() > deadline:
                break
        assert calls == []

    first = version()
    assert calls and "+dirty" not in first
    settled(first)
    path = content_copy / "cards" / "starter.yaml"
    path.write_text(path.read_text().replace("Gain +2 {gold}.", "Gain +2 {gold} now."))
    back_in_time()
    dirty = version()
    assert calls and dirty == first.replace(")", "+dirty)")
    settled(dirty)
    _git(tmp_path, "commit", "-qam", "two")
    committed = version()
    assert calls and "+dirty" not in committed and committed != first
    settled(committed)
    _git(tmp_path, "tag", "v7")
    assert version().endswith("(v7)") and calls


def test_outside_a_repository_git_is_not_run(content_copy, tmp_path, monkeypatch):
    from tether_build.buildsys import gitstate
    from tether_build.content.versions import gitcontent

    if gitstate._repo(tmp_path) is not False:
        pytest.skip("the temporary folder lies in a git repository")
    calls: list = []
    monkeypatch.setattr(gitcontent, "_git", lambda *a: calls.append(a))
    result = run_cli("build", "--content", str(content_copy), "--out", str(tmp_path / "b"),
                     "--only", "validate")
    assert result.exit_code == 0, result.output
    assert calls == []


def test_many_output_paths_get_the_verdicts_of_one_by_one(tmp_path):
    """out_paths_ok (the manifest's check of ~430 outputs at once) agrees with out_path_ok."""
    from tether_build.content.paths_guard import out_path_ok, out_paths_ok

    out = tmp_path / "build"
    (out / "cards" / "png").mkdir(parents=True)
    (out / "cards" / "png" / "a.png").write_bytes(b"x")
    (out / "real").mkdir()
    (out / "linked").symlink_to(out / "real")
    (out / "cards" / "file-link.png").symlink_to(out / "cards" / "png" / "a.png")
    rels = ["cards/png/a.png", "cards/png/new.png", "new/folder/x.pdf", "linked/x.pdf",
            "linked", "cards/file-link.png", "../escape", "/abs", "a//b", "a/./b", "", ".",
            "a\\b", "a\0b", 7, None, "cards/png/a.png/below", "real/../cards/png/a.png"]
    assert out_paths_ok(out, rels) == [out_path_ok(out, rel) for rel in rels]
    assert out_paths_ok(out, rels)[:3] == [True, True, True]


def test_a_cache_entry_is_read_only_from_a_plain_file_inside_the_cache(tmp_path):
    """read_entry (the render cache's read, without resolving) refuses what read_bytes and
    out_path refuse: a link as the entry or on the way, a FIFO, a device, a large file."""
    from tether_build.content.paths_guard import Refused, read_entry

    root = tmp_path / "cache"
    (root / "faces").mkdir(parents=True)
    (root / "faces" / "ok.bin").write_bytes(b"entry")
    secret = tmp_path / "secret.bin"
    secret.write_bytes(b"secret")
    (root / "faces" / "link.bin").symlink_to(secret)
    (root / "linked").symlink_to(tmp_path)
    os.mkfifo(root / "faces" / "fifo.bin")
    (root / "faces" / "big.bin").write_bytes(b"x" * 100)
    assert read_entry(root, "faces/ok.bin") == (b"entry", str(root / "faces" / "ok.bin"))
    for rel in ("faces/link.bin", "linked/secret.bin", "faces/fifo.bin", "../secret.bin",
                "faces/missing.bin", "faces//ok.bin", "/faces/ok.bin", "faces/ok.bin/x"):
        with pytest.raises(Refused):
            read_entry(root, rel)
    with pytest.raises(Refused):
        read_entry(root, "faces/big.bin", limit=99)
    assert read_entry(root, "faces/big.bin", limit=100)[0] == b"x" * 100
