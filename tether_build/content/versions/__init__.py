"""Versions of the content: git revisions, what changed between two, errata, changelog."""
