"""The one place that touches WeasyPrint, Pango, fontTools, cffi and pypdf internals."""
