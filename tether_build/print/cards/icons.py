"""The faces' icons drawn once per document, not once per use.

WeasyPrint 66 draws an SVG image again, node by node, at every use (a face PDF of a card's
copies draws its cost, type, deck and text icons on every page: 1,729 draws a build), while
a raster image is one XObject per document, drawn by `Do`. So the faces are laid out with
a stand-in for each eligible icon: the same 24 x 24 px JPEG (icon-standin.jpg, the same
intrinsic size as the icon, so every box is laid out as before) under a URL of its own
(`?icon=<name>`), which WeasyPrint writes as one image XObject per icon per document (a
JPEG's bytes are copied, not encoded again, and never read here: the object is swapped). While
the face PDF is written (WeasyPrint's public `finisher`, before pydyf serializes it), each
stand-in image object is swapped for a Form XObject of the icon: WeasyPrint's own drawing
of the SVG's shapes, taken once per process from a one-page document of the icon at
24 x 24 px, and where a page drew the stand-in (`w 0 0 -h 0 h cm /i... Do`) it now sets the
viewBox's scale WeasyPrint sets for an SVG in a w x h box (`s 0 0 s tx ty cm`, its own
formula and number format) and draws the form (identity matrix): the same operators, under
the same matrices, as drawing the SVG there, so the same pixels.

Only icons whose drawing does not depend on the size they are drawn at are eligible: the
root is exactly `<svg xmlns=... viewBox="0 0 24 24" width="24" height="24">` (a square
viewBox at 24 px: its shapes' operators are the same at every size, after the scale), no
percentage lengths, no transform inside (PDFium multiplies a form's inner matrices in
another order than the same operators inline: 1/255 at a few edge pixels), and the drawing
uses no resource but graphics states (no text, image, pattern or shading). Any other icon is drawn as before, inline. The stand-ins are found by the name
WeasyPrint gives an image (`i` + the MD5 of its URL): the document the forms come from
holds one stand-in too, and if its name is not the one expected (another WeasyPrint), no
icon gets a stand-in.
"""

from __future__ import annotations

import html as htmlmod
import re
from pathlib import Path

STANDIN = Path(__file__).resolve().with_name("icon-standin.jpg")
STANDIN_URL = STANDIN.as_uri()
SIZE = 24   # px: the eligible icons' viewBox, width and height, and the stand-in's size
SRC = re.compile(r'src="icons/([A-Za-z0-9_\-]+(?:/[A-Za-z0-9_\-]+)*)\.svg"')
_ROOT = re.compile(rb'\A\s*<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" '
                   rb'width="24" height="24">')
_NAMED = re.compile(rb"/([^\s/\[\]<>()]+) gs\Z")
FORM_PAGE_CSS = ("@page { size: 24px 24px; margin: 0 } body { margin: 0 } "
                 "img { display: block; width: 24px; height: 24px; "
                 "break-after: page }")


def standin_url(name: str) -> str:
    return f"{STANDIN_URL}?icon={name}"


def xobject_names(name: str) -> tuple[str, str]:
    """The resource names WeasyPrint gives the stand-in of `name` (layout.patches, the one
    module that knows WeasyPrint's internals)."""
    from ..layout.patches import image_names

    return image_names(standin_url(name))


def eligible_svg(data: bytes) -> bool:
    """Whether an icon's SVG draws the same at every size once its viewBox is scaled (see
    the module's docstring); its drawing is checked too (IconForms.make)."""
    return bool(_ROOT.match(data)) and b"%" not in data


_MADE: dict[tuple, tuple[list[bytes], dict] | None] = {}   # (base, gray, name, svg) -> form


class IconForms:
    """One process's icons as forms, for one Layout (its base URL and grayscale mode): the
    stand-in HTML of the faces, and the finisher that swaps the stand-ins in a face PDF."""

    def __init__(self, layout):
        self.layout = layout
        self.root = Path(_file_path(layout.base_url))
        self.forms: dict[str, tuple[list[bytes], dict] | None] = {}   # name -> form or None
        self._by_xobject: dict[str, str] = {}    # resource name -> icon name

    # ---- laying out ----------------------------------------------------------------------
    def standins(self, html: str) -> str:
        """The faces' HTML with every eligible icon's `src` pointing at its stand-in; the
        HTML as it is under a WeasyPrint other than the one this was written for
        (layout.patches.WRITTEN_FOR), whose drawing it relies on."""
        from ..layout.patches import versions_match

        if not versions_match():
            return html
        names = {m.group(1) for m in SRC.finditer(html)}
        self._make([n for n in names if n not in self.forms])
        swap = {n for n in names if self.forms.get(n) is not None}
        if not swap:
            return html

        def sub(match: re.Match) -> str:
            name = match.group(1)
            return f'src="{htmlmod.escape(standin_url(name))}"' if name in swap \
                else match.group(0)
        return SRC.sub(sub, html)

    def _make(self, names: list[str]) -> None:
        """The forms of `names` not made yet: one document, a page per eligible icon, laid
        out and written by WeasyPrint as the faces are; each page's drawing of its image
        becomes the icon's form."""
        todo, keys = [], {}
        for name in sorted(names):
            path = self.root / "icons" / f"{name}.svg"
            try:
                data = path.read_bytes()
            except OSError:
                data = b""   # missing: the layout reports it as it always did
            # made once per process for these very bytes (`tether build --watch`)
            keys[name] = (self.layout.base_url, self.layout.grayscale, name, data)
            if keys[name] in _MADE:
                self._keep(name, _MADE[keys[name]])
            elif eligible_svg(data):
                todo.append(name)
            else:
                self._keep(name, None)
        if not todo:
            return
        body = "".join(f'<img src="icons/{htmlmod.escape(n)}.svg" alt="">' for n in todo)
        body += f'<img src="{htmlmod.escape(standin_url(todo[0]))}" alt="">'
        doc = self.layout.render(f"<!DOCTYPE html><html><head><style>{FORM_PAGE_CSS}</style>"
                                 f"</head><body>{body}</body></html>")
        drawn: list = []
        standin: list = []
        doc.write_pdf(finisher=lambda _doc, pdf: (
            drawn.extend(_page_drawings(pdf)),
            standin.append(_standin_drawn(pdf, xobject_names(todo[0])))))
        if len(drawn) != len(todo) + 1 or standin != [True]:
            drawn = [None] * len(todo)   # not as expected: these icons are drawn inline
        for name, form in zip(todo, drawn):
            _MADE[keys[name]] = form
            self._keep(name, form)

    def _keep(self, name: str, form) -> None:
        self.forms[name] = form
        if form is not None:
            for xname in xobject_names(name):
                self._by_xobject[xname] = name

    # ---- writing -------------------------------------------------------------------------
    def finisher(self, _document, pdf) -> None:
        """WeasyPrint's finisher of a face PDF: each stand-in image becomes its icon's form,
        and each drawing of it the drawing of the SVG in that box."""
        import pydyf

        found: dict[bytes, str] = {}    # b"/<resource> Do" -> icon name
        for obj in pdf.objects:
            if not isinstance(obj, pydyf.Dictionary) or not isinstance(obj.get("XObject"),
                                                                        dict):
                continue
            for key, ref in obj["XObject"].items():
                name = self._by_xobject.get(str(key))
                if name is None or not isinstance(ref, bytes):
                    continue
                number = int(ref.split()[0])
                image = pdf.objects[number]
                if isinstance(image, pydyf.Stream) and image.extra.get("Subtype") == "/Image":
                    ops, states = self.forms[name]
                    form = pydyf.Stream(ops, pydyf.Dictionary({
                        "Type": "/XObject", "Subtype": "/Form",
                        # generous: the page's clip of the image box clips, as inline
                        "BBox": pydyf.Array([-SIZE, -SIZE, 2 * SIZE, 2 * SIZE]),
                        "Resources": pydyf.Dictionary(
                            {"ExtGState": pydyf.Dictionary(states)}),
                    }), compress=getattr(image, "compress", False))
                    form.number, form.generation = image.number, image.generation
                    pdf.objects[number] = form
                found[b"/" + str(key).encode() + b" Do"] = name
        if not found:
            return
        for obj in pdf.objects:
            if isinstance(obj, pydyf.Stream) and obj.stream and isinstance(obj.stream[0], bytes):
                _redraw(obj.stream, found)


def _redraw(ops: list, found: dict[bytes, str]) -> None:
    """In one content stream, each `w 0 0 -h 0 h cm /<stand-in> Do` (RasterImage.draw)
    becomes `q <the SVG's transform> <its viewBox scale in a w x h box> cm /<form> Do Q`."""
    for i, op in enumerate(ops):
        if op in found and i and isinstance(ops[i - 1], bytes):
            size = _IMAGE_CM.match(ops[i - 1])
            if size is None or size.group(2) != size.group(3):
                raise ValueError(f"an icon stand-in drawn in an unexpected way: {ops[i - 1]!r}")
            ops[i - 1] = b"q\n1 0 0 1 0 0 cm\n" + _viewbox_cm(float(size.group(1)),
                                                               float(size.group(2)))
            ops[i] = op + b"\nQ"


_IMAGE_CM = re.compile(rb"(\d+\.?\d*) 0 0 -(\d+\.?\d*) 0 (\d+\.?\d*) cm\Z")


def _viewbox_cm(width: float, height: float) -> bytes:
    """The `cm` WeasyPrint writes for an SVG root of viewBox 0 0 24 24 drawn in a width x
    height box, preserveAspectRatio xMidYMid meet (weasyprint.svg.utils.preserve_ratio), in
    pydyf's number format."""
    scale = min(width / SIZE, height / SIZE)
    tx = (width - SIZE * scale) / 2
    ty = (height - SIZE * scale) / 2
    return b" ".join((_number(scale), b"0", b"0", _number(scale), _number(tx), _number(ty),
                      b"cm"))


def _number(value: float) -> bytes:
    """A number as pydyf writes it: an integer bare, else six decimals, zeros stripped."""
    if value.is_integer():
        return str(int(value)).encode()
    return f"{value:f}".rstrip("0").encode()


def _standin_drawn(pdf, names: tuple[str, ...]) -> bool:
    """Whether a PDF being written draws a stand-in under one of its expected resource
    `names` the way _redraw rewrites it (`w 0 0 -h 0 h cm /<name> Do`, w = h): the probe
    that lets the faces use stand-ins at all, so another WeasyPrint draws every icon
    inline rather than failing in _redraw."""
    import pydyf

    wanted = {b"/" + name.encode() + b" Do" for name in names}
    for obj in pdf.objects:
        if not (isinstance(obj, pydyf.Stream) and obj.stream):
            continue
        ops = obj.stream
        for i, op in enumerate(ops):
            if op in wanted and i and isinstance(ops[i - 1], bytes):
                size = _IMAGE_CM.match(ops[i - 1])
                return size is not None and size.group(2) == size.group(3)
    return False


def _file_path(base_url: str) -> str:
    from urllib.parse import urlsplit
    from urllib.request import url2pathname

    return url2pathname(urlsplit(base_url).path)


def _page_drawings(pdf) -> list:
    """Per page of a PDF being written (pydyf objects), its image's drawing as form
    content: the operators inside the `q ... Q` WeasyPrint draws a replaced box's image in
    (after its translation), and the graphics states they name; None for a page whose
    drawing names any other resource."""
    import pydyf

    resources = {}
    for obj in pdf.objects:
        if isinstance(obj, pydyf.Dictionary) and "ExtGState" in obj:
            resources = obj["ExtGState"]
    pages = [obj for obj in pdf.objects
             if isinstance(obj, pydyf.Dictionary) and obj.get("Type") == "/Page"]
    streams = {obj.number: obj for obj in pdf.objects if isinstance(obj, pydyf.Stream)}
    out = []
    for page in pages:
        ops = streams[int(page["Contents"].split()[0])].stream
        out.append(_image_ops(ops, resources))
    return out


def _image_ops(ops: list[bytes], states: dict):
    """The shapes of the one SVG image on a page drawn at 24 x 24 px: after the first
    `/<a> gs` and `1 0 0 1 x y cm` (draw_replacedbox), `q q` (its box, the SVG root), the
    root's transform and viewBox scale (`1 0 0 1 0 0 cm` twice at this size), up to the
    root's `Q`; None for a page drawn otherwise or naming any resource but a graphics
    state."""
    identity = b"1 0 0 1 0 0 cm"
    for i in range(len(ops) - 4):
        if ops[i].endswith(b" gs") and ops[i + 1].startswith(b"1 0 0 1 ") \
                and ops[i + 1].endswith(b" cm") and ops[i + 2] == b"q":
            break
    else:
        return None
    start = i + 2
    depth, end = 0, None
    for j in range(start, len(ops)):
        depth += (ops[j] == b"q") - (ops[j] == b"Q")
        if depth == 0:
            end = j
            break
    if end is None or ops[start + 1:start + 4] != [b"q", identity, identity] \
            or ops[end - 1] != b"Q":
        return None
    body = ops[start + 4:end - 1]
    if any(op.endswith(b" cm") for op in body):
        # a transform inside: PDFium multiplies a form's own matrices before the page's,
        # not after, which moves an anti-aliased edge pixel by 1/255: drawn inline
        return None
    used = {}
    for op in body:
        if b"/" not in op:
            continue
        named = _NAMED.match(op) if op.startswith(b"/") else None
        if named is None or named.group(1).decode() not in states:
            return None   # text, an image, a pattern...: this icon is drawn inline
        key = named.group(1).decode()
        if not isinstance(states[key], dict):
            return None   # an indirect graphics state: not copied into a form
        used[key] = states[key]
    return list(body), used
