"""Table components: hex tiles, tokens, board maps and the components manifest (issue 6).

Each module builds plain-dict contexts from content, renders them with the Jinja2
templates in templates/tiles/, and hands the HTML to the one PDF module (print/layout/pdf.py).
"""
