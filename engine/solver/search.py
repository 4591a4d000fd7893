"""The search over one component: distinct naturals that may share melds, and a memoised search
over their counts (D7).

A component answers, for a state of its counts (see engine.solver.records), the least leftover
value for every number k of wild cards placed in its melds (`Component.solve`), the choice that
reaches it (`Component.choice`, `Component.read_off`), and whether every card melds with exactly k
wilds (`Component.melds_out`). Components are made and shared by engine.solver.combination.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.caches import cache
from engine.cards import Card, Rank
from engine.deck import ACE_HIGH, ACE_LOW, LOW_BITS, ROW, SUITS_BY_INDEX
from engine.meldrules import MeldRules
from engine.solver.records import INF, MAX_RUN, TAKEN, WILDS, Choice, Code, Meld, RawMeld, RunShapes, lay_out_from, new

ACE = int(Rank.ACE)

# Where a walk of run shapes may start from a card, and which way it goes, by the card's places.
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

# A card's runs while its walks find them, grouped by the masks of RunShapes.
_Shapes = dict[tuple[int, int, int], list[RawMeld]]
_GAP = (-1,)  # a wild in a run's layout

# Set melds by the wild count, wild limit and distinct-suit rules, then by the packed counts of
# a card and its later rank mates (which alone decide them, as rank mates differ in suit).
SETS: dict[tuple[int, bool, bool], dict[int, Sequence[RawMeld]]] = cache("set melds by wild count and rules")

_NO_MATES: list[int] = []  # shared by every card without later rank mates: only read


class Component:
    """Distinct naturals that may share melds, and a memoised search over their counts.

    ``solve(counts)`` answers, for every k, the least leftover value when exactly k
    wild cards are placed in the melds, and the choice that achieves it.
    """

    def __init__(
        self, codes: tuple[Code, ...], values: tuple[int, ...], wild_count: int, settings: MeldRules, wild_value: int
    ):
        self.codes = codes
        self.values = values
        self.wild_count = wild_count
        self.size = wild_count + 1
        self.lowest, self.highest = settings.lowest, settings.highest
        self.limit, self.no_adjacent, self.distinct = settings.limit, settings.no_adjacent, settings.distinct_suits
        self.min_run = settings.min_run
        self.table = table = settings.places_by_rank
        # By suit * ROW + place, the natural that may take that place in a run, or -1.
        self.at = at = [-1] * (len(SUITS_BY_INDEX) * ROW)
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
        self.out_picks: dict[int, list[Choice | None]] = {}
        self.runs: list[list[RunShapes]] = [[]] * len(codes)
        self.sets = SETS.setdefault((wild_count, self.limit, self.distinct), {})
        # Per card, a mask of the two-bit counts its melds depend on (0 until first needed), and
        # the melds found for each distinct masked state.
        self.relevant = [0] * len(codes)
        self.rank_mask = [0] * len(codes)  # per card, the two-bit counts of it and its later rank mates
        self.found: dict[int, Sequence[RawMeld]] = {}
        # Per card, where its melds are found: a card with no runs has sets alone, which are
        # shared by every component (`self.sets`, under the same masked counts).
        self.found_in: list[dict[int, Sequence[RawMeld]]] = [self.sets] * len(codes)
        # Where a run from a card finds naturals: one within the wild count plus one places (two
        # at most under the side-by-side rule), or without wilds, one in each of the next two places.
        # As (how many places, the least their bits read as a number may be for a run to exist).
        reach = min(wild_count + 1, 2) if settings.no_adjacent else wild_count + 1
        self.near = (reach, 1) if wild_count else (2, 3)

    def solve(self, state: int) -> list[int]:
        """Best leftover value per number of wilds melded, for the counts packed in `state`
        (two bits per card: ``count << 2 * index``)."""
        return self.costs.get(state) or self._costs(state)

    def choice(self, state: int, wilds: int) -> Choice:
        """What the search chose for a solved state with `wilds` wilds melded, where that is
        possible: the first way, in the order `_costs` tries them (`first` left over, then its
        melds), that reaches the least leftover value, as `_costs` keeps only strict improvements."""
        costs = self.costs
        least = costs[state][wilds]
        first = ((state & -state).bit_length() - 1) >> 1
        if costs[state - (1 << 2 * first)][wilds] + self.values[first] == least:
            return first
        return self._meld_chosen(first, state, wilds, least)

    def _meld_chosen(self, first: int, state: int, wilds: int, least: int) -> Meld:
        """`choice` where `first` is not left over: the first of its melds that reaches `least`."""
        costs = self.costs
        for meld in self._melds(first, state):
            melded = meld[WILDS]
            if melded <= wilds and costs[state - meld[TAKEN]][wilds - melded] == least:
                return new(Meld, meld)
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
        """`rebuild` (engine.solver.combination) with `choice`, inlined: the choices for a solved
        state with `wilds` wilds melded, one after another; its leftovers go to `unmelded` (its lowest card is checked
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
            lay_out_from(cards, meld, wild_pool, melds)
            state -= meld.taken
            wilds -= meld.wilds

    def out_choice(self, state: int, wilds: int) -> Choice | None:
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
            child = state - meld[7]  # RawMeld read by place in the hottest loop: meld.taken
            rest = known.get(child) or self._costs(child)
            k = meld[1]  # meld.wilds
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

    def _first_out(self, state: int, wilds: int) -> Meld | None:
        """The first meld, in the order `solve` tries them, after which the rest melds out too."""
        first = ((state & -state).bit_length() - 1) >> 1
        for meld in self._melds(first, state):
            spare = wilds - meld[WILDS]
            if spare >= 0 and self.melds_out(state - meld[TAKEN], spare):
                return new(Meld, meld)
        return None

    def _melds(self, first: int, state: int) -> Sequence[RawMeld]:
        """`first`'s melds in `state` (its lowest card), found once per state of the counts that
        decide them."""
        relevant = self.relevant[first] or self._relevant(first)
        found = self.found_in[first]
        melds = found.get(state & relevant)
        if melds is None:
            melds = found[state & relevant] = self._melds_with(first, state)
        return melds

    def _melds_with(self, first: int, state: int) -> Sequence[RawMeld]:
        runs = self.runs[first]
        if not runs:  # its melds are found in the shared sets, where the caller looked already
            return tuple(self._sets_with(first, state))
        sets = self.sets.get(state & self.rank_mask[first])
        if sets is None:
            sets = self.sets[state & self.rank_mask[first]] = tuple(self._sets_with(first, state))
        melds = list(sets)
        present = (state | state >> 1) & LOW_BITS
        replaceable = present & self.replaceable
        for needed, displaced, displaced_if_cheaper, shapes in runs:  # RunShapes: a hot loop
            if present & needed == needed and not present & displaced and not replaceable & displaced_if_cheaper:
                melds.extend(shapes)
        return melds

    def _sets_with(self, first: int, state: int) -> list[RawMeld]:
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
        melds: list[RawMeld] = []
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
            runs = self.runs[first] = []
            for (needed, displaced, displaced_if_cheaper), melds in shapes.items():
                if melds:
                    runs.append((needed, displaced, displaced_if_cheaper, melds))
                    mask |= needed | displaced | displaced_if_cheaper
            if runs:
                self.found_in[first] = self.found
        mask |= mask << 1
        self.relevant[first] = mask
        return mask

    def _walk(self, first: int, suit: int, start: int, step: int, shapes: _Shapes) -> None:
        """Every run with `first` as the natural at one end, extended away from it, ending at a
        natural, with as many extra wilds at the ends as fit; grouped in `shapes` (see RunShapes)."""
        at, no_adjacent, wild_count, limit = self.at, self.no_adjacent, self.wild_count, self.limit
        run_lowest, run_highest, prunes, min_run = self.lowest, self.highest, self.prunes, self.min_run
        occupied = self.occupied[suit]
        last = _last_place(occupied, start, step)
        row = suit * ROW
        # Room for extra wilds past each end of a run (one at most under the side-by-side rule).
        room_cap = 1 if no_adjacent else MAX_RUN
        room_past_start = min(start - run_lowest if step == 1 else run_highest - start, room_cap)
        # Places still to try, latest first (see `_last_place`); the naturals needed hold `first`.
        alone: tuple[int, ...] = (first,)
        pending = [(start + step, 0, False, alone, alone, 1 << 2 * first, 0)] if last != start else []
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
            for extra in range(fewest_extra, most_added + 1):
                group = with_room if extra < most_extra else full
                group.append((used, gaps + extra, suit, laid, low, room_below, room_above, needed))


def _last_place(occupied: int, start: int, step: int) -> int:
    """The last place a walk from `start` tries (`start` itself where it tries none): a run found
    ends on a natural, so the walk stops past the suit's last natural (`occupied`: a bit per place
    a natural of the suit may take), and within a run's length.

    The walk keeps the places still to try, latest first: the place, the wilds laid up to it,
    whether the card laid just before it is a wild, the run laid up to it in the order laid (-1
    for a wild), the naturals used in the order laid, the naturals needed and the places wilds
    took. Depth first, the natural at a place before a wild there: the order the melds are tried in."""
    if step == 1:
        last = min(occupied.bit_length() - 1, start + MAX_RUN - 1)
        return last if last > start else start
    last = max((occupied & -occupied).bit_length() - 1, start - MAX_RUN + 1)
    return last if last < start else start
