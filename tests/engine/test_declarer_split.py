"""Splitting a loose declarer's hand (D13): melds that cannot join are not tried, the rest join."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import Card, MeldCard, Rank, Suit, parse_meld
from engine.layoffs import _find_readings, _may_meld, declarer_melds
from engine.rules import AceRule, RuleSet, rule_set
from engine.schedule import round_info

CARDS = [Card(rank, suit) for rank in Rank for suit in Suit] + [Card.JOKER]


@settings(max_examples=300, deadline=None)
@given(
    variant=st.sampled_from(["pay-me", "3-13", "three-thirteen"]),
    ace=st.sampled_from(list(AceRule)),
    number=st.integers(1, 11),
    suit=st.sampled_from(list(Suit)),
    ranks=st.lists(st.sampled_from(list(Rank)), min_size=2, max_size=9),
    others=st.lists(st.sampled_from(CARDS), max_size=4),
)
def test_a_join_ruled_out_by_its_natural_cards_has_no_reading(
    variant: str, ace: AceRule, number: int, suit: Suit, ranks: list[Rank], others: list[Card]
) -> None:
    base = rule_set(variant)
    rules = RuleSet(base.preset, replace(base.options, ace=ace))
    info = round_info(rules, number)
    cards = tuple(MeldCard(card) for card in [Card(rank, suit) for rank in ranks] + others)
    if not _may_meld(cards, info):
        assert _find_readings(cards, rules, info) == []


def test_runs_of_one_suit_that_repeat_a_card_or_leave_a_gap_stay_apart() -> None:
    rules = rule_set("3-13")
    info = round_info(rules, 4)  # 6 cards; 2s and jokers wild
    assert [str(meld) for meld in declarer_melds("5H 6H 7H 5H 6H 7H", rules, info)] == ["5H 6H 7H", "5H 6H 7H"]
    assert [str(meld) for meld in declarer_melds("3S 4S 5S 9S 10S JS", rules, info)] == ["3S 4S 5S", "9S 10S JS"]
    assert not _may_meld(parse_meld("5H 6H 7H 5H"), info)
    assert not _may_meld(parse_meld("3S 4S 5S 9S 10S JS"), info)
    assert _may_meld(parse_meld("3S 4S 5S 2C 7S 8S"), info)
