"""Card printing: context builder -> Jinja2 templates -> WeasyPrint (pdf.py only) -> sheets,
PNGs (pypdfium2) and Tabletop Simulator decks. Entry point: `build.build_print`."""
