"""The system's fonts are in every stage's key: outputs embed fonts fontconfig finds outside
the project (DejaVu Sans for SVG text), so a font installed, upgraded or removed must make
every stage build again."""

from __future__ import annotations

import os

from tether_build.commands import build
from tether_build.print import cache


def test_a_font_installed_upgraded_or_removed_changes_the_key(tmp_path, monkeypatch):
    fonts = tmp_path / "fonts"
    (fonts / "truetype" / "dejavu").mkdir(parents=True)
    font = fonts / "truetype" / "dejavu" / "DejaVuSans.ttf"
    font.write_bytes(b"one")
    monkeypatch.setattr(cache, "font_folders", lambda: [str(fonts), str(tmp_path / "none")])
    first = cache.system_fonts()
    assert cache.system_fonts() == first                  # the same fonts, the same digest

    (fonts / "truetype" / "new").mkdir()
    (fonts / "truetype" / "new" / "New.otf").write_bytes(b"new")
    installed = cache.system_fonts()
    assert installed != first

    os.utime(font, ns=(1, 2))                            # an upgrade of the same size
    upgraded = cache.system_fonts()
    assert upgraded not in (first, installed)

    (fonts / "truetype" / "new" / "New.otf").unlink()
    assert cache.system_fonts() not in (first, installed, upgraded)


def test_fontconfig_variables_name_more_folders(tmp_path, monkeypatch):
    conf = tmp_path / "fonts.conf"
    conf.write_text("<fontconfig/>")
    monkeypatch.setenv("FONTCONFIG_FILE", str(conf))
    assert str(conf) in cache.font_folders()
    before = cache.system_fonts()
    conf.write_text("<fontconfig><dir>/elsewhere</dir></fontconfig>")
    assert cache.system_fonts() != before


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
    before = cache.system_fonts()
    (fonts / "Extra.ttf").write_bytes(b"a font fontconfig finds in /opt")
    installed = cache.system_fonts()
    assert installed != before
    (user / "fontconfig" / "fonts.conf").write_text("<fontconfig><dir>/else</dir></fontconfig>")
    assert cache.system_fonts() != installed          # the user's configuration changed


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
    before = cache.text_libraries()
    assert cache.text_libraries() == before
    (lib / "libharfbuzz.so.0.70000.0").write_bytes(b"new")
    (lib / "libharfbuzz.so.0").unlink()
    (lib / "libharfbuzz.so.0").symlink_to("libharfbuzz.so.0.70000.0")
    after = cache.text_libraries()
    assert after != before
    elsewhere = tmp_path / "mine"
    elsewhere.mkdir()
    (elsewhere / "libharfbuzz.so.0").write_bytes(b"built by hand")
    monkeypatch.setenv("LD_LIBRARY_PATH", str(elsewhere))   # the loader looks there first
    assert cache.text_libraries() not in (before, after)
