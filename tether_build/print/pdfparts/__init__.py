"""Cutting laid-out PDFs into reusable page fragments and joining them."""
