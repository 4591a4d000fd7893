"""The lowest-penalty arrangement of a hand (D7), and going out (D8).

The search is exact. Naturals that could never share a meld fall into separate
components; each component is solved by a memoised search over the multiset of
its remaining cards, which returns, for every number k of wild cards placed in its
melds, the least penalty of its leftover naturals. Components are then combined
by min-plus convolution. Wild cards are interchangeable in a meld, so the k wilds
melded are always the k most expensive ones.

>>> from engine.rules import rule_set
>>> from engine.schedule import round_info
>>> from engine.cards import parse_cards
>>> rules = rule_set("pay-me")
>>> result = best_arrangement(parse_cards("7H 8H JK 9S 9D KC"), rules, round_info(rules, 4))
>>> result.penalty, [str(card) for card in result.unmelded]
(25, ['7H', '8H', 'KC'])
"""

from __future__ import annotations

import functools
import itertools
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from operator import itemgetter

from engine.caches import cache
from engine.cards import Card, Rank
from engine.deck import (
    ACE_HIGH,
    ACE_LOW,
    CODES,
    LOW_BITS,
    ROW,
    SORT_ORDER,
    SUIT_BITS,
    SUIT_FIRST,
    SUIT_MASK,
    SUITS_BY_INDEX,
    every_code,
    pack_counts,
)
from engine.errors import CannotGoOut
from engine.meldrules import MeldRules, meld_rules
from engine.penalties import base_penalty
from engine.rules import PenaltyTable, RuleSet
from engine.schedule import RoundInfo

INF = 10**9
MAX_RUN = 13
ACE = int(Rank.ACE)


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


_STARTS = {
    places: tuple((place, -1 if place == ACE_HIGH else 1) for place in places)
    for places in (
        (),
        (ACE_LOW,),
        (ACE_HIGH,),
        (ACE_LOW, ACE_HIGH),
        *((place,) for place in range(ACE_LOW + 1, ACE_HIGH)),
    )
}


# A natural card inside the search is a (suit index, rank number) pair.
_Code = tuple[int, int]
# A meld found by the search: (card indexes used, wild cards, suit or -1 for a set,
# run layout of card indexes with -1 for a wild, lowest position, room below, room above,
# and the packed counts it takes from a state).
_Meld = tuple[tuple[int, ...], int, int, tuple[int, ...], int, int, int, int]
# Run shapes by (naturals needed, naturals displaced, naturals displaced if they score no less than a wild).
_Shapes = dict[tuple[int, int, int], list[_Meld]]
_GAP = (-1,)  # a wild in a run's layout
# A component's state packs each card's count in two bits (engine.deck.COUNT_BITS), the first
# card lowest; the hot loops below shift by 2 * index inline.
_LOW_BITS = LOW_BITS  # the low bit of every two-bit count
_pack = pack_counts


# Set melds by the wild count, wild limit and distinct-suit rules, then by the packed counts of
# a card and its later rank mates (which alone decide them, as rank mates differ in suit).
_SETS: dict[tuple[int, bool, bool], dict[int, Sequence[_Meld]]] = cache("set melds by wild count and rules")


# What the search chose for a state and a wild count: a card left over, or a meld.
_Choice = int | _Meld


_NO_MATES: list[int] = []  # shared by every card without later rank mates: only read


class _Component:
    """Distinct naturals that may share melds, and a memoised search over their counts.

    ``solve(counts)`` answers, for every k, the least leftover value when exactly k
    wild cards are placed in the melds, and the choice that achieves it.
    """

    def __init__(
        self, codes: tuple[_Code, ...], values: tuple[int, ...], wild_count: int, settings: MeldRules, wild_value: int
    ):
        self.codes = codes
        self.values = values
        self.wild_count = wild_count
        self.size = wild_count + 1
        self.lowest, self.highest = settings.lowest, settings.highest
        self.limit, self.no_adjacent, self.distinct = settings.limit, settings.no_adjacent, settings.distinct_suits
        self.min_run = settings.min_run
        self.table = table = settings.places_by_rank
        self.at = at = [-1] * (
            len(SUITS_BY_INDEX) * ROW
        )  # by suit * ROW + place, the natural that may take that place in a run, or -1
        self.occupied = occupied = [0] * len(SUITS_BY_INDEX)  # per suit, a bit for each place a natural may take
        # The other cards of each card's rank; the search only ever looks at later ones.
        self.mates = mates = [_NO_MATES] * len(codes)
        later_of_rank = [_NO_MATES] * (ACE_HIGH + 1)  # by rank, its cards after the one at hand
        # Without a wild limit or the side-by-side rule, a run never needs a gap wild where a
        # natural still in hand could stand: put the natural there instead; if another meld held
        # it, that meld takes the wild; if it was left over, the wild goes to a free end of the run,
        # or is left over in its place when it scores no more. Such runs are skipped.
        self.prunes = prunes = not settings.limit and not settings.no_adjacent
        replaceable = 0  # the two-bit counts of the naturals worth no less than a wild, where it prunes
        for index in range(len(codes) - 1, -1, -1):
            suit, rank = codes[index]
            if rank == ACE:  # the one rank with other places than its number, or none
                for place in table[ACE]:
                    at[suit * ROW + place] = index
                    occupied[suit] |= 1 << place
            else:
                at[suit * ROW + rank] = index
                occupied[suit] |= 1 << rank
            later = mates[index] = later_of_rank[rank]
            later_of_rank[rank] = [index, *later]
            if prunes and values[index] >= wild_value:
                replaceable |= 1 << 2 * index
        self.replaceable = replaceable
        # Per packed state, the least leftover value per number of wilds melded (the choice that
        # reaches it is found again only where an arrangement is read: see `choice`, `read_off`).
        self.costs: dict[int, list[int]] = {0: [0] + [INF] * wild_count}
        # Going out, per packed state and number of wilds: whether its cards all meld with exactly
        # that many (True, False, or None while not yet searched), and the first meld that does it.
        self.outs: dict[int, list[bool | None]] = {}
        self.out_picks: dict[int, list[_Choice | None]] = {}
        self.runs: list[list[tuple[int, int, int, list[_Meld]]]] = [[]] * len(codes)
        self.sets = _SETS.setdefault((wild_count, self.limit, self.distinct), {})
        # Per card, a mask of the two-bit counts its melds depend on (0 until first needed), and
        # the melds found for each distinct masked state.
        self.relevant = [0] * len(codes)
        self.rank_mask = [0] * len(codes)  # per card, the two-bit counts of it and its later rank mates
        self.found: dict[int, Sequence[_Meld]] = {}
        # Per card, where its melds are found: a card with no runs has sets alone, which are
        # shared by every component (`self.sets`, under the same masked counts).
        self.found_in: list[dict[int, Sequence[_Meld]]] = [self.sets] * len(codes)
        # Where a run from a card finds naturals: one within the wild count plus one places (two
        # at most under the side-by-side rule), or without wilds, one in each of the next two places.
        # As (how many places, the least their bits read as a number may be for a run to exist).
        reach = min(wild_count + 1, 2) if settings.no_adjacent else wild_count + 1
        self.near = (reach, 1) if wild_count else (2, 3)

    def solve(self, state: int) -> list[int]:
        """Best leftover value per number of wilds melded, for the counts packed in `state`
        (two bits per card: ``count << 2 * index``)."""
        return self.costs.get(state) or self._costs(state)

    def choice(self, state: int, wilds: int) -> _Choice:
        """What the search chose for a solved state with `wilds` wilds melded, where that is
        possible: the first way, in the order `_costs` tries them (`first` left over, then its
        melds), that reaches the least leftover value, as `_costs` keeps only strict improvements."""
        costs = self.costs
        least = costs[state][wilds]
        first = ((state & -state).bit_length() - 1) >> 1
        if costs[state - (1 << 2 * first)][wilds] + self.values[first] == least:
            return first
        return self._meld_chosen(first, state, wilds, least)

    def _meld_chosen(self, first: int, state: int, wilds: int, least: int) -> _Meld:
        """`choice` where `first` is not left over: the first of its melds that reaches `least`."""
        costs = self.costs
        for meld in self._melds(first, state):
            melded = meld[1]
            if melded <= wilds and costs[state - meld[7]][wilds - melded] == least:
                return meld
        raise AssertionError("a solved state's least value is reached by one of its choices")

    def read_off(
        self,
        state: int,
        wilds: int,
        cards: list[Card],
        wild_pool: list[Card],
        melds: list[tuple[Card, ...]],
        unmelded: list[Card],
    ) -> None:
        """`_rebuild` with `choice`, inlined: the choices for a solved state with `wilds` wilds
        melded, one after another; its leftovers go to `unmelded` (its lowest card is checked
        here, which spares a call for each), its melds to `melds`, laid out with wild cards taken
        from the front of `wild_pool`. `cards`: the component's cards by index."""
        costs, values = self.costs, self.values
        while state:
            first = ((state & -state).bit_length() - 1) >> 1
            least = costs[state][wilds]
            lowest = 1 << 2 * first
            if costs[state - lowest][wilds] + values[first] == least:
                unmelded.append(cards[first])
                state -= lowest
                continue
            meld = self._meld_chosen(first, state, wilds, least)
            _lay_out_from(cards, meld, wild_pool, melds)
            state -= meld[7]
            wilds -= meld[1]

    def out_choice(self, state: int, wilds: int) -> _Choice | None:
        """The first meld `melds_out` found for a state that melds out with `wilds` wilds."""
        return self.out_picks[state][wilds]

    def _costs(self, state: int) -> list[int]:
        first = ((state & -state).bit_length() - 1) >> 1
        known = self.costs
        size = self.size
        child = state - (1 << 2 * first)
        rest = known.get(child) or self._costs(child)  # most children are known: skip the call
        value = self.values[first]
        # An impossible count stays at INF or more, and its choice is never read.
        # Vectors are short: the usual sizes are written out, where a comprehension's call costs more.
        if size == 3:
            best = [rest[0] + value, rest[1] + value, rest[2] + value]
        elif size == 2:
            best = [rest[0] + value, rest[1] + value]
        else:
            best = [cost + value for cost in rest]
        relevant = self.relevant[first] or self._relevant(first)
        found = self.found_in[first]  # `_melds`, inlined: every state solved passes here
        melds = found.get(state & relevant)
        if melds is None:
            melds = found[state & relevant] = self._melds_with(first, state)
        for meld in melds:
            child = state - meld[7]
            rest = known.get(child) or self._costs(child)
            k = meld[1]
            for cost in rest:
                if k == size:
                    break
                if cost < best[k]:
                    best[k] = cost
                k += 1
        known[state] = best
        return best

    def melds_out(self, state: int, wilds: int) -> bool:
        """Whether the counts packed in `state` (see `solve`) can all be melded with exactly
        `wilds` wild cards. Searched depth first, only as far as the first meld that does it, which
        `out_picks` keeps for the state and its successors: the choice `solve` makes where its least
        leftover value is 0."""
        if not state:
            return not wilds
        known = self.outs.get(state)
        if known is None:
            # Threads share components (engine.caches): the picks exist before the verdicts, each
            # made once (setdefault), and a pick is stored before the verdict that promises it.
            self.out_picks.setdefault(state, [None] * self.size)
            known = self.outs.setdefault(state, [None] * self.size)
        melds_out = known[wilds]
        if melds_out is None:
            meld = self._first_out(state, wilds)
            self.out_picks[state][wilds] = meld
            melds_out = known[wilds] = meld is not None
        return melds_out

    def _first_out(self, state: int, wilds: int) -> _Meld | None:
        """The first meld, in the order `solve` tries them, after which the rest melds out too."""
        first = ((state & -state).bit_length() - 1) >> 1
        for meld in self._melds(first, state):
            spare = wilds - meld[1]
            if spare >= 0 and self.melds_out(state - meld[7], spare):
                return meld
        return None

    def _melds(self, first: int, state: int) -> Sequence[_Meld]:
        """`first`'s melds in `state` (its lowest card), found once per state of the counts that
        decide them."""
        relevant = self.relevant[first] or self._relevant(first)
        found = self.found_in[first]
        melds = found.get(state & relevant)
        if melds is None:
            melds = found[state & relevant] = self._melds_with(first, state)
        return melds

    def _melds_with(self, first: int, state: int) -> Sequence[_Meld]:
        runs = self.runs[first]
        if not runs:  # its melds are found in the shared sets, where the caller looked already
            return tuple(self._sets_with(first, state))
        sets = self.sets.get(state & self.rank_mask[first])
        if sets is None:
            sets = self.sets[state & self.rank_mask[first]] = tuple(self._sets_with(first, state))
        melds = list(sets)
        present = (state | state >> 1) & _LOW_BITS
        replaceable = present & self.replaceable
        for needed, displaced, displaced_if_cheaper, shapes in runs:
            if present & needed == needed and not present & displaced and not replaceable & displaced_if_cheaper:
                melds.extend(shapes)
        return melds

    def _sets_with(self, first: int, state: int) -> list[_Meld]:
        copies = state >> 2 * first & 3
        mates = []
        for mate in self.mates[first]:
            if state >> 2 * mate & 3:
                mates.append(mate)
        wild_count = self.wild_count
        if not mates and copies == 1:  # a lone natural: a set only with two or more wilds
            if self.limit or wild_count < 2:
                return []
            delta = 1 << 2 * first
            return [((first,), wilds, -1, (), 0, 0, 0, delta) for wilds in range(2, wild_count + 1)]
        if len(mates) == 1 and copies == 1 and state >> 2 * mates[0] & 3 == 1:
            groups: list[tuple[int, ...]] = [(first,), (first, mates[0])]  # the usual pair
        else:  # every count of each card up to its copies, `first` at least once, the last card's count fastest
            groups = [(first,) * (1 + extra) for extra in range(copies)]
            for mate in mates:
                picks = range((state >> 2 * mate & 3) + 1)
                groups = [group + (mate,) * pick for group in groups for pick in picks]
        limit, distinct = self.limit, self.distinct
        melds: list[_Meld] = []
        for used in groups:
            naturals = len(used)
            fewest = 3 - naturals if naturals < 3 else 0
            if distinct:  # rank mates differ in suit, so the suits are the distinct cards
                fewest = max(fewest, 3 - len(set(used)))
            most = (naturals if naturals < wild_count else wild_count) if limit else wild_count
            delta = 0
            for index in used:
                delta += 1 << 2 * index
            for wilds in range(fewest, most + 1):
                melds.append((used, wilds, -1, (), 0, 0, 0, delta))
        return melds

    def _relevant(self, first: int) -> int:
        """The two-bit counts that decide `first`'s melds: its own, its later rank mates' and those
        of the naturals its runs need or displace. The lowest of them is `first`'s. Found with the
        card's run shapes on first need (going out, the search may never need some cards')."""
        suit, rank = self.codes[first]
        mask = 1 << 2 * first
        for mate in self.mates[first]:
            mask |= 1 << 2 * mate
        self.rank_mask[first] = mask | mask << 1
        reach, wanted = self.near
        window = (1 << reach) - 1
        places = self.occupied[suit]
        shapes: _Shapes = {}
        for start, step in _STARTS[self.table[rank]]:
            nearest = start + 1 if step == 1 else start - reach
            if ((places >> nearest if nearest >= 0 else places << -nearest) & window) >= wanted:  # most have none
                self._walk(first, suit, start, step, shapes)
        if shapes:
            runs = self.runs[first] = [
                (needed, always, if_cheaper, melds) for (needed, always, if_cheaper), melds in shapes.items() if melds
            ]
            for needed, always, if_cheaper, _ in runs:
                mask |= needed | always | if_cheaper
            if runs:
                self.found_in[first] = self.found
        mask |= mask << 1
        self.relevant[first] = mask
        return mask

    def _walk(self, first: int, suit: int, start: int, step: int, shapes: _Shapes) -> None:
        """Every run with `first` as the natural at one end, extended away from it, ending at a
        natural, with as many extra wilds at the ends as fit; grouped in `shapes` by bit masks of the
        other naturals it needs and of the naturals whose places its gap wilds take (those that make
        it skippable outright, and those only when the natural scores at least as much as a wild)."""
        at, no_adjacent, wild_count, limit = self.at, self.no_adjacent, self.wild_count, self.limit
        run_lowest, run_highest, prunes, min_run = self.lowest, self.highest, self.prunes, self.min_run
        occupied = self.occupied[suit]
        # A run found here ends on a natural, so the walk stops past the suit's last natural: the
        # last place it tries (`start` itself is never tried).
        if step == 1:
            last = min(occupied.bit_length() - 1, start + MAX_RUN - 1)
            if last <= start:
                return
        else:
            last = max((occupied & -occupied).bit_length() - 1, start - MAX_RUN + 1)
            if last >= start:
                return
        row = suit * ROW
        # Room for extra wilds past each end of the run (one at most under the side-by-side rule);
        # the room past `start` is the same for every run of the walk.
        room_cap = 1 if no_adjacent else MAX_RUN
        room_past_start = min(start - run_lowest if step == 1 else run_highest - start, room_cap)
        first_bit = 1 << 2 * first
        # Places still to try, latest first: the place, the wilds laid up to it, whether the card
        # laid just before it is a wild, the run laid up to it in the order laid (-1 for a wild),
        # the naturals used in the order laid, the naturals needed and the places wilds took.
        # Depth first, the natural at a place before a wild there: the order the melds are tried in.
        alone: tuple[int, ...] = (first,)
        pending = [(start + step, 0, False, alone, alone, 0, 0)]
        while pending:
            position, gaps, after_wild, layout, used, needed, wild_places = pending.pop()
            index = at[row + position]
            further = position != last  # whether the walk may go past this place
            spare = wild_count - gaps  # wilds left, this one included
            # A wild here only where a natural lies within the wilds left, further on.
            if (
                further
                and spare
                and not (no_adjacent and after_wild)
                and (occupied >> position + 1 if step == 1 else occupied << spare >> position) & (1 << spare) - 1
            ):
                # Stacked first, so tried after every run through the natural here.
                taken = wild_places | (1 << 2 * index if index >= 0 else 0)
                pending.append((position + step, gaps + 1, True, layout + _GAP, used, needed, taken))
            if index < 0 or index == first:
                continue
            layout += (index,)
            used += (index,)
            needed |= 1 << 2 * index
            if further:
                pending.append((position + step, gaps, False, layout, used, needed, wild_places))
            # The run ending here, with extra wilds past its ends.
            span = len(layout)
            room_past_end = position - run_lowest if step == -1 else run_highest - position
            if room_past_end > room_cap:
                room_past_end = room_cap
            most_extra = room_past_start + room_past_end
            if most_extra > MAX_RUN - span:
                most_extra = MAX_RUN - span
            fewest_extra = min_run - span if span < min_run else 0
            if fewest_extra > most_extra or gaps + fewest_extra > wild_count:
                continue
            with_room = shapes.setdefault((needed, wild_places if prunes else 0, 0), [])
            full = shapes.setdefault((needed, 0, wild_places), []) if wild_places else with_room  # same key
            most_wilds = wild_count if not limit or len(used) > wild_count else len(used)
            most_added = most_wilds - gaps  # extra wilds the run may also hold
            if most_added > most_extra:
                most_added = most_extra
            if step == 1:
                low, room_below, room_above, laid = start, room_past_start, room_past_end, layout
            else:
                low, room_below, room_above, laid = position, room_past_end, room_past_start, layout[::-1]
            delta = needed | first_bit
            for extra in range(fewest_extra, most_added + 1):
                group = with_room if extra < most_extra else full
                group.append((used, gaps + extra, suit, laid, low, room_below, room_above, delta))


def _components(codes: list[_Code], wild_count: int, settings: MeldRules, tight: bool = False) -> list[list[int]]:
    """Group distinct naturals that could share a meld (same rank, or same suit within reach).

    `codes` come suit by suit, ranks ascending (aces first), so joining each card to the last
    card before it of its rank, and of its suit by place, connects the same groups as joining
    every pair that could share a meld. Groups come by their first card, cards in order.

    Within reach means as many places apart as the wilds can bridge, plus one. `tight`: where no
    two wilds may lie side by side, a run bridges one place at most between two naturals (smaller
    groups, searched apart, for the lay-off search). `arrange` keeps the groups made by the wild
    count alone, whose ties fall as they always have."""
    reach = min(wild_count, 1) + 1 if tight and settings.no_adjacent else wild_count + 1
    ace_places = settings.ace_places
    aces_high, aces_low = ACE_HIGH in ace_places, ACE_LOW in ace_places
    group_of = list(range(len(codes)))  # per card, an earlier card of its group (itself for the first)
    last_of_rank = [-1] * (ACE_HIGH + 1)
    last_suit = high_ace = last_index = -1
    last_place = -MAX_RUN  # the place and card last seen in the current suit
    for index, (suit, rank) in enumerate(codes):
        mate = last_of_rank[rank]
        last_of_rank[rank] = index
        if mate >= 0:
            _join(group_of, mate, index)
        if suit != last_suit:
            _link_high_ace(group_of, high_ace, last_index, last_place, reach)
            last_suit, high_ace, last_index, last_place = suit, -1, -1, -MAX_RUN
        if rank == ACE:
            high_ace = index if aces_high else -1
            if aces_low:
                last_index, last_place = index, ACE_LOW
            continue
        if rank - last_place <= reach:
            _join(group_of, last_index, index)
        last_index, last_place = index, rank
    _link_high_ace(group_of, high_ace, last_index, last_place, reach)
    groups: dict[int, list[int]] = {}
    for index, earlier in enumerate(group_of):
        first = group_of[earlier]  # the earlier card already points at its group's first card
        group_of[index] = first
        if first == index:
            groups[index] = [index]
        else:
            groups[first].append(index)
    return list(groups.values())


def _join(group_of: list[int], one: int, two: int) -> None:
    """Put two cards' groups together, under the earlier of their first cards."""
    while group_of[one] != one:
        one = group_of[one]
    while group_of[two] != two:
        two = group_of[two]
    if one < two:
        group_of[two] = one
    elif two < one:
        group_of[one] = two


def _link_high_ace(group_of: list[int], ace: int, last_index: int, last_place: int, reach: int) -> None:
    """Join a suit's ace, as the place above the king, to the suit's highest card if in reach."""
    if ace >= 0 and last_index >= 0 and ACE_HIGH - last_place <= reach:
        _join(group_of, ace, last_index)


# Solved components, shared across hands: a table sees the same small groups again and again.
_SOLVED: dict[tuple[object, ...], _Component] = cache("solved components")
_SOLVED_LIMIT = 20_000


def _component(
    codes: tuple[_Code, ...], values: tuple[int, ...], wild_count: int, settings: MeldRules, wild_value: int
) -> _Component:
    key = (codes, values, wild_count, settings.search_key, wild_value)
    component = _SOLVED.get(key)
    if component is None:
        if len(_SOLVED) >= _SOLVED_LIMIT:
            _SOLVED.clear()
            _SETS.clear()
        component = _SOLVED[key] = _Component(codes, values, wild_count, settings, wild_value)
    return component


def _convolve(one: list[int], two: list[int], size: int) -> tuple[list[int], list[int]]:
    """Min-plus convolution; also returns, per total, how many wilds went to `two`."""
    best = [INF] * size
    split = [0] * size
    for a, cost_a in enumerate(one):
        if cost_a >= INF:
            continue
        for b in range(size - a):
            total = cost_a + two[b]
            if total < best[a + b]:
                best[a + b] = total
                split[a + b] = b
    return best, split


def _loners_vector(values: list[int], size: int) -> list[int]:
    """Lone naturals (values high to low) when melds have no wild limit: with k wilds, the
    k // 2 dearest each make a set with two wilds, and any spare wild joins one of them."""
    total = sum(values)
    vector = [total] + [INF] * (size - 1)
    for k in range(2, size):
        if values:
            vector[k] = total - sum(values[: k // 2])
    return vector


def _rebuild_loners(
    loners: list[Card], wilds: int, wild_pool: list[Card], melds: list[tuple[Card, ...]], unmelded: list[Card]
) -> None:
    pairs = min(wilds // 2, len(loners))
    for index, card in enumerate(loners):
        if index >= pairs:
            unmelded.append(card)
            continue
        take = wilds - 2 * (pairs - 1) if index == 0 else 2
        melds.append((card, *wild_pool[:take]))
        del wild_pool[:take]


def _all_wild_vector(size: int, allowed: bool) -> list[int]:
    return [0 if k == 0 or (allowed and k >= 3) else INF for k in range(size)]


def _solve(
    naturals: dict[int, int],
    card_of: dict[int, Card],
    wilds: list[Card],
    values: Sequence[int],
    settings: MeldRules,
    all_wild: bool,
    out_only: bool = False,
) -> tuple[int, list[tuple[Card, ...]], list[Card]]:
    """Least leftover value (no multiplier), the melds and the leftovers, for one natural/wild split.

    Naturals are counted by card code; `values` gives each code's points. `out_only`: only ways
    that meld every card are looked for; the answer is exact where it is 0.
    """
    wild_values = _dearest_first(wilds, values)
    wild_count = len(wilds)
    top_wild = values[wild_values[0].code] if wilds else 0
    # The search takes each component's cards suit by suit, ranks ascending (aces first).
    distinct = sorted(naturals, key=_SUIT_FIRST.__getitem__)
    codes: list[_Code] = [(code & SUIT_MASK, code >> SUIT_BITS) for code in distinct]
    parts: list[tuple[_Component, int, list[Card]]] = []
    loners: list[int] = []
    for group in _components(codes, wild_count, settings):
        if len(group) == 1 and naturals[distinct[group[0]]] == 1:
            loners.append(distinct[group[0]])
            continue
        group_codes, group_values, cards = [], [], []
        state = shift = 0
        for index in group:  # one pass: lists built with a comprehension each cost more here
            code = distinct[index]
            group_codes.append(codes[index])
            group_values.append(values[code])
            cards.append(card_of[code])
            state |= naturals[code] << shift
            shift += 2
        component = _component(tuple(group_codes), tuple(group_values), wild_count, settings, top_wild)
        parts.append((component, state, cards))
    return _combine(parts, loners, card_of, wild_values, values, settings, all_wild, out_only)


def _combine(
    parts: list[tuple[_Component, int, list[Card]]],
    loners: list[int],
    card_of: dict[int, Card],
    wild_values: list[Card],
    values: Sequence[int],
    settings: MeldRules,
    all_wild: bool,
    out_only: bool = False,
) -> tuple[int, list[tuple[Card, ...]], list[Card]]:
    """_solve's answer from its parts: each component with the state of its cards and the cards
    by the component's indexes, the lone naturals' codes, and the wild cards dearest first."""
    wild_count = len(wild_values)
    size = wild_count + 1
    vectors = []
    melds_out: list[Callable[[int], bool]] = []  # out_only: the components' answers, read as needed
    for component, state, _ in parts:
        if out_only:
            melds_out.append(functools.partial(component.melds_out, state))
        else:
            vectors.append(component.solve(state))
    loners = sorted(loners, key=values.__getitem__, reverse=True)
    fixed_cost = 0
    if settings.limit:  # a lone natural needs two wilds, more than it may hold
        unmelded = [card_of[code] for code in loners]
        fixed_cost = sum([values[code] for code in loners])
        loners = []
    else:
        unmelded = []
    # Vectors that only allow k = 0 change nothing in the convolution, so they are left out.
    has_loners = bool(loners) and wild_count >= 2
    has_all_wild = all_wild and wild_count >= 3
    if has_loners:
        vectors.append(_loners_vector([values[code] for code in loners], size))
    if has_all_wild:
        vectors.append(_all_wild_vector(size, all_wild))
    leftover = fixed_cost + sum([values[card.code] for card in wild_values])
    if not has_loners:
        leftover += sum([values[code] for code in loners])
        unmelded.extend(card_of[code] for code in loners)
    if out_only:
        melds_out += [functools.partial(_costs_nothing, vector) for vector in vectors]
        found = _out_split(melds_out, leftover, [values[card.code] for card in wild_values])
        if found is None:
            return INF, [], []  # not every card melds: only the full search says how few are left
        best_cost, (melded_wilds, shares) = 0, found
    else:
        total, splits = _convolve_all(vectors, size)
        best_cost, melded_wilds = _wilds_melded(total, leftover, wild_values, values)
        shares = _shares(melded_wilds, splits) if vectors else []
    melds: list[tuple[Card, ...]] = []
    wild_pool = wild_values[:melded_wilds]
    for (component, state, cards), share in zip(parts, shares, strict=False):
        _rebuild(
            component.out_choice if out_only else component.choice, state, cards, share, wild_pool, melds, unmelded
        )
    lone_cards = [card_of[code] for code in loners] if has_loners else None
    _rebuild_extras(shares[len(parts) :], lone_cards, has_all_wild, wild_pool, melds, unmelded)
    unmelded.extend(wild_values[melded_wilds:])
    return best_cost, melds, unmelded


def _convolve_all(vectors: list[list[int]], size: int) -> tuple[list[int], list[list[int]]]:
    """The least value per number of wilds over all the vectors, and each convolution's split."""
    total = vectors[0] if vectors else [0] + [INF] * (size - 1)
    splits = []
    for vector in vectors[1:]:
        total, split = _convolve(total, vector, size)
        splits.append(split)
    return total, splits


def _wilds_melded(total: list[int], leftover: int, wild_values: list[Card], values: Sequence[int]) -> tuple[int, int]:
    """The least leftover value and how many wilds are melded for it (ties go to more wilds), from
    `total` per number of wilds melded; `leftover`: the points left over that `total` does not
    count when no wild is melded, with every wild's."""
    best_cost, melded_wilds = INF, 0
    for k in range(len(wild_values) + 1):
        if k:
            leftover -= values[wild_values[k - 1].code]
        if total[k] < INF and total[k] + leftover <= best_cost:
            best_cost, melded_wilds = total[k] + leftover, k
    return best_cost, melded_wilds


def _rebuild_extras(
    shares: list[int],
    loners: list[Card] | None,
    all_wild: bool,
    wild_pool: list[Card],
    melds: list[tuple[Card, ...]],
    unmelded: list[Card],
) -> None:
    """The melds of the vectors after the components', from their shares of the wilds: the lone
    naturals' (dearest first; None where they have no vector) and the all-wild melds'."""
    if loners is not None:
        _rebuild_loners(loners, shares.pop(0), wild_pool, melds, unmelded)
    if all_wild and shares[0]:
        melds.append(tuple(wild_pool[: shares[0]]))


def _dearest_first(wilds: list[Card], values: Sequence[int]) -> list[Card]:
    """The wild cards, dearest first (ties in the order given)."""
    return sorted(wilds, key=lambda card: values[card.code], reverse=True) if len(wilds) > 1 else list(wilds)


def _costs_nothing(vector: list[int], wilds: int) -> bool:
    return not vector[wilds]


def _out_split(
    melds_out: list[Callable[[int], bool]], leftover: int, wild_values: list[int]
) -> tuple[int, list[int]] | None:
    """Going out: the number of wilds melded and each vector's share of them where every card
    melds, as the convolutions in `_solve` find them; None where no way melds every card.
    `melds_out`: whether each vector's cards all meld with k wilds; `leftover`: the points left
    over when no wild is melded (the wilds', the others' that cannot meld)."""
    for melded_wilds in range(len(wild_values), -1, -1):  # ties go to more wilds melded
        if leftover > sum(wild_values[:melded_wilds]):
            return None
        shares = _out_shares(melds_out, melded_wilds)
        if shares is not None:
            return melded_wilds, shares
    return None


def _out_shares(melds_out: list[Callable[[int], bool]], total: int) -> list[int] | None:
    """Each vector's share of `total` wilds with which every card melds, as `_shares` undoes the
    convolutions: the last vector takes what is left by the fewest wilds the ones before it can
    all meld with. None where there is no such split."""
    if not melds_out:
        return [] if not total else None
    known: dict[tuple[int, int], list[int] | None] = {}

    def split(count: int, wilds: int) -> list[int] | None:  # over the first `count` vectors
        if count == 1:
            return [wilds] if melds_out[0](wilds) else None
        if (count, wilds) not in known:
            known[count, wilds] = None
            for before in range(wilds + 1):
                if melds_out[count - 1](wilds - before) and (earlier := split(count - 1, before)) is not None:
                    known[count, wilds] = [*earlier, wilds - before]
                    break
        return known[count, wilds]

    return split(len(melds_out), total)


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
    are joined only when at most two places apart (see `_components`, `tight`).

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
        # The cards suit by suit, ranks ascending (aces first), as `_components` takes them; each
        # card's code, (suit, rank), shift, mask and points in that order, picked per group below.
        ordered, where_of = list(cards), list(shifts)
        if len(cards) > 1:  # (itemgetter gives one item alone, not in a tuple)
            sort_keys = [_SUIT_FIRST[card.code] for card in cards]
            in_order = itemgetter(*sorted(range(len(cards)), key=sort_keys.__getitem__))
            ordered, where_of = list(in_order(cards)), list(in_order(shifts))
        naturals = [card.code for card in ordered]
        codes: list[_Code] = [(code & SUIT_MASK, code >> SUIT_BITS) for code in naturals]
        masks = [field << shift for shift in where_of]
        self.naturals_mask = sum(masks)
        points = [values[code] for code in naturals]
        # The parts in the solver's order: each component with where its cards' counts sit in the
        # packed counts, their mask, its states by the masked counts, and its cards; each lone
        # card's shift, points and code.
        self.parts: list[tuple[_Component, list[int], int, dict[int, int], list[Card]]] = []
        self.loners: list[tuple[int, int, int]] = []
        self.card_of: dict[int, Card] = {}  # the lone cards by code
        for group in _components(codes, wild_count, settings, tight=True):
            if len(group) == 1:
                index = group[0]
                shift = where_of[index]
                if packed >> shift & field == 1:
                    self.loners.append((shift, points[index], naturals[index]))
                    self.card_of[naturals[index]] = ordered[index]
                    continue
                component = _component((codes[index],), (points[index],), wild_count, settings, top_wild)
                self.parts.append((component, [shift], masks[index], {}, [ordered[index]]))
                continue
            pick = itemgetter(*group)
            component = _component(pick(codes), pick(points), wild_count, settings, top_wild)
            self.parts.append((component, list(pick(where_of)), sum(pick(masks)), {}, list(pick(ordered))))
        self.field = field
        self.memo: dict[int, tuple[list[int], int, list[list[int]]]] = {}

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
        wild_values = _dearest_first(wilds, values)
        leftover = fixed + sum([values[card.code] for card in wild_values])
        best_cost, melded_wilds = _wilds_melded(total, leftover, wild_values, values)
        shares = _shares(melded_wilds, splits)
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
        _rebuild_extras(shares[vector:], melded_loners, self.all_wild, wild_pool, melds, unmelded)
        unmelded += wild_values[melded_wilds:]
        return _arrangement(best_cost * multiplier, melds, unmelded)

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

    def totals(self, packed: int) -> tuple[list[int], int, list[list[int]]]:
        """The least leftover value of the naturals counted in `packed` per number of wilds
        melded, the points that do not depend on it, and how the wilds were split between the
        parts (the convolutions' splits, for `_shares`)."""
        naturals = packed & self.naturals_mask
        known = self.memo.get(naturals)
        if known is None:
            known = self.memo[naturals] = self._totals(naturals)
        return known

    def _totals(self, packed: int) -> tuple[list[int], int, list[list[int]]]:
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
            vectors.append(_loners_vector(loners, size))
        else:
            fixed = sum(loners)
        if self.all_wild:
            vectors.append(_all_wild_vector(size, True))
        total, splits = _convolve_all(vectors, size)
        return total, fixed, splits


def _state(packed: int, where: list[int], field: int) -> int:
    """A component's state (see `_Component.solve`) from the counts packed `field` wide, where
    its cards' counts sit at the shifts `where`."""
    return _pack([packed >> shift & field for shift in where])


def _shares(total: int, splits: list[list[int]]) -> list[int]:
    """Undo the convolutions: how many wilds each vector got."""
    shares = []
    for split in reversed(splits):
        share = split[total]
        shares.append(share)
        total -= share
    shares.append(total)
    return list(reversed(shares))


def _rebuild(
    choose: Callable[[int, int], _Choice | None],
    state: int,
    cards: list[Card],
    wilds: int,
    wild_pool: list[Card],
    melds: list[tuple[Card, ...]],
    unmelded: list[Card],
) -> None:
    # Solving the whole state solved every state the choices lead to.
    while state:
        choice = choose(state, wilds)
        assert choice is not None
        if isinstance(choice, int):
            unmelded.append(cards[choice])
            state -= 1 << 2 * choice
            continue
        _lay_out_from(cards, choice, wild_pool, melds)
        state -= choice[7]
        wilds -= choice[1]


def _lay_out_from(cards: list[Card], meld: _Meld, wild_pool: list[Card], melds: list[tuple[Card, ...]]) -> None:
    """Add the meld, laid out, to `melds`, with its wild cards taken from the front of `wild_pool`."""
    taken = wild_pool[: meld[1]]
    del wild_pool[: meld[1]]
    melds.append(_lay_out(cards, meld, taken))


def _lay_out(cards: list[Card], meld: _Meld, wilds: list[Card]) -> tuple[Card, ...]:
    """The meld's cards in reading order: runs ascending, with wilds in their places."""
    used, _, suit, layout, _, _, room_above, _ = meld
    if suit < 0:
        return tuple([cards[index] for index in used] + wilds)
    in_gaps = layout.count(-1)
    extra = len(wilds) - in_gaps
    below = extra - min(extra, room_above)  # the wilds past the low end; the ones past the high end come last
    gap_wilds = iter(wilds[below : below + in_gaps])
    laid = wilds[:below]
    laid += [cards[index] if index >= 0 else next(gap_wilds) for index in layout]
    laid += wilds[below + in_gaps :]
    return tuple(laid)


def _standing_as_themselves(
    selves: list[Card], naturals: dict[int, int], card_of: dict[int, Card], wilds: list[Card]
) -> tuple[dict[int, int], dict[int, Card], list[Card]]:
    """The naturals (counts and cards by code) and the wilds when the wild cards `selves` count as
    natural in their own place."""
    counts, known, remaining = dict(naturals), dict(card_of), list(wilds)
    for card in selves:
        remaining.remove(card)
        counts[card.code] = counts.get(card.code, 0) + 1
        known[card.code] = card
    return counts, known, remaining


def _flex_splits(flex: list[Card]) -> Iterator[list[Card]]:
    """Every way to pick which of the wild cards that may stand for themselves do so, none first."""
    if not flex:  # the usual case
        yield []
        return
    groups = Counter(flex)
    cards = list(groups)
    for counts in itertools.product(*(range(groups[card] + 1) for card in cards)):
        yield [card for card, count in zip(cards, counts, strict=True) for _ in range(count)]


_SUIT_FIRST = SUIT_FIRST  # sorts codes suit by suit, ranks ascending


# Card.sort_key as one number per card code (suit, then rank; jokers last), for sorting leftovers.
_SORT_ORDER = SORT_ORDER


def _sort_key(card: Card) -> int:
    return _SORT_ORDER[card.code]


def arrange(
    hand: Sequence[Card], rules: RuleSet, info: RoundInfo, values: Sequence[int], out_only: bool = False
) -> Arrangement:
    """The arrangement of a hand with the least total value of leftovers (no multiplier).

    `values` gives the points of each card code (``Card.code``), as `penalty_values` makes them.
    `out_only`: only arrangements that meld every card are looked for, so the answer is exact only
    where its penalty is 0 (and then the same as without).
    """
    settings = meld_rules(rules, info)
    wild = settings.wild
    naturals: dict[int, int] = {}
    card_of: dict[int, Card] = {}
    wilds = []
    for card in hand:
        code = card.code
        if wild[code]:
            wilds.append(card)
        else:
            naturals[code] = naturals.get(code, 0) + 1
            card_of[code] = card
    flex = [card for card in wilds if card.rank is not None] if settings.in_place_natural else []
    all_wild = settings.all_wild
    best: tuple[int, list[tuple[Card, ...]], list[Card]] | None = None
    for selves in _flex_splits(flex):  # the first split (the only one, usually) has no wild as itself
        split = _standing_as_themselves(selves, naturals, card_of, wilds) if selves else (naturals, card_of, wilds)
        found = _solve(*split, values, settings, all_wild, out_only)
        if best is None or found[0] < best[0]:
            best = found
    assert best is not None
    return _arrangement(*best)


def _arrangement(penalty: int, melds: list[tuple[Card, ...]], unmelded: list[Card]) -> Arrangement:
    return Arrangement(tuple(melds), tuple(sorted(unmelded, key=_sort_key)), penalty)


_VALUES: dict[tuple[int, PenaltyTable], tuple[RoundInfo, list[int]]] = cache("penalty values by round")


def penalty_values(table: PenaltyTable, info: RoundInfo) -> list[int]:
    """Each card code's points in a round (no multiplier), remembered by identity of the round."""
    known = _VALUES.get((id(info), table))
    if known is None or known[0] is not info:
        if len(_VALUES) > 1024:
            _VALUES.clear()
        values = [base_penalty(Card.JOKER, table, info.jokers_wild)] + [0] * (CODES - 1)
        for code, rank, suit in every_code():
            card = Card(rank, suit)
            values[code] = base_penalty(card, table, info.is_wild(card))
        known = _VALUES[(id(info), table)] = (info, values)
    return known[1]


UNIT_VALUES = [1] * CODES


def best_arrangement(hand: Sequence[Card], rules: RuleSet, info: RoundInfo) -> Arrangement:
    """The split of a hand with the least penalty for its leftovers, multiplier applied (D7)."""
    found = arrange(hand, rules, info, penalty_values(rules.options.penalty_table, info))
    return Arrangement(found.melds, found.unmelded, found.penalty * info.multiplier)


# --- going out ------------------------------------------------------------------


@dataclass(frozen=True)
class GoingOut:
    """How a declarer's cards meld: the melds and the final discard, if any."""

    melds: tuple[tuple[Card, ...], ...]
    discard: Card | None

    def as_json(self) -> dict[str, object]:
        return {
            "melds": [[str(card) for card in meld] for meld in self.melds],
            "discard": str(self.discard) if self.discard else None,
        }


def _count_leftovers(hand: Sequence[Card], rules: RuleSet, info: RoundInfo) -> Arrangement:
    # A hand that goes out is proved so by a search that never leaves a card over, much smaller.
    melded = arrange(hand, rules, info, UNIT_VALUES, out_only=True)
    return melded if not melded.penalty else arrange(hand, rules, info, UNIT_VALUES)


def going_out(hand: Sequence[Card], rules: RuleSet, info: RoundInfo) -> GoingOut:
    """One way the declarer's cards all meld, with a discard where needed; raises CannotGoOut.

    A hand of the round's deal size has already discarded (or needs no discard); one card
    more must discard one where the rules require it, and may where they allow it.
    """
    hand = list(hand)
    dealt = info.cards
    if len(hand) not in (dealt, dealt + 1):
        raise CannotGoOut(
            f"In round {info.number} a player going out shows {dealt} cards, or {dealt + 1} before "
            f"the final discard; {len(hand)} cards were given."
        )
    must_discard = rules.options.discard_to_go_out and len(hand) == dealt + 1
    if not must_discard:
        whole = _count_leftovers(hand, rules, info)
        if not whole.unmelded:
            return GoingOut(whole.melds, None)
        if len(hand) == dealt:
            raise CannotGoOut(f"These cards cannot all be melded: at best {_cards(whole.unmelded)} stay unmelded.")
    best_try: Arrangement | None = None
    for discard in dict.fromkeys(sorted(hand, key=lambda card: card.sort_key)):
        rest = list(hand)
        rest.remove(discard)
        found = _count_leftovers(rest, rules, info)
        if not found.unmelded:
            return GoingOut(found.melds, discard)
        if best_try is None or len(found.unmelded) < len(best_try.unmelded):
            best_try = found
    assert best_try is not None
    raise CannotGoOut(
        f"These cards cannot all be melded, even with one discarded: at best {_cards(best_try.unmelded)} stay unmelded."
    )


def verify_going_out(hand: Sequence[Card], rules: RuleSet, info: RoundInfo) -> GoingOut:
    """Alias of going_out, named for the verify/can/act trio: raises CannotGoOut with the reason."""
    return going_out(hand, rules, info)


def can_go_out(hand: Sequence[Card], rules: RuleSet, info: RoundInfo) -> bool:
    """Whether the declarer's cards all meld, with or without a discard as the rules allow."""
    try:
        going_out(hand, rules, info)
    except CannotGoOut:
        return False
    return True


def _cards(cards: Sequence[Card]) -> str:
    return " ".join(str(card) for card in cards)
