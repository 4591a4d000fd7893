"""Schedules: cards, wild cards and multipliers per round; dealer and first player (RULES.md 3, 5, D2)."""

from __future__ import annotations

import pytest

from engine.cards import Card, Rank
from engine.errors import RoundError, VariantError
from engine.rules import rule_set
from engine.schedule import dealer_seat, first_player_seat, round_info, schedule

RANK_TOKENS = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


@pytest.mark.parametrize("variant", ["pay-me", "pay-me-family", "three-thirteen", "3-13"])
def test_eleven_rounds_of_three_to_thirteen_cards(variant: str) -> None:
    rounds = schedule(rule_set(variant))
    assert [info.number for info in rounds] == list(range(1, 12))
    assert [info.cards for info in rounds] == list(range(3, 14))


def test_pay_me_wilds_jokers_twos_and_round_rank() -> None:
    rounds = schedule(rule_set("pay-me"))
    assert [info.wild_tokens for info in rounds] == [("JK", "2", token) for token in RANK_TOKENS]


def test_pay_me_family_wilds_jokers_and_round_rank_d3() -> None:
    rounds = schedule(rule_set("pay-me-family"))
    assert [info.wild_tokens for info in rounds] == [("JK", token) for token in RANK_TOKENS]
    assert not rounds[0].is_wild(Card.parse("2H"))  # D3: twos are natural
    assert rounds[0].is_wild(Card.JOKER)


def test_three_thirteen_wild_is_round_rank_only() -> None:
    rounds = schedule(rule_set("three-thirteen"))
    assert [info.wild_tokens for info in rounds] == [(token,) for token in RANK_TOKENS]
    assert not rounds[0].is_wild(Card.parse("2H"))


def test_three_13_wilds_jokers_and_twos_no_round_rank() -> None:
    rounds = schedule(rule_set("3-13"))
    assert all(info.wild_tokens == ("JK", "2") for info in rounds)
    assert all(info.round_rank is None for info in rounds)
    assert not rounds[0].is_wild(Card.parse("3H"))
    assert not rounds[10].is_wild(Card.parse("KH"))


@pytest.mark.parametrize(
    ("number", "cards", "rank"),
    [(1, 3, Rank.THREE), (3, 5, Rank.FIVE), (8, 10, Rank.TEN), (9, 11, Rank.JACK), (11, 13, Rank.KING)],
)
def test_round_rank_is_number_of_cards(number: int, cards: int, rank: Rank) -> None:
    info = round_info(rule_set("pay-me"), number)
    assert info.cards == cards
    assert info.round_rank is rank
    assert info.is_wild(Card(rank, Card.parse("AH").suit))


def test_seed_000_chart_words() -> None:
    rules = rule_set("pay-me")
    assert round_info(rules, 1).wild_words == "Jokers, 2s and Threes"
    assert round_info(rules, 4).wild_words == "Jokers, 2s and Sixes"
    assert round_info(rules, 11).wild_words == "Jokers, 2s and Kings"
    assert round_info(rule_set("three-thirteen"), 9).wild_words == "Jacks"


def test_full_cycle_is_23_rounds_d2() -> None:
    rounds = schedule(rule_set("pay-me", {"full_cycle": "true"}))
    assert len(rounds) == 23
    assert [info.cards for info in rounds] == [*range(3, 15), *range(13, 2, -1)]
    assert [info.number for info in rounds] == list(range(1, 24))


def test_full_cycle_aces_wild_at_fourteen_cards() -> None:
    rules = rule_set("pay-me", {"full_cycle": "true"})
    fourteen = round_info(rules, 12)
    assert fourteen.cards == 14
    assert fourteen.round_rank is Rank.ACE
    assert fourteen.wild_tokens == ("JK", "2", "A")
    assert fourteen.is_wild(Card.parse("AS"))
    assert round_info(rules, 13).wild_tokens == ("JK", "2", "K")
    assert round_info(rules, 23).wild_tokens == ("JK", "2", "3")
    assert round_info(rules, 23).cards == 3


def test_full_cycle_rounds_beyond_23_do_not_exist() -> None:
    rules = rule_set("pay-me", {"full_cycle": "true"})
    with pytest.raises(RoundError, match="round 24"):
        round_info(rules, 24)


@pytest.mark.parametrize("number", [0, 12, -1, 100])
def test_round_out_of_range(number: int) -> None:
    with pytest.raises(RoundError, match=f"round {number} does not exist"):
        round_info(rule_set("pay-me"), number)


def test_three_13_rounds_ten_and_eleven_double() -> None:
    rounds = schedule(rule_set("3-13"))
    assert [info.multiplier for info in rounds] == [1] * 9 + [2, 2]


@pytest.mark.parametrize("variant", ["pay-me", "pay-me-family", "three-thirteen"])
def test_other_presets_never_double(variant: str) -> None:
    assert {info.multiplier for info in schedule(rule_set(variant))} == {1}


def test_double_rounds_option() -> None:
    rounds = schedule(rule_set("pay-me", {"double_rounds": "2,5"}))
    assert [info.number for info in rounds if info.multiplier == 2] == [2, 5]
    assert {info.multiplier for info in schedule(rule_set("3-13", {"double_rounds": "false"}))} == {1}
    doubled = schedule(rule_set("three-thirteen", {"double_rounds": "true"}))
    assert [info.number for info in doubled if info.multiplier == 2] == [10, 11]


def test_round_json_shape() -> None:
    assert round_info(rule_set("pay-me"), 1).as_json() == {
        "round": 1,
        "cards": 3,
        "wild": ["JK", "2", "3"],
        "multiplier": 1,
        "discard_pile": "Turn the top card of the stock face up to start the discard pile.",
    }
    last = round_info(rule_set("3-13"), 11).as_json()
    assert {key: last[key] for key in ("round", "cards", "wild", "multiplier")} == {
        "round": 11,
        "cards": 13,
        "wild": ["JK", "2"],
        "multiplier": 2,
    }
    assert "second-discard fee" in last["discard_pile"]


def test_play_or_pay_has_no_rounds() -> None:
    with pytest.raises(VariantError):
        schedule(rule_set("play-or-pay"))


def test_dealer_passes_left_every_round() -> None:
    assert [dealer_seat(0, number, 4) for number in range(1, 7)] == [0, 1, 2, 3, 0, 1]
    assert [dealer_seat(2, number, 3) for number in range(1, 5)] == [2, 0, 1, 2]


def test_player_left_of_dealer_plays_first() -> None:
    for players in (2, 3, 5, 9):
        for first in range(players):
            for number in range(1, 12):
                assert first_player_seat(first, number, players) == (dealer_seat(first, number, players) + 1) % players
    assert first_player_seat(3, 1, 4) == 0
    assert first_player_seat(0, 1, 2) == 1
    assert first_player_seat(0, 2, 2) == 0


def doubled(variant: str, **options: object) -> list[int]:
    return [info.number for info in schedule(rule_set(variant, options)) if info.multiplier == 2]


def test_the_3_13_default_doubles_the_last_two_deals_actually_played() -> None:
    # D15: with the full cycle, the last two of the 23 deals (13 and then 3 cards dealt).
    assert doubled("3-13") == [10, 11]
    assert doubled("3-13", full_cycle=True) == [22, 23]
    last_two = schedule(rule_set("3-13", {"full_cycle": True}))[-2:]
    assert [info.cards for info in last_two] == [4, 3]


@pytest.mark.parametrize("variant", ["pay-me", "pay-me-family", "three-thirteen", "3-13"])
def test_double_rounds_true_means_the_last_two_deals_in_any_preset(variant: str) -> None:
    assert doubled(variant, double_rounds="true") == [10, 11]
    assert doubled(variant, double_rounds=True, full_cycle=True) == [22, 23]


def test_rounds_a_table_names_stay_as_named() -> None:
    assert doubled("3-13", full_cycle=True, double_rounds="10,11") == [10, 11]
    assert doubled("3-13", full_cycle=True, double_rounds=[10, 11]) == [10, 11]
    assert doubled("pay-me", full_cycle=True, double_rounds="12") == [12]
    assert doubled("3-13", full_cycle=True, double_rounds="false") == []


def test_the_last_two_deals_are_stored_as_the_rounds_they_are() -> None:
    options = rule_set("3-13", {"full_cycle": True}).options
    assert options.as_json()["double_rounds"] == [22, 23]
    assert rule_set("3-13", options.as_json()).options == options  # a stored game reads back the same
