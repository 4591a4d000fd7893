"""Printable sheets and exports of a game, and blank sheets."""

from companion.sheets import routes

__all__ = ["routes"]
