"""What a laid-out page may load: regular local files of bounded size."""

from __future__ import annotations

import os

from ...errors import TetherError

MAX_RESOURCE_BYTES = 64 * 1024 * 1024


def local_file(url: str) -> None:
    """Refuse anything but a regular local file of bounded size (no /dev/zero, no FIFO)."""
    from urllib.parse import urlsplit
    from urllib.request import url2pathname

    if not url.startswith("file:"):
        raise TetherError(f"pages may only load local files, not {url[:80]}")
    path = url2pathname(urlsplit(url).path)
    from ...content.paths_guard import may_load

    if not may_load(path):
        raise TetherError(f"pages may only load files of the project or the tool's templates, "
                          f"not {path[:120]}")
    try:
        info = os.stat(path)
    except OSError as exc:
        raise TetherError(f"cannot read {path}: {exc.strerror}") from None
    import stat

    if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_RESOURCE_BYTES:
        raise TetherError(f"{path} is not a regular file of at most "
                          f"{MAX_RESOURCE_BYTES // 2**20} MB")
