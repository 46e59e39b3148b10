"""Walking WeasyPrint's laid-out boxes: by class, by path, every box under one."""

from __future__ import annotations


def classes(box) -> set[str]:
    element = getattr(box, "element", None)
    if element is None:
        return set()
    return set((element.get("class") or "").split())


def walk(box):
    """Every box under `box` (itself included), absolute placeholders unwrapped."""
    box = getattr(box, "_box", box)   # AbsolutePlaceholder wraps positioned boxes
    yield box
    for child in getattr(box, "children", ()):
        yield from walk(child)


def path_to(box, cls: str) -> list | None:
    """The boxes from `box` down to the first box of class `cls`; None if there is none. A
    positioned box's placeholder stands in for it (it reads, writes and copies the box)."""
    if cls in classes(box):
        return [box]
    for child in getattr(box, "children", ()):
        below = path_to(child, cls)
        if below is not None:
            return [box, *below]
    return None


def first(root, cls: str, kind: str | None):
    """The first box of class `cls` (and box type `kind`)."""
    for box in walk(root):
        if (kind is None or type(box).__name__ == kind) and cls in classes(box):
            return box
    return None


def firsts(root, wanted: list[tuple[str, str | None]]) -> dict[tuple[str, str | None], object]:
    """first(root, cls, kind) for every (cls, kind) of `wanted`, in one walk of the boxes
    (a face's measure asks for eleven; each walk was a tenth of the measure's time)."""
    found: dict = dict.fromkeys(wanted)
    left = set(wanted)
    for box in walk(root):
        if not left:
            break
        element = getattr(box, "element", None)
        if element is None:
            continue
        names = (element.get("class") or "").split()
        if not names:
            continue
        kind = type(box).__name__
        for want in [w for w in left if w[0] in names and w[1] in (None, kind)]:
            found[want] = box
            left.discard(want)
    return found
