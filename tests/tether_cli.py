"""Run the tether CLI in-process (a module of its own: conftest names are not unique)."""

from __future__ import annotations


def run_cli(*args: str):
    """Run the tether CLI in-process; returns click's Result."""
    from click.testing import CliRunner

    from tether_build.cli import main
    return CliRunner().invoke(main, list(args), catch_exceptions=False)
