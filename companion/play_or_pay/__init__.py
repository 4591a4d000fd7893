"""Play or Pay: its pages (new game, the hand screen, quick mode, undo) and forms."""

from companion.play_or_pay import routes

__all__ = ["routes"]
