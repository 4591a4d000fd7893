"""The pages that settle disputes at the table: meld checks, lay-off chains, scoring a round from the cards."""

from companion.disputes import routes

__all__ = ["routes"]
