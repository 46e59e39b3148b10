"""The rulebook, compiled from content (issue 7).

- `chapters`: content/rules/*.md -> checked HTML (front matter, constants, tokens, Markdown)
- `directives`: `::: name` tables and figures rendered from content data
- `odds`, `svg`: exact combat odds; board and hex-distance figures from the board generator
- `aid`: the one-page player aid
- `faces`, `stamp`: card faces from the card helper, placed into the book PDF
- `book`: gathers everything, renders A4 and Letter (`render_rulebook`, `stage`)
- `rename`: `tether rename`, an in-place glossary edit

Heavy imports (WeasyPrint, pypdf) happen inside the functions that need them.
"""
