"""Play or Pay's table (RULES.md section 7): its limits, the error tree, the seats and the deal."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeGuard

from engine.cards import Card, Rank
from engine.play_or_pay.errors import IllegalPlay, PlayOrPayError

MIN_PLAYERS = 3


MAX_PLAYERS = 10


DECK_SIZE = 52


DEFAULT_CHIPS = 20


MAX_CHIPS = 10_000


# --- seats and the deal ---------------------------------------------------------------------


def _not_whole(value: object) -> bool:
    return not _whole(value)


def _whole(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def verify_players(players: Sequence[str]) -> tuple[str, ...]:
    """The players in seat order, or PlayOrPayError for a bad name or table size.

    >>> verify_players(["Ann", "Bob"])
    Traceback (most recent call last):
    ...
    engine.play_or_pay.errors.PlayOrPayError: Play or Pay needs 3 to 10 players, not 2 ("Ann, Bob")
    """
    seated: list[str] = []
    for name in players:
        if not isinstance(name, str) or not name.strip():
            raise PlayOrPayError(f'"{name}" is not a player name')
        if name in seated:
            raise PlayOrPayError(f'"{name}" sits at the table twice')
        seated.append(name)
    if not MIN_PLAYERS <= len(seated) <= MAX_PLAYERS:
        raise PlayOrPayError(
            f'Play or Pay needs {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(seated)} ("{", ".join(seated)}")'
        )
    return tuple(seated)


def _table_size(players: int | Sequence[str]) -> int:
    if not isinstance(players, int):
        return len(verify_players(players))
    if isinstance(players, bool) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise PlayOrPayError(f'Play or Pay needs {MIN_PLAYERS} to {MAX_PLAYERS} players, not "{players}"')
    return players


def _verify_seat(seat: object, size: int, what: str = "seat") -> int:
    if not _whole(seat) or not 0 <= seat < size:
        raise PlayOrPayError(f'"{seat}" is not a {what} at this table (seats are 0 to {size - 1})')
    return seat


def deal_counts(players: int | Sequence[str], dealer_seat: int) -> tuple[int, ...]:
    """How many cards each seat is dealt: the first 52 mod n players left of the dealer get one more.

    >>> deal_counts(5, dealer_seat=3)
    (11, 10, 10, 10, 11)
    >>> deal_counts(["Ann", "Bob", "Cy", "Dee"], 0)
    (13, 13, 13, 13)
    """
    size = _table_size(players)
    dealer = _verify_seat(dealer_seat, size, "dealer seat")
    base, extra = divmod(DECK_SIZE, size)
    return tuple(base + (1 if (seat - dealer - 1) % size < extra else 0) for seat in range(size))


@dataclass(frozen=True)
class DealRow:
    """How a table of `players` is dealt: `extra` of them (52 mod n), the first from the dealer's
    left, hold `most` cards; the other `rest` hold `cards`."""

    players: int
    cards: int
    extra: int

    @property
    def most(self) -> int:
        """The cards the first `extra` players from the dealer's left hold."""
        return self.cards + 1 if self.extra else self.cards

    @property
    def rest(self) -> int:
        """How many players hold `cards`."""
        return self.players - self.extra


def deal_table() -> tuple[DealRow, ...]:
    """The deal for every table size, from `deal_counts`.

    >>> [(row.players, row.cards, row.extra, row.most, row.rest) for row in deal_table()[:3]]
    [(3, 17, 1, 18, 2), (4, 13, 0, 13, 4), (5, 10, 2, 11, 3)]
    """
    rows: list[DealRow] = []
    for size in range(MIN_PLAYERS, MAX_PLAYERS + 1):
        counts = deal_counts(size, dealer_seat=0)
        cards = min(counts)
        rows.append(DealRow(size, cards, sum(1 for count in counts if count > cards)))
    return tuple(rows)


def next_card(card: Card) -> Card:
    """The card that follows in a sequence: the next rank of the suit, King wrapping to Ace.

    >>> str(next_card(Card.parse("KS"))), str(next_card(Card.parse("AS")))
    ('AS', '2S')
    """
    if card.rank is None or card.suit is None:
        raise IllegalPlay("joker", '"JK" is not in a Play or Pay deck: the game uses no jokers')
    return Card(Rank(card.rank % 13 + 1), card.suit)
