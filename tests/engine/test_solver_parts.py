"""engine.solver internals, property-tested against plain references."""

from __future__ import annotations

from collections.abc import Callable

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.meldrules import MeldRules
from engine.rules import AceRule
from engine.solver import INF, MAX_RUN, _Code, _Component, _components, _pack, _Shapes
from tests.engine.search_rules import search_rules
from tests.engine.solver_component_reference import ComponentBefore, _any_near


def components_by_pairs(codes: list[_Code], wild_count: int, rules: MeldRules, tight: bool = False) -> list[list[int]]:
    """Groups of cards joined by every pair that could share a meld: the same rank, or the same
    suit with places no more than the wild count plus one apart (`tight`, under the side-by-side
    rule: two places, one with no wild)."""
    reach = min(wild_count, 1) + 1 if tight and rules.no_adjacent else wild_count + 1

    def near(one: _Code, two: _Code) -> bool:
        if one[1] == two[1]:
            return True
        return one[0] == two[0] and any(
            abs(place - other) <= reach for place in rules.positions(one[1]) for other in rules.positions(two[1])
        )

    group_of = list(range(len(codes)))
    for one in range(len(codes)):
        for two in range(one + 1, len(codes)):
            if near(codes[one], codes[two]) and group_of[one] != group_of[two]:
                old, new = max(group_of[one], group_of[two]), min(group_of[one], group_of[two])
                group_of = [new if group == old else group for group in group_of]
    groups: dict[int, list[int]] = {}
    for index, group in enumerate(group_of):
        groups.setdefault(group, []).append(index)
    return list(groups.values())


@settings(max_examples=400, deadline=None)
@given(
    st.sets(st.tuples(st.integers(0, 3), st.integers(1, 13)), max_size=20),
    st.integers(0, 6),
    st.sampled_from(AceRule),
    st.booleans(),
    st.booleans(),
    st.booleans(),
)
def test_components_are_the_groups_joined_by_every_pair_that_could_share_a_meld(
    codes: set[_Code], wild_count: int, ace: AceRule, no_aces: bool, no_adjacent: bool, tight: bool
) -> None:
    ordered = sorted(codes)  # suit by suit, ranks ascending (aces first), as the search takes them
    rules = search_rules(ace=ace, no_aces=no_aces, limit=False, no_adjacent=no_adjacent, distinct=False)
    expected = components_by_pairs(ordered, wild_count, rules, tight)
    assert _components(ordered, wild_count, rules, tight=tight) == expected


def test_under_the_side_by_side_rule_the_search_parts_join_naturals_two_places_apart_at_most() -> None:
    """5H and 8H would need two wilds side by side, so they are searched apart, however many wilds
    there are; a low ace and the 3, or a high ace and the queen, one wild between them, are not."""
    rules = search_rules(ace=AceRule.BOTH, no_aces=False, limit=False, no_adjacent=True, distinct=False)
    hearts = [(2, 5), (2, 8)]
    assert _components(hearts, 3, rules, tight=True) == [[0], [1]]
    assert _components(hearts, 3, rules) == [[0, 1]]
    assert _components([(2, 1), (2, 3)], 2, rules, tight=True) == [[0, 1]]
    assert _components([(2, 1), (2, 12)], 2, rules, tight=True) == [[0, 1]]
    assert _components([(2, 5), (2, 7)], 0, rules, tight=True) == [[0], [1]]  # no wild: side by side only
    assert _components([(2, 5), (2, 7)], 1, rules, tight=True) == [[0, 1]]


class WalkBefore(ComponentBefore):
    """The run shapes walk as it was before it carried its runs as tuples: the reference for
    the order of the melds, which decides between equally good arrangements."""

    def _walk(self, first: int, suit: int, start: int, step: int, shapes: _Shapes) -> None:
        """Runs in which `first` is the natural at one end, extended away from it."""
        at, no_adjacent, wild_count = self.at, self.no_adjacent, self.wild_count
        occupied = self.occupied[suit]
        # A run found here ends on a natural, so the walk stops past the suit's last natural.
        if step == 1:
            nearest, farthest = start + 1, min(occupied.bit_length() - 1, start + MAX_RUN - 1)
        else:
            nearest, farthest = max((occupied & -occupied).bit_length() - 1, start - MAX_RUN + 1), start - 1
        layout = [first]
        used = [first]
        record = self._recorder(first, suit, start, step, layout, used, shapes)
        # Places still to try, latest first: the place, the wilds and naturals laid up to it, the
        # card laid just before it (-1 for a wild), the naturals needed and the places wilds took.
        # Depth first, the natural at a place before a wild there: the order the melds are tried in.
        pending = [(start + step, 0, 1, first, 0, 0)]
        while pending:
            position, gaps, naturals, before, needed, wild_places = pending.pop()
            if not nearest <= position <= farthest:
                continue
            del layout[gaps + naturals - 1 :]
            layout.append(before)
            del used[naturals:]
            if before >= 0:
                used[-1] = before
            index = at[suit * 16 + position]
            spare = wild_count - gaps  # wilds left, this one included
            if spare and not (no_adjacent and before < 0) and _any_near(occupied, position, step, spare):
                # Stacked first, so tried after every run through the natural here.
                taken = wild_places | (1 << 2 * index if index >= 0 else 0)
                pending.append((position + step, gaps + 1, naturals, -1, needed, taken))
            if index >= 0 and index != first:
                layout.append(index)
                used.append(index)
                needed |= 1 << 2 * index
                record(position, gaps, needed, wild_places)
                pending.append((position + step, gaps, naturals + 1, index, needed, wild_places))

    def _recorder(
        self, first: int, suit: int, start: int, step: int, layout: list[int], used: list[int], shapes: _Shapes
    ) -> Callable[[int, int, int, int], None]:
        """What records the runs a walk from `start` has found: `layout` and `used` as they stand,
        ending at a natural, with as many extra wilds at the ends as fit."""
        run_lowest, run_highest, wild_count, limit = self.lowest, self.highest, self.wild_count, self.limit
        prunes = self.prunes
        # Room for extra wilds past each end of the run (one at most under the side-by-side rule).
        room_cap = 1 if self.no_adjacent else MAX_RUN
        first_bit = 1 << 2 * first

        def record(end: int, gaps: int, needed: int, wild_places: int) -> None:
            span = len(layout)
            low, high = (start, end) if step == 1 else (end, start)
            room_below, room_above = low - run_lowest, run_highest - high
            if room_below > room_cap:
                room_below = room_cap
            if room_above > room_cap:
                room_above = room_cap
            most_extra = room_below + room_above
            if most_extra > MAX_RUN - span:
                most_extra = MAX_RUN - span
            fewest_extra = 3 - span if span < 3 else 0
            if fewest_extra > most_extra or gaps + fewest_extra > wild_count:
                return
            with_room = shapes.get(key := (needed, wild_places if prunes else 0, 0))
            if with_room is None:
                with_room = shapes[key] = []
            full = shapes.get(key := (needed, 0, wild_places))
            if full is None:
                full = shapes[key] = []
            most_wilds = wild_count if not limit or len(used) > wild_count else len(used)
            most_added = most_wilds - gaps  # extra wilds the run may also hold
            if most_added > most_extra:
                most_added = most_extra
            if fewest_extra > most_added:
                return
            ordered = tuple(layout) if step == 1 else tuple(reversed(layout))
            frozen_used = tuple(used)
            delta = needed | first_bit
            for extra in range(fewest_extra, most_added + 1):
                group = with_room if extra < most_extra else full
                group.append((frozen_used, gaps + extra, suit, ordered, low, room_below, room_above, delta))

        return record


# A component to build: its cards (suit, rank) in order, their points, the wild count, the rules and
# the dearest wild's points.
_Build = tuple[tuple[_Code, ...], tuple[int, ...], int, MeldRules, int]


@st.composite
def component_builds(draw: st.DrawFn, most_cards: int, most_wilds: int) -> _Build:
    ordered = tuple(
        sorted(draw(st.sets(st.tuples(st.integers(0, 3), st.integers(1, 13)), min_size=1, max_size=most_cards)))
    )
    flags = draw(st.tuples(st.sampled_from(AceRule), st.booleans(), st.booleans(), st.booleans()))
    rules = search_rules(ace=flags[0], no_aces=flags[1], limit=flags[2], no_adjacent=flags[3], distinct=False)
    points = tuple(draw(st.lists(st.integers(0, 50), min_size=len(ordered), max_size=len(ordered))))
    return ordered, points, draw(st.integers(0, most_wilds)), rules, draw(st.integers(0, 50))


@settings(max_examples=300, deadline=None)
@given(component_builds(13, 5))
def test_run_shapes_are_those_of_the_walk_before_in_the_same_order(build: _Build) -> None:
    ordered, points, wild_count, rules, wild_value = build
    now = _Component(ordered, points, wild_count, rules, wild_value)
    before = WalkBefore(ordered, points, wild_count, rules, wild_value)
    for first in range(len(ordered)):
        now._relevant(first)  # finds the card's run shapes
        assert now.runs[first] == before._run_shapes(first)


# Components that meld often: the cards of two suits, near one another.
near_codes = st.sets(st.tuples(st.integers(0, 1), st.integers(1, 9)), min_size=1, max_size=7)


@settings(max_examples=300, deadline=None)
@given(
    near_codes,
    st.integers(0, 5),
    st.sampled_from(AceRule),
    st.booleans(),
    st.booleans(),
    st.booleans(),
    st.booleans(),
    st.lists(st.integers(0, 20), min_size=7, max_size=7),
    st.integers(0, 20),
    st.lists(st.lists(st.integers(0, 3), min_size=7, max_size=7), min_size=1, max_size=4),
    st.integers(0, 5),
)
def test_a_component_solves_as_before_with_the_same_choices(
    codes: set[_Code],
    wild_count: int,
    ace: AceRule,
    no_aces: bool,
    limit: bool,
    no_adjacent: bool,
    distinct: bool,
    values: list[int],
    wild_value: int,
    states: list[list[int]],
    wilds_out: int,
) -> None:
    """Every card's run shapes and the counts its melds depend on, and for several states in turn
    (as the lay-off search asks them) the least leftover values, the choices that reach them and
    whether the cards meld out: all as the component before the run shapes were found in one call."""
    ordered = tuple(sorted(codes))
    rules = search_rules(ace=ace, no_aces=no_aces, limit=limit, no_adjacent=no_adjacent, distinct=distinct)
    points = tuple(values[: len(ordered)])
    now = _Component(ordered, points, wild_count, rules, wild_value)
    before = ComponentBefore(ordered, points, wild_count, rules, wild_value)
    for counts in states:
        state = _pack(counts[: len(ordered)])
        assert now.solve(state) == before.solve(state)[0]
        assert now.melds_out(state, min(wilds_out, wild_count)) == before.melds_out(state, min(wilds_out, wild_count))
    assert now.costs == before.costs
    # The choices are found again from the values: the same wherever a choice can be read.
    for solved, choices in before.picks.items():
        for wilds, choice in enumerate(choices):
            if solved and now.costs[solved][wilds] < INF:
                assert now.choice(solved, wilds) == choice
    assert now.out_picks == before.out_picks
    for first in range(len(ordered)):
        now._relevant(first)
        before._relevant(first)
        assert now.relevant[first] == before.relevant[first]
        assert now.rank_mask[first] == before.rank_mask[first]
        assert now.runs[first] == before.runs[first]


@settings(max_examples=300, deadline=None)
@given(component_builds(16, 6))
def test_a_component_starts_with_the_tables_of_the_component_before(build: _Build) -> None:
    """Each card's place in a run and later rank mates (three or four of a rank too), the places
    held per suit and the cards a wild may replace: as the component before built them."""
    ordered, points, wild_count, rules, wild_value = build
    now = _Component(ordered, points, wild_count, rules, wild_value)
    before = ComponentBefore(ordered, points, wild_count, rules, wild_value)
    # The tables have room for a fifth suit now (engine.deck); the four suits hold the same.
    assert (now.at[: len(before.at)], now.occupied[:4], now.mates) == (before.at, before.occupied, before.mates)
    assert set(now.at[len(before.at) :]) <= {-1} and not any(now.occupied[4:])
    assert (now.replaceable, now.lowest, now.highest, now.table) == (
        before.replaceable,
        before.lowest,
        before.highest,
        before.table,
    )
