"""Players who join or leave a Play or Pay table (issue 27): only between hands, never in one.

A late player sits left of the dealer of the hand about to be dealt (they lead it) and buys the
starting stack like everyone did. A player who leaves keeps the chips and the result they have;
when they were to deal, the player on their left deals instead. Each is `verify_x`, `can_x`, `x`
on a `GameState`.

>>> from engine.play_or_pay.game import start_game
>>> game = join(start_game(["Ann", "Bob", "Cy"], 10, first_dealer=1), "Eve")
>>> game.players, game.hand.to_act, game.balances["Eve"]
(('Ann', 'Bob', 'Eve', 'Cy'), 'Eve', 10)
>>> game = leave(game, "Bob")
>>> game.players, game.players[game.hand.dealer], game.left
(('Ann', 'Eve', 'Cy'), 'Eve', ('Bob',))
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from engine.play_or_pay.chips import buy_in_entries
from engine.play_or_pay.errors import PlayOrPayError
from engine.play_or_pay.hand import start_hand
from engine.play_or_pay.table import MAX_PLAYERS, MIN_PLAYERS

if TYPE_CHECKING:
    from engine.play_or_pay.game import GameState


class SeatError(PlayOrPayError):
    """A player who cannot join or leave the table now."""


def _between_hands(state: GameState, what: str) -> None:
    if not state.between_hands:
        raise SeatError(f"{what} now: hand {state.hand.hand} is being played; players change only between hands")


def verify_join(state: GameState, name: str) -> None:
    """Refuse a late player: during a hand, a name already at the table (whatever its case, those who
    left included), or a full table.

    >>> from engine.play_or_pay.game import start_game
    >>> verify_join(start_game(["Ann", "Bob", "Cy"]), "ann")
    Traceback (most recent call last):
    ...
    engine.play_or_pay.seating.SeatError: "ann" cannot join: "Ann" is already at this table
    """
    _between_hands(state, f'"{name}" cannot join')
    clash = next((other for other in state.everyone if other.casefold() == name.casefold()), None)
    if clash is not None:
        raise SeatError(f'"{name}" cannot join: "{clash}" is already at this table')
    if len(state.players) >= MAX_PLAYERS:
        raise SeatError(f'"{name}" cannot join: Play or Pay takes at most {MAX_PLAYERS} players')


def can_join(state: GameState, name: str) -> bool:
    try:
        verify_join(state, name)
    except PlayOrPayError:
        return False
    return True


def join(state: GameState, name: str) -> GameState:
    """The game with a late player seated left of the next hand's dealer, with the starting stack."""
    verify_join(state, name)
    dealer = state.hand.dealer
    players = (*state.players[: dealer + 1], name, *state.players[dealer + 1 :])
    hand = start_hand(players, dealer, state.hand.hand)
    return replace(
        state, players=players, hand=hand, ledger=state.ledger + buy_in_entries([name], state.stack, hand.hand)
    )


def verify_leave(state: GameState, name: str) -> None:
    """Refuse a player who cannot leave: during a hand, not at the table, or too few would be left.

    >>> from engine.play_or_pay.game import start_game
    >>> verify_leave(start_game(["Ann", "Bob", "Cy"]), "Cy")
    Traceback (most recent call last):
    ...
    engine.play_or_pay.seating.SeatError: "Cy" cannot leave: Play or Pay needs at least 3 players
    """
    _between_hands(state, f'"{name}" cannot leave')
    if name not in state.players:
        raise SeatError(f'"{name}" is not a player at this table')
    if len(state.players) - 1 < MIN_PLAYERS:
        raise SeatError(f'"{name}" cannot leave: Play or Pay needs at least {MIN_PLAYERS} players')


def can_leave(state: GameState, name: str) -> bool:
    try:
        verify_leave(state, name)
    except PlayOrPayError:
        return False
    return True


def leave(state: GameState, name: str) -> GameState:
    """The game without a player from the next hand on; the dealer stays, or passes left if it was them."""
    verify_leave(state, name)
    seat = state.players.index(name)
    players = tuple(other for other in state.players if other != name)
    dealer = state.hand.dealer - 1 if seat < state.hand.dealer else state.hand.dealer
    hand = start_hand(players, dealer % len(players), state.hand.hand)
    return replace(state, players=players, hand=hand, left=(*state.left, name))
