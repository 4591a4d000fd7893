"""Play or Pay's error tree: every refusal is a PlayOrPayError (an EngineError) quoting the input."""

from __future__ import annotations

from engine.errors import EngineError


class PlayOrPayError(EngineError):
    """A table, a seat, a buy-in or a quick settlement that Play or Pay cannot take."""


class EventError(PlayOrPayError):
    """An event that is not well formed: an unknown type or field, a missing player, card or count."""


class PurchaseError(PlayOrPayError):
    """A chip purchase the table cannot make: a bad number of chips, or in the middle of a hand."""


class NothingToUndo(PlayOrPayError):
    """An undo asked for before any event was recorded."""


class IllegalPlay(PlayOrPayError):
    """A reported play or payment that breaks a rule; `code` is stable, the message is for players."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
