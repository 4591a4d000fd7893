"""Games played in rounds: their pages and forms; and the server's /healthz."""

from companion.games import health, routes

__all__ = ["health", "routes"]
