"""engine.solver._Component as it was before its run shapes were found for every card in one
call and the walk recorded its runs itself (main at b4853be), kept verbatim as the reference for
the order of the melds and the choices, which decide between equally good arrangements. It keeps
its own set melds, so that the new component cannot read what this one found."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine.meldrules import MeldRules as Settings
from engine.solver import (
    _LOW_BITS,
    _STARTS,
    INF,
    MAX_RUN,
    _Choice,
    _Code,
    _Meld,
    _Shapes,
)

_GAP = (-1,)  # a wild in a run's layout
_SETS: dict[tuple[int, bool, bool], dict[int, tuple[_Meld, ...]]] = {}


class ComponentBefore:
    """Distinct naturals that may share melds, and a memoised search over their counts.

    ``solve(counts)`` answers, for every k, the least leftover value when exactly k
    wild cards are placed in the melds, and the choice that achieves it.
    """

    def __init__(
        self, codes: tuple[_Code, ...], values: tuple[int, ...], wild_count: int, settings: Settings, wild_value: int
    ):
        self.codes = codes
        self.values = values
        self.wild_count = wild_count
        self.size = wild_count + 1
        self.lowest, self.highest = settings.lowest, settings.highest
        self.limit, self.no_adjacent, self.distinct = settings.limit, settings.no_adjacent, settings.distinct_suits
        self.table = table = settings.places_by_rank
        by_rank: dict[int, list[int]] = {}
        self.at = [-1] * 64  # by suit * 16 + place, the natural that may take that place in a run, or -1
        at = self.at
        self.occupied = occupied = [0, 0, 0, 0]  # per suit, a bit for each place a natural may take
        for index, (suit, rank) in enumerate(codes):
            by_rank.setdefault(rank, []).append(index)
            for place in table[rank]:
                at[suit * 16 + place] = index
                occupied[suit] |= 1 << place
        # The other cards of each card's rank; the search only ever looks at later ones.
        self.mates: list[list[int]] = [[]] * len(codes)
        for same_rank in by_rank.values():
            for order, index in enumerate(same_rank):
                self.mates[index] = same_rank[order + 1 :]
        # Per packed state, the least leftover value and the choice per number of wilds melded.
        self.costs: dict[int, list[int]] = {0: [0] + [INF] * wild_count}
        self.picks: dict[int, list[_Choice | None]] = {0: [None] * self.size}
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
        # Without a wild limit or the side-by-side rule, a run never needs a gap wild where a
        # natural still in hand could stand: put the natural there instead; if another meld held
        # it, that meld takes the wild; if it was left over, the wild goes to a free end of the run,
        # or is left over in its place when it scores no more. Such runs are skipped.
        self.prunes = not settings.limit and not settings.no_adjacent
        self.replaceable = 0
        if self.prunes:
            for index, value in enumerate(values):
                if value >= wild_value:
                    self.replaceable |= 1 << 2 * index

    def solve(self, state: int) -> tuple[list[int], list[_Choice | None]]:
        """Best leftover value per number of wilds melded, for the counts packed in `state`
        (two bits per card: ``count << 2 * index``), and the choice that achieves each."""
        costs = self.costs.get(state) or self._costs(state)
        return costs, self.picks[state]

    def _costs(self, state: int) -> list[int]:
        first = ((state & -state).bit_length() - 1) >> 1
        known = self.costs
        size = self.size
        child = state - (1 << 2 * first)
        rest = known.get(child) or self._costs(child)  # most children are known: skip the call
        value = self.values[first]
        # An impossible count stays at INF or more, and its choice is never read.
        best = [cost + value for cost in rest]
        choices: list[_Choice | None] = [first] * size
        relevant = self.relevant[first] or self._relevant(first)
        melds = self.found.get(state & relevant)
        if melds is None:
            melds = self.found[state & relevant] = self._melds_with(first, state)
        for meld in melds:
            child = state - meld[7]
            rest = known.get(child) or self._costs(child)
            k = meld[1]
            for cost in rest:
                if k == size:
                    break
                if cost < best[k]:
                    best[k] = cost
                    choices[k] = meld
                k += 1
        known[state] = best
        self.picks[state] = choices
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
            known = self.outs[state] = [None] * self.size
            self.out_picks[state] = [None] * self.size
        melds_out = known[wilds]
        if melds_out is None:
            meld = self._first_out(state, wilds)
            melds_out = known[wilds] = meld is not None
            self.out_picks[state][wilds] = meld
        return melds_out

    def _first_out(self, state: int, wilds: int) -> _Meld | None:
        """The first meld, in the order `solve` tries them, after which the rest melds out too."""
        first = ((state & -state).bit_length() - 1) >> 1
        relevant = self.relevant[first] or self._relevant(first)
        melds = self.found.get(state & relevant)
        if melds is None:
            melds = self.found[state & relevant] = self._melds_with(first, state)
        for meld in melds:
            spare = wilds - meld[1]
            if spare >= 0 and self.melds_out(state - meld[7], spare):
                return meld
        return None

    def _relevant(self, first: int) -> int:
        """The two-bit counts that decide `first`'s melds: its own, its rank mates' and those of
        the naturals its runs need or displace. The lowest of them is `first`'s."""
        runs = self.runs[first] = self._run_shapes(first)
        mask = 1 << 2 * first
        for mate in self.mates[first]:
            mask |= 1 << 2 * mate
        self.rank_mask[first] = mask | mask << 1
        for needed, displaced, displaced_if_cheaper, _ in runs:
            mask |= needed | displaced | displaced_if_cheaper
        mask |= mask << 1
        self.relevant[first] = mask
        return mask

    def _melds_with(self, first: int, state: int) -> Sequence[_Meld]:
        sets = self.sets.get(state & self.rank_mask[first])
        if sets is None:
            sets = self.sets[state & self.rank_mask[first]] = tuple(self._sets_with(first, state))
        runs = self.runs[first]
        if not runs:
            return sets
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

    def _run_shapes(self, first: int) -> list[tuple[int, int, int, list[_Meld]]]:
        """Every run with `first` as the natural at one end, grouped by bit masks of the other
        naturals it needs and of the naturals whose places its gap wilds take (those that make it
        skippable outright, and those only when the natural scores at least as much as a wild).
        Shapes depend only on which cards the component has, so they are found once per card."""
        shapes: _Shapes = {}
        suit, rank = self.codes[first]
        occupied = self.occupied[suit]
        span = self.wild_count + 1
        for start, step in _STARTS[self.table[rank]]:
            # A run needs another natural no more than `span` places away: most cards have none.
            if _any_near(occupied, start, step, span):
                self._walk(first, suit, start, step, shapes)
        if not shapes:
            return []
        return [(needed, always, if_cheaper, melds) for (needed, always, if_cheaper), melds in shapes.items() if melds]

    def _walk(self, first: int, suit: int, start: int, step: int, shapes: _Shapes) -> None:
        """Runs in which `first` is the natural at one end, extended away from it."""
        at, no_adjacent, wild_count = self.at, self.no_adjacent, self.wild_count
        occupied = self.occupied[suit]
        # A run found here ends on a natural, so the walk stops past the suit's last natural: the
        # last place it tries, counted as places past `start` (`start` itself is never tried).
        if step == 1:
            last = min(occupied.bit_length() - 1, start + MAX_RUN - 1) - start
        else:
            last = start - max((occupied & -occupied).bit_length() - 1, start - MAX_RUN + 1)
        if last < 1:
            return
        row = suit * 16
        record = self._recorder(first, suit, start, step, shapes)
        # Places still to try, latest first: the place, the wilds laid up to it, whether the card
        # laid just before it is a wild, the run laid up to it in the order laid (-1 for a wild),
        # the naturals used in the order laid, the naturals needed and the places wilds took.
        # Depth first, the natural at a place before a wild there: the order the melds are tried in.
        alone: tuple[int, ...] = (first,)
        pending = [(start + step, 0, False, alone, alone, 0, 0)]
        while pending:
            position, gaps, after_wild, layout, used, needed, wild_places = pending.pop()
            index = at[row + position]
            further = (position - start) * step < last  # whether the walk may go past this place
            spare = wild_count - gaps  # wilds left, this one included
            if further and spare and not (no_adjacent and after_wild) and _any_near(occupied, position, step, spare):
                # Stacked first, so tried after every run through the natural here.
                taken = wild_places | (1 << 2 * index if index >= 0 else 0)
                pending.append((position + step, gaps + 1, True, layout + _GAP, used, needed, taken))
            if index >= 0 and index != first:
                layout += (index,)
                used += (index,)
                needed |= 1 << 2 * index
                record(position, gaps, needed, wild_places, layout, used)
                if further:
                    pending.append((position + step, gaps, False, layout, used, needed, wild_places))

    def _recorder(
        self, first: int, suit: int, start: int, step: int, shapes: _Shapes
    ) -> Callable[[int, int, int, int, tuple[int, ...], tuple[int, ...]], None]:
        """What records the runs a walk from `start` has found, ending at a natural (`layout` and
        `used` in the order laid), with as many extra wilds at the ends as fit."""
        run_lowest, run_highest, wild_count, limit = self.lowest, self.highest, self.wild_count, self.limit
        prunes = self.prunes
        # Room for extra wilds past each end of the run (one at most under the side-by-side rule);
        # the room past `start` is the same for every run of the walk.
        room_cap = 1 if self.no_adjacent else MAX_RUN
        room_past_start = min(start - run_lowest if step == 1 else run_highest - start, room_cap)
        first_bit = 1 << 2 * first

        def record(
            end: int, gaps: int, needed: int, wild_places: int, layout: tuple[int, ...], used: tuple[int, ...]
        ) -> None:
            span = len(layout)
            room_past_end = end - run_lowest if step == -1 else run_highest - end
            if room_past_end > room_cap:
                room_past_end = room_cap
            most_extra = room_past_start + room_past_end
            if most_extra > MAX_RUN - span:
                most_extra = MAX_RUN - span
            fewest_extra = 3 - span if span < 3 else 0
            if fewest_extra > most_extra or gaps + fewest_extra > wild_count:
                return
            with_room = shapes.setdefault((needed, wild_places if prunes else 0, 0), [])
            full = shapes.setdefault((needed, 0, wild_places), []) if wild_places else with_room  # same key
            most_wilds = wild_count if not limit or len(used) > wild_count else len(used)
            most_added = most_wilds - gaps  # extra wilds the run may also hold
            if most_added > most_extra:
                most_added = most_extra
            if fewest_extra > most_added:
                return
            delta = needed | first_bit
            if step == 1:
                low, room_below, room_above = start, room_past_start, room_past_end
            else:
                layout, low, room_below, room_above = layout[::-1], end, room_past_end, room_past_start
            for extra in range(fewest_extra, most_added + 1):
                group = with_room if extra < most_extra else full
                group.append((used, gaps + extra, suit, layout, low, room_below, room_above, delta))

        return record


def _any_near(occupied: int, position: int, step: int, count: int) -> bool:
    """Whether any of the `count` places after `position` (going by `step`) is set in `occupied`."""
    lowest = position + 1 if step == 1 else position - count
    near = occupied >> lowest if lowest >= 0 else occupied << -lowest
    return bool(near & ((1 << count) - 1))
