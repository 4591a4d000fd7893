"""engine.solver internals, property-tested against plain references."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.rules import AceRule
from engine.solver import Settings, _Code, _components


def components_by_pairs(codes: list[_Code], wild_count: int, rules: Settings) -> list[list[int]]:
    """Groups of cards joined by every pair that could share a meld: the same rank, or the same
    suit with places no more than the wild count plus one apart."""
    reach = wild_count + 1

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
)
def test_components_are_the_groups_joined_by_every_pair_that_could_share_a_meld(
    codes: set[_Code], wild_count: int, ace: AceRule, no_aces: bool
) -> None:
    ordered = sorted(codes)  # suit by suit, ranks ascending (aces first), as the search takes them
    rules = Settings(ace=ace, no_aces=no_aces, limit=False, no_adjacent=False, distinct=False)
    assert _components(ordered, wild_count, rules) == components_by_pairs(ordered, wild_count, rules)
