"""The Last Tether content pipeline: validate, compile, simulate and print the game."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("tether_build")
except PackageNotFoundError:  # running from a source tree without install
    __version__ = "0.0.0"
