"""Games played in rounds: their pages and forms; and the server's /healthz."""

from companion.games import health, players, routes

__all__ = ["health", "players", "routes"]
