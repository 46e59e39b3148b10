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
        return "\n".join(map(str, self.problems)) + f"\n{self.message}"
