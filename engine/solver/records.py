"""The records the solver's parts pass between them, and its two bounds.

A component (engine.solver.search) numbers its distinct natural cards 0, 1, ... in the order the
search takes them (suit by suit, ranks ascending, aces first); its melds and choices name cards by
those indexes. A state of a component packs each card's count in two bits, card `i` at
``2 * i`` (engine.deck.pack_counts).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, NamedTuple

from engine.cards import Card
from engine.deck import CODES, SORT_ORDER, rank_of, suit_of

# `new(Record, fields)`: a NamedTuple record made from its fields in order. Where records are made
# per hand, per component or per meld, their own constructor, a Python-level call, shows in the
# hand benchmark.
new = tuple.__new__

INF = 10**9  # a leftover value no arrangement reaches: the count of wilds it stands at is impossible
MAX_RUN = 13  # the most cards a run holds


@dataclass(frozen=True)
class Arrangement:
    """A split of a hand into melds and leftovers, with the leftovers' penalty."""

    melds: tuple[tuple[Card, ...], ...]
    unmelded: tuple[Card, ...]
    penalty: int

    def as_json(self) -> dict[str, object]:
        return {
            "penalty": self.penalty,
            "melds": [[str(card) for card in meld] for meld in self.melds],
            "unmelded": [str(card) for card in self.unmelded],
        }


def arrangement_of(penalty: int, melds: list[tuple[Card, ...]], unmelded: list[Card]) -> Arrangement:
    """An Arrangement, its leftovers in card order (see `card_order`)."""
    return Arrangement(tuple(melds), tuple(sorted(unmelded, key=card_order)), penalty)


def card_order(card: Card) -> int:
    """A number per card that orders cards as Card.sort_key does (suit, then rank; jokers last),
    read from a table by card code: the solver sorts every hand's leftovers by it."""
    return SORT_ORDER[card.code]


# A natural card inside the search: (its suit's index, its rank number), a plain pair unpacked by
# name wherever it is read. The search and the grouping into components unpack one per card on
# every call; a NamedTuple is unpacked through an iterator, four times slower than a plain tuple.
Code = tuple[int, int]

# Every card code's Code, made once: the search turns a hand's codes into these on every call.
CODE_OF: list[Code] = [(suit_of(code), rank_of(code)) for code in range(CODES)]


class Meld(NamedTuple):
    """A meld the search found, over a component's cards by index.

    The search itself makes and reads its melds by the thousand as `RawMeld`, these fields in a
    plain tuple; a Meld is made from one only where a choice is read (`Component.choice`,
    `Component.out_choice`)."""

    used: tuple[int, ...]  # the naturals it holds, as card indexes, in the order laid
    wilds: int  # how many wild cards it holds
    suit: int  # a run's suit index, or -1 for a set
    layout: tuple[int, ...]  # a run's cards in place order, -1 for a wild in a gap; () for a set
    low: int  # a run's lowest place, before any wild past its low end (0 for a set)
    room_below: int  # how many wilds may go past a run's low end (0 for a set)
    room_above: int  # how many wilds may go past a run's high end (0 for a set)
    taken: int  # the counts it takes from a state, packed as the state is


# A Meld's fields in a plain tuple, as the search makes and reads them: a NamedTuple costs a
# Python-level call to make and misses the interpreter's fast paths for plain tuples (indexing and
# unpacking in place, untracking by the garbage collector); the long-suit hands of the hand
# benchmark took 55% longer with Melds throughout.
RawMeld = tuple[tuple[int, ...], int, int, tuple[int, ...], int, int, int, int]
WILDS: Final = 1  # where a RawMeld holds Meld.wilds
TAKEN: Final = 7  # and Meld.taken

# What the search chose for a state and a number of wilds: a card left over (its index), or a meld.
Choice = int | Meld


# A card's runs that need and displace the same naturals, as the search keeps and reads them (a
# plain tuple, as RawMeld; as a NamedTuple the long-suit hands of the benchmark took 12% longer):
# (needed, displaced, displaced_if_cheaper, melds). A state holds these runs where it holds every
# natural `needed`, none of `displaced` (naturals whose places the runs' gap wilds take), and none
# of `displaced_if_cheaper` that scores no less than a wild (see `Component`, which prunes them);
# the masks are of two-bit counts, as in a state.
RunShapes = tuple[int, int, int, list[RawMeld]]


class Split(NamedTuple):
    """One way to meld some of a hand's cards: the leftover value (no multiplier), the melds laid
    out, and the cards left over."""

    cost: int
    melds: list[tuple[Card, ...]]
    unmelded: list[Card]


def lay_out_from(cards: list[Card], meld: Meld, wild_pool: list[Card], melds: list[tuple[Card, ...]]) -> None:
    """Add the meld, laid out, to `melds`, with its wild cards taken from the front of `wild_pool`.
    `cards`: the component's cards by index."""
    taken = wild_pool[: meld.wilds]
    del wild_pool[: meld.wilds]
    melds.append(lay_out(cards, meld, taken))


def lay_out(cards: list[Card], meld: Meld, wilds: list[Card]) -> tuple[Card, ...]:
    """The meld's cards in reading order: runs ascending, with wilds in their places."""
    if meld.suit < 0:
        return tuple([cards[index] for index in meld.used] + wilds)
    layout = meld.layout
    in_gaps = layout.count(-1)
    extra = len(wilds) - in_gaps
    below = extra - min(extra, meld.room_above)  # the wilds past the low end; the ones past the high end come last
    gap_wilds = iter(wilds[below : below + in_gaps])
    laid = wilds[:below]
    laid += [cards[index] if index >= 0 else next(gap_wilds) for index in layout]
    laid += wilds[below + in_gaps :]
    return tuple(laid)
