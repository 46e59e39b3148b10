"""The Last Tether content pipeline: validate, compile, simulate and print the game."""


def __getattr__(name: str):
    """`__version__`, the installed package's version, read when first asked: importing
    importlib.metadata and looking the version up take about 25 ms, which a command that
    never needs it (`check`, say) would spend at every start."""
    if name == "__version__":
        from importlib.metadata import PackageNotFoundError, version

        try:
            value = version("tether_build")
        except PackageNotFoundError:  # running from a source tree without install
            value = "0.0.0"
        globals()["__version__"] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
