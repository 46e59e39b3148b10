"""Run the tether CLI in-process (a module of its own: conftest names are not unique)."""

from __future__ import annotations


def run_cli(*args: str):
    """Run the tether CLI in-process; returns click's Result."""
    from click.testing import CliRunner

    from tether_build.cli import main
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


class Hang(Exception):
    """Raised by `alarm` (a SIGALRM handler): a command ran past the fuzzers' time bound."""


def alarm(_signum, _frame):
    raise Hang


def run_no_traceback(*args: str):
    """Run the tether CLI in-process, exceptions caught; fails the test on a traceback (an
    exception other than SystemExit, or "Traceback" in the output). Returns click's Result."""
    from click.testing import CliRunner

    from tether_build.cli import main

    result = CliRunner().invoke(main, list(args))
    exc = result.exception
    assert exc is None or isinstance(exc, SystemExit), \
        f"traceback from {args[0]}: {type(exc).__name__}: {exc}"
    assert "Traceback" not in result.output
    return result
