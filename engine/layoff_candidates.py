"""The candidate lay-offs onto one declarer meld that the lay-off search (engine.layoff_search)
tries, dearest first: groups of the hand's cards that could extend the meld on a reading still
open (D13), each with the figures the search's bounds add up. Which are legal, the lay-off check
decides (engine.layoff_check).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from typing import Final

from engine.cards import Card
from engine.deck import (
    ACE_HIGH,
    ACE_LOW,
    WIDE_BITS,
    WIDE_FIELD,
    pack_wide,
)
from engine.meldrules import MeldRules, meld_rules, wild_table
from engine.melds import (
    MeldKind,
)
from engine.rules import RuleSet
from engine.schedule import RoundInfo
from engine.tablemeld import _SUIT_ROWS, TableMeld

# A candidate lay-off onto one meld, as a plain tuple read by place (CARDS, POINTS, TAKEN below)
# and unpacked by name in the lay-off search's loop (engine.layoff_search), where candidates are
# made and read by the thousand: a NamedTuple there costs a call to make each and misses the
# interpreter's fast paths for plain tuples, and the round benchmark took 3-6 % longer with them.
# Its fields: where it comes in the order the candidates are made (the first made wins a tie,
# D11); its cards; their points; how many of each of the hand's distinct cards it takes, packed
# (engine.deck.pack_wide); how many of its cards are wild; the points of its natural cards; the
# points of those naturals that might also fit a later meld. The figures add up over its parts.
Candidate = tuple[int, tuple[Card, ...], int, int, int, int, int]
CARDS: Final = 1  # where a Candidate holds its cards
POINTS: Final = 2  # its points
TAKEN: Final = 3  # and the counts it takes

# A part of a candidate (one card, a group of wilds, the naturals beyond one end of a run): its
# cards and figures as a Candidate has them after its order, which add up. A candidate is the
# naturals of one part and the wilds of another. Parts, and the pairs and ways below, are plain
# tuples unpacked by name, as candidates are.
Part = tuple[tuple[Card, ...], int, int, int, int, int]
_NO_CARDS: Part = ((), 0, 0, 0, 0, 0)
_WILDS: Final = 3  # where a part holds its number of wilds
# One of the hand's distinct cards, as a part of one card, and how many are held.
Held = tuple[Part, int]
# A way to fill the first places beyond a run's end (see _outward): the naturals used, how many
# wilds, and whether the last place filled holds a natural (True where none is filled).
Way = tuple[Part, int, bool]


def _wild_groups(wilds: list[Held], mrules: MeldRules) -> list[Part]:
    """The groups of the hand's wild cards worth laying off; `wilds`: each wild card held.

    Wilds are interchangeable, so shedding n of them means shedding the n dearest, except when a
    wild may count as natural in its own place (wild_in_place_natural): then every sub-multiset.
    """
    if len(wilds) > 1:
        wilds.sort(key=_dearest_first)
    if mrules.in_place_natural:
        return _multisets(wilds)
    groups = [_NO_CARDS]
    for unit, count in wilds:
        for _ in range(count):
            groups.append(_joined(groups[-1], unit))
    return groups


def _dearest_first(held: Held) -> int:
    (_, points, _, _, _, _), _ = held
    return -points


def _multisets(units: list[Held]) -> list[Part]:
    """Every group of the cards held (up to the count of each), in the order of itertools.product
    over how many of each, the empty group first."""
    groups = [_NO_CARDS]
    for unit, count in units:
        copies = [_NO_CARDS]
        for _ in range(count):
            copies.append(_joined(copies[-1], unit))
        groups = [_joined(group, copy) for group in groups for copy in copies]
    return groups


def _joined(first: Part, second: Part) -> Part:
    """The part of the cards of both (most parts joined are empty: the empty group of wilds, no
    natural beyond one end of a run)."""
    if not second[0]:  # its cards
        return first
    if not first[0]:
        return second
    cards, points, taken, wilds, natural_points, later_points = second
    first_cards, first_points, first_taken, first_wilds, first_natural_points, first_later_points = first
    return (
        first_cards + cards,
        first_points + points,
        first_taken + taken,
        first_wilds + wilds,
        first_natural_points + natural_points,
        first_later_points + later_points,
    )


def _numbered(groups: Iterable[Candidate], first: int = 0) -> list[Candidate]:
    """The candidates numbered again in their order, from `first`."""
    return [(order, *candidate[1:]) for order, candidate in enumerate(groups, first)]


def _wilds_alone(groups: Iterable[Part]) -> list[Candidate]:
    """The groups of wilds as candidates, numbered in their order."""
    return [(order, *group) for order, group in enumerate(groups)]  # a part's figures in order


def layoff_candidates(
    meld: TableMeld, cards: Mapping[Card, int], rules: RuleSet, info: RoundInfo, values: Sequence[int]
) -> list[tuple[Card, ...]]:
    """Groups of hand cards that could extend the meld, on any reading still open (D13), in the
    order the search tries them among those of equal points; verify_layoff decides which are legal."""
    keys = tuple(cards)
    naturals, wilds = card_parts(range(len(keys)), keys, pack_wide(cards.values()), values, wild_table(info), set())
    return [candidate[CARDS] for candidate in candidate_list(meld, naturals, wilds, meld_rules(rules, info))]


def card_parts(
    indexes: Iterable[int],
    keys: Sequence[Card],
    counts: int,
    values: Sequence[int],
    wild: Sequence[bool],
    later: set[int],
) -> tuple[list[Held], list[Held]]:
    """The distinct cards `keys` at `indexes` that are held (`counts`, packed), naturals and wilds
    apart; `later`: the indexes of the naturals that might also fit a later meld."""
    naturals: list[Held] = []
    wilds: list[Held] = []
    for at in indexes:
        count = counts >> WIDE_BITS * at & WIDE_FIELD
        if count:
            card = keys[at]
            points = values[card.code]
            if wild[card.code]:
                wilds.append((((card,), points, 1 << WIDE_BITS * at, 1, 0, 0), count))
            else:
                part = ((card,), points, 1 << WIDE_BITS * at, 0, points, points if at in later else 0)
                naturals.append((part, count))
    return naturals, wilds


def candidate_list(meld: TableMeld, naturals: list[Held], wilds: list[Held], mrules: MeldRules) -> list[Candidate]:
    """The candidates whose cards layoff_candidates gives, in that order and numbered so;
    `naturals`, `wilds`: the cards held."""
    wild_groups = _wild_groups(wilds, mrules)
    if not meld.others:
        return _reading_candidates(meld, naturals, mrules, wild_groups)
    groups: dict[tuple[Card, ...], Candidate] = {}  # as a set in the order first made
    for reading in meld.readings:
        for candidate in _reading_candidates(reading, naturals, mrules, wild_groups):
            groups.setdefault(candidate[CARDS], candidate)
    return _numbered(groups.values())


def _reading_candidates(
    meld: TableMeld, naturals: list[Held], mrules: MeldRules, wild_groups: list[Part]
) -> list[Candidate]:
    if meld.kind is MeldKind.RUN:
        return _run_candidates(meld, naturals, mrules, wild_groups)
    rank = meld.read_as[0].rank
    mates = [(part, copies) for part, copies in naturals if part[0][0].rank == rank]  # its first card's rank
    if not mates:
        return _wilds_alone(wild_groups[1:])  # the first group is the empty one: no lay-off
    groups = [  # the naturals of one part and the wilds of another
        (order, cards + extra[0], points + extra[1], taken + extra[2], extra[_WILDS], points, later)
        for order, ((cards, points, taken, _, _, later), extra) in enumerate(
            itertools.product(_multisets(mates), wild_groups), -1
        )
    ]
    return groups[1:]  # the first is the empty group


def _run_candidates(
    meld: TableMeld, naturals: list[Held], mrules: MeldRules, wild_groups: list[Part]
) -> list[Candidate]:
    """Extensions of a run outward from its ends: at each place the natural card itself, or a wild;
    for each way below the run (see _outward), each way above it that the wilds left can fill."""
    suit = meld.read_as[0].suit
    assert suit is not None
    lowest, highest = (mrules.lowest, mrules.highest)
    low, high = meld.positions[0], meld.positions[-1]
    row = _SUIT_ROWS[suit]  # the card at place p is row[p - 1]
    below, above = row[lowest - 1 : low - 1][::-1], row[high:highest]
    by_size = _by_size(wild_groups)
    most_wilds = len(by_size) - 1
    held = {part[0][0].code: part for part, copies in naturals if copies > 0}  # by its one card's code
    if not held:  # wilds alone: one group of each size the places beyond the ends can take
        sizes = range(1, min(most_wilds, len(below) + len(above)) + 1)
        return _wilds_alone(group for size in sizes for group in by_size[size])
    highs = _outward(above, held, most_wilds)
    full_highs = [way for way in highs if len(way[0][0]) + way[1] == len(above)]  # naturals and wilds
    groups: list[Candidate] = []
    for low_naturals, low_wilds, ends_natural in _outward(below, held, most_wilds):
        budget = most_wilds - low_wilds
        # A way below ending in a wild came after the same way with that wild moved above the run,
        # which made the same groups unless the way above already fills every place there.
        for high_naturals, high_wilds, _ in highs if ends_natural else full_highs:
            if high_wilds <= budget:
                cards, shed, taken, _, _, later = _joined(low_naturals, high_naturals)
                for extra in by_size[low_wilds + high_wilds]:
                    # numbered from -1: the first group is the empty one, dropped below
                    order = len(groups) - 1
                    groups.append(
                        (order, cards + extra[0], shed + extra[1], taken + extra[2], extra[_WILDS], shed, later)
                    )
    if lowest == ACE_LOW and highest == ACE_HIGH:  # an ace may stand beyond either end: the same groups twice
        groups = _numbered({candidate[CARDS]: candidate for candidate in groups}.values(), -1)
    return groups[1:]  # the first is the empty group: no lay-off


def _by_size(wild_groups: list[Part]) -> list[list[Part]]:
    """The wild groups by their number of cards, in order."""
    if wild_groups[-1][_WILDS] == len(wild_groups) - 1:  # one group of each size, smallest first
        return [[group] for group in wild_groups]
    by_size: list[list[Part]] = [[] for _ in range(max(group[_WILDS] for group in wild_groups) + 1)]
    for group in wild_groups:
        by_size[group[_WILDS]].append(group)
    return by_size


def _outward(places: list[Card], held: dict[int, Part], wild_budget: int) -> list[Way]:
    """Every way to fill the first n places beyond a run's end, fewest places first. `held`: the
    naturals in hand by code, each as a part of one card. The places hold distinct cards, so each
    is used at most once."""
    ways: list[Way] = [(_NO_CARDS, 0, True)]
    frontier = ways[:]
    for card in places:
        grown: list[Way] = []
        unit = held.get(card.code)
        for naturals, used_wilds, _ in frontier:
            if unit is not None:
                grown.append((_joined(naturals, unit), used_wilds, True))
            if used_wilds < wild_budget:
                grown.append((naturals, used_wilds + 1, False))
        if not grown:
            break
        ways += grown
        frontier = grown
    return ways
