"""Games played in rounds: their pages and forms."""

from companion.games import routes

__all__ = ["routes"]
