"""The most points one player can be left holding in a round (issue 27, section 2)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.cards import Card
from engine.penalties import hand_penalty, largest_hand, max_points
from engine.rules import RUMMY_PRESETS, rule_set
from engine.schedule import round_info, schedule
from engine.scoring import ScoreError, verify_within_hand


def most(variant: str, number: int, players: int | None = None, **options: object) -> int:
    rules = rule_set(variant, options)
    return max_points(rules, round_info(rules, number), players)


def test_pay_me_round_one_is_three_wild_cards() -> None:
    assert most("pay-me", 1) == 3 * 15


def test_three_thirteen_wilds_score_their_face_value() -> None:
    """Round 1: 3s wild score 3; the dearest card is a 10 or a face card at 10."""
    assert most("three-thirteen", 1, players=2) == 30


def test_3_13_wilds_score_nothing_and_aces_fifteen() -> None:
    assert most("3-13", 1, players=4) == 45
    # round 11 doubles: 2 decks hold 8 aces, the other 5 cards score 10 at most
    assert most("3-13", 11, players=4) == (8 * 15 + 5 * 10) * 2


def test_contract_rummy_counts_every_card_held_and_the_buys() -> None:
    """10 cards dealt and 3 buys of 2 cards each: 16 cards, jokers and aces at 15 (3 decks for 5
    players hold 6 jokers and 12 aces; 2 decks for 4 hold only 4 and 8)."""
    assert most("contract-rummy", 1, players=5) == 16 * 15
    assert most("contract-rummy", 1, players=4) == 12 * 15 + 4 * 10
    assert most("contract-rummy", 1, players=4, buys_per_deal=0) == 10 * 15
    assert most("contract-rummy", 1, players=4, ace_points=20, buys_per_deal=0) == 8 * 20 + 2 * 15


def test_pay_me_family_scores_the_round_rank_by_its_tier() -> None:
    """Round 1 (3s wild): jokers score 10, so does every 8-K."""
    assert most("pay-me-family", 1) == 30


def test_the_limit_names_the_player_the_cards_and_the_round() -> None:
    rules = rule_set("pay-me")
    with pytest.raises(ScoreError, match=r"^Bob: 500 is more than 3 cards can score in round 1 \(at most 45\)$"):
        verify_within_hand({"Ann": 0, "Bob": 500}, rules, round_info(rules, 1), players=3)
    verify_within_hand({"Ann": 0, "Bob": 45}, rules, round_info(rules, 1), players=3)


def test_contract_rummy_says_deal() -> None:
    rules = rule_set("contract-rummy")
    with pytest.raises(ScoreError, match=r"^Cy: 241 is more than 16 cards can score in deal 2 \(at most 240\)$"):
        verify_within_hand({"Cy": 241}, rules, round_info(rules, 2), players=5)


def test_the_limit_compares_card_points_before_the_multiplier() -> None:
    rules = rule_set("3-13")
    info = round_info(rules, 10)
    verify_within_hand({"Ann": (8 * 15 + 4 * 10)}, rules, info, players=4)
    with pytest.raises(ScoreError, match=r"at most 160\)$"):
        verify_within_hand({"Ann": 161}, rules, info, players=4)


def _deck(variant: str, players: int) -> list[Card]:
    preset = rule_set(variant).preset
    row = preset.table_for(players)
    naturals = [Card(rank, suit) for rank, suit in preset.deck.faces()]
    return naturals * row.decks + [Card.JOKER] * row.jokers


@st.composite
def _games(draw: st.DrawFn) -> tuple[str, int, int, list[Card]]:
    variant = draw(st.sampled_from(RUMMY_PRESETS))
    preset = rule_set(variant).preset
    players = draw(st.integers(preset.min_players, preset.max_players))
    number = draw(st.integers(1, len(schedule(rule_set(variant)))))
    deck = _deck(variant, players)
    size = largest_hand(rule_set(variant), round_info(rule_set(variant), number))
    indexes = draw(st.lists(st.integers(0, len(deck) - 1), min_size=size, max_size=size, unique=True))
    return variant, number, players, [deck[index] for index in indexes]


@given(_games())
def test_no_hand_the_decks_can_deal_scores_more(game: tuple[str, int, int, list[Card]]) -> None:
    variant, number, players, hand = game
    rules = rule_set(variant)
    info = round_info(rules, number)
    assert hand_penalty(hand, rules, info) <= max_points(rules, info, players)


@pytest.mark.parametrize(
    ("variant", "players"),
    [
        (variant, players)
        for variant in RUMMY_PRESETS
        for players in range(rule_set(variant).preset.min_players, rule_set(variant).preset.max_players + 1)
    ],
)
def test_the_limit_is_reached_by_the_dearest_cards_of_the_deck(variant: str, players: int) -> None:
    """Brute force: score every card of the decks in play and keep the dearest ones."""
    rules = rule_set(variant)
    for info in schedule(rules):
        scored = sorted(_deck(variant, players), key=lambda card: hand_penalty([card], rules, info), reverse=True)
        dearest = scored[: largest_hand(rules, info)]
        assert hand_penalty(dearest, rules, info) == max_points(rules, info, players)
