"""Who sits at a game's table, round by round (issue 27), read from the stored game.

A game whose players never changed stores no seating: its table is its founders, and round 1's
dealer is `Game.first_dealer`. Once a player joins late, leaves or is renamed, `Game.seating` keeps
the table (engine.seating.Table) and the list of changes; `Game.players` then holds the players of
the next round. The rules (who deals, where a newcomer sits) are the engine's.
"""

from __future__ import annotations

from typing import Any

from companion.models import Game
from engine import seating as seats
from engine.seating import Table


def table_of(game: Game) -> Table:
    """The game's table: its seats over the rounds, and who dealt round 1."""
    if game.seating:
        return Table.from_json(game.seating["table"])
    return Table(tuple(seats.Seat(name) for name in game.players), game.players[game.first_dealer])


def changes_of(game: Game) -> list[dict[str, Any]]:
    """Every change of players, in order, the undone ones included (each says so)."""
    return list((game.seating or {}).get("changes", []))


def everyone(game: Game) -> tuple[str, ...]:
    """Every player who has sat at the game's table, in seat order, those who left included."""
    return seats.everyone(table_of(game)) if game.seating else tuple(game.players)


def players_of_round(game: Game, number: int) -> list[str]:
    """The players of a round, in seat order."""
    return list(seats.seated(table_of(game), number)) if game.seating else list(game.players)


def left_by(game: Game, number: int) -> tuple[str, ...]:
    """The players who left before a round."""
    return seats.left_players(table_of(game), number) if game.seating else ()


def start_points(game: Game) -> dict[str, int]:
    """The points each late player started from (others start from 0)."""
    return {seat.name: seat.start for seat in table_of(game).seats if seat.start} if game.seating else {}


def first_dealer_name(game: Game) -> str:
    """Who dealt round 1."""
    return table_of(game).first_dealer


def pending_change(game: Game) -> dict[str, Any] | None:
    """The last change of who plays (a join or a leave, not undone) made after the last round
    scored: undoing that round first would leave the change before a round it was not made for."""
    for change in reversed(changes_of(game)):
        if change.get("undone_at"):
            continue
        if change["kind"] == "rename":
            continue
        return change if change["round"] > len(game.rounds) else None
    return None


def change_words(change: dict[str, Any]) -> str:
    """A change in words, for the history and messages.

    >>> change_words({"kind": "add", "name": "Eve", "round": 3, "start": 40, "choice": "highest"})
    'Eve joined before round 3, starting from 40 points (the highest total at the table)'
    >>> change_words({"kind": "remove", "name": "Cy", "round": 4})
    'Cy left before round 4'
    >>> change_words({"kind": "add", "name": "Eve", "round": 3, "start": 20, "choice": "chips", "unit": "hand"})
    'Eve joined before hand 3, buying the starting 20 chips'
    >>> change_words({"kind": "rename", "from": "Bbo", "to": "Bob", "round": 2})
    'Bbo was renamed Bob'
    """
    unit = change.get("unit", "round")  # Play or Pay changes players between hands
    if change["kind"] == "rename":
        return f"{change['from']} was renamed {change['to']}"
    if change["kind"] == "remove":
        return f"{change['name']} left before {unit} {change['round']}"
    choice = change.get("choice")
    if choice == "chips":
        return f"{change['name']} joined before {unit} {change['round']}, buying the starting {change['start']} chips"
    how = f" ({seats.StartChoice(choice).words})" if choice in {way.value for way in seats.StartChoice} else ""
    points = "1 point" if change["start"] == 1 else f"{change['start']} points"
    return f"{change['name']} joined before round {change['round']}, starting from {points}{how}"
