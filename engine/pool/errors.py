"""Pool rummy's error tree: every refusal is a PoolError (an EngineError) quoting the input."""

from __future__ import annotations

from engine.errors import EngineError


class PoolError(EngineError):
    """Input pool rummy cannot take: a cut, a result, a game record."""


class CutError(PoolError):
    """A cut card or wild rank that is missing, doubled, not allowed, or not in the deck."""


class ResultError(PoolError):
    """A deal's results that are not one result per player with exactly one win."""


class RecordError(PoolError):
    """A game record that is not well formed: not JSON, bad players, a bad buy-in."""


class Refusal(PoolError):
    """A step of a game the rules refuse; `code` is stable, the message is for players."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
