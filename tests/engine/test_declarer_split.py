"""Splitting a loose declarer's hand (D13): melds that cannot join are not tried, the rest join.

The fast path engine.layoff_quick._may_meld is held here to table_melds: where it rules a join out,
the cards have no reading."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from engine.cards import Card, Rank, Suit, parse_cards
from engine.deck import STANDARD_SUITS
from engine.errors import EngineError, IllegalMeld
from engine.layoff_quick import _may_meld
from engine.layoffs import declarer_melds, table_melds
from engine.rules import AceRule, RuleSet, rule_set
from engine.schedule import RoundInfo, round_info

CARDS = [Card(rank, suit) for rank in Rank for suit in STANDARD_SUITS] + [Card.JOKER]


def may_meld(cards: Sequence[Card], info: RoundInfo) -> bool:
    return _may_meld([card for card in cards if not info.is_wild(card)], len(cards))


@settings(max_examples=300, deadline=None)
@given(
    variant=st.sampled_from(["pay-me", "3-13", "three-thirteen"]),
    ace=st.sampled_from(list(AceRule)),
    number=st.integers(1, 11),
    suit=st.sampled_from(list(STANDARD_SUITS)),
    ranks=st.lists(st.sampled_from(list(Rank)), min_size=2, max_size=9),
    others=st.lists(st.sampled_from(CARDS), max_size=4),
)
def test_a_join_ruled_out_by_its_natural_cards_has_no_reading(
    variant: str, ace: AceRule, number: int, suit: Suit, ranks: list[Rank], others: list[Card]
) -> None:
    base = rule_set(variant)
    rules = RuleSet(base.preset, replace(base.options, ace=ace))
    info = round_info(rules, number)
    cards = [Card(rank, suit) for rank in ranks] + others
    if not may_meld(cards, info):
        with pytest.raises(IllegalMeld):
            table_melds([" ".join(str(card) for card in cards)], rules, info, loose=True)


def test_runs_of_one_suit_that_repeat_a_card_or_leave_a_gap_stay_apart() -> None:
    rules = rule_set("3-13")
    info = round_info(rules, 4)  # 6 cards; 2s and jokers wild
    assert [str(meld) for meld in declarer_melds("5H 6H 7H 5H 6H 7H", rules, info)] == ["5H 6H 7H", "5H 6H 7H"]
    assert [str(meld) for meld in declarer_melds("3S 4S 5S 9S 10S JS", rules, info)] == ["3S 4S 5S", "9S 10S JS"]
    assert not may_meld(parse_cards("5H 6H 7H 5H"), info)
    assert not may_meld(parse_cards("3S 4S 5S 9S 10S JS"), info)
    assert may_meld(parse_cards("3S 4S 5S 2C 7S 8S"), info)


def test_roles_written_in_a_loose_hand_change_nothing() -> None:
    rules = rule_set("pay-me-family")
    info = round_info(rules, 4)
    with_roles = declarer_melds("4H JK=3H 5H 9C 9D 9S", rules, info)
    assert with_roles == declarer_melds("4H JK 5H 9C 9D 9S", rules, info)
    assert [len(meld.readings) for meld in with_roles] == [1, 2]


@st.composite
def loose_hands(draw: st.DrawFn) -> tuple[str, RuleSet, RoundInfo]:
    """Runs and sets (wilds now and then) filling a round's hand, sometimes one card changed."""
    rules = rule_set(draw(st.sampled_from(["pay-me", "pay-me-family", "3-13", "three-thirteen"])))
    info = round_info(rules, draw(st.integers(1, rules.rounds)))
    wilds = [card for card in CARDS if info.is_wild(card)]
    hand: list[Card] = []
    while len(hand) < info.cards:
        size = min(draw(st.integers(3, 6)), max(info.cards - len(hand), 3))
        if draw(st.booleans()):
            suit, low = draw(st.sampled_from(list(STANDARD_SUITS))), draw(st.integers(1, 14 - size))
            meld = [Card(Rank(place) if place > 1 else Rank.ACE, suit) for place in range(low, low + size)]
        else:
            rank = draw(st.sampled_from(list(Rank)))
            meld = [Card(rank, draw(st.sampled_from(list(STANDARD_SUITS)))) for _ in range(size)]
        for _ in range(draw(st.integers(0, 2))):
            if wilds:
                meld[draw(st.integers(0, size - 1))] = draw(st.sampled_from(wilds))
        hand += meld
    hand = hand[: info.cards]
    if draw(st.integers(0, 3)) == 0:
        hand[draw(st.integers(0, len(hand) - 1))] = draw(st.sampled_from(CARDS))
    assume(all(count <= 3 for card, count in Counter(hand).items() if card != Card.JOKER))  # 3 decks at most
    return " ".join(str(card) for card in hand), rules, info


@settings(max_examples=300, deadline=None)
@given(loose_hands())
def test_each_meld_split_from_a_loose_hand_reads_as_table_melds_reads_it_loose(
    case: tuple[str, RuleSet, RoundInfo],
) -> None:
    """Each meld of the split is what table_melds makes of its cards, written as split, with
    `loose`: every reading open, the one the meld check prefers for that writing first."""
    hand, rules, info = case
    try:
        melds = declarer_melds(hand, rules, info)
    except EngineError:
        return
    for meld in melds:
        written = " ".join(str(held) for held in meld.written) if meld.is_open else str(meld)
        assert table_melds([written], rules, info, loose=True) == (meld,), hand
