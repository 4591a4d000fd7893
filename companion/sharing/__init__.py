"""Joining a game from another phone: QR codes, the join link, and replacing the edit key."""

from companion.sharing import routes

__all__ = ["routes"]
