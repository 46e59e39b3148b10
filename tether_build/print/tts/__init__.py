"""Tabletop Simulator: card decks and the table."""
