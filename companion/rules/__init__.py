"""The rules pages of every preset and of a game."""

from companion.rules import routes

__all__ = ["routes"]
