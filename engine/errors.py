"""The engine's errors: one base class, and a subclass for each kind of bad input.

Every message is one sentence that quotes the offending input, so a caller can
show it to a player as it is.
"""

from __future__ import annotations


class EngineError(ValueError):
    """Base class of every error the engine raises on bad input or an illegal play."""


class CardError(EngineError):
    """A token that is not a card, or a wild role that makes no sense."""


class DeckError(EngineError):
    """Cards that cannot all be in play: too many copies, or jokers where there are none."""


class VariantError(EngineError):
    """An unknown preset id."""


class OptionError(EngineError):
    """An unknown house-rule option, or a bad value for one."""


class RoundError(EngineError):
    """A round number outside the game's schedule."""


class PlayerCountError(EngineError):
    """A number of players the preset does not allow."""


class IllegalMeld(EngineError):
    """A meld that breaks a rule; `code` is stable, the message is for players."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class CannotGoOut(EngineError):
    """A declarer whose cards cannot all be melded."""


class IllegalLayoff(EngineError):
    """A lay-off that breaks a rule; `code` is stable, the message is for players."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class ContractError(EngineError):
    """Melds that are not exactly the deal's contract, or a contract asked of a game without contracts."""


class BuyError(EngineError):
    """A buy the rules do not allow: the player has used every buy of the deal, or the game has none."""
