"""A forked process that starts a stage's layouts afresh leaves its parent's fonts alone."""

import gc
import multiprocessing
from pathlib import Path

from tether_build.print.layout import pdf

FONTS = (Path(__file__).resolve().parents[2] / "templates" / "fonts").as_uri() + "/"


def _doc(family: str) -> str:
    return (f"<html><head><style>@font-face {{ font-family: {family}; src: url(DejaVuSans"
            f"Condensed.ttf) }} p {{ font-family: {family} }}</style></head><body><p>Text</p>"
            "</body></html>")


def _child():
    pdf.fresh(FONTS)   # a stage started in the forked process: the inherited Layout dropped
    gc.collect()       # (as the stage's work would, soon)


def test_a_forked_stage_does_not_delete_the_parents_font_folder():
    pdf.fresh(FONTS)
    pdf.shared(FONTS).render(_doc("One"))   # the font folder is made, one face written in it
    child = multiprocessing.get_context("fork").Process(target=_child)
    child.start()
    child.join()
    assert child.exitcode == 0
    pdf.shared(FONTS).render(_doc("Two")).write_pdf()   # a new face, into the same folder
    pdf.fresh(FONTS)
