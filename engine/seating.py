"""Who sits at the table, round by round: players who join late, leave early, or were misspelt.

A table is its seats in seat order (the deal passes to the left, which is the next seat), each
seat with the first round its player plays and, once they leave, the first round they no longer
play. Every rule about it lives here: who may join and where they sit (left of the next round's
dealer), the score a late player starts from, who may leave, and who deals each round (the deal
passes left, skipping anyone not playing that round).

>>> table = founders(["Ann", "Bob", "Cy"], "Ann")
>>> [dealer(table, number) for number in (1, 2, 3, 4)]
['Ann', 'Bob', 'Cy', 'Ann']
>>> table = join(table, "Eve", 3, start=12)
>>> seated(table, 3), dealer(table, 3), first_player(table, 3), dealer(table, 4)
(('Ann', 'Bob', 'Cy', 'Eve'), 'Cy', 'Eve', 'Eve')
>>> table = leave(table, "Ann", 4)
>>> seated(table, 4), dealer(table, 5)
(('Bob', 'Cy', 'Eve'), 'Bob')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any

from engine.errors import EngineError

__all__ = [
    "MAX_START_POINTS",
    "Seat",
    "SeatingError",
    "StartChoice",
    "Table",
    "can_join",
    "can_leave",
    "can_rename",
    "can_start_from",
    "dealer",
    "dealers",
    "everyone",
    "first_player",
    "founders",
    "join",
    "leave",
    "left_players",
    "next_player",
    "rename",
    "seated",
    "start_points",
    "undo_join",
    "undo_leave",
    "verify_join",
    "verify_leave",
    "verify_rename",
    "verify_start",
]

MAX_START_POINTS = 100_000
DIFFERENT = "give each player a different name"


class SeatingError(EngineError):
    """A player who cannot join, leave or be renamed, or a start score that makes no sense."""


class StartChoice(Enum):
    """What a late player's score starts from, as the table chooses."""

    HIGHEST = "highest"
    AVERAGE = "average"
    ZERO = "zero"

    @property
    def words(self) -> str:
        return {
            StartChoice.HIGHEST: "the highest total at the table",
            StartChoice.AVERAGE: "the average total at the table",
            StartChoice.ZERO: "zero",
        }[self]


@dataclass(frozen=True)
class Seat:
    """One seat: its player, the first round they play, and the first round they no longer play."""

    name: str
    joined: int = 1
    left: int | None = None
    start: int = 0  # the points a late player starts from

    def plays(self, round_number: int) -> bool:
        """Whether this player plays the round.

        >>> Seat("Eve", joined=3, left=5).plays(4), Seat("Eve", joined=3, left=5).plays(5)
        (True, False)
        """
        return self.joined <= round_number and (self.left is None or round_number < self.left)

    def as_json(self) -> dict[str, Any]:
        return {"name": self.name, "joined": self.joined, "left": self.left, "start": self.start}


@dataclass(frozen=True)
class Table:
    """The seats in seat order and who dealt round 1."""

    seats: tuple[Seat, ...]
    first_dealer: str

    def seat(self, name: str) -> Seat | None:
        return next((seat for seat in self.seats if seat.name == name), None)

    def as_json(self) -> dict[str, Any]:
        return {"seats": [seat.as_json() for seat in self.seats], "first_dealer": self.first_dealer}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Table:
        """A table as `as_json` wrote it.

        >>> table = join(founders(["Ann", "Bob"], "Bob"), "Eve", 2, start=5)
        >>> Table.from_json(table.as_json()) == table
        True
        """
        seats = tuple(
            Seat(
                str(item["name"]),
                int(item["joined"]),
                None if item.get("left") is None else int(item["left"]),
                int(item.get("start", 0)),
            )
            for item in data["seats"]
        )
        return cls(seats, str(data["first_dealer"]))


def founders(players: Sequence[str], first_dealer: str) -> Table:
    """The table a game starts with: everyone plays from round 1.

    >>> founders(["Ann", "Bob"], "Cy")
    Traceback (most recent call last):
    ...
    engine.seating.SeatingError: the first dealer "Cy" is not at the table
    """
    if first_dealer not in players:
        raise SeatingError(f'the first dealer "{first_dealer}" is not at the table')
    return Table(tuple(Seat(name) for name in players), first_dealer)


def everyone(table: Table) -> tuple[str, ...]:
    """Every player who has sat at the table, in seat order, those who left included."""
    return tuple(seat.name for seat in table.seats)


def seated(table: Table, round_number: int) -> tuple[str, ...]:
    """The players of a round, in seat order.

    >>> seated(leave(founders(["Ann", "Bob", "Cy"], "Ann"), "Bob", 2), 2)
    ('Ann', 'Cy')
    """
    return tuple(seat.name for seat in table.seats if seat.plays(round_number))


def left_players(table: Table, round_number: int) -> tuple[str, ...]:
    """The players who left before the round, in seat order."""
    return tuple(seat.name for seat in table.seats if seat.left is not None and seat.left <= round_number)


def _next_playing(table: Table, after: str, round_number: int) -> str:
    """The first seat left of `after` (the seat itself last) whose player plays the round."""
    names = everyone(table)
    start = names.index(after)
    for step in range(1, len(names) + 1):
        seat = table.seats[(start + step) % len(names)]
        if seat.plays(round_number):
            return seat.name
    raise SeatingError(f"nobody plays round {round_number}")


def dealer(table: Table, round_number: int) -> str:
    """Who deals a round: round 1's dealer (or the next player left of them who plays it), then the
    deal passes left, to the next player who plays that round.

    >>> table = leave(founders(["Ann", "Bob", "Cy", "Dee"], "Bob"), "Cy", 2)
    >>> [dealer(table, number) for number in (1, 2, 3, 4)]
    ['Bob', 'Dee', 'Ann', 'Bob']
    """
    if round_number < 1:
        raise SeatingError(f'"{round_number}" is not a round number')
    names = everyone(table)
    current = table.seats[names.index(table.first_dealer)]
    who = current.name if current.plays(1) else _next_playing(table, current.name, 1)
    for number in range(2, round_number + 1):
        who = _next_playing(table, who, number)
    return who


def dealers(table: Table, last_round: int) -> tuple[str, ...]:
    """Who deals each round from 1 to `last_round`, in one walk round the table (`dealer` for each).

    >>> dealers(leave(founders(["Ann", "Bob", "Cy"], "Cy"), "Ann", 3), 5)
    ('Cy', 'Ann', 'Bob', 'Cy', 'Bob')
    """
    if last_round < 1:
        return ()
    who = [dealer(table, 1)]
    for number in range(2, last_round + 1):
        who.append(_next_playing(table, who[-1], number))
    return tuple(who)


def first_player(table: Table, round_number: int) -> str:
    """Who plays first in a round: the next player left of its dealer who plays it."""
    return next_player(table, dealer(table, round_number), round_number)


def next_player(table: Table, after: str, round_number: int) -> str:
    """The next player left of `after` who plays the round.

    >>> next_player(leave(founders(["Ann", "Bob", "Cy"], "Ann"), "Bob", 2), "Ann", 2)
    'Cy'
    """
    return _next_playing(table, after, round_number)


def _clash(table: Table, name: str, besides: str | None = None) -> str | None:
    """The name at the table that is `name` whatever its case, if any (`besides` not counted)."""
    folded = name.casefold()
    return next((other for other in everyone(table) if other != besides and other.casefold() == folded), None)


def verify_join(table: Table, name: str, next_round: int, max_players: int) -> None:
    """Refuse a late player who cannot join before `next_round`: a name already at the table
    (whatever its case, those who left included), or a table that is full.

    >>> verify_join(founders(["Ann", "Bob"], "Ann"), "ann", 2, 6)
    Traceback (most recent call last):
    ...
    engine.seating.SeatingError: "ann" cannot join: "Ann" is already at this table; give each player a different name
    >>> verify_join(founders(["Ann", "Bob"], "Ann"), "Eve", 2, 2)
    Traceback (most recent call last):
    ...
    engine.seating.SeatingError: "Eve" cannot join: this game takes at most 2 players, and 2 play
    """
    clash = _clash(table, name)
    if clash is not None:
        raise SeatingError(f'"{name}" cannot join: "{clash}" is already at this table; {DIFFERENT}')
    playing = len(seated(table, next_round))
    if playing + 1 > max_players:
        raise SeatingError(f'"{name}" cannot join: this game takes at most {max_players} players, and {playing} play')


def can_join(table: Table, name: str, next_round: int, max_players: int) -> bool:
    """Whether a late player can join before `next_round`."""
    try:
        verify_join(table, name, next_round, max_players)
    except SeatingError:
        return False
    return True


def join(table: Table, name: str, next_round: int, start: int = 0, max_players: int | None = None) -> Table:
    """The table with a late player seated left of the dealer of `next_round`, playing from it:
    they play first in that round and deal the one after.

    >>> table = join(founders(["Ann", "Bob", "Cy"], "Ann"), "Eve", 2)
    >>> everyone(table), dealer(table, 2), first_player(table, 2), dealer(table, 3)
    (('Ann', 'Bob', 'Eve', 'Cy'), 'Bob', 'Eve', 'Eve')
    """
    verify_join(table, name, next_round, max_players if max_players is not None else len(table.seats) + 1)
    verify_start(start)
    dealing = dealer(table, next_round)
    at = everyone(table).index(dealing) + 1
    seat = Seat(name, joined=next_round, start=start)
    return replace(table, seats=(*table.seats[:at], seat, *table.seats[at:]))


def undo_join(table: Table, name: str) -> Table:
    """The table without a late player who joined (undoing `join`).

    >>> everyone(undo_join(join(founders(["Ann", "Bob"], "Ann"), "Eve", 2), "Eve"))
    ('Ann', 'Bob')
    """
    if table.seat(name) is None:
        raise SeatingError(f'"{name}" is not a player in this game')
    return replace(table, seats=tuple(other for other in table.seats if other.name != name))


def verify_leave(table: Table, name: str, next_round: int, min_players: int) -> None:
    """Refuse a player who cannot leave before `next_round`: not playing, or too few would be left.

    >>> verify_leave(founders(["Ann", "Bob"], "Ann"), "Bob", 2, 2)
    Traceback (most recent call last):
    ...
    engine.seating.SeatingError: "Bob" cannot leave: this game needs at least 2 players
    """
    seat = table.seat(name)
    if seat is None:
        raise SeatingError(f'"{name}" is not a player in this game')
    if not seat.plays(next_round):
        raise SeatingError(f'"{name}" cannot leave: they do not play round {next_round}')
    if len(seated(table, next_round)) - 1 < min_players:
        raise SeatingError(f'"{name}" cannot leave: this game needs at least {min_players} players')


def can_leave(table: Table, name: str, next_round: int, min_players: int) -> bool:
    """Whether a player can leave before `next_round`."""
    try:
        verify_leave(table, name, next_round, min_players)
    except SeatingError:
        return False
    return True


def leave(table: Table, name: str, next_round: int, min_players: int = 1) -> Table:
    """The table with a player who no longer plays from `next_round` on (their seat stays, empty)."""
    verify_leave(table, name, next_round, min_players)
    return replace(table, seats=tuple(replace(s, left=next_round) if s.name == name else s for s in table.seats))


def undo_leave(table: Table, name: str) -> Table:
    """The table with a player who left back in their seat (undoing `leave`)."""
    seat = table.seat(name)
    if seat is None or seat.left is None:
        raise SeatingError(f'"{name}" has not left this table')
    return replace(table, seats=tuple(replace(s, left=None) if s.name == name else s for s in table.seats))


def verify_rename(table: Table, old: str, new: str) -> None:
    """Refuse a rename of nobody, to nothing new, or to a name already at the table (whatever its case).

    >>> can_rename(founders(["Ann", "Bob"], "Ann"), "Bob", "ANN"), can_rename(founders(["Ann"], "Ann"), "Ann", "ANN")
    (False, True)
    """
    if table.seat(old) is None:
        raise SeatingError(f'"{old}" is not a player in this game')
    if new == old:
        raise SeatingError(f'"{old}" is already called "{new}"')
    clash = _clash(table, new, besides=old)
    if clash is not None:
        raise SeatingError(f'"{old}" cannot be renamed "{new}": "{clash}" is already at this table; {DIFFERENT}')


def can_rename(table: Table, old: str, new: str) -> bool:
    """Whether a player can be renamed."""
    try:
        verify_rename(table, old, new)
    except SeatingError:
        return False
    return True


def rename(table: Table, old: str, new: str) -> Table:
    """The table with a player renamed ("Bbo" to "Bob"); a change of case alone is a rename too.

    >>> table = rename(founders(["Ann", "Bbo"], "Bbo"), "Bbo", "Bob")
    >>> everyone(table), table.first_dealer
    (('Ann', 'Bob'), 'Bob')
    """
    verify_rename(table, old, new)
    seats = tuple(replace(seat, name=new) if seat.name == old else seat for seat in table.seats)
    return Table(seats, new if table.first_dealer == old else table.first_dealer)


def verify_start(points: object) -> int:
    """A start score typed by the table: a whole number from -MAX_START_POINTS to MAX_START_POINTS."""
    if isinstance(points, bool) or not isinstance(points, int) or not -MAX_START_POINTS <= points <= MAX_START_POINTS:
        raise SeatingError(
            f"a late player starts from a whole number of points from {-MAX_START_POINTS} to {MAX_START_POINTS}, "
            f'not "{points}"'
        )
    return points


def can_start_from(points: object) -> bool:
    """Whether a late player can start from these points.

    >>> can_start_from(40), can_start_from(10**9), can_start_from("40")
    (True, False, False)
    """
    try:
        verify_start(points)
    except SeatingError:
        return False
    return True


def start_points(choice: object, totals: Mapping[str, int]) -> int:
    """The points a late player starts from: the highest or the average (rounded half up) of the
    totals of the players at the table, zero, or a number the table chose.

    >>> totals = {"Ann": 10, "Bob": 25, "Cy": 0}
    >>> [start_points(choice, totals) for choice in ("highest", "average", "zero", 7)]
    [25, 12, 0, 7]
    >>> start_points("lowest", totals)
    Traceback (most recent call last):
    ...
    engine.seating.SeatingError: a late player starts from "highest", "average", "zero" or a number, not "lowest"
    """
    if isinstance(choice, str):
        try:
            way = StartChoice(choice)
        except ValueError:
            raise SeatingError(
                f'a late player starts from "highest", "average", "zero" or a number, not "{choice}"'
            ) from None
        values = list(totals.values())
        if way is StartChoice.ZERO or not values:
            return 0
        if way is StartChoice.HIGHEST:
            return max(values)
        return (2 * sum(values) + len(values)) // (2 * len(values))
    return verify_start(choice)
