"""How a card is coded: the suits, the ranks, the copies in play, card codes, run places and sort
keys, and the bit helpers on packed counts. No other engine module knows the layout: they ask here.

A card's code is one small number, used to index tables (wild flags, points, sort order): 0 for a
joker, else the rank's number shifted past the suit bits, plus the suit's index. Suit bits leave
room for a fifth suit (stars, as Five Crowns plays), which no standard deck holds.

>>> seven = code_of(Rank.SEVEN, Suit.HEARTS)
>>> seven, rank_of(seven), suit_of(seven), list(rank_codes(seven))
(57, 7, 1, [56, 57, 58, 59, 60])
>>> [rank.token for rank in STANDARD.ranks][:3], len(STANDARD.suits)
(['A', '2', '3'], 4)
>>> rank_at_place(ACE_HIGH), rank_at_place(7)
(<Rank.ACE: 1>, <Rank.SEVEN: 7>)
>>> len(FIVE_CROWNS.cards()), FIVE_CROWNS.lowest_rank.token, FIVE_CROWNS.highest_rank.token
(116, '3', 'K')
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from enum import Enum, IntEnum

from engine.errors import CardError


class Suit(Enum):
    """The suits, by their one-letter code; stars (``R``) belong to five-suit decks only."""

    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"
    STARS = "R"

    # Members are singletons compared by identity, so identity hashing is consistent and
    # much faster than Enum's name-based hash; the solver hashes cards in its inner loops.
    __hash__ = object.__hash__

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOLS[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.HEARTS, Suit.DIAMONDS)

    @property
    def word(self) -> str:
        return self.name.lower()

    @property
    def index(self) -> int:
        """The suit's number in card codes and sort keys: spades, hearts, diamonds, clubs, stars."""
        return _SUIT_INDEX[self]


_SUIT_SYMBOLS = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣", Suit.STARS: "★"}
_SUIT_INDEX = {suit: index for index, suit in enumerate(Suit)}
# Every way a suit may be written (RULES.md 1, 10.1): its letter, its symbol, and for stars two more symbols.
SUITS_BY_TOKEN = ({suit.value: suit for suit in Suit} | {symbol: suit for suit, symbol in _SUIT_SYMBOLS.items()}) | {
    "☆": Suit.STARS,
    "⭐": Suit.STARS,
}
STANDARD_SUITS = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)  # the suits of a 52-card deck
SUITS_BY_INDEX = tuple(Suit)


class Rank(IntEnum):
    """Ranks from Ace (1) to King (13); an ace's place in a run depends on the rules."""

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    __hash__ = int.__hash__  # equal to its int, as IntEnum compares; faster than Enum's hash

    @property
    def token(self) -> str:
        """The rank as written in card notation: ``A``, ``2`` … ``10``, ``J``, ``Q``, ``K``."""
        return _RANK_TOKENS[self]

    @property
    def word(self) -> str:
        """The rank as a word, singular: ``Ace``, ``Ten``."""
        return self.name.capitalize()

    @property
    def plural(self) -> str:
        """The rank as a plural word, for sentences such as 'Kings are wild'."""
        return "Sixes" if self is Rank.SIX else self.word + "s"

    @classmethod
    def parse(cls, text: str) -> Rank:
        """Read a rank token (``A``, ``2`` … ``10``, ``T``, ``J``, ``Q``, ``K``)."""
        rank = RANKS_BY_TOKEN.get(text.strip().upper())
        if rank is None:
            raise CardError(f'"{text}" is not a rank')
        return rank


_RANK_TOKENS = {rank: str(rank.value) for rank in Rank} | {
    Rank.ACE: "A",
    Rank.JACK: "J",
    Rank.QUEEN: "Q",
    Rank.KING: "K",
}
RANKS_BY_TOKEN = {token: rank for rank, token in _RANK_TOKENS.items()} | {"T": Rank.TEN}


@dataclass(frozen=True)
class Deck:
    """The faces of a deck (its suits and ranks), with the copies of each and the jokers in play.

    >>> len(Deck(STANDARD_SUITS, tuple(Rank), copies=2, jokers=4).cards())
    108
    """

    suits: tuple[Suit, ...]
    ranks: tuple[Rank, ...]
    copies: int = 1
    jokers: int = 0

    def faces(self) -> Iterator[tuple[Rank, Suit]]:
        """Each natural face once, suit by suit, ranks ascending."""
        return ((rank, suit) for suit in self.suits for rank in self.ranks)

    def cards(self) -> list[tuple[Rank | None, Suit | None]]:
        """Every card in play as (rank, suit), jokers as (None, None): faces times copies, then jokers."""
        naturals: list[tuple[Rank | None, Suit | None]] = list(self.faces())
        return naturals * self.copies + [(None, None)] * self.jokers

    def holds(self, rank: Rank | None, suit: Suit | None) -> bool:
        """Whether a card of this face is in the deck (a joker: whether the deck has jokers at all).

        >>> FIVE_CROWNS.holds(Rank.SEVEN, Suit.STARS), FIVE_CROWNS.holds(Rank.ACE, Suit.SPADES)
        (True, False)
        """
        if rank is None or suit is None:
            return self.jokers > 0
        return rank in self.ranks and suit in self.suits

    @property
    def lowest_rank(self) -> Rank:
        return min(self.ranks)

    @property
    def highest_rank(self) -> Rank:
        return max(self.ranks)


STANDARD = Deck(STANDARD_SUITS, tuple(Rank))  # one 52-card deck, the faces every rummy preset plays
# Five Crowns (RULES.md 10.1): one pack holds five suits (stars too) of ranks 3 to King, and three
# jokers; a game shuffles two packs together. The preset's deck table counts the packs and jokers.
FIVE_CROWNS = Deck(tuple(Suit), tuple(rank for rank in Rank if rank >= Rank.THREE), copies=2, jokers=6)

# --- card codes -----------------------------------------------------------------------------------

SUIT_BITS = 3  # room for 8 suits: the standard four and stars
SUIT_MASK = (1 << SUIT_BITS) - 1
JOKER_CODE = 0
ACE_LOW, ACE_HIGH = 1, 14  # an ace's places in a run: below the two, above the king
PLACES = range(ACE_LOW, ACE_HIGH + 1)  # every place a card may take in a run
CODES = (ACE_HIGH) << SUIT_BITS  # one more than the highest card code: the length of tables by code
ROW = 16  # places per suit in tables by suit and place (ACE_HIGH + 1 rounded up)


def code_of(rank: int, suit: Suit) -> int:
    """A natural card's code."""
    return rank << SUIT_BITS | _SUIT_INDEX[suit]


def rank_of(code: int) -> int:
    """A natural card's rank number, from its code."""
    return code >> SUIT_BITS


def suit_of(code: int) -> int:
    """A natural card's suit index, from its code."""
    return code & SUIT_MASK


def rank_codes(code: int) -> range:
    """The codes of every card of the rank of `code` (every suit)."""
    first = code & ~SUIT_MASK
    return range(first, first + len(SUITS_BY_INDEX))


def every_code() -> Iterator[tuple[int, Rank, Suit]]:
    """Every natural card code of every suit, with its rank and suit (tables by code hold them all)."""
    return ((code_of(rank, suit), rank, suit) for suit in Suit for rank in Rank)


def rank_at_place(place: int) -> Rank:
    """The rank standing at a run place: the place's number, an ace above the king."""
    return Rank.ACE if place == ACE_HIGH else Rank(place)


def places_of(rank: int) -> tuple[int, ...]:
    """Every place a rank could take in a run under some rule: an ace low or high, others their number."""
    return (ACE_LOW, ACE_HIGH) if rank == Rank.ACE else (rank,)


def sort_key(rank: Rank | None, suit: Suit | None) -> tuple[int, int]:
    """Suit then rank, jokers last."""
    if rank is None or suit is None:
        return (len(SUITS_BY_INDEX), 0)
    return (_SUIT_INDEX[suit], int(rank))


# By code: suit then rank, jokers last, as one number (`sort_key` for sorting in the hot loops).
SORT_ORDER = [len(SUITS_BY_INDEX) * CODES] + [suit_of(code) * CODES + rank_of(code) for code in range(1, CODES)]
# By code: suit by suit, ranks ascending, distinct codes kept distinct (the solver's card order).
SUIT_FIRST = [suit_of(code) * CODES + code for code in range(CODES)]

# --- packed counts: a count of copies per card, COUNT_BITS each, the first card lowest -----------

COUNT_BITS = 2  # up to 3 copies of a card in one hand
COUNT_MASK = (1 << COUNT_BITS) - 1
MAX_PACKED = len(SUITS_BY_INDEX) * len(Rank)  # distinct naturals one packed state may hold
LOW_BITS = int("01" * MAX_PACKED, 2)  # the low bit of every count


def pack_counts(counts: Iterable[int]) -> int:
    """Counts packed into one number, COUNT_BITS each, the first lowest.

    >>> count_at(pack_counts([1, 0, 3]), 2)
    3
    """
    state = 0
    for index, count in enumerate(counts):
        state |= count << COUNT_BITS * index
    return state


def count_at(state: int, index: int) -> int:
    """The count at `index` of a packed state."""
    return state >> COUNT_BITS * index & COUNT_MASK


def count_bit(index: int) -> int:
    """One copy of the card at `index`, as a packed state."""
    return 1 << COUNT_BITS * index


def unpack_counts(state: int, size: int) -> Sequence[int]:
    """The counts of a packed state of `size` cards."""
    return [count_at(state, index) for index in range(size)]


# --- wide packed counts: a byte per card, the top bit a guard (the lay-off search's counts) -----

WIDE_BITS = 8
WIDE_FIELD = (1 << WIDE_BITS) - 1
# The top bit of each field, for every distinct card a hand may hold (each natural and the joker).
_WIDE_GUARDS = int("10000000" * (MAX_PACKED + 1), 2)


def pack_wide(counts: Iterable[int]) -> int:
    """Counts packed a byte each, the first lowest.

    >>> pack_wide([2, 1, 3]) == 2 + (1 << 8) + (3 << 16)
    True
    """
    packed = 0
    for index, count in enumerate(counts):
        packed |= count << WIDE_BITS * index
    return packed


def takes_more(counts: int, taken: int) -> bool:
    """Whether `taken` takes more of some card than `counts` holds (both packed wide, no count above 127).

    >>> takes_more(pack_wide([2, 1]), pack_wide([1, 1])), takes_more(pack_wide([2, 1]), pack_wide([0, 2]))
    (False, True)
    >>> takes_more(pack_wide([1] * 40), pack_wide([0] * 39 + [2]))  # the 40th distinct card
    True
    """
    return ((counts | _WIDE_GUARDS) - taken) & _WIDE_GUARDS != _WIDE_GUARDS
