"""How the solver splits a hand's naturals into components it searches apart
(engine.solver.combination.components), property-tested against a plain reference: every pair of
cards that could share a meld, joined."""

from __future__ import annotations

from typing import get_args

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.meldrules import MeldRules
from engine.rules import AceRule
from engine.solver.combination import components
from engine.solver.records import TAKEN, WILDS, Code, Meld, RawMeld
from tests.engine.search_rules import search_rules


def components_by_pairs(codes: list[Code], wild_count: int, rules: MeldRules, tight: bool = False) -> list[list[int]]:
    """Groups of cards joined by every pair that could share a meld: the same rank, or the same
    suit with places no more than the wild count plus one apart (`tight`, under the side-by-side
    rule: two places, one with no wild)."""
    reach = min(wild_count, 1) + 1 if tight and rules.no_adjacent else wild_count + 1

    def near(one: Code, two: Code) -> bool:
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
    codes: set[Code], wild_count: int, ace: AceRule, no_aces: bool, no_adjacent: bool, tight: bool
) -> None:
    ordered = sorted(codes)  # suit by suit, ranks ascending (aces first), as the search takes them
    rules = search_rules(ace=ace, no_aces=no_aces, limit=False, no_adjacent=no_adjacent, distinct=False)
    expected = components_by_pairs(ordered, wild_count, rules, tight)
    assert components(ordered, wild_count, rules, tight=tight) == expected


def test_under_the_side_by_side_rule_the_search_parts_join_naturals_two_places_apart_at_most() -> None:
    """5H and 8H would need two wilds side by side, so they are searched apart, however many wilds
    there are; a low ace and the 3, or a high ace and the queen, one wild between them, are not."""
    rules = search_rules(ace=AceRule.BOTH, no_aces=False, limit=False, no_adjacent=True, distinct=False)
    hearts = [(2, 5), (2, 8)]
    assert components(hearts, 3, rules, tight=True) == [[0], [1]]
    assert components(hearts, 3, rules) == [[0, 1]]
    assert components([(2, 1), (2, 3)], 2, rules, tight=True) == [[0, 1]]
    assert components([(2, 1), (2, 12)], 2, rules, tight=True) == [[0, 1]]
    assert components([(2, 5), (2, 7)], 0, rules, tight=True) == [[0], [1]]  # no wild: side by side only
    assert components([(2, 5), (2, 7)], 1, rules, tight=True) == [[0, 1]]


def test_the_search_reads_a_plain_meld_where_a_meld_record_holds_the_same_field() -> None:
    """The search keeps its melds as plain tuples of a Meld's fields (engine.solver.records.RawMeld)
    and reads two of them by place: the places are the record's."""
    places = Meld(*range(len(get_args(RawMeld))))  # as many fields as a RawMeld, each holding its place
    assert (places.wilds, places.taken) == (WILDS, TAKEN)
