"""The least leftover value of parts of one hand, as lay-offs leave it (D7): `SubHands`, for the
lay-off search (engine.layoffs)."""

from __future__ import annotations

from collections.abc import Sequence
from operator import itemgetter

from engine.cards import Card
from engine.deck import SUIT_FIRST, pack_counts
from engine.meldrules import MeldRules
from engine.solver.combination import (
    all_wild_vector,
    components,
    convolve_all,
    dearest_first,
    loners_vector,
    rebuild_extras,
    shared_component,
    shares_of,
    wilds_melded,
)
from engine.solver.records import CODE_OF, INF, Arrangement, arrangement_of
from engine.solver.search import Component

# The records SubHands keeps and reads on every step of the lay-off search (engine.layoff_search),
# plain tuples unpacked by name: a NamedTuple costs a call to make, and is unpacked through an
# iterator, four times slower than a plain tuple.
#
# A component of the hand: the component, where its cards' counts sit in the packed counts, their
# mask, its states by the masked counts (filled as they are asked), and its cards by the
# component's indexes.
Part = tuple[Component, list[int], int, dict[int, int], list[Card]]
# The least leftover value of some naturals per number of wilds melded, the points that do not
# depend on it, and how the wilds were split between the parts (the convolutions' splits, for
# `shares_of`).
Totals = tuple[list[int], int, list[list[int]]]
# A lone natural of the hand: where its count sits in the packed counts, its points and its code.
Loner = tuple[int, int, int]


class SubHands:
    """The least leftover value (no multiplier) of parts of one hand: the hand less some of its
    naturals and its dearest wild cards, as lay-offs leave it (D7).

    The hand's naturals are split into components once, with every wild card of the hand counted;
    each distinct count of naturals is then solved once for every number of wilds melded (the
    components' per-wild-count results), so that the same naturals with fewer wilds cost a few
    additions. A component solved for more wilds than are left is still exact: the counts of
    wilds that cannot be melded are simply not read, and the wilds left are never dearer than the
    dearest the component was built for. Not for `wild_in_place_natural`, where which wild cards
    stand for themselves changes the naturals.

    Under the side-by-side rule the components are smaller than `arrange`'s: naturals of a suit
    are joined only when at most two places apart (see `components`, `tight`).

    The parts are given as counts packed in one integer, `width` bits a card.
    """

    def __init__(
        self,
        cards: Sequence[Card],
        shifts: Sequence[int],
        packed: int,
        width: int,
        wild_values: Sequence[int],
        rules: MeldRules,
        values: Sequence[int],
    ):
        """`cards`: the distinct natural cards of the hand, and `shifts` where each one's count
        sits in the packed counts; `packed`: the whole hand's counts; `wild_values`: the points of
        each of its wilds."""
        settings = self.settings = rules
        self.values = values
        self.wild_values = wild_values = sorted(wild_values, reverse=True)
        self.wild_count = wild_count = len(wild_values)
        top_wild = wild_values[0] if wild_count else 0
        # suffix[r]: the points of the wilds from the r-th dearest on
        self.suffix = [sum(wild_values[r:]) for r in range(wild_count + 1)]
        # Lone naturals get a vector of their own where they may take two wilds each.
        self.melds_loners = not settings.limit and wild_count >= 2
        self.all_wild_melds = settings.all_wild
        self.all_wild = self.all_wild_melds and wild_count >= 3
        field = (1 << width) - 1
        # The cards suit by suit, ranks ascending (aces first), as `components` takes them; each
        # card's code, (suit, rank), shift, mask and points in that order, picked per group below.
        ordered, where_of = list(cards), list(shifts)
        if len(cards) > 1:  # (itemgetter gives one item alone, not in a tuple)
            sort_keys = [SUIT_FIRST[card.code] for card in cards]
            in_order = itemgetter(*sorted(range(len(cards)), key=sort_keys.__getitem__))
            ordered, where_of = list(in_order(cards)), list(in_order(shifts))
        naturals = [card.code for card in ordered]
        codes = [CODE_OF[code] for code in naturals]
        masks = [field << shift for shift in where_of]
        self.naturals_mask = sum(masks)
        points = [values[code] for code in naturals]
        self.parts: list[Part] = []  # in the solver's order
        self.loners: list[Loner] = []
        self.card_of: dict[int, Card] = {}  # the lone cards by code
        for group in components(codes, wild_count, settings, tight=True):
            if len(group) == 1:
                index = group[0]
                shift = where_of[index]
                if packed >> shift & field == 1:
                    self.loners.append((shift, points[index], naturals[index]))
                    self.card_of[naturals[index]] = ordered[index]
                    continue
                component = shared_component((codes[index],), (points[index],), wild_count, settings, top_wild)
                self.parts.append((component, [shift], masks[index], {}, [ordered[index]]))
                continue
            pick = itemgetter(*group)
            component = shared_component(pick(codes), pick(points), wild_count, settings, top_wild)
            self.parts.append((component, list(pick(where_of)), sum(pick(masks)), {}, list(pick(ordered))))
        self.field = field
        self.memo: dict[int, Totals] = {}

    def arrangement(self, packed: int, wilds: list[Card], multiplier: int = 1) -> Arrangement:
        """An arrangement with the least leftover value of the naturals counted in `packed` and
        `wilds` (wild cards of the hand), read from these parts and the choices their solves made,
        as `_combine` reads it from `arrange`'s; its penalty times `multiplier` (a round's, for a score).

        Where every wild card of the hand is kept and the naturals kept fall into the same
        components as `arrange` finds them, it is the very arrangement `arrange` gives (the same
        components answer alike). Elsewhere it may be another one as good: a component built for
        more wilds, holding cards `arrange` would count apart, or searched apart from cards
        `arrange` counts with it (the side-by-side rule's smaller components), can break a tie
        otherwise."""
        values = self.values
        total, fixed, splits = self.totals(packed)
        wild_values = dearest_first(wilds, values)
        leftover = fixed + sum([values[card.code] for card in wild_values])
        best_cost, melded_wilds = wilds_melded(total, leftover, wild_values, values)
        shares = shares_of(melded_wilds, splits)
        wild_pool = wild_values[:melded_wilds]
        melds: list[tuple[Card, ...]] = []
        unmelded: list[Card] = []
        vector = 0  # the index of the next part's vector among the convolution's
        field = self.field
        for component, where, mask, states, cards in self.parts:  # each part holding naturals here
            counts = packed & mask
            if counts:
                state = states.get(counts) or _state(packed, where, field)  # found by `totals` as a rule
                component.read_off(state, shares[vector], cards, wild_pool, melds, unmelded)
                vector += 1
        loners = [self.card_of[code] for shift, _, code in self.loners if packed >> shift & field]
        melded_loners = None
        if loners and self.melds_loners:
            melded_loners = sorted(loners, key=lambda card: values[card.code], reverse=True)
        else:
            unmelded += loners
        rebuild_extras(shares[vector:], melded_loners, self.all_wild, wild_pool, melds, unmelded)
        unmelded += wild_values[melded_wilds:]
        return arrangement_of(best_cost * multiplier, melds, unmelded)

    def score(self, packed: int, wilds_gone: int) -> tuple[int, list[int]]:
        """With the naturals counted in `packed` and all but the `wilds_gone` dearest wild cards:
        the least leftover value; and for j = 0, 1, ... up to the wilds left, the least leftover
        value of the naturals with j of those wilds where wilds may also go for nothing (less the
        points of the naturals it lacks, a lower bound for every part of the hand that keeps these
        naturals or fewer and j wilds or fewer)."""
        total, fixed, _ = self.totals(packed)
        suffix = self.suffix
        best = least = INF
        floors = []
        for k in range(self.wild_count - wilds_gone + 1):
            cost = total[k]
            if cost < least:
                least = cost
            floors.append(least + fixed)
            if cost < INF:
                cost += suffix[wilds_gone + k]
                if cost < best:
                    best = cost
        return best + fixed, floors

    def totals(self, packed: int) -> Totals:
        """The least leftover value of the naturals counted in `packed` per number of wilds
        melded, the points that do not depend on it, and how the wilds were split between the
        parts (the convolutions' splits, for `shares_of`)."""
        naturals = packed & self.naturals_mask
        known = self.memo.get(naturals)
        if known is None:
            known = self.memo[naturals] = self._totals(naturals)
        return known

    def _totals(self, packed: int) -> Totals:
        size = self.wild_count + 1
        field = self.field
        vectors = []
        for component, where, mask, states, _ in self.parts:  # each part holding naturals here
            counts = packed & mask
            state = states.get(counts)
            if state is None:
                state = states[counts] = _state(packed, where, field)
            if state:
                vectors.append(component.solve(state))
        loners = [points for shift, points, _ in self.loners if packed >> shift & field]
        fixed = 0
        if loners and self.melds_loners:
            loners.sort(reverse=True)
            vectors.append(loners_vector(loners, size))
        else:
            fixed = sum(loners)
        if self.all_wild:
            vectors.append(all_wild_vector(size, True))
        total, splits = convolve_all(vectors, size)
        return total, fixed, splits


def _state(packed: int, where: list[int], field: int) -> int:
    """A component's state (see `Component.solve`) from the counts packed `field` wide, where
    its cards' counts sit at the shifts `where`."""
    return pack_counts([packed >> shift & field for shift in where])
