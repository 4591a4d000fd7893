"""A meld on the table (TableMeld), as the lay-off code reads it, and the cards of each run place.

engine.layoffs re-exports TableMeld: it is part of that module's public answers.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property

from engine.cards import Card, MeldCard, Rank, Suit
from engine.deck import PLACES, SUITS_BY_INDEX, places_of, rank_at_place
from engine.rules import MeldKind

__all__ = ["TableMeld"]


@dataclass(frozen=True)
class TableMeld:
    """A meld on the table: its cards, what each stands for, and (runs) each one's place.

    Where the cards leave the reading open (D13), `others` holds the other legal readings, and
    `written` the cards as laid down, so that writing the meld out keeps it open.
    """

    kind: MeldKind
    cards: tuple[Card, ...]
    read_as: tuple[Card, ...]
    positions: tuple[int, ...] = ()
    others: tuple[TableMeld, ...] = ()
    written: tuple[MeldCard, ...] = ()

    def __str__(self) -> str:
        return " ".join(self.as_json())

    def __hash__(self) -> int:
        return self._hash

    @cached_property
    def _hash(self) -> int:
        """The hash of the fields, found once: lay-off checks are remembered by meld."""
        return hash((self.kind, self.cards, self.read_as, self.positions, self.others, self.written))

    @property
    def meld_cards(self) -> tuple[MeldCard, ...]:
        """The meld written with every wild's role, so a re-check keeps wild places fixed (D5)."""
        return tuple(
            MeldCard(card) if card == stands else MeldCard(card, stands)
            for card, stands in zip(self.cards, self.read_as, strict=True)
        )

    @property
    def written_out(self) -> tuple[MeldCard, ...]:
        """The meld as written out: every role once the reading is fixed, as laid down while open."""
        if self.others and self.written:
            return self.written
        return self.meld_cards

    def as_json(self) -> list[str]:
        """The meld as written out (`written_out`), a token a card."""
        return [str(card) for card in self.written_out]

    @property
    def is_open(self) -> bool:
        """Whether more than one reading is still open (D13)."""
        return bool(self.others)

    @cached_property
    def readings(self) -> tuple[TableMeld, ...]:
        """Every reading of the meld still open (D13), each fixed; this one first.

        >>> from engine.layoffs import table_melds
        >>> from engine.rules import rule_set
        >>> from engine.schedule import round_info
        >>> rules = rule_set("pay-me-family")
        >>> (meld,) = table_melds(["5H JK 6H"], rules, round_info(rules, 5))
        >>> sorted(str(reading) for reading in meld.readings)
        ['5H 6H JK=7H', 'JK=4H 5H 6H']
        """
        if not self.others:
            return (self,)
        return (replace(self, others=(), written=()), *self.others)


# --- the cards of run places, by place and suit (every suit: tables by code hold them all) ------

_PLACE_CARD = {(place, suit): Card(rank_at_place(place), suit) for place in PLACES for suit in Suit}
# Per suit, its cards by place (from place 1), for slicing: a lookup per place hashes a Suit.
_SUIT_ROWS = {suit: [_PLACE_CARD[place, suit] for place in PLACES] for suit in Suit}
_RANK_PLACES = [0, *(sum(1 << place for place in places_of(rank)) for rank in Rank)]  # a bit per place a rank may take
_PLACE_RANKS = [0, *(int(rank_at_place(place)) for place in PLACES)]  # the rank at each place (an ace at both ends)
_SUIT_COUNT = len(SUITS_BY_INDEX)
