"""What the meld check answers, as frozen values: a legal `Reading` of a meld, the `Verdict` on one
and the stable `Reason` codes of a refusal. `engine.melds` decides them and re-exports all three."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from engine.cards import Card, MeldCard, Rank, Suit
from engine.rules import MeldKind


class Reason(Enum):
    """Stable codes for why a meld is illegal."""

    TOO_SHORT = "too_short"
    MIXED_RANKS = "mixed_ranks"
    MIXED_SUITS = "mixed_suits"
    DUPLICATE_IN_RUN = "duplicate_in_run"
    GAP = "gap"
    ACE_NOT_ALLOWED = "ace_not_allowed"
    WRAP = "wrap"
    TOO_LONG = "too_long"
    TOO_MANY_WILDS = "too_many_wilds"
    NO_NATURAL = "no_natural"
    ADJACENT_WILDS = "adjacent_wilds"
    REPEATED_SUIT = "repeated_suit"
    ACES_NOT_IN_RUNS = "aces_not_in_runs"
    NOT_WILD = "not_wild"
    ROLE_MISMATCH = "role_mismatch"


@dataclass(frozen=True)
class Reading:
    """One legal way to read a meld, card by card in the order the cards were written.

    ``read_as`` holds the card each card stands for (a natural stands for itself); ``positions``
    each card's place in a run, 2 to 13 and an ace 1 or 14 (empty for a set); ``wild`` whether each
    card counts as a wild card in this reading (a wild card always does, unless the table lets a
    wild in its own place count as natural and it stands for itself).

    >>> reading = Reading(MeldKind.RUN, (Card.parse("5H"), Card.parse("4H"), Card.parse("6H")), (5, 4, 6),
    ...                   (False, True, False))
    >>> reading.order, reading.low, reading.high, reading.suit, reading.words
    ((1, 0, 2), 4, 6, <Suit.HEARTS: 'H'>, '4♥ 5♥ 6♥')
    """

    kind: MeldKind
    read_as: tuple[Card, ...]
    positions: tuple[int, ...] = ()
    wild: tuple[bool, ...] = ()

    @property
    def order(self) -> tuple[int, ...]:
        """The cards' indexes as the meld is laid out: a run from its low end, a set as written."""
        if self.kind is MeldKind.SET:
            return tuple(range(len(self.read_as)))
        return tuple(sorted(range(len(self.read_as)), key=lambda index: self.positions[index]))

    @property
    def low(self) -> int:
        """A run's lowest place (0 for a set)."""
        return min(self.positions, default=0)

    @property
    def high(self) -> int:
        """A run's highest place (0 for a set)."""
        return max(self.positions, default=0)

    @property
    def rank(self) -> Rank | None:
        """A set's rank (None for a run)."""
        return self.read_as[0].rank if self.kind is MeldKind.SET else None

    @property
    def suit(self) -> Suit | None:
        """A run's suit (None for a set)."""
        return self.read_as[0].suit if self.kind is MeldKind.RUN else None

    @property
    def wild_places(self) -> frozenset[int]:
        """The places of a run held by cards counting as wild."""
        return frozenset(place for place, wild in zip(self.positions, self.wild, strict=False) if wild)

    @property
    def words(self) -> str:
        """The cards the meld stands for, laid out: ``4♥ 5♥ 6♥ 7♥``."""
        return " ".join(self.read_as[index].symbol for index in self.order)


@dataclass(frozen=True)
class Verdict:
    """The verdict on one meld: its kind and reading when legal, or a reason when not."""

    cards: tuple[MeldCard, ...]
    kind: MeldKind | None
    read_as: tuple[Card, ...] | None
    code: str | None
    reason: str | None
    positions: tuple[int, ...] = ()  # runs: each card's place, 1-14 (an ace is 1 or 14)
    wild: tuple[bool, ...] = ()  # whether each card counts as a wild card in the reading

    @property
    def valid(self) -> bool:
        return self.code is None

    @property
    def reading(self) -> Reading | None:
        """How the meld was read, or None when it is not legal."""
        if self.kind is None or self.read_as is None:
            return None
        return Reading(self.kind, self.read_as, self.positions, self.wild)

    @property
    def read_as_text(self) -> str:
        """The meld in the order written, each wild shown as the card it stands for: ``9C JK=10C JC``."""
        if self.read_as is None:
            return " ".join(str(card) for card in self.cards)
        return " ".join(str(_with_role(held, stands)) for held, stands in zip(self.cards, self.read_as, strict=True))

    @property
    def arranged(self) -> tuple[MeldCard, ...]:
        """The meld laid out as it was read (a run from its low end), each wild with its role."""
        reading = self.reading
        if reading is None:
            return self.cards
        return tuple(_with_role(self.cards[index], reading.read_as[index]) for index in reading.order)

    @property
    def arranged_text(self) -> str:
        """``JK=4H 5H 6H 2C=7H``: the meld laid out as it was read."""
        return " ".join(str(held) for held in self.arranged)

    @property
    def reading_text(self) -> str | None:
        """``read as 4♥ 5♥ 6♥ 7♥``, or None when the meld is not legal."""
        reading = self.reading
        return None if reading is None else f"read as {reading.words}"

    def as_json(self) -> dict[str, object]:
        return {
            "cards": [str(card) for card in self.cards],
            "valid": self.valid,
            "kind": self.kind.value if self.kind else None,
            "reason": self.reason,
            "code": self.code,
            "read_as": [str(card) for card in self.read_as] if self.read_as else None,
            "reading": [str(held) for held in self.arranged] if self.valid else None,
            "reading_text": self.reading_text,
        }


def _with_role(held: MeldCard, stands: Card) -> MeldCard:
    return MeldCard(held.card) if held.card == stands else MeldCard(held.card, stands)
