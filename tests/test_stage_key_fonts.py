"""The system's fonts are in every stage's key: outputs embed fonts fontconfig finds outside
the project (DejaVu Sans for SVG text), so a font installed, upgraded or removed must make
every stage build again."""

from __future__ import annotations

import os

import pytest

from tether_build.commands import build
from tether_build.print import cache


@pytest.fixture(autouse=True)
def _read_again():
    """system_fonts() and text_libraries() are read once a process: each read here is new."""
    cache.system_fonts.cache_clear()
    cache.text_libraries.cache_clear()
    yield
    cache.system_fonts.cache_clear()
    cache.text_libraries.cache_clear()


def read_fonts() -> str:
    cache.system_fonts.cache_clear()
    return cache.system_fonts()


def read_libraries() -> str:
    cache.text_libraries.cache_clear()
    return cache.text_libraries()


def test_a_font_installed_upgraded_or_removed_changes_the_key(tmp_path, monkeypatch):
    fonts = tmp_path / "fonts"
    (fonts / "truetype" / "dejavu").mkdir(parents=True)
    font = fonts / "truetype" / "dejavu" / "DejaVuSans.ttf"
    font.write_bytes(b"one")
    monkeypatch.setattr(cache, "font_folders", lambda: [str(fonts), str(tmp_path / "none")])
    first = read_fonts()
    assert read_fonts() == first                  # the same fonts, the same digest

    (fonts / "truetype" / "new").mkdir()
    (fonts / "truetype" / "new" / "New.otf").write_bytes(b"new")
    installed = read_fonts()
    assert installed != first

    os.utime(font, ns=(1, 2))                            # an upgrade of the same size
    upgraded = read_fonts()
    assert upgraded not in (first, installed)

    (fonts / "truetype" / "new" / "New.otf").unlink()
    assert read_fonts() not in (first, installed, upgraded)


def test_fontconfig_variables_name_more_folders(tmp_path, monkeypatch):
    conf = tmp_path / "fonts.conf"
    conf.write_text("<fontconfig/>")
    monkeypatch.setenv("FONTCONFIG_FILE", str(conf))
    assert str(conf) in cache.font_folders()
    before = read_fonts()
    conf.write_text("<fontconfig><dir>/elsewhere</dir></fontconfig>")
    assert read_fonts() != before


def test_folders_named_in_fontconfig_files_are_in_the_key(tmp_path, monkeypatch):
    """A font folder set up in fontconfig's own files (an included file's `<dir>`, a user's
    XDG configuration), not only in its default folders, changes the key when a font there
    changes; a commented-out `<dir>` is not followed."""
    conf, fonts, user = tmp_path / "conf", tmp_path / "opt-fonts", tmp_path / "xdg"
    (conf / "conf.d").mkdir(parents=True)
    fonts.mkdir()
    (user / "fontconfig").mkdir(parents=True)
    (conf / "fonts.conf").write_text(
        '<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">\n'
        "<fontconfig><!-- <dir>/commented/out</dir> -->\n"
        '  <include ignore_missing="yes">conf.d</include>\n'
        '  <include ignore_missing="yes" prefix="xdg">fontconfig/fonts.conf</include>\n'
        "</fontconfig>\n")
    (conf / "conf.d" / "60-opt.conf").write_text(f"<fontconfig><dir>{fonts}</dir></fontconfig>")
    (user / "fontconfig" / "fonts.conf").write_text("<fontconfig><dir>~/mine</dir></fontconfig>")
    monkeypatch.setenv("FONTCONFIG_PATH", str(conf))
    monkeypatch.delenv("FONTCONFIG_FILE", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(user))
    folders = cache.font_folders()
    assert str(fonts) in folders and str(user / "fontconfig" / "fonts.conf") in folders
    assert os.path.expanduser("~/mine") in folders and "/commented/out" not in folders
    before = read_fonts()
    (fonts / "Extra.ttf").write_bytes(b"a font fontconfig finds in /opt")
    installed = read_fonts()
    assert installed != before
    (user / "fontconfig" / "fonts.conf").write_text("<fontconfig><dir>/else</dir></fontconfig>")
    assert read_fonts() != installed          # the user's configuration changed


def test_a_configuration_that_includes_itself_ends(tmp_path, monkeypatch):
    conf = tmp_path / "fonts.conf"
    conf.write_text(f"<fontconfig><include>{conf}</include><include>{tmp_path}</include>"
                    "<dir prefix=\"relative\">fonts</dir></fontconfig>")
    monkeypatch.setenv("FONTCONFIG_FILE", str(conf))
    monkeypatch.delenv("FONTCONFIG_PATH", raising=False)
    reads = cache.fontconfig_reads()
    assert reads.count(str(conf)) == 1 and str(tmp_path / "fonts") in reads


def test_the_libraries_part_of_every_key_holds_the_fonts(monkeypatch):
    monkeypatch.setattr(build, "_LIBRARIES", [])
    monkeypatch.setattr(cache, "system_fonts", lambda: "fonts-A")
    a = build.libraries()
    monkeypatch.setattr(build, "_LIBRARIES", [])
    monkeypatch.setattr(cache, "system_fonts", lambda: "fonts-B")
    assert build.libraries() != a and "|fonts-A|" in a


def test_a_cached_layout_names_the_fonts(monkeypatch):
    """A render-cache entry laid out by WeasyPrint (a face, a tile, a book page) is keyed on
    cache.versions(...): a font change must change it too, not only the stage's key."""
    monkeypatch.setattr(cache, "system_fonts", lambda: "fonts-A")
    cache.versions.cache_clear()
    a = cache.versions(*cache.LAYOUT_PACKAGES)
    monkeypatch.setattr(cache, "system_fonts", lambda: "fonts-B")
    cache.versions.cache_clear()
    b = cache.versions(*cache.LAYOUT_PACKAGES)
    assert a != b and "fonts=fonts-B" in b
    assert "fonts=" not in cache.versions("pypdfium2", "pillow")   # draws embedded fonts only
    cache.versions.cache_clear()


def test_a_text_library_upgrade_changes_the_key(tmp_path, monkeypatch):
    """Pango and HarfBuzz are system packages, not Python ones: an upgrade replaces the file a
    soname links to, and the keys follow it."""
    lib = tmp_path / "lib"
    lib.mkdir()
    (lib / "libharfbuzz.so.0.60000.0").write_bytes(b"old")
    (lib / "libharfbuzz.so.0").symlink_to("libharfbuzz.so.0.60000.0")
    monkeypatch.setattr(cache, "LIBRARY_FOLDERS", (str(lib),))
    monkeypatch.delenv("LD_LIBRARY_PATH", raising=False)
    before = read_libraries()
    assert read_libraries() == before
    (lib / "libharfbuzz.so.0.70000.0").write_bytes(b"new")
    (lib / "libharfbuzz.so.0").unlink()
    (lib / "libharfbuzz.so.0").symlink_to("libharfbuzz.so.0.70000.0")
    after = read_libraries()
    assert after != before
    elsewhere = tmp_path / "mine"
    elsewhere.mkdir()
    (elsewhere / "libharfbuzz.so.0").write_bytes(b"built by hand")
    monkeypatch.setenv("LD_LIBRARY_PATH", str(elsewhere))   # the loader looks there first
    assert read_libraries() not in (before, after)


def test_read_once_a_process(tmp_path, monkeypatch):
    """Both are read once a process (a process forked after inherits them); cache_clear()
    reads them again."""
    fonts = tmp_path / "fonts"
    fonts.mkdir()
    monkeypatch.setattr(cache, "font_folders", lambda: [str(fonts)])
    first = cache.system_fonts()
    (fonts / "New.otf").write_bytes(b"new")
    assert cache.system_fonts() == first
    assert read_fonts() != first
    lib = tmp_path / "lib"
    lib.mkdir()
    monkeypatch.setattr(cache, "LIBRARY_FOLDERS", (str(lib),))
    monkeypatch.delenv("LD_LIBRARY_PATH", raising=False)
    before = read_libraries()
    (lib / "libharfbuzz.so.0").write_bytes(b"new")
    assert cache.text_libraries() == before
    assert read_libraries() != before
