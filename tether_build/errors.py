"""One exception tree for user-facing failures; every content problem carries its place."""

from __future__ import annotations

from dataclasses import dataclass

import click


@dataclass(frozen=True, order=True)
class Problem:
    """One content problem: `path:line:col: field: message (hint)`."""

    path: str
    line: int
    col: int
    field: str
    message: str
    hint: str | None = None

    def __str__(self) -> str:
        text = f"{self.path}:{self.line}:{self.col}: {self.field or '(file)'}: {self.message}"
        return text + (f" ({self.hint})" if self.hint else "")


class TetherError(click.ClickException):
    """Base of every error a user sees; click prints it without a traceback, exit 1."""


class ContentError(TetherError):
    """Content did not load or validate; holds every problem found."""

    def __init__(self, problems: list[Problem]):
        self.problems = sorted(set(problems))
        n = len(self.problems)
        super().__init__(f"{n} problem{'s' if n != 1 else ''} in content")

    def format_message(self) -> str:
        """Every problem, a line each, then how many; one problem is one line (issue 43)."""
        if len(self.problems) == 1:
            return str(self.problems[0])
        return "\n".join(map(str, self.problems)) + f"\n{self.message}"

    def __reduce__(self):
        """Pickled with its problems (a build stage's worker process sends it back)."""
        return (type(self), (self.problems,))


def os_error(exc: OSError) -> TetherError:
    """A file-system failure as a one-line error: what, where, and what to do."""
    import errno

    where = exc.filename or "a file"
    hints = {errno.ENOSPC: "free some disk space", errno.EROFS: "the disk is read-only",
             errno.EACCES: "check the folder's permissions", errno.EPERM: "check permissions",
             errno.EISDIR: "a folder stands where a file should be written",
             errno.ENOTDIR: "a file stands where a folder should be",
             errno.EEXIST: "a file stands where a folder should be",
             errno.EADDRINUSE: "the port is in use: choose another with --port"}
    hint = hints.get(exc.errno)
    return TetherError(f"{where}: {exc.strerror or exc}" + (f" ({hint})" if hint else ""))
