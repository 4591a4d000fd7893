"""Pool rummy 101/201: its game page (deals, rejoins, the split, undo) and forms."""

from companion.pool import routes

__all__ = ["routes"]
